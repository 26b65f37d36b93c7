//! Point sets and step tables the evaluation needs. The rules core keeps its own tables
//! private, so the few that mobility and shape terms read are built here at compile time.

use crate::board::{Bb, Color, Square};

/// No square, in the step tables.
pub const NONE: u8 = 0xff;

const fn on_board(x: i32, y: i32) -> bool {
    x >= 0 && x < 9 && y >= 0 && y < 10
}

const fn bit(x: i32, y: i32) -> Bb {
    1u128 << (y * 9 + x)
}

/// Horse moves from a point: (leg, the targets that leg opens).
pub static HORSE_STEPS: [[(u8, Bb); 4]; 90] = {
    let mut t = [[(NONE, 0); 4]; 90];
    let dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        let mut n = 0;
        while d < 4 {
            let (dx, dy) = dirs[d];
            let (lx, ly) = (x + dx, y + dy);
            let mut targets = 0;
            if on_board(lx, ly) {
                // The two points beyond the leg, one either side of the step's line.
                let (ax, ay) = (lx + dx + dy, ly + dy + dx);
                let (bx, by) = (lx + dx - dy, ly + dy - dx);
                if on_board(ax, ay) {
                    targets |= bit(ax, ay);
                }
                if on_board(bx, by) {
                    targets |= bit(bx, by);
                }
            }
            if targets != 0 {
                t[s][n] = ((ly * 9 + lx) as u8, targets);
                n += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Elephant moves from a point: (eye, target), staying on the elephant's side.
pub static ELEPHANT_STEPS: [[(u8, u8); 4]; 90] = {
    let mut t = [[(NONE, NONE); 4]; 90];
    let dirs = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        let mut n = 0;
        while d < 4 {
            let (dx, dy) = dirs[d];
            let (tx, ty) = (x + 2 * dx, y + 2 * dy);
            if on_board(tx, ty) && (ty <= 4) == (y <= 4) {
                t[s][n] = (((y + dy) * 9 + x + dx) as u8, (ty * 9 + tx) as u8);
                n += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// All points of file x.
pub const FILE: [Bb; 9] = {
    let mut t = [0; 9];
    let mut x = 0;
    while x < 9 {
        let mut y = 0;
        while y < 10 {
            t[x as usize] |= bit(x, y);
            y += 1;
        }
        x += 1;
    }
    t
};

/// The half of the board beyond the river, seen from `color` (where its soldiers have
/// crossed).
pub const ENEMY_HALF: [Bb; 2] = {
    let low = (1u128 << 45) - 1;
    let all = (1u128 << 90) - 1;
    [all & !low, low]
};

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
