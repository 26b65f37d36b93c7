//! The built-in book: it loads, every entry is reached from the start by book moves,
//! every stored move is legal in its position (the whole book walked), and the start
//! position holds the master games' counts.

use std::collections::{HashSet, VecDeque};

use xiangqi_core::board::Position;
use xiangqi_engine::book::{Book, BookKey, Source, Stats};

#[test]
fn the_builtin_book_loads_and_every_move_is_legal() {
    let book = Book::builtin().unwrap();
    assert!(book.len() > 1000, "{} entries", book.len());
    assert!(book.size() <= 1 << 20, "{} bytes", book.size());
    let mut seen: HashSet<u64> = HashSet::new();
    let mut reached = 0;
    let mut queue = VecDeque::from([Position::startpos()]);
    seen.insert(BookKey::of(&Position::startpos()).key);
    while let Some(pos) = queue.pop_front() {
        let key = BookKey::of(&pos);
        for entry in book.entries_for(key.key) {
            let mv = key.convert(entry.mv);
            assert!(pos.is_legal(mv), "{} in {}", mv.iccs(), pos.to_fen());
            reached += 1;
            let mut child = pos.clone();
            child.make_move(mv);
            child.clear_history();
            if seen.insert(BookKey::of(&child).key) {
                queue.push_back(child);
            }
        }
    }
    assert_eq!(
        reached,
        book.len(),
        "every entry hangs off the start position"
    );
    // The start position offers the masters' first moves, most played first: counts of
    // the 26,316 distinct CCPD games (src/book/builtin.xqb, docs/openings.md).
    let first = book.moves(&Position::startpos());
    assert_eq!(first.len(), 19);
    assert!(
        first
            .windows(2)
            .all(|w| w[0].stats.count >= w[1].stats.count)
    );
    let top: Vec<(String, Stats, Source)> = first
        .iter()
        .take(3)
        .map(|m| (m.mv.iccs(), m.stats, m.source))
        .collect();
    let stats = |count, red_wins, draws, black_wins| Stats {
        count,
        red_wins,
        draws,
        black_wins,
    };
    assert_eq!(
        top,
        [
            (
                "h2e2".to_owned(),
                stats(15758, 5977, 5183, 4563),
                Source::Games
            ),
            (
                "c3c4".to_owned(),
                stats(4192, 1833, 1450, 887),
                Source::Games
            ),
            ("g0e2".to_owned(), stats(2359, 851, 962, 535), Source::Games),
        ]
    );
    // Where the masters' games are too few, the engine's analysis fills in.
    let engine = book
        .entries()
        .filter(|e| e.source == Source::Engine)
        .count();
    assert_eq!((book.len(), engine), (24838, 686));
}
