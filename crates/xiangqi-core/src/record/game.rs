//! A game record: where the game starts, the moves played, the tags and the result. It is
//! what files are read into and written from; the TUI keeps its undo/redo on top of it.

use std::path::Path;

use thiserror::Error;

use crate::board::{Move, Position};
use crate::notation::Notation;

use super::annotation::{self, Annotation};
use super::encoding::{DecodeError, decode};
use super::pgn::{MoveFailure, PgnError, parse_pgn};
use super::write::write_pgn;
use super::xqf::{XqfError, is_xqf, read_xqf};

/// How a game ended, as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    /// Unfinished or unknown (`*`).
    #[default]
    Unknown,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a PGN result token.
    pub fn from_token(token: &str) -> Option<GameResult> {
        Some(match token.trim() {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// Why a record file could not be loaded.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error(transparent)]
    Pgn(#[from] PgnError),
    #[error(transparent)]
    Move(#[from] MoveFailure),
    #[error(transparent)]
    Xqf(#[from] XqfError),
}

/// A game: its start position, its moves and what is known about it.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// Tag pairs other than `FEN`, `Format` and `Result`, in file order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move (no move history).
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// `notes[i]` holds the NAGs, comment and variations of `moves[i]`; it may be
    /// shorter than `moves` (no notes after).
    pub notes: Vec<Annotation>,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord::new(Position::startpos())
    }
}

impl GameRecord {
    /// An empty game from `start`.
    pub fn new(mut start: Position) -> GameRecord {
        start.clear_history();
        GameRecord {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: GameResult::Unknown,
            comment: None,
            notes: Vec::new(),
        }
    }

    /// The position after the first `plies` moves (all of them if `plies` is larger), with
    /// those moves in its history so repetition rules see them.
    pub fn position_after(&self, plies: usize) -> Position {
        let mut pos = self.start.clone();
        for &mv in self.moves.iter().take(plies) {
            pos.make_move(mv);
        }
        pos
    }

    /// The position after every move.
    pub fn final_position(&self) -> Position {
        self.position_after(self.moves.len())
    }

    /// The notes of move `index` (0 = the first move), if it has any.
    pub fn note(&self, index: usize) -> Option<&Annotation> {
        annotation::note(&self.notes, index)
    }

    /// The notes of move `index`, created empty when missing.
    pub fn note_mut(&mut self, index: usize) -> &mut Annotation {
        annotation::note_mut(&mut self.notes, index)
    }

    /// Keeps the first `plies` moves and their notes.
    pub fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.notes.truncate(plies);
    }

    /// The value of a tag, names compared without case.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing one of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Reads the first game of a PGN text; every move must be legal.
    pub fn from_pgn(text: &str) -> Result<GameRecord, RecordError> {
        let (record, failure) = parse_pgn(text)?.replay_partial()?;
        match failure {
            Some(f) => Err(f.into()),
            None => Ok(record),
        }
    }

    /// Reads a PGN file's bytes in UTF-8, GBK/GB18030 or Big5.
    pub fn from_pgn_bytes(bytes: &[u8]) -> Result<GameRecord, RecordError> {
        let (text, _) = decode(bytes)?;
        GameRecord::from_pgn(&text)
    }

    /// Reads a record file's bytes: XQF when they start with its magic `XQ` (whatever the
    /// file is called), otherwise the first game of a PGN text.
    pub fn from_bytes(bytes: &[u8]) -> Result<GameRecord, RecordError> {
        if is_xqf(bytes) {
            Ok(read_xqf(bytes)?)
        } else {
            GameRecord::from_pgn_bytes(bytes)
        }
    }

    /// Reads a record file, XQF or PGN (see [`GameRecord::from_bytes`]).
    pub fn read_file(path: &Path) -> Result<GameRecord, RecordError> {
        let bytes = std::fs::read(path).map_err(|e| RecordError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        GameRecord::from_bytes(&bytes)
    }

    /// The game as UTF-8 PGN with moves in `notation` (canonical Chinese by default).
    pub fn to_pgn(&self, notation: Notation) -> String {
        write_pgn(self, notation)
    }
}
