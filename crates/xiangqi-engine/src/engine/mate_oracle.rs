//! An exhaustive mate search, independent of the engine's search (no table, no pruning,
//! no evaluation): the reference that tests and tools check the engine's mates against.
//! It is exponential; use it for mates of a few moves.

use xiangqi_core::board::Position;

/// The shortest forced win (checkmate or stalemate of the opponent) for the side to
/// move, in its own moves, up to `limit`.
pub fn shortest_forced_win(pos: &Position, limit: u32) -> Option<u32> {
    let mut pos = pos.clone();
    (1..=limit).find(|&moves| forced_win_within(&mut pos, moves))
}

/// Can the side to move force a position where the opponent has no legal move within
/// `moves` of its own moves? Checks are tried first: most mates are found sooner so.
pub fn forced_win_within(pos: &mut Position, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    let mut candidates = pos.legal_move_list();
    candidates.sort_by_key(|&mv| !pos.gives_check(mv));
    candidates.into_iter().any(|mv| {
        pos.make_move(mv);
        let wins = defender_lost_within(pos, moves - 1);
        pos.unmake_move(mv);
        wins
    })
}

/// The side to move (the defender) has no legal move now, or every reply still loses
/// within `moves` more of the attacker's moves.
pub fn defender_lost_within(pos: &mut Position, moves: u32) -> bool {
    let replies = pos.legal_move_list();
    if replies.is_empty() {
        return true;
    }
    if moves == 0 {
        return false;
    }
    replies.into_iter().all(|reply| {
        pos.make_move(reply);
        let lost = forced_win_within(pos, moves);
        pos.unmake_move(reply);
        lost
    })
}
