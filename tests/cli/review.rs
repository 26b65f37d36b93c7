//! `review` end to end through the built binary: a game whose player then hangs a
//! chariot (moves it where the opponent takes it for nothing, and the opponent does)
//! gets that move marked a blunder and none of the moves before; the annotated PGN reads
//! back with its variations and comments; accuracy lies in 0..100 and is lower for the
//! side that blundered. Depth 5, one thread: the same result on every run.
//!
//! The game before the blunder is an opening line written for the tests
//! (`tests/data/review/`); where the CCPD master games are present (see ccpd_replay.rs),
//! the same check runs on one of them too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use xiangqi_core::board::{Kind, Move, Position};
use xiangqi_core::notation::Notation;
use xiangqi_core::record::GameRecord;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The first quiet chariot move of the side to move (in move-list order) that the
/// opponent can answer by taking the chariot with nothing to take back, and that capture.
fn hang_a_chariot(pos: &Position) -> Option<(Move, Move)> {
    let us = pos.side_to_move();
    pos.legal_move_list().into_iter().find_map(|mv| {
        let piece = pos.piece_at(mv.from());
        if piece.kind() != Kind::Chariot || pos.piece_at(mv.to()).is_some() {
            return None;
        }
        let mut after = pos.clone();
        after.make_move(mv);
        let capture = after
            .legal_move_list()
            .into_iter()
            .find(|reply| reply.to() == mv.to())?;
        let mut taken = after.clone();
        taken.make_move(capture);
        (!taken.is_attacked(mv.to(), us)).then_some((mv, capture))
    })
}

/// `record` cut after `plies` moves, then the chariot hung and taken; the blunder's ply.
fn with_blunder(mut record: GameRecord, plies: usize) -> (GameRecord, usize) {
    record.truncate(plies);
    let pos = record.final_position();
    let (blunder, capture) = hang_a_chariot(&pos).expect("a chariot to hang");
    record.moves.extend([blunder, capture]);
    (record, plies + 1)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-review-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reviews `record` through the binary and checks the blunder at `blunder` (1-based).
fn check_review(record: &GameRecord, blunder: usize, name: &str) {
    let dir = temp_dir(name);
    let game = dir.join("game.pgn");
    let annotated = dir.join("annotated.pgn");
    std::fs::write(&game, record.to_pgn(Notation::Chinese)).unwrap();
    let out = run(&[
        "review",
        game.to_str().unwrap(),
        "--depth",
        "5",
        "--threads",
        "1",
        "--json",
        "-o",
        annotated.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), record.moves.len());
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["move"], record.moves[i].iccs());
        let class = m["class"].as_str().unwrap();
        if i + 1 < blunder {
            assert_ne!(class, "blunder", "{name}: ply {}: {m}", i + 1);
        }
    }
    let marked = &moves[blunder - 1];
    assert_eq!(marked["class"], "blunder", "{name}: {marked}");
    assert!(marked["loss"].as_f64().unwrap() >= 30.0, "{marked}");
    let best_line = marked["best_line"].as_array().unwrap();
    assert_eq!(marked["best_move"], best_line[0]);
    assert_ne!(marked["best_move"], marked["move"]);
    for key in ["eval_before", "eval_after"] {
        assert!(
            marked[key].is_i64() || marked[key].as_str().is_some_and(|s| s.starts_with("mate ")),
            "{marked}"
        );
    }
    let side = if blunder % 2 == 1 { "red" } else { "black" };
    let other = if side == "red" { "black" } else { "red" };
    // The opening of the game, as replay --json names it.
    assert!(
        report["ecco"].as_str().is_some_and(|code| code.len() == 3),
        "{}",
        report["ecco"]
    );
    let accuracy = |key: &str| report["accuracy"][key].as_f64().unwrap();
    for key in ["red", "black"] {
        assert!((0.0..=100.0).contains(&accuracy(key)), "{report}");
    }
    assert!(accuracy(side) < accuracy(other), "{}", report["accuracy"]);

    // The annotated game: the same moves, ?? on the blunder with the better line as a
    // variation, an eval on every move; `replay` reads it too.
    let back = GameRecord::read_file(&annotated).unwrap();
    assert_eq!(back.moves, record.moves);
    let note = back.note(blunder - 1).unwrap();
    assert_eq!(note.nags, [4]);
    assert_eq!(note.variations.len(), 1);
    let best: Vec<String> = note.variations[0].moves.iter().map(|m| m.iccs()).collect();
    assert_eq!(best, *best_line);
    for i in 0..back.moves.len() {
        let comment = back
            .note(i)
            .and_then(|n| n.comment.as_deref())
            .unwrap_or("");
        assert!(comment.starts_with("[%eval "), "ply {}: {comment}", i + 1);
    }
    let pgn = std::fs::read_to_string(&annotated).unwrap();
    assert!(pgn.contains(" $4 {[%eval "), "{pgn}");
    let out = run(&["replay", "--json", annotated.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let replayed: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(replayed["moves"], record.moves.len());
    assert_eq!(replayed["comments"], record.moves.len());
    let errors = moves
        .iter()
        .filter(|m| ["inaccuracy", "mistake", "blunder"].contains(&m["class"].as_str().unwrap()))
        .count();
    assert_eq!(replayed["variations"], errors);

    // The text report: the blunder's line names the better move; the accuracies last.
    let out = run(&["review", game.to_str().unwrap(), "--depth", "5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    // The opening first (a central cannon game), then a line a move, then the accuracies.
    assert!(lines[0].starts_with("opening "), "{}", lines[0]);
    lines.remove(0);
    assert_eq!(lines.len(), record.moves.len() + 2);
    assert!(lines[blunder - 1].contains("?? "), "{}", lines[blunder - 1]);
    assert!(
        lines[blunder - 1].contains("blunder"),
        "{}",
        lines[blunder - 1]
    );
    assert!(
        lines[blunder - 1].contains("best "),
        "{}",
        lines[blunder - 1]
    );
    assert!(lines[record.moves.len()].starts_with("Red   accuracy"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_hung_chariot_is_a_blunder_and_nothing_before_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/review/central_cannon.pgn");
    let record = GameRecord::read_file(&path).unwrap();
    assert_eq!(record.moves.len(), 18);
    let (game, blunder) = with_blunder(record, 18);
    check_review(&game, blunder, "fixture");
}

#[test]
fn a_master_game_with_a_hung_chariot() {
    let Some(dir) = crate::master_games::ccpd_dir(env!("CARGO_MANIFEST_DIR")) else {
        return;
    };
    let record = GameRecord::read_file(&dir.join("game_001.pgn")).unwrap();
    assert!(record.moves.len() > 40);
    // Black blunders at ply 38, after 37 plies of the masters' game.
    let (game, blunder) = with_blunder(record, 37);
    check_review(&game, blunder, "ccpd");
}

#[test]
fn bad_input_is_one_line() {
    let out = run(&["review", "/no/such/game.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("/no/such/game.pgn"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = run(&["review", "x.pgn", "--depth", "3", "--movetime", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not both"),
        "{}",
        text(&out.stderr)
    );
}

/// The rule book's diagram 33 (Red's chariot chases Black's unprotected cannon, rule
/// 18), played to the third occurrence: Black's escape ends the game, Red's chase before
/// it lost.
#[test]
fn the_move_that_lost_by_the_rules_is_marked() {
    let start = Position::from_fen("4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w").unwrap();
    let mut record = GameRecord::new(start);
    record.moves = ["h6i6", "i0h0", "i6h6", "h0i0"]
        .iter()
        .cycle()
        .take(8)
        .map(|m| Move::parse_coords(m).unwrap())
        .collect();
    let dir = temp_dir("ruling");
    let game = dir.join("game.pgn");
    let annotated = dir.join("annotated.pgn");
    std::fs::write(&game, record.to_pgn(Notation::Iccs)).unwrap();
    let review = |extra: &[&str]| {
        let mut args = vec!["review", game.to_str().unwrap(), "--depth", "2"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let report: Value = serde_json::from_str(&review(&["--json"])).unwrap();
    let lost: Vec<u64> = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["lost_by_rules"] == true)
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(lost, [7]);
    assert_eq!(report["ruling"]["rule"], "18");
    assert_eq!(report["ruling"]["ply"], 8);

    let lines = review(&["--notation", "iccs", "-o", annotated.to_str().unwrap()]);
    let marked: Vec<&str> = lines
        .lines()
        .filter(|line| line.contains("loses by the rules"))
        .collect();
    assert_eq!(marked.len(), 1, "{lines}");
    assert!(marked[0].trim_start().starts_with("4. i6h6"), "{lines}");
    assert!(
        marked[0].ends_with("loses by the rules: perpetual chase (rule 18)"),
        "{lines}"
    );
    assert!(
        lines.contains(
            "ruling 0-1 at ply 8: perpetual chase by Red (rule 18: a chariot may not chase an \
             unprotected cannon perpetually)"
        ),
        "{lines}"
    );
    // The annotated game says it on the losing move.
    let pgn = GameRecord::read_file(&annotated).unwrap();
    let comment = pgn.notes[6].comment.as_deref().unwrap_or("");
    assert!(
        comment.contains(
            "Loses by the rules: perpetual chase (rule 18: a chariot may not chase an \
             unprotected cannon perpetually)."
        ),
        "{comment}"
    );
    let others = pgn
        .notes
        .iter()
        .filter(|note| {
            note.comment
                .as_deref()
                .is_some_and(|c| c.contains("Loses by"))
        })
        .count();
    assert_eq!(others, 1);
    let _ = std::fs::remove_dir_all(&dir);
}
