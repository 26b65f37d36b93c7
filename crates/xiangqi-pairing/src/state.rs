//! Each player's standing before a round, as the Dutch rules see it: score,
//! colour history and preference (FIDE C.04.3 A.6), floats (A.4), bye
//! eligibility (C.2).

use crate::tournament::{Colour, Entry, Tournament};

/// A player's float in an earlier round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Float {
    Down,
    Up,
    None,
}

#[derive(Clone, Debug)]
pub(crate) struct State {
    /// Index in [`Tournament::players`].
    pub id: usize,
    /// Rank among the players taking part (pairing-number order); ties in
    /// score are broken by it and the round-1 colours alternate by it.
    pub rank: usize,
    pub entries: Vec<Entry>,
    /// In half points.
    pub score: u32,
    pub played_games: u32,
    /// |games as White - games as Black|.
    pub imbalance: u32,
    pub preference: Option<Colour>,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Colour>,
    pub strong: bool,
}

impl State {
    fn new(id: usize, entries: Vec<Entry>) -> State {
        let (mut white, mut black, mut run, mut played) = (0u32, 0u32, 0u32, 0u32);
        let mut last: Option<Colour> = None;
        for colour in entries.iter().filter(|e| e.played).filter_map(|e| e.colour) {
            played += 1;
            match colour {
                Colour::White => white += 1,
                Colour::Black => black += 1,
            }
            run = if run == 0 || Some(colour) != last {
                1
            } else {
                run + 1
            };
            last = Some(colour);
        }
        let lower = if white > black {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = white.abs_diff(black);
        // A.6: absolute (imbalance over 1, or the same colour twice running),
        // strong (imbalance 1), mild (alternation), none (no games yet).
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::opposite)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::opposite)
        };
        let repeated = if run > 1 { last } else { None };
        let score = entries.iter().map(|e| e.points.0).sum();
        let mut state = State {
            id,
            rank: 0,
            entries,
            score,
            played_games: played,
            imbalance,
            preference,
            repeated,
            strong: false,
        };
        state.strong = !state.absolute() && imbalance > 0;
        state
    }

    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference: the player must not get the other colour
    /// (C.3), except in the last round for a top scorer.
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }

    /// The score `rounds_back` rounds ago.
    pub fn score_back(&self, rounds_back: usize) -> u32 {
        let n = self.entries.len();
        self.score
            - self.entries[n - rounds_back..]
                .iter()
                .map(|e| e.points.0)
                .sum::<u32>()
    }

    /// C.2: a player who already had the pairing-allocated bye, or a point
    /// without playing (forfeit win, full-point bye), cannot have it again.
    pub fn bye_eligible(&self) -> bool {
        !self
            .entries
            .iter()
            .any(|e| !e.played && (e.points.0 >= 2 || (e.paired && e.opponent.is_none())))
    }

    /// How the player floated `rounds_back` rounds ago: a point or half point
    /// without a game counts as a downfloat.
    pub fn float(&self, rounds_back: usize, all: &[State], by_id: &[usize]) -> Float {
        let entry = &self.entries[self.entries.len() - rounds_back];
        if !entry.played {
            return if entry.points.0 > 0 {
                Float::Down
            } else {
                Float::None
            };
        }
        let opponent = &all[by_id[entry.opponent.expect("played game")]];
        let (me, them) = (
            self.score_back(rounds_back),
            opponent.score_back(rounds_back),
        );
        if me > them {
            Float::Down
        } else if me < them {
            Float::Up
        } else {
            Float::None
        }
    }
}

/// The players of the next round's pairing, with everyone's state. `absent`
/// players are left out of the pairing.
pub(crate) struct Field {
    /// Every player who has taken part, in pairing-number order; players who
    /// never took part and are absent now are left out (they have no rank).
    pub states: Vec<State>,
    /// From a tournament index to an index in `states` (`usize::MAX`: none).
    pub by_id: Vec<usize>,
    /// Indices into `states` of the players to pair.
    pub pairing: Vec<usize>,
    pub played_rounds: usize,
}

impl Field {
    pub fn new(tournament: &Tournament, absent: &[usize]) -> Field {
        let entries = tournament.entries();
        let mut states = Vec::new();
        let mut by_id = vec![usize::MAX; tournament.players.len()];
        let mut pairing = Vec::new();
        for (id, entries) in entries.into_iter().enumerate() {
            let present = !absent.contains(&id);
            if !present && !entries.iter().any(|e| e.paired) {
                continue;
            }
            by_id[id] = states.len();
            if present {
                pairing.push(states.len());
            }
            let mut state = State::new(id, entries);
            state.rank = states.len();
            states.push(state);
        }
        Field {
            states,
            by_id,
            pairing,
            played_rounds: tournament.rounds.len(),
        }
    }
}
