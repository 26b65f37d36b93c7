//! Repetition inside the search, ruled by the same arbiter that ends games
//! (`Position::judge_cycle`): when a position recurs, the side that broke a rule through
//! the cycle (perpetual check, perpetual chase) loses; otherwise it is a draw. The search
//! rules on the first recurrence (the side that could repeat once can repeat again), and
//! never through a null move, which is not a move of the game.

use super::score::{DRAW, mate_in, mated_in};
use xiangqi_core::board::Position;

/// The verdict if the position at `ply` repeats an earlier one (in the search path or the
/// game before it): the score for the side to move, and how many plies back the earlier
/// occurrence lies.
pub fn verdict(pos: &Position, ply: usize) -> Option<(i32, usize)> {
    let window = pos.halfmove_clock() as usize;
    // A cycle needs at least four plies, and only quiet moves can repeat a position.
    if window < 4 {
        return None;
    }
    let key = pos.key();
    // First find the earlier occurrence (rare), then look at the checks in the cycle.
    // Every node asks, so the history is walked directly, two plies at a time (each
    // entry holds a move and the key before it; only even distances can repeat).
    let history = pos.history();
    let recent = &history[history.len() - window.min(history.len())..];
    let distance = 'find: {
        let mut back = recent.iter().rev();
        let mut distance = 0;
        while let (Some(first), Some(second)) = (back.next(), back.next()) {
            if first.mv.is_null() || second.mv.is_null() {
                return None;
            }
            distance += 2;
            if second.key == key {
                break 'find distance;
            }
        }
        return None;
    };
    // Only here, with a repetition found, does the arbiter read the cycle.
    let decision = pos.judge_cycle(distance)?;
    let score = match decision.offender {
        Some(side) if side == pos.side_to_move() => mated_in(ply),
        Some(_) => mate_in(ply),
        None => DRAW,
    };
    Some((score, distance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::Move;

    fn play(pos: &mut Position, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = Move::parse_coords(m).unwrap();
            assert!(pos.is_legal(mv), "{m} in {}", pos.to_fen());
            pos.make_move(mv);
        }
    }

    #[test]
    fn quiet_shuffle_is_a_draw() {
        let mut pos = Position::startpos();
        play(&mut pos, "h0g2 h9g7 g2h0");
        assert_eq!(verdict(&pos, 3), None);
        play(&mut pos, "g7h9");
        assert_eq!(verdict(&pos, 4), Some((DRAW, 4)));
    }

    #[test]
    fn perpetual_checker_loses() {
        // Red chariot checks from e-file alternately on d and f; the black general shuffles.
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1").unwrap();
        // Red: chariot e1 -> d1 gives check on the d-file; black general d9 -> e9; chariot
        // d1 -> e1 check; general e9 -> d9: the start position again, Red checked twice.
        play(&mut pos, "e1d1 d9e9 d1e1 e9d9");
        // Red is to move: Red checked with every move, Black did not.
        let (score, distance) = verdict(&pos, 6).unwrap();
        assert_eq!(distance, 4);
        assert_eq!(score, mated_in(6));
    }

    #[test]
    fn perpetual_chaser_loses() {
        // Black's chariot follows Red's undefended cannon along the back rank.
        let mut pos =
            Position::from_fen("2b2k2C/4a4/b4a1P1/p5r2/9/P3R4/9/9/4A4/4KA3 b - - 14 60").unwrap();
        play(&mut pos, "g6i6 i9g9 i6g6 g9i9");
        // Black, to move, chased with both of its moves; Red did not.
        assert_eq!(verdict(&pos, 4), Some((mated_in(4), 4)));
    }

    #[test]
    fn a_null_move_in_the_cycle_does_not_count() {
        let mut pos = Position::startpos();
        play(&mut pos, "h0g2");
        pos.make_null_move();
        play(&mut pos, "g2h0");
        pos.make_null_move();
        // The start position again, but only through passes.
        assert_eq!(pos.key(), Position::startpos().key());
        assert_eq!(verdict(&pos, 4), None);
    }
}
