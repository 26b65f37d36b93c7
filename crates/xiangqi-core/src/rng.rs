//! Randomness, from one source: the operating system's (`getrandom`: the getrandom call
//! on Linux, getentropy on macOS, ProcessPrng on Windows) for secrets and for the seeds
//! of the one generator, splitmix64, a tiny deterministic one, so a fixed seed gives the
//! same random games and positions on every machine (tests, self-play for tuning).

/// Sebastiano Vigna's splitmix64.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

/// Fills `bytes` from the operating system's random source: for secrets (resume codes,
/// host keys). No file is opened, so it works when a server is out of file descriptors.
pub fn os_random(bytes: &mut [u8]) -> Result<(), String> {
    getrandom::fill(bytes).map_err(|error| format!("no random numbers: {error}"))
}

/// A seed that differs from run to run and call to call (book choices, weakened levels,
/// the server's sampling): the system's random source, else the clock and a counter
/// spread by splitmix64 (a seed needs variety, not secrecy).
pub fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if os_random(&mut bytes).is_ok() {
        return u64::from_le_bytes(bytes);
    }
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    SplitMix64::new(nanos ^ CALLS.fetch_add(1, Ordering::Relaxed).rotate_left(32)).next_u64()
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
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
    fn the_system_source_fills_every_byte_and_seeds_differ() {
        // 64 zero bytes from a working source: a chance of 2^-512.
        let mut bytes = [0u8; 64];
        os_random(&mut bytes).unwrap();
        assert!(bytes.iter().any(|&byte| byte != 0));
        let seeds: std::collections::HashSet<u64> = (0..16).map(|_| random_seed()).collect();
        assert_eq!(seeds.len(), 16);
    }
}
