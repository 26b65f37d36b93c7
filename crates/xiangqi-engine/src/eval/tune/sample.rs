//! Training positions: a quiet position's trace (which weights its score uses, and how
//! often) and its game's result from Red's side.

use super::super::trace::{Trace, trace};
use xiangqi_core::board::{Move, Position};

/// One labelled position, stored sparsely (a few dozen of the slots are used).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Slot and count pairs, from Red's side.
    pub uses: Vec<(u16, i16)>,
    /// Middlegame share of the blend: phase / `PHASE_MAX`.
    pub mg_share: f32,
    /// 1 Red won, 0.5 draw, 0 Black won.
    pub result: f32,
}

impl Sample {
    /// The sample of `pos` labelled with `result`.
    pub fn new(pos: &Position, result: f32) -> Sample {
        Sample::from_trace(&trace(pos), result)
    }

    pub fn from_trace(t: &Trace, result: f32) -> Sample {
        let share = t.phase.clamp(0, super::super::phased::PHASE_MAX) as f32
            / super::super::phased::PHASE_MAX as f32;
        Sample {
            uses: t.nonzero().map(|(i, c)| (i as u16, c as i16)).collect(),
            mg_share: share,
            result,
        }
    }

    /// The score with per-slot weights, from Red's side.
    #[inline]
    pub fn score(&self, mg: &[f64], eg: &[f64]) -> f64 {
        let p = f64::from(self.mg_share);
        self.uses
            .iter()
            .map(|&(i, c)| f64::from(c) * (mg[i as usize] * p + eg[i as usize] * (1.0 - p)))
            .sum()
    }
}

/// Most valuable victim first, then least valuable attacker: enough order for the small
/// capture searches that find quiet positions.
fn capture_order(pos: &Position, mv: Move) -> i32 {
    let victim = super::super::material::value(pos.piece_at(mv.to()).kind());
    let attacker = super::super::material::value(pos.piece_at(mv.from()).kind());
    victim * 16 - attacker
}

/// Capture-only alpha-beta from the side to move; fills `pv` with the line to its quiet
/// leaf.
fn capture_search(
    pos: &mut Position,
    mut alpha: i32,
    beta: i32,
    depth: u32,
    pv: &mut Vec<Move>,
) -> i32 {
    pv.clear();
    let stand = super::super::evaluate(pos);
    if stand >= beta || depth == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut best = stand;
    let mut moves = Vec::new();
    pos.legal_captures(&mut moves);
    moves.sort_by_key(|&mv| -capture_order(pos, mv));
    let mut line = Vec::new();
    for mv in moves {
        pos.make_move(mv);
        let value = -capture_search(pos, -beta, -alpha, depth - 1, &mut line);
        pos.unmake_move(mv);
        if value > best {
            best = value;
            pv.clear();
            pv.push(mv);
            pv.extend_from_slice(&line);
            if value >= beta {
                break;
            }
            alpha = alpha.max(value);
        }
    }
    best
}

/// The quiet position at the end of `pos`'s capture line (`pos` itself if standing pat is
/// best), or `None` when `pos` or that leaf is in check (no quiet score exists there).
pub fn quiet_leaf(pos: &Position) -> Option<Position> {
    if pos.in_check() {
        return None;
    }
    let mut leaf = pos.clone();
    leaf.clear_history();
    let mut pv = Vec::new();
    capture_search(&mut leaf, -100_000, 100_000, 8, &mut pv);
    for mv in pv {
        leaf.make_move(mv);
    }
    leaf.clear_history();
    (!leaf.in_check()).then_some(leaf)
}
