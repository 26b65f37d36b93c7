//! The built-in book: it loads, every entry is reached from the start by book moves,
//! and every stored move is legal in its position (the whole book walked).

use std::collections::{HashSet, VecDeque};

use xiangqi_tui::board::Position;
use xiangqi_tui::book::{Book, BookKey};

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
    // The start position offers the engine's few best first moves, best first.
    let first = book.moves(&Position::startpos());
    assert!((1..=3).contains(&first.len()));
    assert!(
        first
            .windows(2)
            .all(|w| w[0].stats.count >= w[1].stats.count)
    );
}
