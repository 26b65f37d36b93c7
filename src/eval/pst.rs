//! Piece-square tables, written from Red's side as a diagram: the first row is rank 9
//! (Black's back rank), the last is rank 0 (Red's). Black reads the same table mirrored
//! top to bottom. The shapes follow the classic hand-tuned tables of XQWLight and
//! ElephantEye (chariots on the ribs and the enemy's second rank, horses on the flanks
//! across the river, soldiers that close in on the palace), rescaled to the lecture's
//! centipawns and centred so that material stays the lecture's value.
//!
//! `PSQ` folds material and table into one packed score per (piece, point), signed for
//! Red, which is what `Position` sums incrementally.

use super::material;
use super::phased::s;
use crate::board::{Color, Kind, Piece, Square};

type Table = [i32; 90];

#[rustfmt::skip]
const CHARIOT: Table = [
     12,  16,  14,  26,  28,  26,  14,  16,  12,
     12,  24,  18,  32,  66,  32,  18,  24,  12,
     12,  16,  14,  28,  32,  28,  14,  16,  12,
     12,  26,  26,  32,  32,  32,  26,  26,  12,
     16,  22,  22,  28,  30,  28,  22,  22,  16,
     16,  24,  24,  28,  30,  28,  24,  24,  16,
      8,  18,   8,  24,  28,  24,   8,  18,   8,
     -4,  16,   8,  24,  24,  24,   8,  16,  -4,
      0,  16,  12,  24,   0,  24,  12,  16,   0,
    -12,  12,   8,  24,   0,  24,   8,  12, -12,
];

#[rustfmt::skip]
const HORSE: Table = [
     0,   0,   0,  12,   0,  12,   0,   0,   0,
     0,  12,  26,  14,   8,  14,  26,  12,   0,
     4,  16,  18,  26,  18,  26,  18,  16,   4,
     6,  36,  20,  34,  20,  34,  20,  36,   6,
     0,  20,  18,  26,  28,  26,  18,  20,   0,
     0,  16,  22,  24,  26,  24,  22,  16,   0,
     4,   8,  16,  10,  16,  10,  16,   8,   4,
     6,   4,   8,  10,   4,  10,   8,   4,   6,
   -10,   0,   4,   6, -24,   6,   4,   0, -10,
    -4, -10,   0,  -4,   0,  -4,   0, -10,  -4,
];

#[rustfmt::skip]
const CANNON: Table = [
     8,   8,   0, -10, -12, -10,   0,   8,   8,
     4,   4,   0,  -8, -14,  -8,   0,   4,   4,
     2,   2,   0, -10,  -8, -10,   0,   2,   2,
     0,   6,   6,   4,   8,   4,   6,   6,   0,
     0,   0,   0,   0,   8,   0,   0,   0,   0,
    -2,   0,   6,   0,   8,   0,   6,   0,  -2,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     2,   0,   8,   6,  10,   6,   8,   0,   2,
     0,   2,   4,   4,   4,   4,   4,   2,   0,
     0,   0,   2,   6,   6,   6,   2,   0,   0,
];

/// Soldiers: worth little before the river, much more across it and near the palace, and
/// little again on the last rank, where they can only move sideways.
#[rustfmt::skip]
const SOLDIER_MG: Table = [
    -3,  -3,  -3,   3,   9,   3,  -3,  -3,  -3,
    27,  42,  72,  96, 102,  96,  72,  42,  27,
    27,  42,  66,  81,  81,  81,  66,  42,  27,
    27,  39,  51,  57,  60,  57,  51,  39,  27,
    12,  24,  30,  51,  57,  51,  30,  24,  12,
    -9,   0,   9,   0,  18,   0,   9,   0,  -9,
    -9,   0,  -9,   0,  15,   0,  -9,   0,  -9,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// In the endgame a soldier across the river is a real attacker and its file matters less.
#[rustfmt::skip]
const SOLDIER_EG: Table = [
    10,  10,  15,  20,  25,  20,  15,  10,  10,
    60,  70,  85, 100, 105, 100,  85,  70,  60,
    60,  70,  80,  90,  90,  90,  80,  70,  60,
    55,  62,  70,  75,  75,  75,  70,  62,  55,
    40,  45,  50,  55,  60,  55,  50,  45,  40,
     0,   0,   5,   0,  10,   0,   5,   0,   0,
     0,   0,   0,   0,   5,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// The general stays home in the middlegame; in the endgame it helps from the centre.
#[rustfmt::skip]
const GENERAL_MG: Table = [
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0, -20, -12, -20,   0,   0,   0,
     0,   0,   0,  -4,   0,  -4,   0,   0,   0,
     0,   0,   0,   8,  16,   8,   0,   0,   0,
];

#[rustfmt::skip]
const GENERAL_EG: Table = [
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,  -4,   4,  -4,   0,   0,   0,
     0,   0,   0,   4,   8,   4,   0,   0,   0,
     0,   0,   0,   0,   4,   0,   0,   0,   0,
];

/// Advisors and elephants: the centre of the palace and the elephant eye in front of it.
#[rustfmt::skip]
const ADVISOR: Table = [
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   9,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const ELEPHANT: Table = [
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
     0,   0,  -2,   0,   0,   0,  -2,   0,   0,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
    -6,   0,   0,   0,   9,   0,   0,   0,  -6,
     0,   0,   0,   0,   0,   0,   0,   0,   0,
];

/// Index into a diagram table of the point `index` as seen by `color`.
const fn diagram_index(color: Color, index: usize) -> usize {
    let (x, y) = (index % 9, index / 9);
    let relative_rank = match color {
        Color::Red => y,
        Color::Black => 9 - y,
    };
    (9 - relative_rank) * 9 + x
}

/// The piece-square value of `kind` for `color` on `sq`, packed mg/eg, without material.
pub const fn placement(kind: Kind, color: Color, sq: Square) -> i32 {
    let i = diagram_index(color, sq.index());
    match kind {
        Kind::General => s(GENERAL_MG[i], GENERAL_EG[i]),
        Kind::Advisor => s(ADVISOR[i], ADVISOR[i]),
        Kind::Elephant => s(ELEPHANT[i], ELEPHANT[i]),
        Kind::Horse => s(HORSE[i], HORSE[i]),
        Kind::Chariot => s(CHARIOT[i], CHARIOT[i]),
        Kind::Cannon => s(CANNON[i], CANNON[i]),
        Kind::Soldier => s(SOLDIER_MG[i], SOLDIER_EG[i]),
    }
}

/// Material plus placement, packed, signed from Red's side (Black's pieces negative),
/// indexed by `Piece::index()` and point. Index 0 (no piece) is all zeros, so make/unmake
/// can subtract a capture's entry without a branch.
pub static PSQ: [[i32; 90]; 16] = {
    let mut t = [[0; 90]; 16];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let mut k = 0;
        while k < 7 {
            let kind = Kind::from_index(k);
            let piece = Piece::new(color, kind);
            let m = material::value(kind);
            let mut i = 0;
            while i < 90 {
                let v = s(m, m) + placement(kind, color, Square::from_index(i));
                t[piece.index()][i] = if c == 0 { v } else { -v };
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};
