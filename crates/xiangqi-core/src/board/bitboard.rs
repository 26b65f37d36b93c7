//! A set of board points as a 128-bit word (bit `y * 9 + x`).

use super::types::Square;

pub type Bb = u128;

/// Iterates the points of a set, lowest index first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bb);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index(i))
    }
}
