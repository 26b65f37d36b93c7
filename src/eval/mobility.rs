//! Mobility: a small bonus per point a piece can move to, per piece type. A horse with
//! its legs blocked is nearly worthless, so its scale is steep at the low end; chariots
//! and cannons gain steadily with open lines.

use super::geometry::{HORSE_STEPS, NONE};
use super::phased::s;
use crate::board::{Color, Kind, Position};

/// Horse bonus by number of reachable points (0..=8).
const HORSE: [i32; 9] = [
    s(-40, -40),
    s(-22, -22),
    s(-8, -8),
    s(2, 2),
    s(10, 10),
    s(16, 16),
    s(20, 20),
    s(23, 23),
    s(25, 25),
];
/// Per reachable point above (or below) a typical count.
const CHARIOT_PER_POINT: i32 = s(4, 5);
const CHARIOT_TYPICAL: i32 = 7;
const CANNON_PER_POINT: i32 = s(2, 2);
const CANNON_TYPICAL: i32 = 6;

/// Mobility of `us`'s chariots, horses and cannons, packed mg/eg.
pub fn mobility(pos: &Position, us: Color) -> i32 {
    let own = pos.occupied_by(us);
    let theirs = pos.occupied_by(us.opponent());
    let occupied = own | theirs;
    let mut total = 0;
    for sq in pos.squares_of(us, Kind::Chariot) {
        let n = (pos.chariot_reach(sq) & !own).count_ones() as i32;
        total += CHARIOT_PER_POINT * (n - CHARIOT_TYPICAL);
    }
    for sq in pos.squares_of(us, Kind::Cannon) {
        let moves = (pos.chariot_reach(sq) & !occupied) | (pos.cannon_captures(sq) & theirs);
        total += CANNON_PER_POINT * (moves.count_ones() as i32 - CANNON_TYPICAL);
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
        total += HORSE[(targets & !own).count_ones() as usize];
    }
    total
}
