//! Coordination: pieces that work together are worth more than their sum. Soldiers side
//! by side across the river guard each other; chariots, horses and cannons that have
//! crossed together make an attack; advisors and elephants that guard each other hold
//! the palace. The weights live in `weights.rs`.

use super::geometry::{ELEPHANT_STEPS, ENEMY_HALF, FILE, NONE, ranks_from, relative_square};
use super::trace::{Tracer, slot};
use super::weights::{ATTACK, CONNECTED_ADVISORS, CONNECTED_ELEPHANTS, CONNECTED_SOLDIERS};
use xiangqi_core::board::{Color, Kind, Position};

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
#[inline]
pub fn coordination<T: Tracer>(pos: &Position, us: Color, trace: &mut T) -> i32 {
    let mut total = 0;

    let crossed = pos.pieces(us, Kind::Soldier) & ENEMY_HALF[us.index()];
    // Bit b of `crossed & crossed >> 1` is set when points b and b+1 both hold a soldier;
    // file i's b+1 would wrap to the next rank.
    let pairs = crossed & (crossed >> 1) & !FILE[8];
    total += CONNECTED_SOLDIERS * pairs.count_ones() as i32;
    trace.add(slot::CONNECTED_SOLDIERS, pairs.count_ones() as i32);

    let attack = (attackers(pos, us) as usize).min(ATTACK.len() - 1);
    total += ATTACK[attack];
    trace.add(slot::ATTACK + attack, 1);

    let advisors = pos.pieces(us, Kind::Advisor);
    let palace_centre = relative_square(us, 4, 1);
    if advisors.count_ones() == 2 && advisors & (1u128 << palace_centre.index()) != 0 {
        total += CONNECTED_ADVISORS;
        trace.add(slot::CONNECTED_ADVISORS, 1);
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
            trace.add(slot::CONNECTED_ELEPHANTS, 1);
        }
    }
    total
}
