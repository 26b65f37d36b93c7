//! Opening names: the ECCO code (A00-E99) and name of a game or of a game's first
//! moves, as master databases tag them (`[ECCO "C45"]`). The position table behind
//! `classify` is derived from the ECCO tags of the CCPD master games (docs/openings.md):
//! each position the games reach (mirror images merged, so transpositions meet) keeps
//! the code its games carry where that code is decided, and a game gets the code of the
//! deepest such position along its moves.
//!
//! ```
//! use xiangqi_core::board::Position;
//! use xiangqi_core::notation::parse_move;
//! use xiangqi_engine::opening::classify;
//!
//! let mut pos = Position::startpos();
//! let mut moves = Vec::new();
//! for text in ["炮二平五", "马8进7", "马二进三", "车9平8"] {
//!     let mv = parse_move(&pos, text).unwrap();
//!     pos.make_move(mv);
//!     moves.push(mv);
//! }
//! let opening = classify(&Position::startpos(), &moves).unwrap();
//! assert_eq!(opening.code.letter(), 'C');
//! ```

pub mod builder;
pub mod code;
pub mod corpus;
pub mod format;
pub mod names;
pub mod table;
mod tags;

use std::fmt;

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, Script};

pub use builder::{Decide, TableBuilder};
pub use code::{Ecco, EccoError};
pub use format::{Level, TableError};
pub use table::OpeningTable;
pub use tags::tag_record;

/// A classified opening: its ECCO code (always one with a name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opening {
    pub code: Ecco,
}

impl Opening {
    /// The opening of a code; `None` for a code ECCO leaves unused.
    pub fn new(code: Ecco) -> Option<Opening> {
        names::name(code, Script::Simplified).map(|_| Opening { code })
    }

    /// The full name ("opening#variation" when it has a variation), in traditional
    /// characters or simplified ones.
    pub fn name(self, traditional: bool) -> &'static str {
        self.name_in(if traditional {
            Script::Traditional
        } else {
            Script::Simplified
        })
    }

    /// The full name in `script`.
    pub fn name_in(self, script: Script) -> &'static str {
        names::name(self.code, script).unwrap_or("")
    }

    /// The full name in the characters `notation` prints moves in.
    pub fn name_for(self, notation: Notation) -> &'static str {
        self.name_in(notation.script())
    }

    /// The opening without its variation.
    pub fn opening_name(self, script: Script) -> &'static str {
        names::opening_part(self.name_in(script))
    }

    /// The variation, when the code names one.
    pub fn variation(self, script: Script) -> Option<&'static str> {
        names::variation_part(self.name_in(script))
    }

    /// "C45 name", the name in `script` with its variation after a space.
    pub fn label(self, script: Script) -> String {
        format!("{} {}", self.code, self.name_in(script).replace('#', " "))
    }
}

impl fmt::Display for Opening {
    /// "C45 name" in simplified characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label(Script::Simplified))
    }
}

/// The opening of a game (or of its first moves) played from `start`, by the built-in
/// table: the code of the deepest position along the moves that the table decides.
/// `None` from a start other than the standard one, for the start position itself and
/// for first moves too common to tell (the table holds no position where the master
/// games through it do not mostly agree).
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    let table = OpeningTable::builtin().ok()?;
    table.classify(start, moves).and_then(Opening::new)
}
