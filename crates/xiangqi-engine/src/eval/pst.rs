//! Piece-square tables (in `weights.rs`), written from Red's side as a diagram: the
//! first row is rank 9 (Black's back rank), the last is rank 0 (Red's). Black reads the
//! same table mirrored top to bottom. The lecture's shapes follow the classic hand-tuned
//! tables of XQWLight and ElephantEye (chariots on the ribs and the enemy's second rank,
//! horses on the flanks across the river, soldiers that close in on the palace), rescaled
//! to the lecture's centipawns; the tuner starts from them.
//!
//! `PSQ` folds material and table into one packed score per (piece, point), signed for
//! Red. The search keeps its sum over the board incrementally (`sum` at the root, `delta`
//! per move), so the evaluation need not walk the board for these terms.

use super::material;
use super::phased::s;
use super::weights::*;
use xiangqi_core::board::{Color, Kind, Move, Piece, Position, Square};

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
        Kind::Advisor => s(ADVISOR_MG[i], ADVISOR_EG[i]),
        Kind::Elephant => s(ELEPHANT_MG[i], ELEPHANT_EG[i]),
        Kind::Horse => s(HORSE_MG[i], HORSE_EG[i]),
        Kind::Chariot => s(CHARIOT_MG[i], CHARIOT_EG[i]),
        Kind::Cannon => s(CANNON_MG[i], CANNON_EG[i]),
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

/// Material plus placement of every piece on the board, packed mg/eg, from Red's side.
pub fn sum(pos: &Position) -> i32 {
    let mut total = 0;
    for color in Color::BOTH {
        for kind in Kind::ALL {
            let table = &PSQ[Piece::new(color, kind).index()];
            total += pos
                .squares_of(color, kind)
                .map(|sq| table[sq.index()])
                .sum::<i32>();
        }
    }
    total
}

/// How making `mv` in `pos` changes `sum(pos)`; read before the move is made.
#[inline]
pub fn delta(pos: &Position, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let piece = pos.piece_at(mv.from()).index();
    let captured = pos.piece_at(mv.to()).index();
    // An empty point's entry is zero, so a quiet move needs no branch.
    PSQ[piece][to] - PSQ[piece][from] - PSQ[captured][to]
}
