//! Why a typed move was not accepted: malformed, illegal or ambiguous, each saying what and
//! where so a player can fix it.

use std::fmt;

use thiserror::Error;

use crate::board::{Move, Piece, Square};

/// A move string that does not resolve to exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in any accepted notation. `column` (1-based, in characters of
    /// the original text) points at the offending character.
    #[error("'{input}': column {column}: {reason}")]
    Malformed {
        input: String,
        column: usize,
        reason: String,
    },
    /// The text reads as a move, but no legal move fits it.
    #[error("'{input}': illegal: {}", illegal_message(.piece, .from, .to, .reason))]
    Illegal {
        input: String,
        /// The piece the text names, when one could be found.
        piece: Option<Piece>,
        from: Option<Square>,
        to: Option<Square>,
        reason: IllegalReason,
    },
    /// Several legal moves fit the text; the candidates let a front end offer a choice.
    #[error("'{input}': ambiguous: could be {}", list_candidates(.candidates))]
    Ambiguous {
        input: String,
        candidates: Vec<Candidate>,
    },
}

impl MoveError {
    /// The text the error is about.
    pub fn input(&self) -> &str {
        match self {
            MoveError::Malformed { input, .. }
            | MoveError::Illegal { input, .. }
            | MoveError::Ambiguous { input, .. } => input,
        }
    }

    /// The column of the offending character, for malformed input.
    pub fn column(&self) -> Option<usize> {
        match self {
            MoveError::Malformed { column, .. } => Some(*column),
            _ => None,
        }
    }
}

/// One of the legal moves an ambiguous string could mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    /// The move in canonical Chinese notation.
    pub chinese: String,
}

/// Why the move a text names cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalReason {
    /// No piece answers the description, e.g. "Red has no cannon on file 二 (h)".
    NoSuchPiece(String),
    /// ICCS input whose origin point is empty.
    EmptySquare(Square),
    /// ICCS input whose origin holds a piece of the side not to move.
    NotYourPiece(Square),
    /// The piece never moves like that, e.g. "a horse never moves straight sideways".
    CannotMoveThatWay(&'static str),
    OwnPieceOnTarget(Square),
    HorseLegBlocked(Square),
    ElephantEyeBlocked(Square),
    PathBlocked(Square),
    /// A cannon captures by jumping exactly one piece; `screens` were in between.
    CannonScreens(u32),
    LeavesGeneralInCheck,
    GeneralsWouldFace,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::NoSuchPiece(what) => f.write_str(what),
            IllegalReason::EmptySquare(s) => write!(f, "there is no piece on {s}"),
            IllegalReason::NotYourPiece(s) => {
                write!(f, "the piece on {s} belongs to the side not to move")
            }
            IllegalReason::CannotMoveThatWay(why) => f.write_str(why),
            IllegalReason::OwnPieceOnTarget(s) => write!(f, "its own side already holds {s}"),
            IllegalReason::HorseLegBlocked(s) => {
                write!(f, "the horse's leg at {s} is blocked (蹩马腿)")
            }
            IllegalReason::ElephantEyeBlocked(s) => {
                write!(f, "the elephant's eye at {s} is blocked (塞象眼)")
            }
            IllegalReason::PathBlocked(s) => write!(f, "the way is blocked at {s}"),
            IllegalReason::CannonScreens(n) => write!(
                f,
                "a cannon captures by jumping exactly one piece, and {n} stand in between"
            ),
            IllegalReason::LeavesGeneralInCheck => {
                f.write_str("it would leave the general in check")
            }
            IllegalReason::GeneralsWouldFace => f.write_str("the generals would face each other"),
        }
    }
}

fn illegal_message(
    piece: &Option<Piece>,
    from: &Option<Square>,
    to: &Option<Square>,
    reason: &IllegalReason,
) -> String {
    match (piece, from) {
        (Some(p), Some(from)) if p.is_some() => {
            let who = format!("the {} {} on {from}", p.color().name(), p.kind().name());
            match to {
                Some(to) => format!("{who} cannot move to {to}: {reason}"),
                None => format!("{who} cannot move that way: {reason}"),
            }
        }
        _ => reason.to_string(),
    }
}

fn list_candidates(candidates: &[Candidate]) -> String {
    let names: Vec<String> = candidates
        .iter()
        .map(|c| format!("{} ({})", c.chinese, c.mv))
        .collect();
    names.join(" or ")
}
