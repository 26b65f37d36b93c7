//! Lookup tables built at compile time ("preset tables"): point masks, palace and
//! elephant steps, horse legs, soldier steps, and the rank/file tables that give sliding
//! moves from the occupancy of one line.

use super::bitboard::Bb;
use super::types::{Color, Square};

/// "No square" in the small step tables.
pub const NO_SQ: u8 = 0xff;

const fn sq(x: i32, y: i32) -> u8 {
    (y * 9 + x) as u8
}

const fn on_board(x: i32, y: i32) -> bool {
    x >= 0 && x < 9 && y >= 0 && y < 10
}

const fn in_any_palace(x: i32, y: i32) -> bool {
    x >= 3 && x <= 5 && (y <= 2 || y >= 7)
}

const fn bit(s: u8) -> Bb {
    1u128 << s
}

/// Each colour's side of the river: ranks 0-4 for Red, 5-9 for Black.
pub const OWN_HALF: [Bb; 2] = {
    let red = (1u128 << 45) - 1;
    [red, ((1u128 << 90) - 1) & !red]
};

pub const RANK_MASK: [Bb; 10] = {
    let mut t = [0; 10];
    let mut y = 0;
    while y < 10 {
        t[y] = 0x1ffu128 << (9 * y);
        y += 1;
    }
    t
};

pub const FILE_MASK: [Bb; 9] = {
    let mut t = [0; 9];
    let mut x = 0;
    while x < 9 {
        t[x] = FILE_SPREAD[0x3ff] << x;
        x += 1;
    }
    t
};

/// Spreads a 10-bit file occupancy (bit i = rank i) onto file `a` of the board.
pub static FILE_SPREAD: [Bb; 1024] = {
    let mut t = [0; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut b = 0;
        while b < 10 {
            if (m >> b) & 1 == 1 {
                t[m] |= 1u128 << (9 * b);
            }
            b += 1;
        }
        m += 1;
    }
    t
};

pub const PALACE: [Bb; 2] = {
    let mut t = [0; 2];
    let mut x = 3;
    while x <= 5 {
        let mut y = 0;
        while y <= 2 {
            t[0] |= bit(sq(x, y));
            t[1] |= bit(sq(x, 9 - y));
            y += 1;
        }
        x += 1;
    }
    t
};

/// The five advisor points of each side.
pub const ADVISOR_POINTS: [Bb; 2] = {
    let pts = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
    let mut t = [0; 2];
    let mut i = 0;
    while i < 5 {
        t[0] |= bit(sq(pts[i].0, pts[i].1));
        t[1] |= bit(sq(pts[i].0, 9 - pts[i].1));
        i += 1;
    }
    t
};

/// The seven elephant points of each side.
pub const ELEPHANT_POINTS: [Bb; 2] = {
    let pts = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
    let mut t = [0; 2];
    let mut i = 0;
    while i < 7 {
        t[0] |= bit(sq(pts[i].0, pts[i].1));
        t[1] |= bit(sq(pts[i].0, 9 - pts[i].1));
        i += 1;
    }
    t
};

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// One step in any of `dirs` that stays inside the palace it starts in.
const fn palace_steps(dirs: [(i32, i32); 4]) -> [Bb; 90] {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        if in_any_palace(x, y) {
            let mut d = 0;
            while d < 4 {
                let (nx, ny) = (x + dirs[d].0, y + dirs[d].1);
                if on_board(nx, ny) && in_any_palace(nx, ny) && (ny <= 4) == (y <= 4) {
                    t[s] |= bit(sq(nx, ny));
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

/// General steps: one point orthogonally, inside the palace.
pub static GENERAL_STEPS: [Bb; 90] = palace_steps(ORTHO);

/// Advisor steps: one point diagonally, inside the palace.
pub static ADVISOR_STEPS: [Bb; 90] = palace_steps(DIAG);

/// Elephant steps: (eye, target) pairs; the target stays on the elephant's side of the river.
pub static ELEPHANT_STEPS: [[(u8, u8); 4]; 90] = {
    let mut t = [[(NO_SQ, NO_SQ); 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        let mut n = 0;
        while d < 4 {
            let (nx, ny) = (x + 2 * DIAG[d].0, y + 2 * DIAG[d].1);
            if on_board(nx, ny) && (ny <= 4) == (y <= 4) {
                t[s][n] = (sq(x + DIAG[d].0, y + DIAG[d].1), sq(nx, ny));
                n += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Horse moves by leg: for each orthogonal neighbour (the leg), the targets it opens.
pub static HORSE_STEPS: [[(u8, Bb); 4]; 90] = {
    let mut t = [[(NO_SQ, 0); 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        let mut n = 0;
        while d < 4 {
            let (dx, dy) = ORTHO[d];
            let (lx, ly) = (x + dx, y + dy);
            if on_board(lx, ly) {
                // Two targets beyond the leg, one on each side of the line of the step.
                let (px, py) = (dy, dx);
                let mut targets = 0;
                let (ax, ay) = (lx + dx + px, ly + dy + py);
                let (bx, by) = (lx + dx - px, ly + dy - py);
                if on_board(ax, ay) {
                    targets |= bit(sq(ax, ay));
                }
                if on_board(bx, by) {
                    targets |= bit(sq(bx, by));
                }
                if targets != 0 {
                    t[s][n] = (sq(lx, ly), targets);
                    n += 1;
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Horse attacks seen from the target: for each diagonal neighbour of a square (the leg
/// a horse attacking that square must pass), the points a horse would attack from.
pub static HORSE_ATTACKERS: [[(u8, Bb); 4]; 90] = {
    let mut t = [[(NO_SQ, 0); 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (x, y) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        let mut n = 0;
        while d < 4 {
            let (dx, dy) = DIAG[d];
            let (lx, ly) = (x + dx, y + dy);
            if on_board(lx, ly) {
                let mut from = 0;
                if on_board(x + 2 * dx, y + dy) {
                    from |= bit(sq(x + 2 * dx, y + dy));
                }
                if on_board(x + dx, y + 2 * dy) {
                    from |= bit(sq(x + dx, y + 2 * dy));
                }
                if from != 0 {
                    t[s][n] = (sq(lx, ly), from);
                    n += 1;
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// The diagonal neighbours of a point: the legs of any horse attacking it.
pub static DIAGONAL_LEGS: [Bb; 90] = {
    let mut t = [0; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < 4 {
            let leg = HORSE_ATTACKERS[s][i].0;
            if leg != NO_SQ {
                t[s] |= 1u128 << leg;
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Soldier steps by colour: forward, and sideways once across the river.
pub static SOLDIER_STEPS: [[Bb; 90]; 2] = {
    let mut t = [[0; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (x, y) = ((s % 9) as i32, (s / 9) as i32);
            if on_board(x, y + fwd) {
                t[c][s] |= bit(sq(x, y + fwd));
            }
            let crossed = if c == 0 { y >= 5 } else { y <= 4 };
            if crossed {
                if x > 0 {
                    t[c][s] |= bit(sq(x - 1, y));
                }
                if x < 8 {
                    t[c][s] |= bit(sq(x + 1, y));
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Points from which a soldier of the given colour attacks a square.
pub static SOLDIER_ATTACKERS: [[Bb; 90]; 2] = {
    let mut t = [[0; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let mut f = 0;
            while f < 90 {
                if SOLDIER_STEPS[c][f] & bit(s as u8) != 0 {
                    t[c][s] |= bit(f as u8);
                }
                f += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// For a line of `len` points, a piece at `pos` and the line's occupancy: the points a
/// chariot reaches (empty points up to and including the first piece each way), and the
/// points a cannon captures on (the first piece beyond the first one each way).
const fn line_tables<const LEN: usize, const OCC: usize>() -> ([[u16; OCC]; LEN], [[u16; OCC]; LEN])
{
    let mut slide = [[0u16; OCC]; LEN];
    let mut cannon = [[0u16; OCC]; LEN];
    let mut pos = 0;
    while pos < LEN {
        let mut occ = 0;
        while occ < OCC {
            let mut dir = 0;
            while dir < 2 {
                let step: i32 = if dir == 0 { 1 } else { -1 };
                let mut i = pos as i32 + step;
                let mut screens = 0;
                while i >= 0 && i < LEN as i32 {
                    let occupied = (occ >> i) & 1 == 1;
                    if screens == 0 {
                        slide[pos][occ] |= 1 << i;
                        if occupied {
                            screens = 1;
                        }
                    } else if occupied {
                        cannon[pos][occ] |= 1 << i;
                        break;
                    }
                    i += step;
                }
                dir += 1;
            }
            occ += 1;
        }
        pos += 1;
    }
    (slide, cannon)
}

const RANK_TABLES: ([[u16; 512]; 9], [[u16; 512]; 9]) = line_tables::<9, 512>();
const FILE_TABLES: ([[u16; 1024]; 10], [[u16; 1024]; 10]) = line_tables::<10, 1024>();

/// Chariot reach along a rank, indexed by file and rank occupancy.
pub static RANK_SLIDE: [[u16; 512]; 9] = RANK_TABLES.0;
/// Cannon captures along a rank, indexed by file and rank occupancy.
pub static RANK_CANNON: [[u16; 512]; 9] = RANK_TABLES.1;
/// Chariot reach along a file, indexed by rank and file occupancy.
pub static FILE_SLIDE: [[u16; 1024]; 10] = FILE_TABLES.0;
/// Cannon captures along a file, indexed by rank and file occupancy.
pub static FILE_CANNON: [[u16; 1024]; 10] = FILE_TABLES.1;

/// The points where a piece of this kind and colour can ever stand. Used by FEN
/// validation.
pub fn legal_points(kind: super::types::Kind, color: Color) -> Bb {
    use super::types::Kind;
    let c = color.index();
    match kind {
        Kind::General => PALACE[c],
        Kind::Advisor => ADVISOR_POINTS[c],
        Kind::Elephant => ELEPHANT_POINTS[c],
        Kind::Soldier => {
            // A soldier never stands behind its starting rank (rank 3 for Red, 6 for Black).
            let all = (1u128 << 90) - 1;
            match color {
                Color::Red => all & !((1u128 << 27) - 1),
                Color::Black => (1u128 << 63) - 1,
            }
        }
        _ => (1u128 << 90) - 1,
    }
}

#[inline]
pub fn square_bit(s: Square) -> Bb {
    1u128 << s.index()
}
