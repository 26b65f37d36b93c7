//! Mating puzzles whose solution is proven unique (docs/puzzles.md): the [`Puzzle`] type,
//! the set built into the binary ([`builtin`]), the certification of a candidate by the
//! exact mate prover ([`certify`], [`verify`]), the themes told from a solution, and the
//! check of a player's move ([`check_move`]).
//!
//! A puzzle is kept only if the side to move mates in N at best, its first move is the
//! only one that mates in N, each defence along the stored line lasts as long as any
//! other, and each later attacking move still mates in time.

mod certify;
mod check;
mod file;
mod symmetry;
mod theme;

use serde::Serialize;

use xiangqi_core::board::{Move, Position};

pub use certify::{Certified, Rejection, certify, verify};
pub use check::{MoveCheck, check_move, longest_defence, mating_move};
pub use file::{PuzzleFileError, parse_puzzles, write_puzzles};
pub use symmetry::canonical_key;
pub use theme::Theme;

/// A certified mate puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Puzzle {
    /// Stable across re-mining: from the position's key, mirror images and the colour
    /// flip included (see [`canonical_key`]).
    pub id: String,
    pub fen: String,
    /// The side to move mates in this many of its own moves, and not fewer.
    pub mate_in: u32,
    /// The whole line, 2N-1 plies (serialized as ICCS moves).
    pub solution: Vec<Move>,
    pub themes: Vec<Theme>,
    pub source: Source,
}

/// Where a puzzle's position comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Source {
    /// A position of a master game (after some move of it).
    Game {
        red: String,
        black: String,
        event: String,
        year: Option<u16>,
    },
    /// The start position of a mating exercise of the dataset.
    Exercise { title: String },
    /// A position of the engine's games against itself.
    SelfPlay,
}

impl Source {
    /// One line for people: `許銀川 – 呂欽, 五羊杯 (2005)`.
    pub fn describe(&self) -> String {
        match self {
            Source::Game {
                red,
                black,
                event,
                year,
            } => {
                let year = year.map(|y| format!(" ({y})")).unwrap_or_default();
                format!("{red} – {black}, {event}{year}")
            }
            Source::Exercise { title } => format!("exercise: {title}"),
            Source::SelfPlay => "engine self-play".to_owned(),
        }
    }
}

impl Puzzle {
    /// A puzzle of a certified position.
    pub fn new(pos: &Position, certified: Certified, source: Source) -> Puzzle {
        Puzzle {
            id: puzzle_id(pos),
            fen: pos.to_fen(),
            mate_in: certified.mate_in,
            solution: certified.solution,
            themes: certified.themes,
            source,
        }
    }

    /// The position to solve. Built-in and parsed puzzles have a valid FEN.
    pub fn position(&self) -> Position {
        Position::from_fen(&self.fen).expect("a puzzle's FEN was checked when it was read")
    }

    pub fn has_theme(&self, theme: Theme) -> bool {
        self.themes.contains(&theme)
    }
}

/// The id of a puzzle of `pos`: eight hex digits of its canonical key.
pub fn puzzle_id(pos: &Position) -> String {
    format!("{:08x}", canonical_key(pos) >> 32)
}

/// The set built into the binary (mined from the CCPD dataset by `puzzles mine`).
pub fn builtin() -> &'static [Puzzle] {
    static SET: std::sync::OnceLock<Vec<Puzzle>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        parse_puzzles(include_str!("builtin.tsv"))
            .expect("the built-in puzzle set is valid (tested)")
    })
}
