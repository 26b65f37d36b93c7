//! The games tables and books are built from: PGN texts read into distinct games (one
//! game filed in several files counts once: same start and same moves), each with its
//! result and ECCO tag, and split deterministically into a training part, a validation
//! part (for tuning) and a held-out part (for measuring), by a hash of the moves so a
//! game lands in the same part whichever file it is read from first.

use std::collections::HashSet;

use crate::book::BookBuilder;
use crate::book::builder::split_games;
use xiangqi_core::board::{Move, Position};
use xiangqi_core::record::{GameRecord, GameResult, RecordError};

use super::code::Ecco;
use super::table::OpeningTable;

/// One distinct game.
#[derive(Debug, Clone)]
pub struct CorpusGame {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
    /// The `[ECCO]` tag, when it holds a code.
    pub ecco: Option<Ecco>,
}

/// Distinct games, in the order first read.
#[derive(Debug, Default)]
pub struct Corpus {
    pub games: Vec<CorpusGame>,
    /// Games read, repeats included.
    pub read: usize,
    /// Games skipped: (where, why).
    pub skipped: Vec<(String, String)>,
    seen: HashSet<(u64, Vec<u16>)>,
}

/// Which part of the split a game is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// 80%: what tables are built from while tuning.
    Train,
    /// 10%: what tuning measures on.
    Validation,
    /// 10%: never built from; measured once.
    HeldOut,
}

impl Part {
    /// The part of a game with these moves: FNV-1a over the moves' bits, modulo 10
    /// (0 held out, 1 validation).
    pub fn of(moves: &[Move]) -> Part {
        let bytes: Vec<u8> = moves.iter().flat_map(|m| m.bits().to_le_bytes()).collect();
        match crate::book::format::checksum(&bytes) % 10 {
            0 => Part::HeldOut,
            1 => Part::Validation,
            _ => Part::Train,
        }
    }
}

impl Corpus {
    pub fn new() -> Corpus {
        Corpus::default()
    }

    /// Adds the games of a decoded PGN text; `source` names it in the skipped list. A
    /// game with an illegal move or a broken record is skipped, never ending the read.
    pub fn add_text(&mut self, text: &str, source: &str) {
        for (index, game) in split_games(text).into_iter().enumerate() {
            match GameRecord::from_pgn(game) {
                Ok(record) => self.add(record),
                Err(error) => {
                    let why = match error {
                        RecordError::Move(failure) => format!("illegal move: {failure}"),
                        other => other.to_string(),
                    };
                    self.skipped
                        .push((format!("{source} game {}", index + 1), why));
                }
            }
        }
    }

    /// Adds one game unless the same game (start and moves) is already in.
    pub fn add(&mut self, record: GameRecord) {
        self.read += 1;
        let bits: Vec<u16> = record.moves.iter().map(|m| m.bits()).collect();
        if !self.seen.insert((record.start.key(), bits)) {
            return;
        }
        let ecco = record.tag("ECCO").and_then(|t| t.parse().ok());
        self.games.push(CorpusGame {
            start: record.start,
            moves: record.moves,
            result: record.result,
            ecco,
        });
    }

    /// The games of the given parts.
    pub fn games_in<'a>(&'a self, parts: &'a [Part]) -> impl Iterator<Item = &'a CorpusGame> {
        self.games
            .iter()
            .filter(move |g| parts.contains(&Part::of(&g.moves)))
    }
}

impl CorpusGame {
    /// The game as the book builder counts it.
    pub fn add_to_book(&self, book: &mut BookBuilder) {
        let mut record = GameRecord::new(self.start.clone());
        record.moves = self.moves.clone();
        record.result = self.result;
        book.add_game(&record);
    }
}

/// How often a table's classification agrees with the games' tags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Tagged games from the standard start.
    pub games: usize,
    /// Of those, games the table gives a code.
    pub classified: usize,
    /// Of those, games whose code is the tag's.
    pub agree: usize,
}

impl Agreement {
    /// Agreeing games in percent of all tagged games (an unclassified game disagrees).
    pub fn percent(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.agree as f64 * 100.0 / self.games as f64
    }

    /// Agreeing games in percent of the classified ones.
    pub fn precision(&self) -> f64 {
        if self.classified == 0 {
            return 0.0;
        }
        self.agree as f64 * 100.0 / self.classified as f64
    }
}

/// Classifies `games` (whole games) with `table` and compares with their tags.
pub fn agreement<'a>(
    table: &OpeningTable,
    games: impl IntoIterator<Item = &'a CorpusGame>,
) -> Agreement {
    let mut result = Agreement::default();
    for game in games {
        let Some(tag) = game.ecco else { continue };
        if !super::table::is_standard_start(&game.start) {
            continue;
        }
        result.games += 1;
        if let Some(code) = table.classify(&game.start, &game.moves) {
            result.classified += 1;
            if code == tag {
                result.agree += 1;
            }
        }
    }
    result
}
