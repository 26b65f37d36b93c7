//! The rules of xiangqi and what writes them down: the board (`Position`, legal moves,
//! FEN, Zobrist keys, perft, the game-end rulings), move notation (Chinese, WXF, ICCS),
//! game records (PGN, XQF) and clocks; with the small utilities every floor above uses
//! (platform paths, atomic file writes, the wall clock's day, a seeded generator, text fitted
//! by display width).
//! The bottom floor: it depends on no other crate of the workspace.

pub mod atomic_file;
pub mod board;
pub mod clock;
pub mod date;
pub mod notation;
pub mod paths;
pub mod record;
pub mod rng;
pub mod text;
