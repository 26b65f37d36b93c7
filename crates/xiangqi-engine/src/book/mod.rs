//! The opening book: positions (by Zobrist key, mirror images merged) with the moves
//! played from them, how often and with what results. Built from game records
//! (`builder`) or from the engine's analysis (`engine::book_gen`, above the book),
//! stored as a compact sorted file (`format`), looked up by binary search (`lookup`),
//! played from with some variety (`choose`).

pub mod builder;
pub mod choose;
pub mod format;
pub mod lookup;
pub mod merge;
pub mod mirror;

pub use builder::BookBuilder;
pub use choose::choose;
pub use format::{BookError, Entry, Source, Stats};
pub use lookup::{Book, BookMove};
pub use mirror::{BookKey, mirror_move};
