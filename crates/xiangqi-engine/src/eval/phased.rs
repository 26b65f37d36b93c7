//! A middlegame/endgame score pair packed in one `i32`, so incremental sums and term
//! totals need one add instead of two. The endgame half sits in the high 16 bits; the
//! rounding in `eg` undoes the borrow a negative middlegame half takes from it.

/// Packs a middlegame and an endgame value (each must fit in an `i16`).
#[inline]
pub const fn s(mg: i32, eg: i32) -> i32 {
    (eg << 16) + mg
}

/// The middlegame half of a packed score.
#[inline]
pub const fn mg(packed: i32) -> i32 {
    packed as i16 as i32
}

/// The endgame half of a packed score.
#[inline]
pub const fn eg(packed: i32) -> i32 {
    ((packed + 0x8000) >> 16) as i16 as i32
}

/// Game phase from the pieces that decide how open the fight is: 0 is a bare endgame,
/// `PHASE_MAX` the full set of chariots, horses and cannons.
pub const PHASE_MAX: i32 = 48;

/// Blends a packed score by phase (`0..=PHASE_MAX`).
#[inline]
pub fn blend(packed: i32, phase: i32) -> i32 {
    let phase = phase.clamp(0, PHASE_MAX);
    (mg(packed) * phase + eg(packed) * (PHASE_MAX - phase)) / PHASE_MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_signed_halves() {
        for (a, b) in [
            (0, 0),
            (5, -7),
            (-5, 7),
            (-300, -1200),
            (1200, 300),
            (-1, -1),
        ] {
            let p = s(a, b);
            assert_eq!((mg(p), eg(p)), (a, b));
            let q = s(3, -4);
            assert_eq!((mg(p + q), eg(p + q)), (a + 3, b - 4));
            assert_eq!((mg(p - q), eg(p - q)), (a - 3, b + 4));
            assert_eq!((mg(-p), eg(-p)), (-a, -b));
        }
    }

    #[test]
    fn blend_weights_phase() {
        assert_eq!(blend(s(100, 20), PHASE_MAX), 100);
        assert_eq!(blend(s(100, 20), 0), 20);
        assert_eq!(blend(s(100, 20), PHASE_MAX / 2), 60);
    }
}
