//! What can be wrong with an XQF file: always where (the byte offset) and what.

use thiserror::Error;

/// Why an XQF file could not be read; it displays as one line, `offset 0x0408: ...`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("offset 0x{offset:04x}: {kind}")]
pub struct XqfError {
    /// Where in the file the problem is.
    pub offset: usize,
    pub kind: XqfErrorKind,
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum XqfErrorKind {
    #[error("not an XQF file (magic {found}, expected 58 51 \"XQ\")")]
    NotXqf { found: String },
    #[error("truncated header: the file has {len} bytes, the header needs 1024")]
    TruncatedHeader { len: usize },
    #[error("bad piece array: {0}")]
    BadPieces(String),
    #[error("truncated move tree: move record {record} needs {needed} bytes, {left} are left")]
    TruncatedTree {
        record: usize,
        needed: usize,
        left: usize,
    },
    #[error("move record {record}: {what}")]
    BadRecord { record: usize, what: String },
    #[error("move record {record}: ply {ply}: {mv} is illegal here")]
    IllegalMove {
        record: usize,
        /// The move's place in its line, counted in plies from the game's start (1 = first).
        ply: usize,
        /// The move in ICCS coordinates, `h2e2`.
        mv: String,
    },
    #[error("move record {record}: variations nested more than {max} deep")]
    TooDeep { record: usize, max: usize },
    #[error("move record {record}: the line is longer than {max} plies")]
    TooLong { record: usize, max: usize },
}

impl XqfError {
    pub(super) fn new(offset: usize, kind: XqfErrorKind) -> XqfError {
        XqfError { offset, kind }
    }

    /// The ply of an illegal move, if that is what is wrong.
    pub fn illegal_ply(&self) -> Option<usize> {
        match self.kind {
            XqfErrorKind::IllegalMove { ply, .. } => Some(ply),
            _ => None,
        }
    }
}
