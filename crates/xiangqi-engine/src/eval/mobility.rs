//! Mobility: a small bonus per point a piece can move to, per piece type. A horse with
//! its legs blocked is nearly worthless, so its scale is steep at the low end; chariots
//! and cannons gain steadily with open lines. The weights live in `weights.rs`.

use super::geometry::{HORSE_STEPS, NONE};
use super::trace::{Tracer, slot};
use super::weights::{
    CANNON_MOBILITY, CANNON_TYPICAL, CHARIOT_MOBILITY, CHARIOT_TYPICAL, HORSE_MOBILITY,
};
use xiangqi_core::board::{Color, Kind, Position};

/// Mobility of `us`'s chariots, horses and cannons, packed mg/eg.
#[inline]
pub fn mobility<T: Tracer>(pos: &Position, us: Color, trace: &mut T) -> i32 {
    let own = pos.occupied_by(us);
    let theirs = pos.occupied_by(us.opponent());
    let occupied = own | theirs;
    let mut total = 0;
    for sq in pos.squares_of(us, Kind::Chariot) {
        let n = (pos.chariot_reach(sq) & !own).count_ones() as i32;
        total += CHARIOT_MOBILITY * (n - CHARIOT_TYPICAL);
        trace.add(slot::CHARIOT_MOBILITY, n - CHARIOT_TYPICAL);
    }
    for sq in pos.squares_of(us, Kind::Cannon) {
        let moves = (pos.chariot_reach(sq) & !occupied) | (pos.cannon_captures(sq) & theirs);
        let n = moves.count_ones() as i32;
        total += CANNON_MOBILITY * (n - CANNON_TYPICAL);
        trace.add(slot::CANNON_MOBILITY, n - CANNON_TYPICAL);
    }
    for sq in pos.squares_of(us, Kind::Horse) {
        let mut targets = 0;
        for &(leg, to) in &HORSE_STEPS[sq.index()] {
            if leg == NONE {
                break;
            }
            if occupied & (1u128 << leg) == 0 {
                targets |= to;
            }
        }
        let n = (targets & !own).count_ones() as usize;
        total += HORSE_MOBILITY[n];
        trace.add(slot::HORSE_MOBILITY + n, 1);
    }
    total
}
