//! The FIDE Dutch system (Handbook C.04.3, the rules in force from 2026, as
//! bbpPairings v6 implements them).
//!
//! The rules describe pairing bracket by bracket, trying transpositions and
//! exchanges in a fixed order until the absolute criteria (C.1-C.3), the
//! completion criterion (C.4) and then the quality criteria (C.5-C.21) are
//! best met. The result is the same as a lexicographic optimisation, which is
//! how it is computed here, following bbpPairings (the program FIDE endorses
//! for the Dutch system): every criterion gets a bit field in an edge weight,
//! more important criteria in higher bits, and a maximum-weight matching over
//! the whole field pairs the current bracket while keeping the rest pairable.
//! Then the bracket's pairs are fixed one by one in the order the rules
//! prescribe (which moved-down players are paired, which players are
//! exchanged between S1 and S2, S1's opponents from the top of S2) by nudging
//! the low bits, and the next bracket is paired. Colours follow C.04.3 E.

mod brackets;
mod weights;

use crate::state::{Field, State};
use crate::tournament::{Colour, Tournament};
use weights::{Dutch, Layout};

/// The pairing of one round.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// `(white, black)` as indices into [`Tournament::players`], ordered as
    /// boards are published (C.04.2 D.9): by the higher score in the pair,
    /// then the lower, then the higher player's rank.
    pub boards: Vec<(usize, usize)>,
    /// The player given the pairing-allocated bye, if the field is odd.
    pub bye: Option<usize>,
}

/// Why a round cannot be paired.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PairingError {
    /// The tournament refers to players or rounds that do not exist.
    Invalid(String),
    /// No pairing meets the absolute criteria (no rematch, at most one bye,
    /// absolute colours): e.g. more rounds than the field allows. The
    /// organiser has to end the tournament or pair by hand.
    Impossible,
    /// The field is too large for this implementation's weight width.
    TooLarge,
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::Invalid(why) => write!(f, "invalid tournament: {why}"),
            PairingError::Impossible => {
                write!(
                    f,
                    "no pairing avoids rematches, a second bye and forbidden colours"
                )
            }
            PairingError::TooLarge => write!(f, "too many players or score groups to pair"),
        }
    }
}

impl std::error::Error for PairingError {}

/// Pairs the next round of `tournament` by the Dutch system. Players in
/// `absent` (indices into [`Tournament::players`]) sit the round out; the
/// caller records them as [`crate::Game::Absent`] with the points it gives.
pub fn pair_next_round(tournament: &Tournament, absent: &[usize]) -> Result<Pairing, PairingError> {
    tournament.validate().map_err(PairingError::Invalid)?;
    if absent.iter().any(|&a| a >= tournament.players.len()) {
        return Err(PairingError::Invalid(
            "an absent player does not exist".into(),
        ));
    }
    let field = Field::new(tournament, absent);
    let mut sorted: Vec<usize> = field.pairing.clone();
    sorted.sort_by_key(|&i| {
        (
            std::cmp::Reverse(field.states[i].score),
            field.states[i].rank,
        )
    });
    if sorted.is_empty() {
        return Ok(Pairing {
            boards: Vec::new(),
            bye: None,
        });
    }
    let layout = Layout::new(&field, &sorted, tournament.total_rounds as usize);
    // Room for the weight, doubled by the matching, and its dual sums.
    let bits = layout.total_shift + 8;
    let pairs = match bits {
        0..=128 => Dutch::<2>::new(&field, sorted, layout).run(),
        129..=256 => Dutch::<4>::new(&field, sorted, layout).run(),
        257..=512 => Dutch::<8>::new(&field, sorted, layout).run(),
        513..=1024 => Dutch::<16>::new(&field, sorted, layout).run(),
        1025..=2048 => Dutch::<32>::new(&field, sorted, layout).run(),
        2049..=4096 => Dutch::<64>::new(&field, sorted, layout).run(),
        _ => return Err(PairingError::TooLarge),
    }?;
    Ok(publish(&field, pairs, tournament.first_colour))
}

/// Turns matched pairs (indices into the field) into boards with colours.
fn publish(field: &Field, pairs: Vec<(usize, Option<usize>)>, first: Colour) -> Pairing {
    let states = &field.states;
    let mut boards = Vec::new();
    let mut bye = None;
    for (a, b) in pairs {
        match b {
            None => bye = Some(states[a].id),
            Some(b) => {
                // The lower tournament index decides, as in bbpPairings.
                let (p, q) = if states[a].id < states[b].id {
                    (a, b)
                } else {
                    (b, a)
                };
                let colour = crate::colour::allocate(&states[p], &states[q], first);
                boards.push(match colour {
                    Colour::White => (p, q),
                    Colour::Black => (q, p),
                });
            }
        }
    }
    let key = |&(w, b): &(usize, usize)| {
        let (hi, lo) = if higher(&states[w], &states[b]) {
            (w, b)
        } else {
            (b, w)
        };
        (
            std::cmp::Reverse(states[hi].score),
            std::cmp::Reverse(states[lo].score),
            states[hi].rank,
        )
    };
    boards.sort_by_key(key);
    Pairing {
        boards: boards
            .into_iter()
            .map(|(w, b)| (states[w].id, states[b].id))
            .collect(),
        bye,
    }
}

/// Whether `a` ranks above `b`: more points, then the smaller pairing number.
pub(crate) fn higher(a: &State, b: &State) -> bool {
    (a.score, std::cmp::Reverse(a.rank)) > (b.score, std::cmp::Reverse(b.rank))
}
