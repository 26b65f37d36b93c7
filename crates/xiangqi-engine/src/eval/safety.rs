//! General safety, as penalties for the side whose general is exposed: an enemy cannon
//! facing the general with nothing between (the "empty-headed cannon", which pins the
//! whole centre), an open file in front of the general when the enemy has a chariot, and
//! missing advisors and elephants weighed by the attackers the enemy still has. The
//! weights live in `weights.rs`.

use super::geometry::{FILE, between_on_file, ranks_from, relative_rank};
use super::trace::{Tracer, slot};
use super::weights::{
    EMPTY_HEADED_CANNON, EMPTY_HEADED_WITH_CHARIOT, MISSING_ADVISOR, MISSING_ELEPHANT,
    OPEN_FILE_PER_CHARIOT,
};
use xiangqi_core::board::{Color, Kind, Position};

/// Penalty (a positive packed value to subtract) for `us`'s general's exposure.
#[inline]
pub fn danger<T: Tracer>(pos: &Position, us: Color, trace: &mut T) -> i32 {
    let them = us.opponent();
    let general = pos.general(us);
    let occupied = pos.occupied();
    let enemy_chariots = pos.pieces(them, Kind::Chariot).count_ones() as i32;
    let mut penalty = 0;

    for cannon in pos.squares_of(them, Kind::Cannon) {
        if cannon.x() == general.x() && between_on_file(general, cannon) & occupied == 0 {
            penalty += EMPTY_HEADED_CANNON;
            trace.add(slot::EMPTY_HEADED_CANNON, 1);
            if enemy_chariots > 0 {
                penalty += EMPTY_HEADED_WITH_CHARIOT;
                trace.add(slot::EMPTY_HEADED_WITH_CHARIOT, 1);
            }
        }
    }

    if enemy_chariots > 0 {
        let ahead = ranks_from(us, relative_rank(us, general) + 1) & FILE[general.x() as usize];
        if ahead & pos.occupied_by(us) == 0 {
            penalty += OPEN_FILE_PER_CHARIOT * enemy_chariots;
            trace.add(slot::OPEN_FILE_PER_CHARIOT, enemy_chariots);
        }
    }

    let force = 2 * enemy_chariots
        + pos.pieces(them, Kind::Horse).count_ones() as i32
        + pos.pieces(them, Kind::Cannon).count_ones() as i32;
    let missing_advisors = 2 - pos.pieces(us, Kind::Advisor).count_ones() as i32;
    let missing_elephants = 2 - pos.pieces(us, Kind::Elephant).count_ones() as i32;
    penalty += force * (MISSING_ADVISOR * missing_advisors + MISSING_ELEPHANT * missing_elephants);
    trace.add(slot::MISSING_ADVISOR, force * missing_advisors);
    trace.add(slot::MISSING_ELEPHANT, force * missing_elephants);
    penalty
}
