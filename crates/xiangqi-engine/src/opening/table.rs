//! A loaded opening table: positions (canonical book keys) and the ECCO code the master
//! games through each carry. A game is classified by the deepest position along its
//! moves that the table holds.

use std::borrow::Cow;
use std::path::Path;
use std::sync::OnceLock;

use crate::book::lookup::partition_point;
use crate::book::{BookKey, mirror_move};
use crate::eval::mirrored_files;
use xiangqi_core::board::{Move, Position};

use super::code::Ecco;
use super::format::{self, HEADER_LEN, Level, TableError, TableInfo};

/// The built-in table (made by `book ecco` from the CCPD master games; docs/openings.md).
static BUILTIN: &[u8] = include_bytes!("table.bin");

/// An opening table in memory.
#[derive(Debug, Clone)]
pub struct OpeningTable {
    bytes: Cow<'static, [u8]>,
    info: TableInfo,
}

impl OpeningTable {
    /// Checks `bytes` (header, length, checksum, order, codes) and keeps them.
    pub fn from_bytes(bytes: impl Into<Cow<'static, [u8]>>) -> Result<OpeningTable, TableError> {
        let bytes = bytes.into();
        let info = format::validate(&bytes)?;
        Ok(OpeningTable { bytes, info })
    }

    /// Reads and checks a table file; errors name the file.
    pub fn open(path: &Path) -> Result<OpeningTable, TableError> {
        let in_file = |error: TableError| TableError::File {
            path: path.display().to_string(),
            error: Box::new(error),
        };
        let bytes = std::fs::read(path).map_err(|e| in_file(TableError::Io(e.to_string())))?;
        OpeningTable::from_bytes(bytes).map_err(in_file)
    }

    /// The built-in table, checked on first use.
    pub fn builtin() -> Result<&'static OpeningTable, TableError> {
        static LOADED: OnceLock<Result<OpeningTable, TableError>> = OnceLock::new();
        LOADED
            .get_or_init(|| {
                OpeningTable::from_bytes(BUILTIN).map_err(|error| TableError::File {
                    path: "built-in opening table".to_owned(),
                    error: Box::new(error),
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.info.entries
    }

    pub fn is_empty(&self) -> bool {
        self.info.entries == 0
    }

    /// The deepest ply the table holds positions of.
    pub fn max_ply(&self) -> u32 {
        self.info.max_ply
    }

    /// Size of the file in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The code decided at a canonical key, and how finely, if the table holds it.
    pub fn code_of(&self, key: u64) -> Option<(Ecco, Level)> {
        let area = &self.bytes[HEADER_LEN..];
        let len = self.info.entries;
        let at = partition_point(len, |i| format::key_at(area, i) < key);
        (at < len && format::key_at(area, at) == key).then(|| format::code_at(area, at))
    }

    /// The code of the deepest position along `moves` from the standard start that the
    /// table decides at the finest level any of them is decided at (a code before a
    /// group before a family); the start itself is never held. `None` from any other
    /// start, or when no position along the moves is held. Moves are trusted to be legal.
    pub fn classify(&self, start: &Position, moves: &[Move]) -> Option<Ecco> {
        if !is_standard_start(start) {
            return None;
        }
        let mut pos = start.clone();
        // The mirror image is played alongside, as the book builder does, rather than
        // rebuilt at every ply.
        let mut mirror = mirrored_files(&pos);
        let mut found = None;
        for &mv in moves.iter().take(self.info.max_ply as usize) {
            pos.make_move(mv);
            mirror.make_move(mirror_move(mv));
            let key = BookKey::from_keys(pos.key(), mirror.key()).key;
            if let Some((code, level)) = self.code_of(key)
                && found.is_none_or(|(_, finest)| level <= finest)
            {
                found = Some((code, level));
            }
        }
        found.map(|(code, _)| code)
    }
}

/// Whether `start` is the standard start position, Red to move (by Zobrist key, which
/// covers every piece and the side to move).
pub fn is_standard_start(start: &Position) -> bool {
    static START: OnceLock<u64> = OnceLock::new();
    start.key() == *START.get_or_init(|| Position::startpos().key())
}
