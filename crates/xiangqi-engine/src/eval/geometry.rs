//! Point sets the evaluation needs, and the rules core's step tables it reads.

use xiangqi_core::board::tables::OWN_HALF;
use xiangqi_core::board::{Bb, Color, Square};

// The step tables are the rules core's own, so movement and evaluation cannot disagree.
pub use xiangqi_core::board::tables::{
    ELEPHANT_STEPS, FILE_MASK as FILE, HORSE_STEPS, NO_SQ as NONE,
};

/// The half of the board beyond the river, seen from `color` (where its soldiers have
/// crossed).
pub const ENEMY_HALF: [Bb; 2] = [OWN_HALF[1], OWN_HALF[0]];

/// The points nearer than `rank` (relative to `color`) lie behind; this is the set of
/// points with relative rank >= `rank`.
pub const fn ranks_from(color: Color, rank: u8) -> Bb {
    let all = (1u128 << 90) - 1;
    match color {
        Color::Red => all & !((1u128 << (rank as u32 * 9)) - 1),
        Color::Black => (1u128 << ((10 - rank as u32) * 9)) - 1,
    }
}

/// The rank of a point counted from `color`'s back rank.
#[inline]
pub const fn relative_rank(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.y(),
        Color::Black => 9 - sq.y(),
    }
}

/// The point at file `x` and `color`-relative rank `rank`.
#[inline]
pub const fn relative_square(color: Color, x: u8, rank: u8) -> Square {
    match color {
        Color::Red => Square::new(x, rank),
        Color::Black => Square::new(x, 9 - rank),
    }
}

/// Points on the same file strictly between two points of that file.
#[inline]
pub fn between_on_file(a: Square, b: Square) -> Bb {
    debug_assert_eq!(a.x(), b.x());
    let (lo, hi) = if a.y() < b.y() { (a, b) } else { (b, a) };
    let mut set = 0;
    for y in lo.y() + 1..hi.y() {
        set |= 1u128 << Square::new(a.x(), y).index();
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horse_in_corner_has_two_targets_behind_one_leg_each() {
        let steps = HORSE_STEPS[Square::new(0, 0).index()];
        let total: u32 = steps
            .iter()
            .filter(|(leg, _)| *leg != NONE)
            .map(|(_, t)| t.count_ones())
            .sum();
        assert_eq!(total, 2);
    }

    #[test]
    fn ranks_from_counts_from_each_side() {
        assert_eq!(ranks_from(Color::Red, 5), ENEMY_HALF[0]);
        assert_eq!(ranks_from(Color::Black, 5), ENEMY_HALF[1]);
        assert_eq!(ranks_from(Color::Red, 0).count_ones(), 90);
        assert_eq!(ranks_from(Color::Black, 9).count_ones(), 9);
    }
}
