//! Static evaluation with the lecture's terms: material, piece-square tables (both summed
//! by `pst::sum`, which the search keeps incrementally), mobility, coordination and general safety. Each term is
//! a middlegame/endgame pair blended by the game phase.
//!
//! `evaluate` scores from the side to move, the negamax convention the search uses;
//! `evaluate_red` scores from Red's side.

mod coordination;
mod flip;
mod geometry;
pub mod material;
mod mobility;
pub mod phased;
pub mod pst;
mod safety;
pub mod trace;
pub mod tune;
pub mod weights;

pub use coordination::attackers;
pub use flip::{colour_flipped, mirrored_files};

use phased::{PHASE_MAX, blend};
use trace::NoTrace;
use xiangqi_core::board::{Color, Kind, Position};

/// Bonus for having the move: it evens out the odd/even-ply swing of the static score.
pub const TEMPO: i32 = weights::TEMPO;

/// The evaluation split into its terms, each blended and from Red's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Terms {
    pub material: i32,
    pub placement: i32,
    pub mobility: i32,
    pub coordination: i32,
    pub safety: i32,
    /// 0 (bare endgame) ..= `phased::PHASE_MAX` (all attacking pieces on the board).
    pub phase: i32,
}

impl Terms {
    /// The sum of the terms, from Red's side.
    pub fn total(&self) -> i32 {
        self.material + self.placement + self.mobility + self.coordination + self.safety
    }
}

/// The game phase: chariots, horses and cannons left on the board, weighted.
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for kind in [Kind::Chariot, Kind::Horse, Kind::Cannon] {
        let count =
            pos.pieces(Color::Red, kind).count_ones() + pos.pieces(Color::Black, kind).count_ones();
        phase += material::phase_weight(kind) * count as i32;
    }
    phase.min(PHASE_MAX)
}

/// The terms that are not kept incrementally, packed mg/eg, from Red's side.
#[inline]
fn dynamic_terms(pos: &Position) -> (i32, i32, i32) {
    let t = &mut NoTrace;
    let mobility =
        mobility::mobility(pos, Color::Red, t) - mobility::mobility(pos, Color::Black, t);
    let coordination = coordination::coordination(pos, Color::Red, t)
        - coordination::coordination(pos, Color::Black, t);
    let safety = safety::danger(pos, Color::Black, t) - safety::danger(pos, Color::Red, t);
    (mobility, coordination, safety)
}

/// The static score from Red's side, in centipawns.
pub fn evaluate_red(pos: &Position) -> i32 {
    evaluate_red_with(pos, pst::sum(pos))
}

/// `evaluate_red` given `pst::sum(pos)`, which a search keeps incrementally.
#[inline]
pub fn evaluate_red_with(pos: &Position, psq: i32) -> i32 {
    debug_assert_eq!(psq, pst::sum(pos), "{}", pos.to_fen());
    let (mobility, coordination, safety) = dynamic_terms(pos);
    blend(psq + mobility + coordination + safety, phase(pos))
}

/// The static score from the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, pst::sum(pos))
}

/// `evaluate` given `pst::sum(pos)`, which a search keeps incrementally.
#[inline]
pub fn evaluate_with(pos: &Position, psq: i32) -> i32 {
    let red = evaluate_red_with(pos, psq);
    match pos.side_to_move() {
        Color::Red => red + TEMPO,
        Color::Black => TEMPO - red,
    }
}

/// The evaluation term by term (slower than `evaluate`: it splits material from
/// placement by walking the board). For display.
pub fn terms(pos: &Position) -> Terms {
    let phase = phase(pos);
    let mut material = 0;
    let mut placement = 0;
    for color in Color::BOTH {
        let sign = if color == Color::Red { 1 } else { -1 };
        for kind in Kind::ALL {
            for sq in pos.squares_of(color, kind) {
                material += sign * material::value(kind);
                placement += sign * pst::placement(kind, color, sq);
            }
        }
    }
    let (mobility, coordination, safety) = dynamic_terms(pos);
    Terms {
        material,
        placement: blend(placement, phase),
        mobility: blend(mobility, phase),
        coordination: blend(coordination, phase),
        safety: blend(safety, phase),
        phase,
    }
}

#[cfg(test)]
pub(crate) mod tests;
