//! The transposition table: a fixed-size hash table of search results keyed by Zobrist
//! key, shared without locks by the threads of a parallel search. Each 64-byte bucket
//! holds five entries; a new result replaces the same position's
//! entry, else the shallowest or oldest one. Scores are stored relative to the node
//! (`score::to_table`), so mate distances stay right wherever the position recurs.

use std::sync::atomic::{AtomicU32, Ordering};

use super::table_memory::{TableMemory, ZeroValid};
use xiangqi_core::board::Move;

/// What a stored score proves about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// No score: the entry keeps only a move (the score depended on the path).
    None = 0,
    /// The true value is at most the score (the search failed low).
    Upper = 1,
    /// The true value is at least the score (the search failed high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound answers a search in `alpha..beta`: an
    /// exact value, or a bound that fails high or low of the window.
    #[inline]
    pub fn decides(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }

    fn from_bits(bits: u8) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One probe's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtHit {
    /// The best (or refuting) move found, or `Move::NULL`.
    pub mv: Move,
    /// Node-relative score; convert with `score::from_table`.
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// One entry's fields, unpacked.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    check: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation in the high six bits, bound in the low two.
    age_bound: u8,
}

impl Entry {
    fn low(&self) -> u32 {
        u32::from(self.mv) | (u32::from(self.score as u16) << 16)
    }

    fn high(&self) -> u32 {
        u32::from(self.eval as u16)
            | (u32::from(self.depth) << 16)
            | (u32::from(self.age_bound) << 24)
    }

    fn is_used(&self) -> bool {
        self.age_bound & 3 != 0 || self.mv != 0
    }
}

/// An entry as threads share it: three words written and read independently, without a
/// lock. The first word is the key check XOR the two data words, so an entry torn by two
/// threads writing at once fails its check and reads as a miss (Hyatt's lockless
/// hashing) instead of pairing one position's key with another's move.
#[derive(Default)]
struct SharedEntry {
    keyed: AtomicU32,
    low: AtomicU32,
    high: AtomicU32,
}

impl SharedEntry {
    #[inline]
    fn load(&self) -> Entry {
        let low = self.low.load(Ordering::Relaxed);
        let high = self.high.load(Ordering::Relaxed);
        let check = self.keyed.load(Ordering::Relaxed) ^ low ^ high;
        Entry {
            check,
            mv: low as u16,
            score: (low >> 16) as u16 as i16,
            eval: high as u16 as i16,
            depth: (high >> 16) as u8,
            age_bound: (high >> 24) as u8,
        }
    }

    #[inline]
    fn save(&self, entry: &Entry) {
        let (low, high) = (entry.low(), entry.high());
        self.low.store(low, Ordering::Relaxed);
        self.high.store(high, Ordering::Relaxed);
        self.keyed
            .store(entry.check ^ low ^ high, Ordering::Relaxed);
    }
}

const ENTRIES: usize = 5;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([SharedEntry; ENTRIES]);

// SAFETY: a bucket is atomic integers only, valid as all-zero bytes (an unused entry).
unsafe impl ZeroValid for Bucket {}

/// Shared by every search thread (`&self` probes and stores); only clearing, resizing and
/// starting a new search need it alone.
pub struct TranspositionTable {
    buckets: TableMemory<Bucket>,
    generation: u8,
}

/// Smallest and largest sizes accepted, in MB.
pub const MIN_MB: usize = 1;
pub const MAX_MB: usize = 4096;

impl TranspositionTable {
    /// A table of `mb` megabytes (clamped to `MIN_MB..=MAX_MB`).
    pub fn new(mb: usize) -> Self {
        let mb = mb.clamp(MIN_MB, MAX_MB);
        let count = (mb << 20) / std::mem::size_of::<Bucket>();
        TranspositionTable {
            buckets: TableMemory::zeroed(count),
            generation: 0,
        }
    }

    /// Size in MB.
    pub fn size_mb(&self) -> usize {
        std::mem::size_of_val(self.buckets.as_slice()) >> 20
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.zero();
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let buckets = self.buckets.as_slice();
        &buckets[((u128::from(key) * buckets.len() as u128) >> 64) as usize]
    }

    /// Hints the processor to fetch a bucket that will be probed soon.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the pointer is to a bucket of the table; prefetching never faults.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(self.bucket(key) as *const Bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let check = key as u32;
        self.bucket(key)
            .0
            .iter()
            .map(SharedEntry::load)
            .find(|e| e.check == check && e.is_used())
            .map(|e| TtHit {
                mv: Move::from_bits(e.mv).unwrap_or(Move::NULL),
                score: i32::from(e.score),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth),
                bound: Bound::from_bits(e.age_bound),
            })
    }

    /// Stores a result. `score` must already be node-relative (`score::to_table`).
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let check = key as u32;
        let generation = self.generation;
        let bucket = &self.bucket(key).0;
        let entries: [Entry; ENTRIES] = std::array::from_fn(|i| bucket[i].load());
        let age = |e: &Entry| i32::from((generation.wrapping_sub(e.age_bound >> 2)) & 63);
        let slot = match entries.iter().position(|e| e.check == check) {
            Some(i) => i,
            None => {
                let worth = |e: &Entry| i32::from(e.depth) - 8 * age(e);
                (0..ENTRIES)
                    .min_by_key(|&i| worth(&entries[i]))
                    .unwrap_or(0)
            }
        };
        let old = entries[slot];
        let depth = depth.clamp(0, 255) as u8;
        let same = old.check == check;
        // Keep a deeper result for the same position unless the new one is exact or the
        // old one is from an earlier search.
        if same
            && bound != Bound::Exact
            && age(&old) == 0
            && i32::from(depth) + 2 < i32::from(old.depth)
            && old.age_bound & 3 != 0
        {
            return;
        }
        let mv = if mv.is_null() && same {
            old.mv
        } else {
            mv.bits()
        };
        bucket[slot].save(&Entry {
            check,
            mv,
            score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth,
            age_bound: (generation << 2) | bound as u8,
        });
    }

    /// Permille of the first thousand buckets' entries written in the current search, as
    /// UCI's `hashfull` reports.
    pub fn hashfull(&self) -> u32 {
        let buckets = self.buckets.as_slice();
        let sample = buckets.len().min(200);
        let used = buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter().map(SharedEntry::load))
            .filter(|e| e.age_bound != 0 && e.age_bound >> 2 == self.generation)
            .count();
        (used * 1000 / (sample * ENTRIES)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::Square;

    fn mv(a: u8, b: u8) -> Move {
        Move::new(
            Square::from_index(a as usize),
            Square::from_index(b as usize),
        )
    }

    #[test]
    fn stores_and_finds_an_entry() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.size_mb(), 1);
        tt.store(0xdead_beef_1234_5678, mv(1, 2), -57, 12, 7, Bound::Lower);
        let hit = tt.probe(0xdead_beef_1234_5678).expect("stored");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (mv(1, 2), -57, 12, 7, Bound::Lower)
        );
        assert!(tt.probe(0x1234_5678_dead_beef).is_none());
    }

    #[test]
    fn a_bound_decides_only_outside_the_window() {
        // Window 10..20: an exact score always answers; a lower bound when it fails
        // high, an upper bound when it fails low; a move-only entry never.
        assert!(Bound::Exact.decides(15, 10, 20));
        assert!(Bound::Lower.decides(20, 10, 20));
        assert!(!Bound::Lower.decides(19, 10, 20));
        assert!(Bound::Upper.decides(10, 10, 20));
        assert!(!Bound::Upper.decides(11, 10, 20));
        assert!(!Bound::None.decides(15, 10, 20));
    }

    #[test]
    fn a_move_only_entry_keeps_the_move_but_no_bound() {
        let tt = TranspositionTable::new(1);
        tt.store(42, mv(3, 4), 0, 0, 5, Bound::None);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.mv, hit.bound), (mv(3, 4), Bound::None));
    }

    #[test]
    fn a_shallow_bound_does_not_replace_a_deep_one_of_this_search() {
        let mut tt = TranspositionTable::new(1);
        tt.store(99, mv(5, 6), 10, 0, 12, Bound::Lower);
        tt.store(99, mv(7, 8), 20, 0, 3, Bound::Upper);
        assert_eq!(tt.probe(99).unwrap().depth, 12);
        tt.new_search();
        tt.store(99, mv(7, 8), 20, 0, 3, Bound::Upper);
        assert_eq!(tt.probe(99).unwrap().depth, 3);
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_entry() {
        let mut tt = TranspositionTable::new(1);
        // Keys with the same high bits share a bucket; the low 32 bits tell them apart.
        let keys: Vec<u64> = (1..=6).map(|i| (7u64 << 40) | i).collect();
        for (i, &k) in keys.iter().enumerate().take(5) {
            tt.store(k, mv(1, 2), 0, 0, 10 + i as i32, Bound::Exact);
        }
        tt.store(keys[5], mv(1, 2), 0, 0, 1, Bound::Exact);
        assert!(
            tt.probe(keys[0]).is_none(),
            "the depth-10 entry was the victim"
        );
        assert!(tt.probe(keys[5]).is_some());
        tt.clear();
        assert!(tt.probe(keys[5]).is_none());
    }

    #[test]
    fn threads_writing_one_bucket_never_read_a_mixed_entry() {
        // Keys sharing a bucket, each stored with fields derived from the key: a read
        // that paired one key's check with another's data would show mismatched fields.
        let tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=12).map(|i| (7u64 << 40) | (i * 0x0101_0101)).collect();
        let fields = |key: u64| {
            let n = (key % 89) as u8 + 1;
            (mv(n - 1, n), n as i32 * 3, n as i32 * -5, i32::from(n % 60))
        };
        std::thread::scope(|scope| {
            for thread in 0..2 {
                let (tt, keys) = (&tt, &keys);
                scope.spawn(move || {
                    for round in 0..1_000_000 {
                        let key = keys[(round * 7 + thread * 5) % keys.len()];
                        let (m, score, eval, depth) = fields(key);
                        tt.store(key, m, score, eval, depth, Bound::Exact);
                        let probed = keys[(round * 3 + thread) % keys.len()];
                        if let Some(hit) = tt.probe(probed) {
                            let (m, score, eval, depth) = fields(probed);
                            assert_eq!(
                                (hit.mv, hit.score, hit.eval, hit.depth),
                                (m, score, eval, depth)
                            );
                        }
                    }
                });
            }
        });
    }
}
