//! The book file: a 32-byte header and fixed-size entries sorted by (key, move), so a
//! lookup is a binary search over the bytes as they are, with no parsing at load.
//!
//! ```text
//! header   magic "XQTBOOK\n" | version u32 | entry size u32 | entries u64 | checksum u64
//! entry    key u64 | move u16 | count u32 | red wins u32 | draws u32 | black wins u32
//!          | source u8 (version 2: 0 games, 1 engine)
//! ```
//! All numbers little-endian. The checksum (FNV-1a, 64 bits) covers the entries, so a
//! flipped bit anywhere is refused rather than played. Version 1 (26-byte entries, no
//! source) is still read, its entries counted as games.

use thiserror::Error;

use xiangqi_core::board::Move;

pub const MAGIC: &[u8; 8] = b"XQTBOOK\n";
pub const VERSION: u32 = 2;
pub const HEADER_LEN: usize = 32;
/// Bytes of a version 2 entry.
pub const ENTRY_LEN: usize = 27;
/// Bytes of a version 1 entry (no source).
pub const ENTRY_LEN_V1: usize = 26;

/// Where a book entry comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub enum Source {
    /// Counted from game records: the count is games, with their results.
    #[default]
    Games,
    /// The engine's own analysis: the count is a weight, with no results.
    Engine,
}

impl Source {
    fn byte(self) -> u8 {
        match self {
            Source::Games => 0,
            Source::Engine => 1,
        }
    }

    fn from_byte(byte: u8) -> Option<Source> {
        match byte {
            0 => Some(Source::Games),
            1 => Some(Source::Engine),
            _ => None,
        }
    }

    /// "games" or "engine".
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Games => "games",
            Source::Engine => "engine",
        }
    }
}

/// How often a move was played from a position and how those games ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Games (or weight, in a generated book) that played the move; at least the sum of
    /// the results, since games with an unknown result count here only.
    pub count: u32,
    pub red_wins: u32,
    pub draws: u32,
    pub black_wins: u32,
}

impl Stats {
    pub fn add(&mut self, other: Stats) {
        self.count = self.count.saturating_add(other.count);
        self.red_wins = self.red_wins.saturating_add(other.red_wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.black_wins = self.black_wins.saturating_add(other.black_wins);
    }
}

/// One stored move: the canonical key of the position (see `mirror`), the move in the
/// canonical position's frame, and its statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub stats: Stats,
    pub source: Source,
}

/// Why a book file was refused.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum BookError {
    #[error("{path}: {error}")]
    File { path: String, error: Box<BookError> },
    #[error("cannot read: {0}")]
    Io(String),
    #[error("{0} bytes is shorter than the {HEADER_LEN}-byte book header (truncated?)")]
    TooShort(usize),
    #[error("not a xiangqi-tui opening book (wrong magic bytes)")]
    BadMagic,
    #[error(
        "book format version {found} is not supported (this build reads versions 1 and {VERSION})"
    )]
    Version { found: u32 },
    #[error("entry size {found} does not match version {version}'s {expected} bytes")]
    EntrySize {
        version: u32,
        found: u32,
        expected: usize,
    },
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
    #[error("entry {0} holds no valid move: the file is corrupt")]
    BadMove(usize),
    #[error("entry {0} has more results than games: the file is corrupt")]
    BadCounts(usize),
    #[error("entry {0} has an unknown source: the file is corrupt")]
    BadSource(usize),
}

/// FNV-1a over `bytes`: not cryptographic, only a guard against damaged files.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Little-endian numbers at a byte offset the caller has checked (the ECCO table's
/// format reads with these too).
pub(crate) fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The key of entry `index` of a checked entry area with entries of `entry_len` bytes.
pub fn key_at(entries: &[u8], index: usize, entry_len: usize) -> u64 {
    u64_at(entries, index * entry_len)
}

/// Entry `index` of a checked entry area with entries of `entry_len` bytes (26: version
/// 1, counted as games). The move and source were checked at load.
pub fn entry_at(entries: &[u8], index: usize, entry_len: usize) -> Entry {
    let at = index * entry_len;
    let source = if entry_len > ENTRY_LEN_V1 {
        Source::from_byte(entries[at + ENTRY_LEN_V1]).unwrap_or_default()
    } else {
        Source::Games
    };
    Entry {
        key: u64_at(entries, at),
        mv: Move::from_bits(u16_at(entries, at + 8)).unwrap_or(Move::NULL),
        stats: Stats {
            count: u32_at(entries, at + 10),
            red_wins: u32_at(entries, at + 14),
            draws: u32_at(entries, at + 18),
            black_wins: u32_at(entries, at + 22),
        },
        source,
    }
}

/// Why a table file's framing is wrong. The book and the ECCO table frame their entries
/// alike: a header that starts with an 8-byte magic and holds the entry count at byte 16
/// and the entries' checksum at byte 24, then the entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    BadMagic,
    TooShort(usize),
    Length {
        entries: u64,
        expected: u128,
        found: usize,
    },
    Checksum,
}

/// The file starts with `magic` and holds a whole header of `header_len` bytes.
pub(crate) fn check_magic(bytes: &[u8], magic: &[u8; 8], header_len: usize) -> Result<(), Framing> {
    if bytes.len() < header_len {
        // A file cut inside the magic is still told apart from another kind of file.
        if !magic.starts_with(&bytes[..bytes.len().min(magic.len())]) {
            return Err(Framing::BadMagic);
        }
        return Err(Framing::TooShort(bytes.len()));
    }
    if &bytes[..magic.len()] != magic {
        return Err(Framing::BadMagic);
    }
    Ok(())
}

/// The entries of `entry_len` bytes after the header: as many as it says, their
/// checksum as it says. Their area and count.
pub(crate) fn check_entries(
    bytes: &[u8],
    header_len: usize,
    entry_len: usize,
) -> Result<(&[u8], usize), Framing> {
    let entries = u64_at(bytes, 16);
    let expected = header_len as u128 + u128::from(entries) * entry_len as u128;
    if expected != bytes.len() as u128 {
        return Err(Framing::Length {
            entries,
            expected,
            found: bytes.len(),
        });
    }
    let area = &bytes[header_len..];
    if checksum(area) != u64_at(bytes, 24) {
        return Err(Framing::Checksum);
    }
    Ok((area, entries as usize))
}

impl From<Framing> for BookError {
    fn from(framing: Framing) -> BookError {
        match framing {
            Framing::BadMagic => BookError::BadMagic,
            Framing::TooShort(len) => BookError::TooShort(len),
            Framing::Length {
                entries,
                expected,
                found,
            } => BookError::Length {
                entries,
                expected,
                found,
            },
            Framing::Checksum => BookError::Checksum,
        }
    }
}

/// What `validate` learns of a good file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub version: u32,
    pub entries: usize,
    pub entry_len: usize,
}

/// Checks a whole file: header, length, checksum, order, moves, counts and sources.
pub fn validate(bytes: &[u8]) -> Result<Layout, BookError> {
    check_magic(bytes, MAGIC, HEADER_LEN)?;
    let version = u32_at(bytes, 8);
    let expected_len = match version {
        1 => ENTRY_LEN_V1,
        VERSION => ENTRY_LEN,
        _ => return Err(BookError::Version { found: version }),
    };
    let found_len = u32_at(bytes, 12);
    if found_len as usize != expected_len {
        return Err(BookError::EntrySize {
            version,
            found: found_len,
            expected: expected_len,
        });
    }
    let entry_len = expected_len;
    let (area, count) = check_entries(bytes, HEADER_LEN, entry_len)?;
    let mut previous: Option<(u64, u16)> = None;
    for index in 0..count {
        let at = index * entry_len;
        let key = u64_at(area, at);
        let bits = u16_at(area, at + 8);
        match Move::from_bits(bits) {
            Some(mv) if !mv.is_null() => {}
            _ => return Err(BookError::BadMove(index)),
        }
        if previous.is_some_and(|p| p >= (key, bits)) {
            return Err(BookError::Unsorted(index));
        }
        previous = Some((key, bits));
        if entry_len > ENTRY_LEN_V1 && Source::from_byte(area[at + ENTRY_LEN_V1]).is_none() {
            return Err(BookError::BadSource(index));
        }
        let e = entry_at(area, index, entry_len);
        let results =
            u64::from(e.stats.red_wins) + u64::from(e.stats.draws) + u64::from(e.stats.black_wins);
        if results > u64::from(e.stats.count) || e.stats.count == 0 {
            return Err(BookError::BadCounts(index));
        }
    }
    Ok(Layout {
        version,
        entries: count,
        entry_len,
    })
}

/// The file (version 2) for `entries`, which must be sorted by (key, move) without
/// repeats.
pub fn encode(entries: &[Entry]) -> Vec<u8> {
    let mut area = Vec::with_capacity(entries.len() * ENTRY_LEN);
    for e in entries {
        area.extend_from_slice(&e.key.to_le_bytes());
        area.extend_from_slice(&e.mv.bits().to_le_bytes());
        for n in [
            e.stats.count,
            e.stats.red_wins,
            e.stats.draws,
            e.stats.black_wins,
        ] {
            area.extend_from_slice(&n.to_le_bytes());
        }
        area.push(e.source.byte());
    }
    let mut bytes = Vec::with_capacity(HEADER_LEN + area.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(ENTRY_LEN as u32).to_le_bytes());
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(&area).to_le_bytes());
    bytes.extend_from_slice(&area);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Entry> {
        let mv = |s: &str| Move::parse_coords(s).unwrap();
        vec![
            Entry {
                key: 5,
                mv: mv("h2e2"),
                stats: Stats {
                    count: 3,
                    red_wins: 1,
                    draws: 1,
                    black_wins: 0,
                },
                source: Source::Games,
            },
            Entry {
                key: 9,
                mv: mv("b0c2"),
                stats: Stats {
                    count: 1,
                    red_wins: 0,
                    draws: 0,
                    black_wins: 1,
                },
                source: Source::Engine,
            },
        ]
    }

    #[test]
    fn entries_round_trip() {
        let bytes = encode(&sample());
        assert_eq!(bytes.len(), HEADER_LEN + 2 * ENTRY_LEN);
        assert_eq!(
            validate(&bytes),
            Ok(Layout {
                version: 2,
                entries: 2,
                entry_len: ENTRY_LEN
            })
        );
        let area = &bytes[HEADER_LEN..];
        assert_eq!(entry_at(area, 0, ENTRY_LEN), sample()[0]);
        assert_eq!(entry_at(area, 1, ENTRY_LEN), sample()[1]);
        assert_eq!(key_at(area, 1, ENTRY_LEN), 9);
    }

    /// A version 1 file of `entries`: 26-byte entries, no source.
    fn encode_v1(entries: &[Entry]) -> Vec<u8> {
        let v2 = encode(entries);
        let mut area = Vec::new();
        for chunk in v2[HEADER_LEN..].chunks(ENTRY_LEN) {
            area.extend_from_slice(&chunk[..ENTRY_LEN_V1]);
        }
        let mut bytes = v2[..HEADER_LEN].to_vec();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        bytes[12..16].copy_from_slice(&(ENTRY_LEN_V1 as u32).to_le_bytes());
        bytes[24..32].copy_from_slice(&checksum(&area).to_le_bytes());
        bytes.extend_from_slice(&area);
        bytes
    }

    #[test]
    fn version_1_files_are_read_as_games() {
        let bytes = encode_v1(&sample());
        assert_eq!(bytes.len(), HEADER_LEN + 2 * ENTRY_LEN_V1);
        let layout = validate(&bytes).unwrap();
        assert_eq!((layout.version, layout.entry_len), (1, ENTRY_LEN_V1));
        let second = entry_at(&bytes[HEADER_LEN..], 1, ENTRY_LEN_V1);
        assert_eq!(second.source, Source::Games);
        assert_eq!(second.stats, sample()[1].stats);
    }

    #[test]
    fn damage_is_named() {
        let good = encode(&sample());
        assert_eq!(validate(&good[..10]), Err(BookError::TooShort(10)));
        assert_eq!(validate(b"PK\x03\x04"), Err(BookError::BadMagic));
        assert!(matches!(
            validate(&good[..good.len() - 1]),
            Err(BookError::Length { entries: 2, .. })
        ));
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 12] ^= 1;
        assert_eq!(validate(&flipped), Err(BookError::Checksum));
        let mut version = good.clone();
        version[8] = 7;
        assert_eq!(validate(&version), Err(BookError::Version { found: 7 }));
        let mut swapped = sample();
        swapped.swap(0, 1);
        assert_eq!(validate(&encode(&swapped)), Err(BookError::Unsorted(1)));
        let mut too_many = sample();
        too_many[0].stats.draws = 5;
        assert_eq!(validate(&encode(&too_many)), Err(BookError::BadCounts(0)));
        let mut bad_source = good.clone();
        bad_source[HEADER_LEN + ENTRY_LEN_V1] = 9;
        let sum = checksum(&bad_source[HEADER_LEN..]);
        bad_source[24..32].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(validate(&bad_source), Err(BookError::BadSource(0)));
        let mut wrong_size = good.clone();
        wrong_size[12] = 26;
        assert!(matches!(
            validate(&wrong_size),
            Err(BookError::EntrySize {
                version: 2,
                found: 26,
                expected: 27
            })
        ));
    }
}
