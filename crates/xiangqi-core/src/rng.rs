//! The one source of randomness below the server: splitmix64, a tiny deterministic
//! generator, so a fixed seed gives the same random games and positions on every machine
//! (tests, self-play for tuning); seeds from the clock where the draws should differ from
//! run to run (book moves, weakened levels); and its finaliser for hash keys. Nothing
//! here is fit for secrets: those come from the OS.

/// splitmix64's step: 2^64 over the golden ratio, odd, so the state visits every word.
pub const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// Sebastiano Vigna's splitmix64.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// Seeded from the clock: a different sequence on every call.
    pub fn from_clock() -> Self {
        SplitMix64(clock_seed())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// splitmix64's finaliser: every bit of `z` spread over the word (hash keys, seeds).
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed from the clock's nanoseconds and a counter, mixed: two calls in the same
/// nanosecond still differ.
pub fn clock_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    mix(nanos ^ COUNTER.fetch_add(GOLDEN_GAMMA, Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // Vigna's splitmix64.c seeded with 0 starts with these values.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn clock_seeds_differ_between_calls() {
        assert_ne!(clock_seed(), clock_seed());
    }
}
