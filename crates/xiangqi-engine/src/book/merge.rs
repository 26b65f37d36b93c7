//! Merging books: the masters' games where they cover a position, the engine's analysis
//! (or any other book) where they do not, then only what can be reached from the start
//! by book moves, so no entry hangs loose.

use std::collections::{HashMap, HashSet, VecDeque};

use xiangqi_core::board::Position;

use super::format::Entry;
use super::mirror::BookKey;

/// `primary`'s entries, plus `fill`'s entries of the positions `primary` has no entry
/// for; then only the entries reached from `start` by stored moves. Both inputs sorted
/// as the file stores them; so is the result.
pub fn merge(
    primary: &[Entry],
    fill: impl IntoIterator<Item = Entry>,
    start: &Position,
) -> Vec<Entry> {
    let covered: HashSet<u64> = primary.iter().map(|e| e.key).collect();
    let mut all: Vec<Entry> = primary.to_vec();
    all.extend(fill.into_iter().filter(|e| !covered.contains(&e.key)));
    all.sort_by_key(|e| (e.key, e.mv.bits()));
    reachable(&all, start)
}

/// The entries of `entries` reached from `start` by stored moves (breadth first over
/// canonical positions), in the order given.
pub fn reachable(entries: &[Entry], start: &Position) -> Vec<Entry> {
    let mut by_key: HashMap<u64, Vec<usize>> = HashMap::new();
    for (index, e) in entries.iter().enumerate() {
        by_key.entry(e.key).or_default().push(index);
    }
    let mut keep = vec![false; entries.len()];
    let mut root = start.clone();
    root.clear_history();
    let mut seen = HashSet::from([BookKey::of(&root).key]);
    let mut queue = VecDeque::from([root]);
    while let Some(pos) = queue.pop_front() {
        let key = BookKey::of(&pos);
        for &index in by_key.get(&key.key).into_iter().flatten() {
            let mv = key.convert(entries[index].mv);
            if !pos.is_legal(mv) {
                continue;
            }
            keep[index] = true;
            let mut child = pos.clone();
            child.make_move(mv);
            child.clear_history();
            if seen.insert(BookKey::of(&child).key) {
                queue.push_back(child);
            }
        }
    }
    entries
        .iter()
        .zip(keep)
        .filter_map(|(e, kept)| kept.then_some(*e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Source, Stats};
    use xiangqi_core::board::Move;

    fn entry(pos: &Position, mv: &str, count: u32, source: Source) -> Entry {
        let key = BookKey::of(pos);
        Entry {
            key: key.key,
            mv: key.convert(Move::parse_coords(mv).unwrap()),
            stats: Stats {
                count,
                ..Stats::default()
            },
            source,
        }
    }

    #[test]
    fn games_win_where_they_cover_and_loose_entries_go() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move(Move::parse_coords("h2e2").unwrap());
        let mut elsewhere = start.clone();
        elsewhere.make_move(Move::parse_coords("a3a4").unwrap());
        let games = vec![entry(&start, "h2e2", 10, Source::Games)];
        let engine = vec![
            entry(&start, "c3c4", 5, Source::Engine),
            entry(&after, "h9g7", 5, Source::Engine),
            entry(&elsewhere, "a6a5", 5, Source::Engine),
        ];
        let merged = merge(&games, engine, &start);
        let got: Vec<(String, Source)> = merged.iter().map(|e| (e.mv.iccs(), e.source)).collect();
        let mut want = vec![
            (games[0].mv.iccs(), Source::Games),
            (
                BookKey::of(&after)
                    .convert(Move::parse_coords("h9g7").unwrap())
                    .iccs(),
                Source::Engine,
            ),
        ];
        want.sort();
        let mut got_sorted = got.clone();
        got_sorted.sort();
        assert_eq!(got_sorted, want);
    }
}
