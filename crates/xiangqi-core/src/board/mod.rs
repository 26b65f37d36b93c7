//! The rules core: positions, moves, FEN, Zobrist keys, legal move generation, perft and
//! game-end verdicts.

mod bitboard;
mod chase;
mod fen;
mod movegen;
mod position;
pub mod rules;
pub mod tables;
mod types;
mod zobrist;

pub use bitboard::{Bb, Squares};
pub use chase::CycleChases;
pub use fen::{FenError, placement};
pub use position::{Position, Undo};
pub use types::{Color, Kind, Move, Piece, Square};
