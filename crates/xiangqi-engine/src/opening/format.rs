//! The opening table file: a 32-byte header and fixed-size entries sorted by key, so a
//! lookup is a binary search over the bytes as they are.
//!
//! ```text
//! header   magic "XQTECCO\n" | version u16 | entry size u16 | max ply u32 | entries u64 | checksum u64
//! entry    key u64 | code u16 (level in the top two bits)
//! ```
//! All numbers little-endian. The key is the position's canonical book key (mirror
//! images merged, `book::BookKey`); the code is an ECCO index (`Ecco::index`). Max ply
//! is the deepest ply the table holds, so a lookup walks no further. The checksum is the
//! book's FNV-1a over the entries.

use thiserror::Error;

use crate::book::format::{Framing, check_entries, check_magic, checksum, u16_at, u32_at, u64_at};

use super::code::Ecco;

pub const MAGIC: &[u8; 8] = b"XQTECCO\n";
pub const VERSION: u16 = 1;
pub const HEADER_LEN: usize = 32;
pub const ENTRY_LEN: usize = 10;

/// How fine the decision at a position is: the games through it agree on a code, or
/// only on a group of ten codes (C30-C39, named by its first code), or on a letter (C,
/// named C00), or only on a family (flank openings A, central cannon B-D, other
/// openings E; named A00, B00, E00).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Code,
    Group,
    Letter,
    Family,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Code, Level::Group, Level::Letter, Level::Family];

    fn bits(self) -> u16 {
        match self {
            Level::Code => 0,
            Level::Group => 1,
            Level::Letter => 2,
            Level::Family => 3,
        }
    }

    fn from_bits(bits: u16) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.bits() == bits)
    }

    /// The code that names `code` at this level.
    pub fn head(self, code: Ecco) -> Ecco {
        let index = code.index();
        let head = match self {
            Level::Code => index,
            Level::Group => index / 10 * 10,
            Level::Letter => index / 100 * 100,
            // B, C and D are all central cannon openings, under B00 中炮局.
            Level::Family => match code.letter() {
                'A' => 0,
                'E' => 400,
                _ => 100,
            },
        };
        Ecco::from_index(head).unwrap_or(code)
    }
}

/// One position of the table and the code decided there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableEntry {
    pub key: u64,
    pub code: Ecco,
    pub level: Level,
}

const LEVEL_SHIFT: u16 = 14;
const CODE_MASK: u16 = (1 << LEVEL_SHIFT) - 1;

/// Why an opening table file was refused.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum TableError {
    #[error("{path}: {error}")]
    File {
        path: String,
        error: Box<TableError>,
    },
    #[error("cannot read: {0}")]
    Io(String),
    #[error("{0} bytes is shorter than the {HEADER_LEN}-byte opening table header (truncated?)")]
    TooShort(usize),
    #[error("not a xiangqi-tui opening table (wrong magic bytes)")]
    BadMagic,
    #[error("opening table version {found} is not supported (this build reads version {VERSION})")]
    Version { found: u16 },
    #[error("entry size {found} does not match version {VERSION}'s {ENTRY_LEN} bytes")]
    EntrySize { found: u16 },
    #[error(
        "the header says {entries} entries ({expected} bytes) but the file has {found} bytes \
         (truncated or padded)"
    )]
    Length {
        entries: u64,
        expected: u128,
        found: usize,
    },
    #[error("checksum mismatch: the entries are corrupt")]
    Checksum,
    #[error("entry {0} is out of order: the file is corrupt")]
    Unsorted(usize),
    #[error("entry {0} holds no ECCO code: the file is corrupt")]
    BadCode(usize),
}

/// The key of entry `index` of a checked entry area.
pub fn key_at(entries: &[u8], index: usize) -> u64 {
    u64_at(entries, index * ENTRY_LEN)
}

/// The code and level of entry `index` of a checked entry area (checked at load).
pub fn code_at(entries: &[u8], index: usize) -> (Ecco, Level) {
    decode_code(u16_at(entries, index * ENTRY_LEN + 8)).unwrap_or((Ecco::A00, Level::Family))
}

fn decode_code(bits: u16) -> Option<(Ecco, Level)> {
    Some((
        Ecco::from_index(bits & CODE_MASK)?,
        Level::from_bits(bits >> LEVEL_SHIFT)?,
    ))
}

impl From<Framing> for TableError {
    fn from(framing: Framing) -> TableError {
        match framing {
            Framing::BadMagic => TableError::BadMagic,
            Framing::TooShort(len) => TableError::TooShort(len),
            Framing::Length {
                entries,
                expected,
                found,
            } => TableError::Length {
                entries,
                expected,
                found,
            },
            Framing::Checksum => TableError::Checksum,
        }
    }
}

/// What `validate` learns of a good file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableInfo {
    pub entries: usize,
    pub max_ply: u32,
}

/// Checks a whole file: header, length, checksum, order and codes.
pub fn validate(bytes: &[u8]) -> Result<TableInfo, TableError> {
    check_magic(bytes, MAGIC, HEADER_LEN)?;
    let version = u16_at(bytes, 8);
    if version != VERSION {
        return Err(TableError::Version { found: version });
    }
    let entry_len = u16_at(bytes, 10);
    if usize::from(entry_len) != ENTRY_LEN {
        return Err(TableError::EntrySize { found: entry_len });
    }
    let max_ply = u32_at(bytes, 12);
    let (area, count) = check_entries(bytes, HEADER_LEN, ENTRY_LEN)?;
    for index in 0..count {
        if index > 0 && key_at(area, index - 1) >= key_at(area, index) {
            return Err(TableError::Unsorted(index));
        }
        if decode_code(u16_at(area, index * ENTRY_LEN + 8)).is_none() {
            return Err(TableError::BadCode(index));
        }
    }
    Ok(TableInfo {
        entries: count,
        max_ply,
    })
}

/// The file for `entries`, which must be sorted by key without repeats.
pub fn encode(entries: &[TableEntry], max_ply: u32) -> Vec<u8> {
    let mut area = Vec::with_capacity(entries.len() * ENTRY_LEN);
    for e in entries {
        area.extend_from_slice(&e.key.to_le_bytes());
        area.extend_from_slice(&(e.code.index() | e.level.bits() << LEVEL_SHIFT).to_le_bytes());
    }
    let mut bytes = Vec::with_capacity(HEADER_LEN + area.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(ENTRY_LEN as u16).to_le_bytes());
    bytes.extend_from_slice(&max_ply.to_le_bytes());
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(&area).to_le_bytes());
    bytes.extend_from_slice(&area);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<TableEntry> {
        vec![
            TableEntry {
                key: 5,
                code: "C45".parse().unwrap(),
                level: Level::Code,
            },
            TableEntry {
                key: 9,
                code: "A60".parse().unwrap(),
                level: Level::Group,
            },
        ]
    }

    #[test]
    fn entries_round_trip() {
        let bytes = encode(&sample(), 24);
        assert_eq!(bytes.len(), HEADER_LEN + 2 * ENTRY_LEN);
        assert_eq!(
            validate(&bytes),
            Ok(TableInfo {
                entries: 2,
                max_ply: 24
            })
        );
        let area = &bytes[HEADER_LEN..];
        assert_eq!(
            (key_at(area, 0), code_at(area, 0)),
            (5, (sample()[0].code, Level::Code))
        );
        assert_eq!(
            (key_at(area, 1), code_at(area, 1)),
            (9, (sample()[1].code, Level::Group))
        );
    }

    #[test]
    fn damage_is_refused() {
        let good = encode(&sample(), 24);
        assert_eq!(validate(&good[..10]), Err(TableError::TooShort(10)));
        assert_eq!(
            validate(b"XQTBOOK\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
            Err(TableError::BadMagic)
        );
        assert!(matches!(
            validate(&good[..good.len() - 1]),
            Err(TableError::Length { entries: 2, .. })
        ));
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 3] ^= 1;
        assert_eq!(validate(&flipped), Err(TableError::Checksum));
        let mut version = good.clone();
        version[8] = 7;
        assert_eq!(validate(&version), Err(TableError::Version { found: 7 }));
        let mut swapped = sample();
        swapped.swap(0, 1);
        assert_eq!(
            validate(&encode(&swapped, 24)),
            Err(TableError::Unsorted(1))
        );
        let mut bad_code = encode(&sample(), 24);
        bad_code[HEADER_LEN + 8..HEADER_LEN + 10].copy_from_slice(&600u16.to_le_bytes());
        let sum = checksum(&bad_code[HEADER_LEN..]);
        bad_code[24..32].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(validate(&bad_code), Err(TableError::BadCode(0)));
        let mut bad_level = encode(&sample(), 24);
        bad_level[HEADER_LEN + 9] |= 0x20;
        let sum = checksum(&bad_level[HEADER_LEN..]);
        bad_level[24..32].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(validate(&bad_level), Err(TableError::BadCode(0)));
    }

    #[test]
    fn levels_name_their_heads() {
        let head = |level: Level, code: &str| level.head(code.parse().unwrap()).to_string();
        assert_eq!(head(Level::Code, "C45"), "C45");
        assert_eq!(head(Level::Group, "C45"), "C40");
        assert_eq!(head(Level::Letter, "C45"), "C00");
        assert_eq!(head(Level::Family, "C45"), "B00");
        assert_eq!(head(Level::Family, "D50"), "B00");
        assert_eq!(head(Level::Family, "A61"), "A00");
        assert_eq!(head(Level::Family, "E41"), "E00");
    }
}
