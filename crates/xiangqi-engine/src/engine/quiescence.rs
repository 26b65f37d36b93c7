//! Quiescence search: at the horizon, keep searching captures until the position is
//! quiet, so the static evaluation is never taken in the middle of an exchange. In check
//! there is no standing pat: every evasion is searched, and having none is mate.

use super::ordering::{MovePicker, OrderingHints};
use super::repetition;
use super::score::{INFINITE, MAX_PLY, from_table, mated_in, to_table};
use super::search::Searcher;
use super::see::exchange_value;
use super::tt::Bound;
use xiangqi_core::board::{Kind, Move};

/// A capture that cannot lift the score to alpha even with this margin is skipped.
const DELTA_MARGIN: i32 = 180;
/// Lowest-priority table depth: quiescence results are stored at depth 0.
const QUIESCENCE_DEPTH: i32 = 0;

impl Searcher<'_> {
    pub(crate) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.path_ply = isize::MAX;
        if !self.options.quiescence {
            if self.count_node_and_check_stop() {
                return 0;
            }
            return self.leaf_value(ply);
        }
        if ply > 0
            && let Some((score, distance)) = repetition::verdict(&self.pos, ply)
        {
            self.path_ply = ply as isize - distance as isize;
            return score;
        }
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate_at(ply);
        }

        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(hit) = entry {
            tt_move = hit.mv;
            let score = from_table(hit.score, ply);
            if hit.bound.decides(score, alpha, beta) {
                return score;
            }
        }

        let in_check = self.pos.in_check();
        let original_alpha = alpha;
        let static_eval;
        let mut best;
        if in_check {
            static_eval = -INFINITE;
            best = -INFINITE;
        } else {
            // Standing pat assumes a move exists. A side without chariot, horse or cannon
            // may have none, and that loses (stalemate is a loss in xiangqi).
            if self.lacks_mobile_pieces() && !self.pos.has_legal_move() {
                return mated_in(ply);
            }
            static_eval = entry.map_or_else(|| self.evaluate_at(ply), |hit| hit.eval);
            if static_eval >= beta {
                return static_eval;
            }
            alpha = alpha.max(static_eval);
            best = static_eval;
        }

        let hints = OrderingHints {
            tt_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
        };
        let (moves, scores) = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::new(hints, !in_check, moves, scores);
        let mut best_move = Move::NULL;
        let mut searched = 0;
        let mut node_path = isize::MAX;
        while let Some((mv, order)) = picker.next(&mut self.pos, self.history) {
            if !in_check {
                // Losing captures, and captures too small to reach alpha, are skipped.
                if order < 0 {
                    continue;
                }
                let gain = exchange_value(self.pos.piece_at(mv.to()).kind());
                if static_eval + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            self.tt.prefetch(self.pos.key_after(mv));
            self.make_move_at(ply, mv);
            let value = -self.quiescence(-beta, -alpha, ply + 1);
            let child_path = self.path_ply;
            self.pos.unmake_move(mv);
            if self.stopped {
                self.buffers[ply] = picker.into_buffers();
                return 0;
            }
            searched += 1;
            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if value >= beta {
                        node_path = child_path;
                        break;
                    }
                    alpha = value;
                }
            }
            node_path = node_path.min(child_path);
        }
        self.buffers[ply] = picker.into_buffers();

        if in_check && searched == 0 {
            self.path_ply = isize::MAX;
            return mated_in(ply);
        }
        debug_assert!(best > -INFINITE);
        self.path_ply = node_path;
        let bound = if node_path < ply as isize {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if best > original_alpha && best_move != Move::NULL {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_table(best, ply),
            static_eval,
            QUIESCENCE_DEPTH,
            bound,
        );
        best
    }

    /// True if the side to move has no chariot, horse or cannon.
    pub(crate) fn lacks_mobile_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        self.pos.pieces(us, Kind::Chariot)
            | self.pos.pieces(us, Kind::Horse)
            | self.pos.pieces(us, Kind::Cannon)
            == 0
    }

    /// The value of a horizon node when quiescence is off: a terminal verdict if the game
    /// is over here, else the static evaluation.
    fn leaf_value(&mut self, ply: usize) -> i32 {
        if ply > 0
            && let Some((score, distance)) = repetition::verdict(&self.pos, ply)
        {
            self.path_ply = ply as isize - distance as isize;
            return score;
        }
        if !self.pos.has_legal_move() {
            return mated_in(ply);
        }
        self.evaluate_at(ply)
    }
}
