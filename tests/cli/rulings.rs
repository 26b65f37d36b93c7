//! The rule book's example diagrams (tests/data/rulebook.tsv, docs/rules.md) ruled
//! through `replay --json` as a user runs it: each diagram's position and moves written
//! as a PGN with a FEN tag, replayed by the binary, its `"ruling"` the book's. The ply
//! expected is counted here from the positions, without the arbiter.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::Notation;
use xiangqi_core::record::GameRecord;

struct Row {
    diagram: String,
    fen: String,
    lead: Vec<Move>,
    cycle: Vec<Move>,
    result: String,
    offender: String,
    rule: String,
}

fn moves(text: &str) -> Vec<Move> {
    text.split(' ')
        .filter(|m| *m != "-")
        .map(|m| Move::parse_coords(m).unwrap_or_else(|| panic!("bad move {m}")))
        .collect()
}

fn rows() -> Vec<Row> {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rulebook.tsv"))
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 9, "{line}");
            Row {
                diagram: f[0].to_owned(),
                fen: f[2].to_owned(),
                lead: moves(f[3]),
                cycle: moves(f[4]),
                result: f[5].to_owned(),
                offender: f[6].to_owned(),
                rule: f[7].to_owned(),
            }
        })
        .collect()
}

/// The row's moves: the lead, then the cycle three times (more than the game needs).
fn script(row: &Row, cycles: usize) -> Vec<Move> {
    row.lead
        .iter()
        .chain(row.cycle.iter().cycle().take(cycles * row.cycle.len()))
        .copied()
        .collect()
}

/// The ply at which some position occurs for the third time, counted by FEN (board
/// and side to move).
fn third_occurrence(fen: &str, moves: &[Move]) -> Option<usize> {
    let mut pos = Position::from_fen(fen).unwrap();
    let seen = |pos: &Position| {
        let fen = pos.to_fen();
        fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
    };
    let mut counts: HashMap<String, usize> = HashMap::new();
    *counts.entry(seen(&pos)).or_default() += 1;
    for (ply, &mv) in moves.iter().enumerate() {
        assert!(pos.is_legal(mv), "{mv} in {}", pos.to_fen());
        pos.make_move(mv);
        let count = counts.entry(seen(&pos)).or_default();
        *count += 1;
        if *count == 3 {
            return Some(ply + 1);
        }
    }
    None
}

/// Writes the game as PGN (ICCS moves, a FEN tag) and replays it with `args`.
fn replay(dir: &Path, name: &str, fen: &str, moves: &[Move], args: &[&str]) -> String {
    let mut record = GameRecord::new(Position::from_fen(fen).unwrap());
    record.moves = moves.to_vec();
    let path = dir.join(format!("{name}.pgn"));
    std::fs::write(&path, record.to_pgn(Notation::Iccs)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .arg("replay")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn replay_json(dir: &Path, name: &str, fen: &str, moves: &[Move]) -> Value {
    serde_json::from_str(&replay(dir, name, fen, moves, &["--json"])).unwrap()
}

#[test]
fn every_diagram_is_ruled_as_the_book_rules_it_through_replay_json() {
    let dir = tempfile::tempdir().unwrap();
    let rows = rows();
    assert!(rows.len() >= 100, "{} diagrams", rows.len());
    let mut wrong = Vec::new();
    for row in &rows {
        // Played to its end and no further: the game ends at the third occurrence.
        let all = script(row, 3);
        let ply = third_occurrence(&row.fen, &all).expect("the cycle repeats");
        let json = replay_json(dir.path(), &row.diagram, &row.fen, &all[..ply]);
        let ruling = &json["ruling"];
        let got = (
            ruling["ply"].as_u64(),
            ruling["result"].as_str(),
            ruling["rule"].as_str(),
        );
        let want = (
            Some(ply as u64),
            Some(row.result.as_str()),
            Some(row.rule.as_str()),
        );
        if got != want {
            wrong.push(format!("{}: book {want:?}, replay {got:?}", row.diagram));
            continue;
        }
        assert_eq!(ruling.get("moves_after_end"), None, "{}", row.diagram);
        // The cycle: the last moves played, each with what it did.
        let cycle = ruling["cycle"].as_array().unwrap();
        let played: Vec<String> = all[ply - cycle.len()..ply]
            .iter()
            .map(|m| m.iccs())
            .collect();
        let listed: Vec<&str> = cycle.iter().map(|m| m["move"].as_str().unwrap()).collect();
        assert_eq!(listed, played, "{}", row.diagram);
        // The offender's every move is what it loses for; a target goes with a check
        // or a chase, none with an idle move.
        let offender_moves = cycle.iter().enumerate().filter(|(i, _)| {
            let red_first = Position::from_fen(&row.fen).unwrap().side_to_move()
                == xiangqi_core::board::Color::Red;
            // The mover of the i-th cycle move, from the ply it was played at.
            let ply_of = ply - cycle.len() + i;
            let red = ply_of.is_multiple_of(2) == red_first;
            (row.offender == "red" && red) || (row.offender == "black" && !red)
        });
        let kind = match ruling["reason"].as_str().unwrap() {
            "perpetual check" => Some("check"),
            "perpetual chase" => Some("chase"),
            _ => None,
        };
        for (_, m) in offender_moves {
            assert_eq!(m["kind"].as_str(), kind, "{}: {m}", row.diagram);
        }
        for m in cycle {
            assert_eq!(
                m["target"].is_null(),
                m["kind"] == "idle",
                "{}: {m}",
                row.diagram
            );
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} diagrams:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

fn row(diagram: &str) -> Row {
    rows().into_iter().find(|r| r.diagram == diagram).unwrap()
}

#[test]
fn a_record_going_on_after_the_ruling_says_how_many_moves() {
    let dir = tempfile::tempdir().unwrap();
    let d33 = row("D33");
    // Lead-less: the start position occurs a third time after two cycles, and the
    // record plays on for three moves of a third.
    let moves = script(&d33, 3);
    let json = replay_json(dir.path(), "d33", &d33.fen, &moves[..11]);
    assert_eq!(
        json["ruling"],
        serde_json::json!({
            "ply": 8,
            "result": "0-1",
            "reason": "perpetual chase",
            "rule": "18",
            "cycle": [
                {"move": "h6i6", "kind": "chase", "target": "cannon i0"},
                {"move": "i0h0", "kind": "idle", "target": null},
                {"move": "i6h6", "kind": "chase", "target": "cannon h0"},
                {"move": "h0i0", "kind": "idle", "target": null},
            ],
            "moves_after_end": 3,
        })
    );
    assert_eq!(json["moves"], 11);
    let text = replay(dir.path(), "d33", &d33.fen, &moves[..11], &[]);
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        "ruling 0-1 at ply 8: perpetual chase by Red (rule 18: a chariot may not chase an \
         unprotected cannon perpetually); the record goes on 3 moves after it"
    );
}

#[test]
fn a_record_the_rules_do_not_end_has_no_ruling() {
    let dir = tempfile::tempdir().unwrap();
    let d33 = row("D33");
    // One repetition only: the game goes on.
    let moves = script(&d33, 1);
    let json = replay_json(dir.path(), "twice", &d33.fen, &moves);
    assert_eq!(json["ruling"], Value::Null);
    let text = replay(dir.path(), "twice", &d33.fen, &moves, &[]);
    assert!(!text.contains("ruling"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
}
