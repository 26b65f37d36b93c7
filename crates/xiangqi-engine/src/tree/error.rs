//! Errors of the `.tree` format, each with the line:column where it occurs.

use std::fmt;

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourcePos {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A broken `.tree` rule and where: displays as `line:column: what`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {kind}")]
pub struct TreeError {
    pub pos: SourcePos,
    pub kind: TreeErrorKind,
}

/// Which rule of §2.1 a tree breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeErrorKind {
    #[error("empty input: expected a tree '( ... )'")]
    EmptyInput,
    #[error("unbalanced parentheses: this '(' is never closed")]
    UnclosedParen,
    #[error("unbalanced parentheses: ')' has no matching '('")]
    UnmatchedParen,
    #[error("empty node: '()' needs at least one child")]
    EmptyNode,
    #[error("the root must be an interior node '( ... )', not a leaf")]
    LeafRoot,
    #[error("duplicate name '{name}' (first used at {first})")]
    DuplicateName { name: String, first: SourcePos },
    #[error("the name 'root' is reserved for the root")]
    ReservedName,
    #[error("interval [{lo},{hi}] has lo > hi")]
    InvertedInterval { lo: i64, hi: i64 },
    #[error(
        "an interior node cannot carry a point value; it may only carry an interval '=[lo,hi]' (for B*)"
    )]
    InteriorPointValue,
    #[error("an interior node's interval goes right after its '(' as in '(=[lo,hi] ...)'")]
    MisplacedInterval,
    #[error("the tree is nested more than {max} levels deep")]
    TooDeep { max: u32 },
    #[error("trailing input after the tree")]
    TrailingInput,
    #[error("value {text} is out of range (magnitude at most {max})")]
    ValueOutOfRange { text: String, max: i32 },
    #[error("unexpected character '{0}'")]
    UnexpectedChar(char),
    #[error(
        "name '{0}' needs a value: a leaf is NAME=INT or NAME=[lo,hi], and an interior node's name goes right after its '('"
    )]
    NameWithoutValue(String),
    #[error("expected {expected}, found {found}")]
    Expected {
        expected: &'static str,
        found: String,
    },
    #[error("interval leaf [{lo},{hi}] is accepted only by bstar, not by {algorithm}")]
    IntervalLeaf { lo: i32, hi: i32, algorithm: String },
}
