//! Playing a puzzle: the deterministic choices of the stored line (the longest defence,
//! the attacker's mating move) and the check of a player's move against the prover.

use crate::engine::mate_prover::{BudgetExceeded, MateProver};
use xiangqi_core::board::{Move, Position};

use super::Puzzle;

/// What a player's move is worth at their turn in a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveCheck {
    /// The stored solution's move.
    Solution,
    /// Another move that still mates in the moves left (only after the first move,
    /// which is unique).
    AlsoMates,
    /// It does not mate in the moves left (or is not legal).
    Wrong,
}

/// Judges `mv`, played by the solver in `pos` at ply `ply` (even: the solver's turn) of
/// `puzzle`. `pos` may be off the stored line if the solver took an [`MoveCheck::AlsoMates`]
/// move earlier.
pub fn check_move(
    puzzle: &Puzzle,
    pos: &Position,
    ply: usize,
    mv: Move,
    prover: &mut MateProver,
) -> Result<MoveCheck, BudgetExceeded> {
    if !pos.is_legal(mv) {
        return Ok(MoveCheck::Wrong);
    }
    if puzzle.solution.get(ply) == Some(&mv) {
        return Ok(MoveCheck::Solution);
    }
    // Certification proved every other first move fails.
    let moves_left = puzzle.mate_in.saturating_sub(ply as u32 / 2);
    if ply == 0 || moves_left == 0 {
        return Ok(MoveCheck::Wrong);
    }
    let mut after = pos.clone();
    after.make_move(mv);
    Ok(
        if prover.defender_lost_within(&mut after, moves_left - 1)? {
            MoveCheck::AlsoMates
        } else {
            MoveCheck::Wrong
        },
    )
}

/// The defender's reply (its turn in `pos`) that delays the mate longest, within
/// `moves` more moves of the attacker: among the replies that last equally long, the
/// first in ICCS order. `None` when the defender has no legal move.
pub fn longest_defence(
    pos: &mut Position,
    moves: u32,
    prover: &mut MateProver,
) -> Result<Option<Move>, BudgetExceeded> {
    let mut replies = pos.legal_move_list();
    replies.sort_by_key(|mv| mv.iccs());
    let mut best: Option<(u32, Move)> = None;
    for reply in replies {
        pos.make_move(reply);
        // How long the attacker needs after this reply (past `moves`: longer than all).
        let lasts = match prover.shortest_forced_win(pos, moves) {
            Ok(found) => Ok(found.unwrap_or(moves + 1)),
            Err(e) => Err(e),
        };
        pos.unmake_move(reply);
        let lasts = lasts?;
        if best.is_none_or(|(longest, _)| lasts > longest) {
            best = Some((lasts, reply));
        }
        if lasts > moves {
            break;
        }
    }
    Ok(best.map(|(_, reply)| reply))
}

/// A move of the attacker (to move in `pos`) that wins within `moves`: the first in
/// ICCS order among the checks that do, else among all moves that do.
pub fn mating_move(
    pos: &mut Position,
    moves: u32,
    prover: &mut MateProver,
) -> Result<Option<Move>, BudgetExceeded> {
    let winners = prover.winning_moves(pos, moves)?;
    let mut winners: Vec<(bool, String, Move)> = winners
        .into_iter()
        .map(|mv| (!pos.gives_check(mv), mv.iccs(), mv))
        .collect();
    winners.sort();
    Ok(winners.first().map(|&(_, _, mv)| mv))
}
