//! One node of a puzzle's proof tree: at a defender's turn, every legal reply with how
//! long it lasts against best play and the attacker's mating answer to it.

use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::mate_prover::{BudgetExceeded, MateProver};
use xiangqi_engine::puzzle::mating_move;

/// A defender's reply and what it is worth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofReply {
    pub reply: Move,
    /// The defender is mated in this many more attacker moves after the reply (`None`:
    /// not within the moves left, which a certified line never allows).
    pub mated_in: Option<u32>,
    /// The attacker's answer on the way to that mate.
    pub answer: Option<Move>,
}

/// The defender's replies at one node, longest-lasting first (then in ICCS order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofNode {
    pub replies: Vec<ProofReply>,
}

/// The node of `position` (defender to move) with `moves_left` attacker moves to mate.
pub fn node(
    position: &Position,
    moves_left: u32,
    prover: &mut MateProver,
) -> Result<ProofNode, BudgetExceeded> {
    let mut pos = position.clone();
    let mut moves = pos.legal_move_list();
    moves.sort_by_key(|mv| mv.iccs());
    let mut replies = Vec::with_capacity(moves.len());
    for reply in moves {
        pos.make_move(reply);
        let mated_in = prover.shortest_forced_win(&pos, moves_left);
        let answer = match mated_in {
            Ok(Some(k)) => mating_move(&mut pos, k, prover),
            Ok(None) => Ok(None),
            Err(e) => Err(e),
        };
        pos.unmake_move(reply);
        replies.push(ProofReply {
            reply,
            mated_in: mated_in?,
            answer: answer?,
        });
    }
    // Longest first: an unproven reply (None) is the longest of all.
    replies.sort_by_key(|r| std::cmp::Reverse(r.mated_in.unwrap_or(u32::MAX)));
    Ok(ProofNode { replies })
}
