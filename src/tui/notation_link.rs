//! The TUI's one door to move notation: reading what the player typed, printing moves.
//!
//! TEMPORARY until `crate::notation` is merged: input is ICCS only (`Move::parse_coords`
//! plus a legality check) and every move prints in ICCS. Swap the bodies of
//! `parse_move` and `format_move` for `notation::parse_move` / `notation::format_move`.

use crate::board::{Move, Position};
use crate::config::Notation;

/// One legal move an ambiguous input could mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    /// The move as the chooser lists it.
    pub label: String,
}

/// Why typed text is not a move of the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryError {
    /// Malformed or illegal: the message says what and where.
    Invalid(String),
    /// Several legal moves fit: the player chooses.
    Ambiguous {
        message: String,
        candidates: Vec<Candidate>,
    },
}

impl EntryError {
    pub fn message(&self) -> &str {
        match self {
            EntryError::Invalid(message) | EntryError::Ambiguous { message, .. } => message,
        }
    }
}

/// The legal move `text` names in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, EntryError> {
    let text = text.trim();
    let mv = Move::parse_coords(text).ok_or_else(|| {
        EntryError::Invalid(format!(
            "'{text}': not a move; type coordinates such as h2e2"
        ))
    })?;
    if pos.is_legal(mv) {
        Ok(mv)
    } else {
        Err(EntryError::Invalid(format!("'{text}': illegal move")))
    }
}

/// `mv`, a legal move of `pos`, in `notation`.
pub fn format_move(pos: &Position, mv: Move, notation: Notation) -> String {
    let _ = (pos, notation);
    mv.iccs()
}

/// A line of moves starting in `pos` (a principal variation), in `notation`; stops at the
/// first move that is not legal there.
pub fn format_line(pos: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(format_move(&pos, mv, notation));
        pos.make_move(mv);
    }
    out
}
