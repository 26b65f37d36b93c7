//! XQF records: every version written and read back whole (tags, setup positions, comments,
//! variations, GBK names), refusals that say where, and the fixtures in `tests/data/xqf/`
//! read through `replay` and `book build` (robustness and other writers' files:
//! `xqf_robustness.rs`).

use std::path::PathBuf;
use std::process::Command;

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::Notation;
use xiangqi_core::record::xqf::{
    MAX_NESTING, MAX_PLIES, XqfErrorKind, is_xqf, read_xqf, write_xqf, write_xqf_seeded,
};
use xiangqi_core::record::{GameRecord, GameResult, Line, RecordError};

const VERSIONS: [u8; 4] = [10, 11, 12, 18];

fn mv(text: &str) -> Move {
    Move::parse_coords(text).unwrap()
}

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace().map(mv).collect()
}

/// A game from the opening position with these moves.
fn played(text: &str) -> GameRecord {
    GameRecord {
        moves: moves(text),
        ..GameRecord::default()
    }
}

fn line(text: &str) -> Line {
    Line::new(moves(text))
}

/// A full game with Chinese tags, a comment before the first move, comments on moves and
/// variations: two at the second move, one of them with its own, one at the first move.
fn annotated_game() -> GameRecord {
    let mut game = GameRecord::default();
    for (tag, value) in [
        ("Event", "全国象棋个人赛"),
        ("Title", "中炮对屏风马"),
        ("Site", "北京"),
        ("Date", "1997年11月16日"),
        ("Red", "柳大华"),
        ("Black", "吕  钦"),
        ("Annotator", "刘殿中"),
        ("Author", "xiangqi-tui"),
    ] {
        game.set_tag(tag, value);
    }
    game.result = GameResult::BlackWins;
    game.comment = Some("开局前的评注\n第二行".to_string());
    game.moves = moves("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7");
    game.note_mut(0).comment = Some("中炮".to_string());
    game.note_mut(0).variations.push(line("c3c4 g6g5"));
    let mut cannon = line("h7e7 b0c2 b9c7");
    cannon.note_mut(1).comment = Some("variation comment".to_string());
    cannon.note_mut(1).variations.push(line("h0g2 b9c7"));
    game.note_mut(1).variations.push(line("b9c7 b0c2"));
    game.note_mut(1).variations.push(cannon);
    game.note_mut(4).comment = Some("出车".to_string());
    game
}

/// An endgame with Black to move first.
fn black_to_move() -> GameRecord {
    let start = Position::from_fen("3k5/4a4/9/9/9/2p6/9/9/4A4/3AK1R2 b - - 0 1").unwrap();
    let mut game = GameRecord::new(start);
    game.set_tag("Event", "Endgame");
    game.result = GameResult::RedWins;
    game.moves = moves("c4d4 g0g9 d9d8 g9g8 d4e4 e1f2 e4e3");
    game.note_mut(1).comment = Some("将军".to_string());
    game.note_mut(2).variations.push(line("e8f9 g9f9"));
    game
}

#[test]
fn every_version_reads_back_what_was_written() {
    for game in [annotated_game(), black_to_move(), GameRecord::default()] {
        for version in VERSIONS {
            let bytes = write_xqf(&game, version);
            assert!(is_xqf(&bytes));
            assert_eq!(bytes[2], version);
            let back = read_xqf(&bytes).unwrap_or_else(|e| panic!("version {version}: {e}"));
            assert_eq!(back, game, "version {version}");
            assert_eq!(GameRecord::from_bytes(&bytes).unwrap(), game);
        }
    }
}

#[test]
fn an_event_alone_is_also_the_title_and_reads_back_as_the_event() {
    let mut game = GameRecord::default();
    game.set_tag("Event", "仙人指路");
    let bytes = write_xqf(&game, 10);
    // The title field (0x50) holds the event too: readers that show only the title see it.
    assert_eq!(bytes[0x50], 8);
    assert_eq!(read_xqf(&bytes).unwrap().tags, game.tags);
    // A title alone becomes the event.
    let mut titled = GameRecord::default();
    titled.set_tag("Title", "七星聚会");
    let back = read_xqf(&write_xqf(&titled, 18)).unwrap();
    assert_eq!(back.tags, [("Event".to_string(), "七星聚会".to_string())]);
}

#[test]
fn long_names_are_cut_at_a_whole_character() {
    let mut game = GameRecord::default();
    game.set_tag("Red", "一二三四五六七八九十"); // 20 bytes of GBK for a 15-byte field
    let back = read_xqf(&write_xqf(&game, 12)).unwrap();
    assert_eq!(back.tag("Red"), Some("一二三四五六七"));
}

#[test]
fn seeds_choose_the_keys_and_the_plain_version_has_none() {
    let game = annotated_game();
    let a = write_xqf_seeded(&game, 18, 1);
    let b = write_xqf_seeded(&game, 18, 2);
    assert_ne!(a, b);
    assert_eq!(read_xqf(&a).unwrap(), read_xqf(&b).unwrap());
    // Version 10 is the same whatever the seed, its keys all zero.
    assert_eq!(
        write_xqf_seeded(&game, 10, 1),
        write_xqf_seeded(&game, 10, 2)
    );
    assert_eq!(&write_xqf(&game, 10)[3..16], &[0; 13]);
}

#[test]
fn the_plain_version_is_laid_out_as_xqf_txt_says() {
    let game = played("c3c4 h9g7");
    let bytes = write_xqf(&game, 10);
    // The root record, then 兵七进一 (c3c4: from 23 + 24, to 24 + 32) and the last move.
    assert_eq!(
        &bytes[0x400..],
        &[
            0x18, 0x20, 0xf0, 0xff, 0, 0, 0, 0, 0x2f, 0x38, 0xf0, 0, 0, 0, 0, 0, 0x67, 0x63, 0, 0,
            0, 0, 0, 0
        ]
    );
    // The opening position's piece array as XQF.TXT prints it.
    assert_eq!(
        &bytes[0x10..0x30],
        &[
            80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59,
            69, 79, 89, 17, 77, 6, 26, 46, 66, 86
        ]
    );
}

fn error(bytes: &[u8]) -> String {
    read_xqf(bytes).unwrap_err().to_string()
}

#[test]
fn refusals_say_where_and_what() {
    assert_eq!(
        error(b"[Event \"x\"]"),
        "offset 0x0000: not an XQF file (magic 5B 45, expected 58 51 \"XQ\")"
    );
    assert_eq!(
        error(b""),
        "offset 0x0000: not an XQF file (magic none: the file is empty, expected 58 51 \"XQ\")"
    );
    let plain = write_xqf(&annotated_game(), 10);
    assert_eq!(
        error(&plain[..100]),
        "offset 0x0064: truncated header: the file has 100 bytes, the header needs 1024"
    );
    assert_eq!(
        error(&plain[..0x400]),
        "offset 0x0400: truncated move tree: move record 0 needs 8 bytes, 0 are left"
    );
    // The root's comment is 19 bytes (开局前的评注, a line end, 第二行 in GBK), so move
    // record 1 starts at 0x41b; its comment 中炮 makes it 12 bytes.
    assert_eq!(
        error(&plain[..0x41b + 10]),
        "offset 0x041b: truncated move tree: move record 1 needs 12 bytes, 10 are left"
    );
    let mut off_board = plain.clone();
    off_board[0x41b] = 24 + 90;
    assert_eq!(
        error(&off_board),
        "offset 0x041b: move record 1: from square 0x5a is off the board"
    );
    let mut long_comment = write_xqf(&GameRecord::default(), 10);
    long_comment[0x404..0x408].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    assert_eq!(
        error(&long_comment),
        "offset 0x0400: truncated move tree: move record 0 needs 4294967288 bytes, 8 are left"
    );
}

#[test]
fn an_illegal_move_says_its_ply_and_offset() {
    let game = played("h2e2 h9g7 h2e2");
    for version in VERSIONS {
        let bytes = write_xqf(&game, version);
        let err = read_xqf(&bytes).unwrap_err();
        let record = if version == 10 { 8 } else { 4 };
        assert_eq!(err.offset, 0x400 + 3 * record, "version {version}");
        assert_eq!(err.illegal_ply(), Some(3));
        assert_eq!(
            err.to_string(),
            format!(
                "offset 0x{:04x}: move record 3: ply 3: h2e2 is illegal here",
                0x400 + 3 * record
            )
        );
        assert!(matches!(
            GameRecord::from_bytes(&bytes),
            Err(RecordError::Xqf(_))
        ));
    }
    // In a variation the ply counts from the game's start.
    let mut game = played("h2e2 h9g7");
    game.note_mut(1).variations.push(line("b9c7 e2e5"));
    let err = read_xqf(&write_xqf(&game, 12)).unwrap_err();
    assert_eq!(err.illegal_ply(), Some(3));
    assert!(err.to_string().ends_with("e2e5 is illegal here"), "{err}");
}

#[test]
fn a_bad_piece_array_is_refused_in_a_setup_file() {
    let plain = write_xqf(&black_to_move(), 10);
    assert_eq!(plain[0x40], 2, "a setup position is a middle game file");
    // Slots 3 and 5 are Red's advisors (e1 = 41 and d0 = 30); slot 4 the general.
    assert_eq!(&plain[0x13..0x16], &[41, 40, 30]);
    let mut doubled = plain.clone();
    doubled[0x15] = 41;
    assert_eq!(
        error(&doubled),
        "offset 0x0015: bad piece array: two pieces on e1: Red advisor and Red advisor"
    );
    let mut no_general = plain.clone();
    no_general[0x14] = 0xff;
    assert_eq!(
        error(&no_general),
        "offset 0x0010: bad piece array: Red has no general"
    );
    // In a full game file the opening position stands in, as ElephantEye reads it.
    let mut full = write_xqf(&annotated_game(), 10);
    full[0x14] = 0xff;
    assert_eq!(read_xqf(&full).unwrap(), annotated_game());
}

#[test]
fn the_header_side_to_move_gives_way_to_the_first_move() {
    let mut bytes = write_xqf(&black_to_move(), 10);
    bytes[0x32] = 0; // an old writer's "Red to move"
    assert_eq!(read_xqf(&bytes).unwrap(), black_to_move());
}

/// A line `level` deep in variations: its second move has as alternative the next level.
fn nested(level: usize, deepest: usize) -> Line {
    const FIRST: [&str; 4] = ["h0g2", "h9g7", "g2h0", "g7h9"];
    const SECOND: [&str; 2] = ["i9i8", "i0i1"];
    let mut line = Line::new(vec![mv(FIRST[level % 4]), mv(SECOND[level % 2])]);
    if level < deepest {
        line.note_mut(1).variations.push(nested(level + 1, deepest));
    }
    line
}

#[test]
fn variations_nest_up_to_the_limit() {
    let game = |deepest| {
        let main = nested(0, deepest);
        GameRecord {
            moves: main.moves,
            notes: main.notes,
            ..GameRecord::default()
        }
    };
    let deep = game(MAX_NESTING);
    assert_eq!(read_xqf(&write_xqf(&deep, 18)).unwrap(), deep);
    let err = read_xqf(&write_xqf(&game(MAX_NESTING + 1), 18)).unwrap_err();
    assert!(
        matches!(err.kind, XqfErrorKind::TooDeep { max: 100, .. }),
        "{err}"
    );
}

#[test]
fn lines_are_refused_past_the_ply_limit() {
    let dance = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let game = |plies: usize| GameRecord {
        moves: (0..plies).map(|i| mv(dance[i % 4])).collect(),
        ..GameRecord::default()
    };
    let long = game(MAX_PLIES);
    assert_eq!(read_xqf(&write_xqf(&long, 11)).unwrap(), long);
    let err = read_xqf(&write_xqf(&game(MAX_PLIES + 1), 11)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "offset 0x{:04x}: move record {}: the line is longer than 20000 plies",
            0x400 + 4 * (MAX_PLIES + 1),
            MAX_PLIES + 1
        )
    );
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(format!(
        "{}/tests/data/xqf/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// The committed fixtures and the games they were written from (`XQF_BLESS=1` rewrites
/// them after a deliberate change of the writer).
fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let illegal = played("h2e2 h9g7 h2e2");
    vec![
        ("annotated_v10.xqf", write_xqf(&annotated_game(), 10)),
        (
            "annotated_v18.xqf",
            write_xqf_seeded(&annotated_game(), 18, 7),
        ),
        ("endgame_black_v12.xqf", write_xqf(&black_to_move(), 12)),
        ("illegal_v11.xqf", write_xqf(&illegal, 11)),
    ]
}

#[test]
fn fixtures_are_what_the_writer_writes() {
    let bless = std::env::var_os("XQF_BLESS").is_some();
    for (name, bytes) in fixtures() {
        if bless {
            std::fs::write(fixture(name), &bytes).unwrap();
        }
        assert_eq!(std::fs::read(fixture(name)).unwrap(), bytes, "{name}");
    }
}

fn replay_json(name: &str) -> (bool, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["replay", "--json"])
        .arg(fixture(name))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.success(), serde_json::from_str(&text).unwrap())
}

#[test]
fn replay_reads_the_fixtures() {
    let (ok, value) = replay_json("annotated_v10.xqf");
    assert!(ok);
    assert_eq!(
        value,
        serde_json::json!({
            "moves": 6,
            "fen": annotated_game().final_position().to_fen(),
            "result": "0-1",
            "comments": 4,
            "variations": 4,
            "ecco": "C00",
            "opening": "中炮对屏风马",
            "ruling": null
        })
    );
    let (_, v18) = replay_json("annotated_v18.xqf");
    assert_eq!(v18, value);
    let (ok, value) = replay_json("endgame_black_v12.xqf");
    assert!(ok);
    assert_eq!(
        value,
        serde_json::json!({
            "moves": 7,
            "fen": "9/3ka1R2/9/9/9/9/4p4/5A3/9/3AK4 w - - 7 5",
            "result": "1-0",
            "comments": 1,
            "variations": 1,
            "ecco": null,
            "opening": null,
            "ruling": null
        })
    );
}

#[test]
fn replay_reports_an_illegal_xqf_move_with_its_ply_and_offset() {
    let (ok, value) = replay_json("illegal_v11.xqf");
    assert!(!ok);
    assert_eq!(
        value,
        serde_json::json!({
            "error": "offset 0x040c: move record 3: ply 3: h2e2 is illegal here",
            "move_number": 3,
            "text": "h2e2",
            "offset": 0x40c
        })
    );
}

#[test]
fn book_build_walks_folders_for_xqf_files_too() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    for (name, bytes) in fixtures() {
        std::fs::write(games.join(name), bytes).unwrap();
    }
    // The extension is matched without case; a PGN file beside them is read as before.
    std::fs::rename(
        games.join("annotated_v18.xqf"),
        games.join("annotated_v18.XQF"),
    )
    .unwrap();
    std::fs::write(
        games.join("one.pgn"),
        annotated_game().to_pgn(Notation::Chinese),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["book", "build", "--quiet", "-o"])
        .arg(dir.path().join("book.xqb"))
        .arg(&games)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("4 games from 5 files in "), "{stdout}");
    assert!(
        stdout.contains("skipped 1 with an illegal move, 0 unreadable"),
        "{stdout}"
    );
    let illegal = format!(
        "skipped (illegal move): {}: offset 0x040c: move record 3: ply 3: h2e2 is illegal here",
        games.join("illegal_v11.xqf").display()
    );
    assert!(stderr.contains(&illegal), "{stderr}");
}
