//! The rules core: positions, moves, FEN, Zobrist keys, legal move generation, perft,
//! game-end verdicts and the arbiter that rules repetitions.

mod arbiter;
mod bitboard;
mod chase;
mod citation;
mod fen;
mod movegen;
mod position;
pub mod rulebook;
pub mod rules;
mod ruling;
pub mod tables;
mod types;
mod zobrist;

pub use arbiter::{Decision, Offence};
pub use bitboard::{Bb, Squares};
pub use fen::{FenError, placement};
pub use position::{Position, Undo};
pub use rulebook::Rule;
pub use ruling::{CycleMove, MoveKind, Ruling, Target, Warning};
pub use types::{Color, Kind, Move, Piece, Square};
