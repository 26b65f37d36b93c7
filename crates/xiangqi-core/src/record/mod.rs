//! Game records: the [`GameRecord`] type, PGN reading (UTF-8, GBK or Big5, detected) and
//! writing, and XQF files (binary, [`xqf`]) read and written.
//!
//! ```
//! use xiangqi_core::notation::Notation;
//! use xiangqi_core::record::GameRecord;
//!
//! let game = GameRecord::from_pgn("1. 炮二平五 馬８進７ 2. 馬二進三 *").unwrap();
//! assert_eq!(game.moves.len(), 3);
//! assert!(game.to_pgn(Notation::Chinese).contains("1. 炮二平五 马8进7\n2. 马二进三\n"));
//! ```

mod annotation;
mod encoding;
mod game;
mod pgn;
mod pgn_reader;
mod write;
pub mod xqf;

pub use write::pgn_date;

pub use annotation::{Annotation, Line, MAX_NESTING, nag};
pub use encoding::{DecodeError, TextEncoding, decode};
pub use game::{GameRecord, GameResult, RecordError};
pub use pgn::{
    MoveFailure, MoveText, PgnError, PgnErrorKind, PgnGame, Tag, VariationText, parse_pgn,
};
pub use xqf::{XqfError, read_xqf, write_xqf};
