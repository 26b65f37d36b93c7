//! Piece values in centipawns (the lecture's were chariot 600, cannon 285, horse 270,
//! advisor 125, elephant 120, soldier 30; the tuned ones live in `weights.rs`). A
//! soldier's piece-square table adds the worth it gains across the river. The general is
//! beyond all material: losing it ends the game, so it carries no value here and the
//! search scores its loss as mate.

use super::weights::{MATERIAL, PHASE_WEIGHT};
use xiangqi_core::board::Kind;

/// Centipawn value of a piece kind, the same in every phase.
#[inline]
pub const fn value(kind: Kind) -> i32 {
    MATERIAL[kind as usize]
}

/// Phase weight of one piece of a kind: the attacking pieces make a middlegame.
#[inline]
pub const fn phase_weight(kind: Kind) -> i32 {
    PHASE_WEIGHT[kind as usize]
}
