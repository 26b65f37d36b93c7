//! XQF, the binary game records of XQStudio that most collections on the web use (and
//! XiangQi Wizard reads): every version, plain (10 and before) or scrambled (11 and
//! later), read into a [`GameRecord`](crate::record::GameRecord) with its comments and
//! variations; and a writer. docs/records.md describes the format as read here.

mod error;
mod header;
mod keys;
mod pieces;
mod read;
mod tree;
mod write;

pub use error::{XqfError, XqfErrorKind};
pub use read::{MAGIC, is_xqf, read_xqf};
pub use tree::{MAX_NESTING, MAX_PLIES};
pub use write::{write_xqf, write_xqf_seeded};
