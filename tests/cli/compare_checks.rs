//! `compare`: the classic results hold on every textbook tree and on 50 random
//! positions at depths 2-4; rows agree with the `.expected` files; the JSON has
//! exactly the documented shape; bad input is one line and exit status 2.
//!
//! Depths per backend keep the test short: minimax is exhaustive (b^d leaves), so it
//! runs at depth 2 everywhere and at depth 3 on every fifth position; B* proves a best
//! move rather than a value and takes part in no check, so it runs at depth 2 only.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use xiangqi_core::board::Position;
use xiangqi_core::rng::SplitMix64 as Rng;
use xiangqi_engine::search::Algorithm;
use xiangqi_engine::study::{Problem, RowValue, compare};
use xiangqi_engine::tree::Tree;

const TREES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trees");

fn trees() -> Vec<(String, Tree, HashMap<String, String>)> {
    let mut names: Vec<String> = std::fs::read_dir(TREES)
        .unwrap()
        .filter_map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".tree").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let text =
                std::fs::read_to_string(Path::new(TREES).join(format!("{name}.tree"))).unwrap();
            let expected =
                std::fs::read_to_string(Path::new(TREES).join(format!("{name}.expected")))
                    .unwrap()
                    .lines()
                    .filter_map(|line| line.split_once(": "))
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
            (name, Tree::parse(&text).unwrap(), expected)
        })
        .collect()
}

#[test]
fn every_check_holds_on_every_textbook_tree_and_rows_match_the_expected_files() {
    let trees = trees();
    assert_eq!(trees.len(), 13);
    for (name, tree, expected) in &trees {
        let comparison = compare(Problem::Tree(tree), None, &Algorithm::ALL, &mut |_| {}).unwrap();
        assert_eq!(comparison.checks.len(), 4, "{name}");
        for check in &comparison.checks {
            assert!(check.holds, "{name}: {} ({})", check.name, check.detail);
        }
        let value: i32 = expected["value"].parse().unwrap();
        for algorithm in [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::Sss,
            Algorithm::MtSss,
            Algorithm::Mtdf,
        ] {
            let row = comparison.row(algorithm).unwrap();
            assert_eq!(row.value, RowValue::Plain(value), "{name} {algorithm}");
            assert_eq!(
                row.best_move.as_deref(),
                Some(expected["best move"].as_str()),
                "{name} {algorithm}"
            );
        }
        let count = |key: &str| expected[key].parse::<u64>().unwrap();
        assert_eq!(
            comparison.row(Algorithm::Minimax).unwrap().leaves,
            count("minimax leaves"),
            "{name}"
        );
        assert_eq!(
            comparison.row(Algorithm::AlphaBeta).unwrap().leaves,
            count("alphabeta leaf count"),
            "{name}"
        );
        let sss = comparison.row(Algorithm::Sss).unwrap();
        assert_eq!(sss.leaves, count("sss leaf count"), "{name}");
        assert_eq!(sss.interior, count("sss interior"), "{name}");
        assert_eq!(
            sss.peak_memory,
            count("sss max open"),
            "{name}: peak memory is the largest OPEN"
        );
        if let Some(best) = expected.get("bstar best") {
            assert_eq!(
                comparison.row(Algorithm::BStar).unwrap().best_move.as_ref(),
                Some(best),
                "{name}"
            );
        }
    }
}

/// Positions from random games (captures preferred half the time), set up afresh
/// from their FEN so that no history changes a verdict between the searches.
fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..4 + rng.below(80) {
            moves.clear();
            if rng.below(2) == 0 {
                pos.legal_captures(&mut moves);
            }
            if moves.is_empty() {
                pos.legal_moves(&mut moves);
            }
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
        let fen = pos.to_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let pos = Position::from_fen(&format!("{} {} - - 0 1", fields[0], fields[1])).unwrap();
        if pos.has_legal_move() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn every_check_holds_on_fifty_random_positions_at_depths_two_to_four() {
    use Algorithm::*;
    let mut strictly_fewer = 0;
    for (index, pos) in random_positions(12, 50).iter().enumerate() {
        for depth in 2..=4u32 {
            let algorithms: Vec<Algorithm> = match depth {
                2 => Algorithm::ALL.to_vec(),
                3 if index % 5 == 0 => vec![Minimax, AlphaBeta, Sss, MtSss, Mtdf],
                _ => vec![AlphaBeta, Sss, MtSss, Mtdf],
            };
            let comparison = compare(
                Problem::Position(pos),
                Some(depth),
                &algorithms,
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(comparison.checks.len(), 4);
            for check in &comparison.checks {
                assert!(
                    check.holds,
                    "{} depth {depth}: {} ({})",
                    pos.to_fen(),
                    check.name,
                    check.detail
                );
            }
            let (sss, ab) = (
                comparison.row(Sss).unwrap(),
                comparison.row(AlphaBeta).unwrap(),
            );
            strictly_fewer += usize::from(sss.leaves < ab.leaves);
            assert_eq!(sss.best_move.is_some(), ab.best_move.is_some());
        }
    }
    // SSS* does save leaves on real positions, not only on textbook trees.
    assert!(strictly_fewer > 0);
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
}

#[test]
fn json_has_exactly_the_documented_shape() {
    let out = binary()
        .args([
            "compare",
            "--tree",
            &format!("{TREES}/course-sss.tree"),
            "--json",
            "--algorithms",
            "alphabeta,sss",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["depth", "values", "rows", "checks"]);
    assert_eq!(
        json["values"], "max",
        "a tree's values are its MAX player's"
    );
    assert_eq!(json["depth"], 3);
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let row_keys: Vec<&String> = rows[1].as_object().unwrap().keys().collect();
    assert_eq!(
        row_keys,
        [
            "algorithm",
            "value",
            "best_move",
            "leaves",
            "interior",
            "peak_memory",
            "seconds"
        ]
    );
    assert_eq!(rows[1]["algorithm"], "sss");
    assert_eq!(rows[1]["value"], 8);
    assert_eq!(rows[1]["best_move"], "d");
    assert_eq!(rows[1]["leaves"], 10);
    assert_eq!(rows[1]["peak_memory"], 6);
    assert!(rows[1]["seconds"].is_number());
    let checks = json["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 3, "no MT-SSS* row: no Plaat check");
    for check in checks {
        let keys: Vec<&String> = check.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "holds", "detail"]);
        assert_eq!(check["holds"], true);
    }
}

#[test]
fn mate_scores_are_mate_strings_and_moves_are_iccs() {
    // Red mates at once: the chariot checks on the d-file, the generals face on the e-file.
    let out = binary()
        .args([
            "compare",
            "--fen",
            "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
            "--depth",
            "2",
            "--json",
            "--algorithms",
            "alphabeta,sss",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["rows"][0]["value"], "mate 1");
    assert_eq!(json["rows"][0]["best_move"], "a1d1");
    assert_eq!(json["rows"][1]["value"], "mate 1");
    assert_eq!(json["values"], "red");
    // Black to move mates in one (a8f8): from Red's view that is mate -1.
    let out = binary()
        .args([
            "compare",
            "--fen",
            "4k4/r8/9/9/9/9/9/9/9/5K3 b - - 0 1",
            "--depth",
            "2",
            "--algorithms",
            "alphabeta,sss",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("depth 2, values in centipawns from Red's view\n"),
        "{text}"
    );
    let alphabeta = text.lines().find(|l| l.starts_with("alphabeta")).unwrap();
    assert!(alphabeta.contains(" mate -1 "), "{text}");
}

#[test]
fn bad_input_is_one_line_and_exit_status_two() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.tree");
    std::fs::write(&broken, "(a (b 1 2)").unwrap();
    let cases: [(Vec<String>, &str); 5] = [
        (
            vec!["--tree".into(), broken.display().to_string()],
            "broken.tree:",
        ),
        (vec!["--fen".into(), "not a fen".into()], "--fen:"),
        (
            vec!["--algorithms".into(), "alphabeta,negascout".into()],
            "--algorithms: unknown value 'negascout': valid values are minimax, alphabeta,",
        ),
        (
            vec!["--depth".into(), "0".into()],
            "depth must be at least 1",
        ),
        (
            vec![
                "--tree".into(),
                dir.path().join("missing.tree").display().to_string(),
            ],
            "cannot read",
        ),
    ];
    for (args, wanted) in cases {
        let out = binary().arg("compare").args(&args).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(wanted), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}
