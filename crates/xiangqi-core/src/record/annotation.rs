//! What a record says besides its moves: comments, NAGs (`$2` ?, `$4` ??, `$6` ?!) and
//! variations. The moves themselves stay in plain lists (`GameRecord::moves`,
//! `Line::moves`) so everything that only plays a game never sees the notes; the notes
//! sit beside them, index for index.

use crate::board::Move;

/// Numeric annotation glyphs used by game review.
pub mod nag {
    pub const GOOD: u8 = 1;
    pub const MISTAKE: u8 = 2;
    pub const BRILLIANT: u8 = 3;
    pub const BLUNDER: u8 = 4;
    pub const INTERESTING: u8 = 5;
    pub const DUBIOUS: u8 = 6;
}

/// Variations inside variations deeper than this are refused by every reader (PGN, XQF):
/// a record's lines are read, replayed, written and dropped recursively, and no real
/// record comes near it.
pub const MAX_NESTING: usize = 100;

/// Notes on one move of a line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Annotation {
    /// Numeric annotation glyphs, in the order written.
    pub nags: Vec<u8>,
    /// The comment after the move, without its braces.
    pub comment: Option<String>,
    /// Alternatives to this move, each played from the position before it.
    pub variations: Vec<Line>,
}

impl Annotation {
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comment.is_none() && self.variations.is_empty()
    }
}

/// Moves with their notes: a variation (or, through `GameRecord`, the main line).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// A comment before the first move.
    pub comment: Option<String>,
    pub moves: Vec<Move>,
    /// `notes[i]` belongs to `moves[i]`; it may be shorter than `moves` (no notes after).
    pub notes: Vec<Annotation>,
}

impl Line {
    pub fn new(moves: Vec<Move>) -> Line {
        Line {
            moves,
            ..Line::default()
        }
    }

    /// The notes of move `index`, if it has any.
    pub fn note(&self, index: usize) -> Option<&Annotation> {
        note(&self.notes, index)
    }

    /// The notes of move `index`, created empty when missing.
    pub fn note_mut(&mut self, index: usize) -> &mut Annotation {
        note_mut(&mut self.notes, index)
    }
}

/// `notes[index]` unless it is missing or empty.
pub(crate) fn note(notes: &[Annotation], index: usize) -> Option<&Annotation> {
    notes.get(index).filter(|n| !n.is_empty())
}

pub(crate) fn note_mut(notes: &mut Vec<Annotation>, index: usize) -> &mut Annotation {
    if notes.len() <= index {
        notes.resize_with(index + 1, Annotation::default);
    }
    &mut notes[index]
}
