//! Piece values in centipawns, the lecture's: chariot 600, cannon 285, horse 270,
//! advisor 125, elephant 120, soldier 30 (its piece-square table adds the worth it gains
//! across the river). The general is beyond all material: losing it ends the game, so it
//! carries no value here and the search scores its loss as mate.

use crate::board::Kind;

/// Centipawn value of a piece kind, the same in every phase.
pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 0,
        Kind::Advisor => 125,
        Kind::Elephant => 120,
        Kind::Horse => 270,
        Kind::Chariot => 600,
        Kind::Cannon => 285,
        Kind::Soldier => 30,
    }
}

/// Phase weight of one piece of a kind: the attacking pieces make a middlegame.
pub const fn phase_weight(kind: Kind) -> i32 {
    match kind {
        Kind::Chariot => 6,
        Kind::Horse | Kind::Cannon => 3,
        _ => 0,
    }
}
