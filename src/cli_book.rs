//! `book`: its subcommands and their arguments.

use std::path::PathBuf;

use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Build a book from game records (PGN or XQF files, or folders walked for .pgn and .xqf files).
    Build(BookBuildArgs),
    /// List the book moves of a position, most played first.
    Show(BookShowArgs),
    /// Generate a book from the engine's own analysis of the start position (--depth
    /// sets the search depth, 6 by default).
    Generate(BookGenerateArgs),
    /// Build the ECCO opening table from PGN games tagged [ECCO] (distinct games; the
    /// held-out tenth is never used).
    Ecco(BookEccoArgs),
}

#[derive(Debug, Args)]
pub struct BookEccoArgs {
    /// PGN files (UTF-8, GBK or Big5) or folders.
    #[arg(required = true, value_name = "PGN")]
    pub inputs: Vec<PathBuf>,
    /// Table file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Deepest ply of the positions kept.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub max_ply: u32,
    /// Keep a position only if at least this many distinct games reach it.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub min_games: u32,
    /// Keep a position only if its most common code has at least this share (0 to 1).
    #[arg(long, value_name = "SHARE", default_value_t = 0.7)]
    pub min_share: f64,
    /// Also classify the held-out games with the table and print the agreement.
    #[arg(long)]
    pub holdout_report: bool,
    /// Try settings on the validation split (tables built from the training part) and
    /// print their agreement, best first; nothing is written.
    #[arg(long, conflicts_with = "holdout_report")]
    pub tune: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct BookBuildArgs {
    /// PGN files (UTF-8, GBK or Big5), XQF files or folders.
    #[arg(required = true, value_name = "PGN")]
    pub inputs: Vec<PathBuf>,
    /// Book file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Plies taken from each game (0: all of them).
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub max_ply: usize,
    /// Keep a move only if at least this many games played it.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u32,
    /// Count each distinct game once (same start and moves), however many files hold it.
    #[arg(long)]
    pub distinct: bool,
    /// Add this book's positions that the games do not cover (the engine's analysis for
    /// the built-in book); then keep only what is reached from the start.
    #[arg(long, value_name = "BOOK")]
    pub fill: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct BookShowArgs {
    /// Position (xiangqi FEN); the start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play from the position first (any notation).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Book file; the configured book (`book` key), else the built-in one, by default.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BookGenerateArgs {
    /// Book file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Plies of the book (positions this many moves deep are not expanded).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub plies: u32,
    /// Most moves kept per position.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub width: usize,
    /// Keep moves scoring within this many centipawns of the best.
    #[arg(long, value_name = "CP", default_value_t = 25)]
    pub margin: i32,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}
