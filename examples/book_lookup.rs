//! Times book lookups: the built-in book (or the file given) is loaded and checked, then
//! every position it holds is looked up, plus as many that are not in it.
//!
//! `cargo run --release --example book_lookup [BOOK_FILE]`

use std::collections::{HashSet, VecDeque};
use std::time::Instant;

use xiangqi_core::board::Position;
use xiangqi_engine::book::{Book, BookKey};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    let book = match std::env::args().nth(1) {
        Some(path) => Book::open(std::path::Path::new(&path))?,
        None => Book::builtin()?.clone(),
    };
    let load = started.elapsed();
    // The positions in the book, walked from the start; and one move further (mostly
    // out of the book).
    let mut inside = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([Position::startpos()]);
    while let Some(pos) = queue.pop_front() {
        let moves = book.moves(&pos);
        for m in &moves {
            let mut child = pos.clone();
            child.make_move(m.mv);
            child.clear_history();
            if seen.insert(BookKey::of(&child).key) {
                queue.push_back(child);
            }
        }
        // The last plies' positions have no moves of their own.
        if !moves.is_empty() {
            inside.push(pos);
        }
    }
    let outside: Vec<Position> = inside
        .iter()
        .filter_map(|pos| {
            let mv = *pos.legal_move_list().last()?;
            let mut child = pos.clone();
            child.make_move(mv);
            child.clear_history();
            Some(child)
        })
        .collect();
    for (name, positions) in [("in the book", &inside), ("one move off", &outside)] {
        let rounds = 20;
        let started = Instant::now();
        let mut found = 0;
        for _ in 0..rounds {
            for pos in positions.iter() {
                found += book.moves(pos).len();
            }
        }
        let per = started.elapsed() / (rounds * positions.len()) as u32;
        println!(
            "{name}: {} positions x {rounds}, {:.1} us per lookup ({found} moves found)",
            positions.len(),
            per.as_secs_f64() * 1e6
        );
    }
    println!(
        "{} entries, {} bytes, loaded and checked in {:.2} ms",
        book.len(),
        book.size(),
        load.as_secs_f64() * 1e3
    );
    Ok(())
}
