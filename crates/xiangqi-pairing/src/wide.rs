//! A fixed-width unsigned integer for the Dutch system's edge weights.
//!
//! The Dutch pairing packs every quality criterion into one edge weight, each
//! criterion in its own bit field above the less important ones, so that a
//! maximum-weight matching optimises them in the rules' order. With 40 players
//! that is a few hundred bits, more than `u128`; the width needed grows with
//! the number of players and score groups, so the pairing picks `N` (limbs of
//! 64 bits) per tournament.

use std::cmp::Ordering;

/// An unsigned integer of `64 * N` bits, least significant limb first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Wide<N> {
    pub const ZERO: Self = Wide([0; N]);

    pub fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }

    /// Shifts left by `bits`; bits shifted past the top are lost (the caller
    /// sizes `N` so that none are).
    pub fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let low = self.0[i - limbs];
            out[i] = low << rest;
            if rest > 0 && i > limbs {
                out[i] |= self.0[i - limbs - 1] >> (64 - rest);
            }
        }
        Wide(out)
    }

    /// Halves the value (rounding down).
    pub fn half(self) -> Self {
        let mut out = [0; N];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = self.0[i] >> 1;
            if let Some(next) = self.0.get(i + 1) {
                *slot |= next << 63;
            }
        }
        Wide(out)
    }

    /// Sets the low bits that are set in `value`.
    pub fn or_u64(mut self, value: u64) -> Self {
        self.0[0] |= value;
        self
    }

    pub fn wrapping_add(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *slot = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    pub fn wrapping_sub(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *slot = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    pub fn add_u64(self, value: u64) -> Self {
        self.wrapping_add(Self::from_u64(value))
    }

    pub fn sub_u64(self, value: u64) -> Self {
        self.wrapping_sub(Self::from_u64(value))
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_limbs() {
        let one = Wide::<3>::from_u64(1);
        let big = one.shl(130);
        assert_eq!(big.0, [0, 0, 4]);
        assert_eq!(big.half().0, [0, 0, 2]);
        assert_eq!(one.shl(64).half().0, [1 << 63, 0, 0]);
        assert_eq!(Wide::<2>::from_u64(3).shl(63).0, [1 << 63, 1]);
    }

    #[test]
    fn add_and_sub_borrow_across_limbs() {
        let a = Wide::<2>([u64::MAX, 0]);
        let b = a.add_u64(1);
        assert_eq!(b.0, [0, 1]);
        assert_eq!(b.sub_u64(1), a);
        assert!(b > a);
        assert!(Wide::<2>([0, 1]) > Wide::<2>([u64::MAX, 0]));
    }
}
