//! Every reader of outside input refuses what it cannot read with a one-line error and
//! never panics or overflows its stack (issue 40): PGN with variations, XQF, `.tree`,
//! FEN, the config file and theme files, and the server's terminal input decoder. Each
//! is fed random bytes, text made of its own syntax's pieces in any order, and deep
//! nesting; the stable toolchain has no cargo-fuzz, so these are proptest targets.
//!
//! They run briefly in every `cargo test`; for a longer run give the number of cases
//! (docs/records.md, "Fuzzing the readers"):
//! `PROPTEST_CASES=20000 cargo test --release -p xiangqi-term --test term fuzz_readers`.

use std::path::Path;

use proptest::prelude::*;
use xiangqi_app::config::ConfigFile;
use xiangqi_app::config::theme::ThemeSet;
use xiangqi_core::board::Position;
use xiangqi_core::record::{Annotation, GameRecord, Line, MAX_NESTING, RecordError};
use xiangqi_engine::tree::Tree;

/// The cases of each target: `PROPTEST_CASES` when set, else `quick` (the suite's run).
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(quick)
}

fn config(quick: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(quick),
        // Shrinking hostile text is slow and the failing input is printed anyway.
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    }
}

/// Text made of `pieces` in any order, up to `len` of them.
fn text_of(pieces: &'static [&'static str], len: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(pieces), 0..len)
        .prop_map(|pieces| pieces.concat())
}

/// `unit` repeated `depth` times, then `tail` repeated as often.
fn nested(
    units: &'static [(&'static str, &'static str)],
    depth: std::ops::Range<usize>,
) -> impl Strategy<Value = String> {
    (proptest::sample::select(units), depth, any::<bool>()).prop_map(
        |((open, close), n, closed)| {
            let mut text = open.repeat(n);
            if closed {
                text.push_str(&close.repeat(n));
            }
            text
        },
    )
}

/// An error is one line: the reader said what is wrong in a sentence.
fn one_line(error: impl std::fmt::Display) -> Result<(), TestCaseError> {
    let text = error.to_string();
    prop_assert!(!text.contains('\n'), "{text}");
    prop_assert!(!text.is_empty());
    Ok(())
}

fn read_record(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Err(error) = GameRecord::from_bytes(bytes) {
        one_line(error)?;
    }
    Ok(())
}

const PGN_PIECES: &[&str] = &[
    "(",
    ")",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    "\n",
    " ",
    "$",
    "$1",
    "$300",
    "1.",
    "1...",
    "12．",
    "h2e2",
    "h9g7",
    "炮二平五",
    "马8进7",
    "C2.5",
    "h2e2!?",
    "*",
    "1-0",
    "\"",
    "%",
    "[FEN \"",
    "[Event \"x\"]",
    "[Format \"WXF\"]",
    "\\",
    "...",
    "。",
    "\u{0}",
    "é",
];

const TREE_PIECES: &[&str] = &[
    "(",
    ")",
    "(",
    ")",
    "=",
    "[",
    "]",
    ",",
    "1",
    "-3",
    "+4",
    "99999999999999999999",
    "a",
    "b'",
    "_x",
    "root",
    " ",
    "\n",
    "#",
    ";",
    "(a",
    "=[0,9]",
    "é",
];

const FEN_PIECES: &[&str] = &[
    "r",
    "n",
    "b",
    "a",
    "k",
    "c",
    "p",
    "R",
    "N",
    "B",
    "A",
    "K",
    "C",
    "P",
    "h",
    "e",
    "H",
    "E",
    "1",
    "9",
    "0",
    "10",
    "/",
    " ",
    "w",
    "b",
    "-",
    "65535",
    "99999999",
    "rnbakabnr/",
];

const TOML_PIECES: &[&str] = &[
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "=",
    ",",
    "\"",
    "'",
    "\"\"\"",
    "\n",
    " ",
    "#",
    ".",
    "level",
    "theme",
    "engine_side",
    "profiles",
    "server",
    "engines",
    "a",
    "1",
    "1e999",
    "true",
    "nan",
    "-",
    "2026-01-01",
    "\\u0000",
    "é",
];

const TERMINAL_PIECES: &[&str] = &[
    "\x1b",
    "\x1b[",
    "\x1bO",
    "[",
    "<",
    ";",
    "M",
    "m",
    "~",
    "0",
    "1",
    "2",
    "64",
    "65",
    "999999999999",
    "200~",
    "201~",
    "\x1b[200~",
    "\x1b[201~",
    "A",
    "Z",
    "P",
    "\r",
    "\t",
    "\x7f",
    "\u{0}",
    "é",
    "\u{fffd}",
    "\x1b[<0;10;5M",
    "\x1b[1;5A",
    "\x1b[15;2~",
];

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn pgn_from_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        read_record(&bytes)?;
    }

    #[test]
    fn pgn_from_its_own_pieces(text in text_of(PGN_PIECES, 300)) {
        read_record(text.as_bytes())?;
        if let Err(error) = xiangqi_app::read_game_bytes(text.as_bytes()) {
            one_line(error)?;
        }
    }

    #[test]
    fn tree_from_random_text(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        if let Err(error) = Tree::parse(&String::from_utf8_lossy(&bytes)) {
            one_line(error)?;
        }
    }

    #[test]
    fn tree_from_its_own_pieces(text in text_of(TREE_PIECES, 400)) {
        if let Err(error) = Tree::parse(&text) {
            one_line(error)?;
        }
    }

    #[test]
    fn fen_from_random_text(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Err(error) = Position::from_fen(&String::from_utf8_lossy(&bytes)) {
            one_line(error)?;
        }
    }

    #[test]
    fn fen_from_its_own_pieces(text in text_of(FEN_PIECES, 80)) {
        match Position::from_fen(&text) {
            // What is read is a position the program can play from.
            Ok(position) => {
                let again = Position::from_fen(&position.to_fen());
                prop_assert_eq!(again.map(|p| p.to_fen()), Ok(position.to_fen()));
            }
            Err(error) => one_line(error)?,
        }
    }

    #[test]
    fn config_from_random_text(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
        read_config(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn config_from_its_own_pieces(text in text_of(TOML_PIECES, 300)) {
        read_config(&text)?;
    }
}

fn read_config(text: &str) -> Result<(), TestCaseError> {
    if let Err(errors) = ConfigFile::parse(text, Path::new("config.toml"), &[]) {
        prop_assert!(!errors.0.is_empty());
        for error in &errors.0 {
            one_line(error)?;
        }
    }
    Ok(())
}

proptest! {
    // Each case writes a file: fewer of them.
    #![proptest_config(config(40))]

    #[test]
    fn theme_files_from_their_own_pieces(text in text_of(TOML_PIECES, 200)) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("mine.toml"), &text).unwrap();
        let (_, errors) = ThemeSet::load(Some(dir.path()));
        for error in &errors.0 {
            one_line(error)?;
        }
    }
}

// Deep nesting: far deeper than any reader allows, so each must refuse it (or, where
// nesting means nothing, read on) without recursing into it.
proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn pgn_nested_deeply(text in nested(
        &[("(", ")"), ("h2e2 (", ")"), ("1. h2e2 h9g7 (1... ", ")"), ("{", "}"), ("[a \"", "\"]")],
        0..60_000,
    )) {
        read_record(text.as_bytes())?;
    }

    #[test]
    fn tree_nested_deeply(text in nested(
        &[("(", ")"), ("(a ", ")"), ("([0,1] ", ")=1")],
        0..60_000,
    )) {
        if let Err(error) = Tree::parse(&text) {
            one_line(error)?;
        }
    }

    #[test]
    fn config_nested_deeply(text in nested(
        &[("a = [", "]"), ("a = {b = ", "}"), ("[a", "]"), ("x = [{a = [", "]}]"), ("[", "]")],
        0..60_000,
    )) {
        read_config(&text)?;
    }

    #[test]
    fn fen_long(text in nested(&[("rnbakabnr/", ""), ("1", ""), ("/", ""), (" w", "")], 0..60_000)) {
        if let Err(error) = Position::from_fen(&text) {
            one_line(error)?;
        }
    }
}

/// The issue's case: `replay` of a PGN of 50,000 `(` overflowed the stack.
#[test]
fn fifty_thousand_parentheses_are_an_error() {
    let error = GameRecord::from_pgn(&"(".repeat(50_000)).unwrap_err();
    assert_eq!(error.to_string(), "line 1:1: variation '(' before any move");
    let error = GameRecord::from_pgn(&format!("1. h2e2 {}", "(".repeat(50_000))).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1:10: variation '(' before any move"
    );
}

/// A record whose variations nest `depth` deep, in ICCS: level `d` is the line
/// `[spine(d + 1), aside(d + 2)]`, and level `d + 1` is the variation on its second move
/// (a variation on a line's first move would be an alternative of the same move, not
/// nested, in XQF). The spine shuffles the rooks, the moves aside are knights'.
fn nested_pgn(depth: usize) -> String {
    let spine = |ply: usize| ["a8a9", "a0a1", "a9a8", "a1a0"][ply % 4];
    let aside = |ply: usize| if ply % 2 == 1 { "h0g2" } else { "h9g7" };
    let mut text = String::new();
    for level in 0..depth {
        text.push_str(&format!("{} {} (", spine(level + 1), aside(level + 2)));
    }
    text.push_str(spine(depth + 1));
    text.push_str(&")".repeat(depth));
    text + " *"
}

/// How deep a record's variations nest, following the first of each.
fn nesting(record: &GameRecord) -> usize {
    let mut depth = 0;
    let mut notes = &record.notes;
    while let Some(variation) = notes.iter().find_map(|note| note.variations.first()) {
        depth += 1;
        notes = &variation.notes;
    }
    depth
}

/// Variations nest as deep as `MAX_NESTING`, in PGN and XQF alike, and one more is
/// refused where it opens.
#[test]
fn variations_nest_as_deep_as_the_bound_and_no_deeper() {
    let deepest = GameRecord::from_pgn(&nested_pgn(MAX_NESTING)).unwrap();
    assert_eq!(nesting(&deepest), MAX_NESTING);
    let error = GameRecord::from_pgn(&nested_pgn(MAX_NESTING + 1)).unwrap_err();
    // Each level is 11 characters: "a0a1 h9g7 (".
    let column = 11 * (MAX_NESTING + 1);
    assert_eq!(
        error.to_string(),
        format!("line 1:{column}: variations nested more than {MAX_NESTING} deep")
    );
    // Written back, the deepest reads again the same, as PGN and as XQF (compared
    // without the tags each writer adds, and not printed, for its size).
    let same = |read: GameRecord| read.moves == deepest.moves && read.notes == deepest.notes;
    let written = deepest.to_pgn(xiangqi_core::notation::Notation::Iccs);
    assert!(same(GameRecord::from_pgn(&written).unwrap()));
    for version in [10, 18] {
        let bytes = xiangqi_core::record::write_xqf(&deepest, version);
        assert!(same(xiangqi_core::record::read_xqf(&bytes).unwrap()));
    }
    // One deeper, built in memory and written as XQF, is refused on reading: the
    // deepest line gets a second move with a variation of its own.
    let mv = |text: &str| xiangqi_core::board::Move::parse_coords(text).unwrap();
    let mut too_deep = deepest.clone();
    let mut line = &mut too_deep.notes[1].variations[0];
    for _ in 1..MAX_NESTING {
        line = &mut line.notes[1].variations[0];
    }
    assert_eq!(line.moves, [mv("a0a1")], "ply 101 ends the deepest line");
    line.moves.push(mv("h9g7"));
    line.notes = vec![
        Annotation::default(),
        Annotation {
            variations: vec![Line {
                moves: vec![mv("a9a8")],
                ..Line::default()
            }],
            ..Annotation::default()
        },
    ];
    assert_eq!(nesting(&too_deep), MAX_NESTING + 1);
    let bytes = xiangqi_core::record::write_xqf(&too_deep, 18);
    let error = GameRecord::from_bytes(&bytes).unwrap_err();
    assert!(matches!(error, RecordError::Xqf(_)), "{error:?}");
    assert!(
        error
            .to_string()
            .ends_with(&format!("variations nested more than {MAX_NESTING} deep")),
        "{error}"
    );
}

mod terminal_input {
    use super::*;
    use xiangqi_term::InputDecoder;

    /// Bytes split into reads at `cuts`, as the SSH channel delivers them.
    fn feed_in_pieces(bytes: &[u8], cuts: &[usize]) -> usize {
        let mut decoder = InputDecoder::default();
        let mut actions = 0;
        let mut at = 0;
        for &cut in cuts {
            let cut = (cut % (bytes.len() + 1)).max(at);
            actions += decoder.feed(&bytes[at..cut]).len();
            at = cut;
        }
        actions + decoder.feed(&bytes[at..]).len()
    }

    proptest! {
        #![proptest_config(config(300))]

        #[test]
        fn decoder_from_random_bytes(
            bytes in proptest::collection::vec(any::<u8>(), 0..3000),
            mut cuts in proptest::collection::vec(any::<usize>(), 0..8),
        ) {
            cuts.sort_unstable();
            let actions = feed_in_pieces(&bytes, &cuts);
            // At most one event per byte: nothing is made up.
            prop_assert!(actions <= bytes.len());
        }

        #[test]
        fn decoder_from_its_own_pieces(
            text in text_of(TERMINAL_PIECES, 400),
            mut cuts in proptest::collection::vec(any::<usize>(), 0..8),
        ) {
            cuts.sort_unstable();
            let actions = feed_in_pieces(text.as_bytes(), &cuts);
            prop_assert!(actions <= text.len());
        }
    }

    /// A paste or a sequence that never ends is dropped past its bound, not kept.
    #[test]
    fn endless_sequences_are_dropped() {
        let mut decoder = InputDecoder::default();
        let chunk = [b'1'; 4096];
        decoder.feed(b"\x1b[200~");
        for _ in 0..64 {
            decoder.feed(&chunk);
        }
        // The paste was dropped: a key typed now is read as the key.
        assert_eq!(decoder.feed(b"\x1b[201~x").len(), 1);
        let mut decoder = InputDecoder::default();
        decoder.feed(b"\x1b[");
        for _ in 0..64 {
            decoder.feed(&[b';'; 4096]);
        }
        assert_eq!(decoder.feed(b"x").len(), 1);
    }
}
