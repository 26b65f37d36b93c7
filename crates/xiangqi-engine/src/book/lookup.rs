//! A loaded book: the file's bytes, checked once, searched by binary search per lookup.

use std::borrow::Cow;
use std::path::Path;
use std::sync::OnceLock;

use xiangqi_core::board::{Color, Move, Position};

use super::format::{self, BookError, Entry, HEADER_LEN, Source, Stats};
use super::mirror::BookKey;

/// The built-in book (made by `book generate`, see docs/engine.md), in the binary.
static BUILTIN: &[u8] = include_bytes!("builtin.xqb");

/// An opening book in memory.
#[derive(Debug, Clone)]
pub struct Book {
    bytes: Cow<'static, [u8]>,
    len: usize,
    entry_len: usize,
}

/// A book move of a position, in that position's own frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub stats: Stats,
    pub source: Source,
}

impl BookMove {
    /// The score of the games for `side` (the side to move): wins plus half the draws,
    /// in percent of the games with a known result; `None` when none is known.
    pub fn score_percent(&self, side: Color) -> Option<f64> {
        let s = self.stats;
        let decided = u64::from(s.red_wins) + u64::from(s.draws) + u64::from(s.black_wins);
        if decided == 0 {
            return None;
        }
        let wins = match side {
            Color::Red => s.red_wins,
            Color::Black => s.black_wins,
        };
        Some((f64::from(wins) + f64::from(s.draws) / 2.0) * 100.0 / decided as f64)
    }
}

impl BookMove {
    /// Red wins, draws and Black wins in percent of the games with a known result;
    /// `None` for an engine entry or when no result is known.
    pub fn result_percents(&self) -> Option<[f64; 3]> {
        let s = self.stats;
        let decided = u64::from(s.red_wins) + u64::from(s.draws) + u64::from(s.black_wins);
        if self.source == Source::Engine || decided == 0 {
            return None;
        }
        Some([s.red_wins, s.draws, s.black_wins].map(|n| f64::from(n) * 100.0 / decided as f64))
    }
}

impl Book {
    /// Checks `bytes` (header, length, checksum, order) and keeps them.
    pub fn from_bytes(bytes: impl Into<Cow<'static, [u8]>>) -> Result<Book, BookError> {
        let bytes = bytes.into();
        let layout = format::validate(&bytes)?;
        Ok(Book {
            bytes,
            len: layout.entries,
            entry_len: layout.entry_len,
        })
    }

    /// Reads and checks a book file; errors name the file.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let in_file = |error: BookError| BookError::File {
            path: path.display().to_string(),
            error: Box::new(error),
        };
        let bytes = std::fs::read(path).map_err(|e| in_file(BookError::Io(e.to_string())))?;
        Book::from_bytes(bytes).map_err(in_file)
    }

    /// The built-in book, checked on first use.
    pub fn builtin() -> Result<&'static Book, BookError> {
        static LOADED: OnceLock<Result<Book, BookError>> = OnceLock::new();
        LOADED
            .get_or_init(|| {
                Book::from_bytes(BUILTIN).map_err(|error| BookError::File {
                    path: "built-in book".to_owned(),
                    error: Box::new(error),
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Number of entries (position and move pairs).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Size of the file in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    fn area(&self) -> &[u8] {
        &self.bytes[HEADER_LEN..]
    }

    /// Every entry, in file order (by canonical key, then move).
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.len).map(|i| format::entry_at(self.area(), i, self.entry_len))
    }

    /// The entries stored under a canonical key.
    pub fn entries_for(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let (area, entry_len) = (self.area(), self.entry_len);
        let first = partition_point(self.len, |i| format::key_at(area, i, entry_len) < key);
        (first..self.len)
            .take_while(move |&i| format::key_at(area, i, entry_len) == key)
            .map(move |i| format::entry_at(area, i, entry_len))
    }

    /// The book moves of `pos`, legal ones only, most played first (then by move, so the
    /// order is fixed); empty when the position is not in the book.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let book_key = BookKey::of(pos);
        let mut moves: Vec<BookMove> = self
            .entries_for(book_key.key)
            .map(|e| BookMove {
                mv: book_key.convert(e.mv),
                stats: e.stats,
                source: e.source,
            })
            .filter(|m| pos.is_legal(m.mv))
            .collect();
        moves.sort_by(|a, b| {
            b.stats
                .count
                .cmp(&a.stats.count)
                .then(a.mv.iccs().cmp(&b.mv.iccs()))
        });
        moves
    }
}

/// The first index in `0..len` where `below` is false (`below` is true, then false).
pub(crate) fn partition_point(len: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
