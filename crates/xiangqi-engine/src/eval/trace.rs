//! The evaluation as a linear function of its weights. Every weight has a slot; tracing a
//! position counts, per slot, how often its weight enters the score from Red's side (Red's
//! uses minus Black's). The score is then the sum over slots of count times the weight's
//! phase blend, which is what the tuner fits. The terms take a `Tracer`: the search passes
//! `NoTrace`, whose calls compile to nothing, so tracing costs the search no speed.

use super::geometry::relative_rank;
use super::phased::PHASE_MAX;
use xiangqi_core::board::{Color, Kind, Position, Square};

/// Slots of the weight layout, in `weights.rs` order.
pub mod slot {
    /// Material by kind index (the general's is fixed at 0).
    pub const MATERIAL: usize = 0;
    /// Piece-square slots: kind, relative rank (0 = own back rank), file folded to 0..=4
    /// so that left and right share one weight.
    pub const PST: usize = MATERIAL + 7;
    pub const PST_LEN: usize = 7 * 10 * 5;
    pub const HORSE_MOBILITY: usize = PST + PST_LEN;
    pub const CHARIOT_MOBILITY: usize = HORSE_MOBILITY + 9;
    pub const CANNON_MOBILITY: usize = CHARIOT_MOBILITY + 1;
    pub const CONNECTED_SOLDIERS: usize = CANNON_MOBILITY + 1;
    pub const ATTACK: usize = CONNECTED_SOLDIERS + 1;
    pub const CONNECTED_ADVISORS: usize = ATTACK + 7;
    pub const CONNECTED_ELEPHANTS: usize = CONNECTED_ADVISORS + 1;
    pub const EMPTY_HEADED_CANNON: usize = CONNECTED_ELEPHANTS + 1;
    pub const EMPTY_HEADED_WITH_CHARIOT: usize = EMPTY_HEADED_CANNON + 1;
    pub const OPEN_FILE_PER_CHARIOT: usize = EMPTY_HEADED_WITH_CHARIOT + 1;
    pub const MISSING_ADVISOR: usize = OPEN_FILE_PER_CHARIOT + 1;
    pub const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 1;
    pub const TEMPO: usize = MISSING_ELEPHANT + 1;
    pub const COUNT: usize = TEMPO + 1;
}

/// The piece-square slot of `kind` for `color` on `sq`.
pub const fn pst_slot(kind: Kind, color: Color, sq: Square) -> usize {
    let x = sq.x() as usize;
    let folded = if x > 4 { 8 - x } else { x };
    slot::PST + (kind as usize * 10 + relative_rank(color, sq) as usize) * 5 + folded
}

/// Receives the weight uses of one side's terms; `n` may be negative.
pub trait Tracer {
    fn add(&mut self, slot: usize, n: i32);
}

/// The tracer of the search: records nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _slot: usize, _n: i32) {}
}

/// Per-slot uses from Red's side, and the phase the score is blended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub counts: Vec<i32>,
    pub phase: i32,
    /// +1 while a term that adds for Red is traced, -1 for one that subtracts.
    sign: i32,
}

impl Tracer for Trace {
    fn add(&mut self, slot: usize, n: i32) {
        self.counts[slot] += self.sign * n;
    }
}

impl Trace {
    /// The non-zero slots with their counts.
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0)
            .map(|(i, &c)| (i, c))
    }
}

/// Traces `pos`'s evaluation (the side-to-move tempo counted from Red's side).
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace {
        counts: vec![0; slot::COUNT],
        phase: super::phase(pos),
        sign: 1,
    };
    for color in Color::BOTH {
        t.sign = if color == Color::Red { 1 } else { -1 };
        for kind in Kind::ALL {
            for sq in pos.squares_of(color, kind) {
                t.add(slot::MATERIAL + kind as usize, 1);
                t.add(pst_slot(kind, color, sq), 1);
            }
        }
        super::mobility::mobility(pos, color, &mut t);
        super::coordination::coordination(pos, color, &mut t);
        // Danger is a penalty: it counts against its own side.
        t.sign = -t.sign;
        super::safety::danger(pos, color, &mut t);
    }
    t.sign = 1;
    let tempo = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    t.add(slot::TEMPO, tempo);
    t
}

/// The score a trace gives with per-slot middlegame and endgame weights, from Red's side,
/// before integer rounding.
pub fn linear_score(trace: &Trace, mg: &[f64], eg: &[f64]) -> f64 {
    let p = f64::from(trace.phase.clamp(0, PHASE_MAX)) / f64::from(PHASE_MAX);
    trace
        .nonzero()
        .map(|(i, c)| f64::from(c) * (mg[i] * p + eg[i] * (1.0 - p)))
        .sum()
}
