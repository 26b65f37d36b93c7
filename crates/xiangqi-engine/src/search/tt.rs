//! A fixed-size transposition table of bounds, keyed by [`Game::key`].
//!
//! [`Game::key`]: crate::search::game::Game::key

use crate::search::score::{INFINITY, Score};

/// What the table knows about one node: `lower <= value <= upper`, from the
/// side to move, valid for searches that need at most `draft` plies below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry<M> {
    pub key: u64,
    pub lower: Score,
    pub upper: Score,
    /// Plies searched below the node (`u32::MAX` without a depth horizon).
    pub draft: u32,
    pub best: Option<M>,
}

/// Entries per bucket: a key may sit in any slot of its bucket.
const BUCKET: usize = 4;

/// A set-associative hash table. When a bucket is full the entry with the
/// smallest draft gives way: the search stays correct and only repeats some work.
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    slots: Vec<Option<TtEntry<M>>>,
    index_shift: u32,
}

impl<M: Copy> TranspositionTable<M> {
    /// Room for `entries` entries, rounded up to a power of two (at least 8).
    pub fn with_entries(entries: usize) -> Self {
        let size = entries.max(2 * BUCKET).next_power_of_two();
        let buckets = size / BUCKET;
        TranspositionTable {
            slots: vec![None; size],
            index_shift: 64 - buckets.trailing_zeros(),
        }
    }

    /// Roughly `megabytes` of memory.
    pub fn with_megabytes(megabytes: usize) -> Self {
        let entry_size = std::mem::size_of::<Option<TtEntry<M>>>();
        Self::with_entries(megabytes.saturating_mul(1 << 20) / entry_size)
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Slots in use: the table's share of a search's memory.
    pub fn occupied(&self) -> usize {
        self.slots.iter().filter(|slot| slot.is_some()).count()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    /// The slots of `key`'s bucket.
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // Fibonacci hashing spreads sequential keys (tree node numbers) as
        // well as random ones (Zobrist keys).
        let start = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.index_shift) as usize * BUCKET;
        start..start + BUCKET
    }

    /// The entry for `key`, if it was searched at least `draft` plies deep.
    pub fn probe(&self, key: u64, draft: u32) -> Option<&TtEntry<M>> {
        self.slots[self.bucket(key)]
            .iter()
            .flatten()
            .find(|entry| entry.key == key && entry.draft >= draft)
    }

    /// Records a new lower and/or upper bound for `key`, keeping the other bound
    /// when the slot already holds this node at this draft. Returns the entry.
    pub fn store(
        &mut self,
        key: u64,
        draft: u32,
        lower: Option<Score>,
        upper: Option<Score>,
        best: Option<M>,
    ) -> TtEntry<M> {
        let range = self.bucket(key);
        let bucket = &mut self.slots[range];
        // This key's slot, else an empty one, else the shallowest entry.
        let index = bucket
            .iter()
            .position(|slot| slot.is_some_and(|entry| entry.key == key))
            .or_else(|| bucket.iter().position(Option::is_none))
            .unwrap_or_else(|| {
                (0..BUCKET)
                    .min_by_key(|&i| bucket[i].map_or(0, |entry| entry.draft))
                    .unwrap_or(0)
            });
        let slot = &mut bucket[index];
        let mut entry = match slot {
            Some(old) if old.key == key && old.draft == draft => *old,
            _ => TtEntry {
                key,
                lower: -INFINITY,
                upper: INFINITY,
                draft,
                best: None,
            },
        };
        if let Some(lower) = lower {
            entry.lower = lower;
        }
        if let Some(upper) = upper {
            entry.upper = upper;
        }
        if best.is_some() {
            entry.best = best;
        }
        *slot = Some(entry);
        entry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_bounds_separately_and_keeps_the_other() {
        let mut table: TranspositionTable<u8> = TranspositionTable::with_entries(64);
        let (five, nine) = (Score::new(5), Score::new(9));
        table.store(7, 3, Some(five), None, Some(1));
        let entry = table.store(7, 3, None, Some(nine), None);
        assert_eq!(
            (entry.lower, entry.upper, entry.best),
            (five, nine, Some(1))
        );
        assert_eq!(
            table.probe(7, 3).map(|e| (e.lower, e.upper)),
            Some((five, nine))
        );
        assert!(
            table.probe(7, 4).is_none(),
            "a shallower entry must not answer"
        );
        assert!(table.probe(8, 3).is_none());
    }

    #[test]
    fn colliding_keys_replace_each_other() {
        let mut table: TranspositionTable<u8> = TranspositionTable::with_entries(8);
        assert_eq!(table.capacity(), 8);
        for key in 0..64 {
            table.store(key, 0, Some(Score::new(key as i32)), None, None);
        }
        let kept = (0..64).filter(|&key| table.probe(key, 0).is_some()).count();
        assert!(kept <= 8);
        assert!(table.probe(63, 0).is_some(), "the newest entry is kept");
        table.clear();
        assert!((0..64).all(|key| table.probe(key, 0).is_none()));
    }
}
