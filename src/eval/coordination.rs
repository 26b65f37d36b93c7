//! Coordination: pieces that work together are worth more than their sum. Soldiers side
//! by side across the river guard each other; chariots, horses and cannons that have
//! crossed together make an attack; advisors and elephants that guard each other hold
//! the palace.

use super::geometry::{ELEPHANT_STEPS, ENEMY_HALF, FILE, NONE, ranks_from, relative_square};
use super::phased::s;
use crate::board::{Color, Kind, Position};

const CONNECTED_SOLDIERS: i32 = s(12, 24);
/// Bonus by the number of attackers across the river (chariots, horses, cannons, and
/// soldiers close to the enemy palace). One piece alone achieves little.
const ATTACK: [i32; 7] = [
    s(0, 0),
    s(0, 0),
    s(15, 5),
    s(35, 10),
    s(60, 15),
    s(85, 20),
    s(110, 25),
];
const CONNECTED_ADVISORS: i32 = s(15, 5);
const CONNECTED_ELEPHANTS: i32 = s(15, 5);

/// Number of `us`'s pieces taking part in an attack on the enemy palace.
pub fn attackers(pos: &Position, us: Color) -> u32 {
    let across = ENEMY_HALF[us.index()];
    let majors =
        pos.pieces(us, Kind::Chariot) | pos.pieces(us, Kind::Horse) | pos.pieces(us, Kind::Cannon);
    let palace_files = FILE[2] | FILE[3] | FILE[4] | FILE[5] | FILE[6];
    let close_soldiers = pos.pieces(us, Kind::Soldier) & ranks_from(us, 6) & palace_files;
    (majors & across).count_ones() + close_soldiers.count_ones()
}

/// Coordination terms for `us`, packed mg/eg.
pub fn coordination(pos: &Position, us: Color) -> i32 {
    let mut total = 0;

    let crossed = pos.pieces(us, Kind::Soldier) & ENEMY_HALF[us.index()];
    // Bit b of `crossed & crossed >> 1` is set when points b and b+1 both hold a soldier;
    // file i's b+1 would wrap to the next rank.
    let pairs = crossed & (crossed >> 1) & !FILE[8];
    total += CONNECTED_SOLDIERS * pairs.count_ones() as i32;

    total += ATTACK[(attackers(pos, us) as usize).min(ATTACK.len() - 1)];

    let advisors = pos.pieces(us, Kind::Advisor);
    let palace_centre = relative_square(us, 4, 1);
    if advisors.count_ones() == 2 && advisors & (1u128 << palace_centre.index()) != 0 {
        total += CONNECTED_ADVISORS;
    }

    let elephants = pos.pieces(us, Kind::Elephant);
    if elephants.count_ones() == 2 {
        let first = elephants.trailing_zeros() as usize;
        let second = 127 - elephants.leading_zeros() as usize;
        let occupied = pos.occupied();
        let guarded = ELEPHANT_STEPS[first].iter().any(|&(eye, to)| {
            eye != NONE && to as usize == second && occupied & (1u128 << eye) == 0
        });
        if guarded {
            total += CONNECTED_ELEPHANTS;
        }
    }
    total
}
