//! Damaged book files are refused with a clear one-line error, never a panic: truncated,
//! wrong magic, wrong version, flipped bits, and random mutations.

use proptest::prelude::*;
use xiangqi_core::board::{Move, Position};
use xiangqi_engine::book::format::{HEADER_LEN, encode};
use xiangqi_engine::book::{Book, BookError, Entry, Source, Stats};

/// A small valid book: a few moves of the start position and one after h2e2.
fn good() -> Vec<u8> {
    let start = Position::startpos();
    let mut after = start.clone();
    after.make_move(Move::parse_coords("h2e2").unwrap());
    let stats = |count, red_wins| Stats {
        count,
        red_wins,
        draws: 0,
        black_wins: 0,
    };
    let mut entries = vec![
        Entry {
            key: start.key(),
            mv: Move::parse_coords("h2e2").unwrap(),
            stats: stats(5, 3),
            source: Source::Games,
        },
        Entry {
            key: start.key(),
            mv: Move::parse_coords("c3c4").unwrap(),
            stats: stats(2, 1),
            source: Source::Games,
        },
        Entry {
            key: xiangqi_engine::book::BookKey::of(&after).key,
            mv: Move::parse_coords("h9g7").unwrap(),
            stats: stats(4, 2),
            source: Source::Games,
        },
    ];
    entries.sort_by_key(|e| (e.key, e.mv.bits()));
    encode(&entries)
}

fn error(bytes: Vec<u8>) -> String {
    Book::from_bytes(bytes).unwrap_err().to_string()
}

#[test]
fn a_good_file_loads() {
    let book = Book::from_bytes(good()).unwrap();
    assert_eq!(book.len(), 3);
    let moves: Vec<String> = book
        .moves(&Position::startpos())
        .iter()
        .map(|m| m.mv.iccs())
        .collect();
    assert_eq!(moves, ["h2e2", "c3c4"]);
}

#[test]
fn each_kind_of_damage_has_its_message() {
    let good = good();
    assert_eq!(
        error(good[..20].to_vec()),
        "20 bytes is shorter than the 32-byte book header (truncated?)"
    );
    assert_eq!(
        error(good[..good.len() - 5].to_vec()),
        "the header says 3 entries (113 bytes) but the file has 108 bytes (truncated or padded)"
    );
    let mut magic = good.clone();
    magic[0] = b'Y';
    assert_eq!(
        error(magic),
        "not a xiangqi-tui opening book (wrong magic bytes)"
    );
    assert_eq!(
        error(b"[Game \"Chinese Chess\"]\n".to_vec()),
        "not a xiangqi-tui opening book (wrong magic bytes)"
    );
    let mut version = good.clone();
    version[8] = 3;
    assert_eq!(
        error(version),
        "book format version 3 is not supported (this build reads versions 1 and 2)"
    );
    let mut flipped = good.clone();
    flipped[HEADER_LEN + 30] ^= 0x10;
    assert_eq!(error(flipped), "checksum mismatch: the entries are corrupt");
    assert_eq!(
        error(Vec::new()),
        "0 bytes is shorter than the 32-byte book header (truncated?)"
    );
}

#[test]
fn opening_a_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.xqb");
    std::fs::write(&path, &good()[..40]).unwrap();
    let message = Book::open(&path).unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "{}: the header says 3 entries (113 bytes) but the file has 40 bytes (truncated or \
             padded)",
            path.display()
        )
    );
    assert!(!message.contains('\n'));
    let missing = Book::open(&dir.path().join("none.xqb")).unwrap_err();
    assert!(matches!(missing, BookError::File { .. }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any mutation is either refused with a one-line message or still a valid book
    /// whose lookups return legal moves only.
    #[test]
    fn mutations_never_panic(
        edits in proptest::collection::vec((0usize..200, any::<u8>()), 1..6),
        cut in proptest::option::of(0usize..200),
    ) {
        let mut bytes = good();
        for (at, value) in edits {
            let len = bytes.len();
            bytes[at % len] = value;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut % (bytes.len() + 1));
        }
        match Book::from_bytes(bytes) {
            Err(error) => prop_assert!(!error.to_string().contains('\n')),
            Ok(book) => {
                let pos = Position::startpos();
                for m in book.moves(&pos) {
                    prop_assert!(pos.is_legal(m.mv));
                }
            }
        }
    }
}
