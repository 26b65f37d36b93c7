//! Certification: a position becomes a puzzle only if the exact prover shows a unique
//! first move to the shortest mate and a line of longest defences; [`verify`] checks a
//! stored or claimed line the same way.

use thiserror::Error;

use crate::engine::mate_prover::{BudgetExceeded, MateProver};
use xiangqi_core::board::{Move, Position};

use super::check::{longest_defence, mating_move};
use super::theme::{Theme, themes_of};

/// What certification proves of a position: its puzzle but for the id and the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certified {
    pub mate_in: u32,
    pub solution: Vec<Move>,
    pub themes: Vec<Theme>,
}

/// Why a candidate is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Rejection {
    #[error("the side to move has no legal move: the game is over")]
    GameOver,
    #[error("no forced mate within {within} moves")]
    NoMate { within: u32 },
    #[error("a mate in {shortest} exists, shorter than the {claimed} claimed")]
    ShorterMate { claimed: u32, shortest: u32 },
    #[error("{solution} and {other} both mate in {mate_in}")]
    SecondSolution {
        mate_in: u32,
        solution: Move,
        other: Move,
    },
    #[error("ply {ply}: {played} is not legal")]
    IllegalMove { ply: usize, played: Move },
    #[error("ply {ply}: {played} does not mate in time")]
    NotMating { ply: usize, played: Move },
    #[error("ply {ply}: {played} is not the longest defence ({longer} lasts longer)")]
    DefenceNotLongest {
        ply: usize,
        played: Move,
        longer: Move,
    },
    #[error("a mate in {mate_in} is {expected} plies, not {found}")]
    WrongLength {
        mate_in: u32,
        expected: usize,
        found: usize,
    },
    #[error("{0}")]
    TooCostly(#[from] BudgetExceeded),
}

impl Rejection {
    /// A short name for counting rejections by reason.
    pub fn reason(&self) -> &'static str {
        match self {
            Rejection::GameOver => "game-over",
            Rejection::NoMate { .. } => "no-mate",
            Rejection::ShorterMate { .. } => "shorter-mate",
            Rejection::SecondSolution { .. } => "second-solution",
            Rejection::IllegalMove { .. } => "illegal-move",
            Rejection::NotMating { .. } => "not-mating",
            Rejection::DefenceNotLongest { .. } => "defence-not-longest",
            Rejection::WrongLength { .. } => "wrong-length",
            Rejection::TooCostly(_) => "too-costly",
        }
    }
}

/// Certifies `pos` as a mate in N (N up to `max_mate`): the shortest mate, its unique
/// first move, then the longest defences ([`longest_defence`]) and the attacker's moves
/// that still mate in time ([`mating_move`]): a line of 2N-1 plies.
pub fn certify(
    pos: &Position,
    max_mate: u32,
    prover: &mut MateProver,
) -> Result<Certified, Rejection> {
    if !pos.has_legal_move() {
        return Err(Rejection::GameOver);
    }
    let mate_in = prover
        .shortest_forced_win(pos, max_mate)?
        .ok_or(Rejection::NoMate { within: max_mate })?;
    let mut line = pos.clone();
    let first = unique_first_move(&mut line, mate_in, prover)?;
    let mut solution = vec![first];
    line.make_move(first);
    for moves_left in (1..mate_in).rev() {
        let reply = longest_defence(&mut line, moves_left, prover)?
            .expect("a defender lost within more moves has a legal move");
        line.make_move(reply);
        let attack = mating_move(&mut line, moves_left, prover)?
            .expect("after the longest defence the mate goes on");
        line.make_move(attack);
        solution.extend([reply, attack]);
    }
    Ok(Certified {
        mate_in,
        themes: themes_of(pos, &solution),
        solution,
    })
}

/// The only first move that mates in `mate_in` (the shortest mate of `pos`).
fn unique_first_move(
    pos: &mut Position,
    mate_in: u32,
    prover: &mut MateProver,
) -> Result<Move, Rejection> {
    let mut moves = pos.legal_move_list();
    moves.sort_by_key(|mv| mv.iccs());
    let mut found: Option<Move> = None;
    for mv in moves {
        pos.make_move(mv);
        let lost = prover.defender_lost_within(pos, mate_in - 1);
        pos.unmake_move(mv);
        if lost? {
            if let Some(solution) = found {
                return Err(Rejection::SecondSolution {
                    mate_in,
                    solution,
                    other: mv,
                });
            }
            found = Some(mv);
        }
    }
    Ok(found.expect("a position that mates in N has a first move that does"))
}

/// Checks a claimed puzzle: `pos` mates in `mate_in` and not fewer, `solution[0]` is
/// the only first move that does, every defence of the line is a longest one and every
/// attacking move mates in the moves left. Any equally long defence and any mating
/// move pass: the deterministic choices of [`certify`] are not required.
pub fn verify(
    pos: &Position,
    mate_in: u32,
    solution: &[Move],
    prover: &mut MateProver,
) -> Result<Certified, Rejection> {
    let expected = (2 * mate_in).saturating_sub(1) as usize;
    if mate_in == 0 || solution.len() != expected {
        return Err(Rejection::WrongLength {
            mate_in,
            expected,
            found: solution.len(),
        });
    }
    if !pos.has_legal_move() {
        return Err(Rejection::GameOver);
    }
    match prover.shortest_forced_win(pos, mate_in)? {
        None => return Err(Rejection::NoMate { within: mate_in }),
        Some(shortest) if shortest < mate_in => {
            return Err(Rejection::ShorterMate {
                claimed: mate_in,
                shortest,
            });
        }
        Some(_) => {}
    }
    let mut line = pos.clone();
    for (ply, &played) in solution.iter().enumerate() {
        if !line.is_legal(played) {
            return Err(Rejection::IllegalMove { ply, played });
        }
        // Attacker moves left after this ply's move.
        let moves_left = mate_in - (ply as u32 / 2) - 1;
        if ply % 2 == 0 {
            line.make_move(played);
            if !prover.defender_lost_within(&mut line, moves_left)? {
                return Err(Rejection::NotMating { ply, played });
            }
        } else {
            // A longest defence leaves the attacker no win in fewer than the
            // `moves_left` moves it has.
            line.make_move(played);
            let lasts = !prover.forced_win_within(&mut line, moves_left - 1)?;
            line.unmake_move(played);
            if !lasts {
                let longer = longest_defence(&mut line, moves_left, prover)?
                    .expect("the defender has a legal move");
                return Err(Rejection::DefenceNotLongest {
                    ply,
                    played,
                    longer,
                });
            }
            line.make_move(played);
        }
    }
    let mut start = pos.clone();
    let other = prover
        .winning_moves(&mut start, mate_in)?
        .into_iter()
        .find(|&mv| mv != solution[0]);
    if let Some(other) = other {
        return Err(Rejection::SecondSolution {
            mate_in,
            solution: solution[0],
            other,
        });
    }
    Ok(Certified {
        mate_in,
        solution: solution.to_vec(),
        themes: themes_of(pos, solution),
    })
}
