//! Zobrist keys: one random 64-bit word per (piece, point) and one for the side to move,
//! fixed at compile time so keys are stable across runs (books and tests rely on it).

use crate::rng::{GOLDEN_GAMMA, mix};

/// One step of splitmix64 (`rng::SplitMix64`), at compile time: the next state and its value.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GOLDEN_GAMMA);
    (state, mix(state))
}

/// Indexed by `Piece::index()` (0..16) and point.
pub static PIECE_KEYS: [[u64; 90]; 16] = {
    let mut t = [[0u64; 90]; 16];
    let mut state = 0x5851_f42d_4c95_7f2d;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 90 {
            let (next, value) = splitmix64(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    // Index 0 is the empty point: a zero key lets a move's key change be computed without
    // asking whether it captures (`Position::key_after`).
    t[0] = [0; 90];
    t
};

/// XORed in when Black is to move.
pub const SIDE_KEY: u64 = splitmix64(0x2545_f491_4f6c_dd1d).1;
