//! What the search asks about a node before it prunes or reduces: whether passing is
//! safe, whether a mate in one is there, and how much the opponent can still do.

use super::Searcher;
use xiangqi_core::board::Kind;
use xiangqi_core::board::Squares;
use xiangqi_core::board::tables::{GENERAL_STEPS, OWN_HALF};

impl Searcher<'_> {
    /// Null move is unsafe when zugzwang is likely: without a chariot, and with fewer
    /// than two horses and cannons, passing can be much better than any move.
    pub(super) fn null_move_allowed(&self) -> bool {
        let us = self.pos.side_to_move();
        let chariots = self.pos.pieces(us, Kind::Chariot).count_ones();
        let minors = self.pos.pieces(us, Kind::Horse).count_ones()
            + self.pos.pieces(us, Kind::Cannon).count_ones();
        chariots >= 1 || minors >= 2
    }

    /// True if the side to move has a checking move that leaves the opponent no legal
    /// move (checkmate). `ply` names the move buffer to borrow.
    pub(super) fn mate_in_one_exists(&mut self, ply: usize) -> bool {
        let (mut moves, scores) = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        self.pos.legal_moves(&mut moves);
        let mut found = false;
        for &mv in &moves {
            if self.pos.gives_check(mv) {
                self.pos.make_move(mv);
                found = !self.pos.has_legal_move();
                self.pos.unmake_move(mv);
                if found {
                    break;
                }
            }
        }
        self.buffers[ply] = (moves, scores);
        found
    }

    /// True if the opponent of the side to move still has a chariot, horse, cannon or a
    /// soldier across the river.
    pub(super) fn opponent_can_attack(&self) -> bool {
        let them = self.pos.side_to_move().opponent();
        let crossed = OWN_HALF[them.opponent().index()];
        self.pos.pieces(them, Kind::Chariot)
            | self.pos.pieces(them, Kind::Horse)
            | self.pos.pieces(them, Kind::Cannon)
            | (self.pos.pieces(them, Kind::Soldier) & crossed)
            != 0
    }

    /// True if the opponent has no chariot and its general no flight square: each point
    /// it could step to holds its own piece or is attacked. Then a quiet move may start a
    /// mate, which reductions and pruning near the leaves would push past the horizon.
    /// (An attacked point is judged with the general still in place, so a line through
    /// it is missed: the test errs towards "not confined", the cheap side.)
    pub(super) fn opponent_general_confined(&self) -> bool {
        let us = self.pos.side_to_move();
        let them = us.opponent();
        if self.pos.pieces(them, Kind::Chariot) != 0 {
            return false;
        }
        let general = self.pos.general(them);
        let steps = GENERAL_STEPS[general.index()] & !self.pos.occupied_by(them);
        Squares(steps).all(|point| self.pos.is_attacked(point, us))
    }
}
