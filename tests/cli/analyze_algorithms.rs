//! `analyze --algorithm NAME` through the binary: every backend answers on a position in
//! the engine's result shape, the exact ones agree at a fixed depth, and `--trace`
//! prints the search step by step with nodes named by their moves.

use std::process::Command;

use xiangqi_core::board::{Move, Position};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .arg("analyze")
        .args(args)
        .env("XIANGQI_TUI_CONFIG", "")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = run(args);
    assert!(ok, "{args:?}: {stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    serde_json::from_str(&stdout).unwrap()
}

fn legal_best(report: &serde_json::Value, pos: &Position) -> Move {
    let mv = Move::parse_coords(report["bestmove"].as_str().unwrap()).unwrap();
    assert!(pos.is_legal(mv), "{report}");
    mv
}

const MIDGAME: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3";

#[test]
fn the_exact_backends_agree_at_depth_three() {
    let pos = Position::from_fen(MIDGAME).unwrap();
    let args = |algorithm: &'static str| {
        [
            "--fen",
            MIDGAME,
            "--algorithm",
            algorithm,
            "--depth",
            "3",
            "--json",
        ]
    };
    let sss = json(&args("sss"));
    legal_best(&sss, &pos);
    assert_eq!(sss["depth"], 3);
    assert!(sss["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    assert!(sss["chinese"].as_str().is_some_and(|name| !name.is_empty()));
    for algorithm in ["minimax", "mtsss", "mtdf"] {
        let other = json(&args(algorithm));
        assert_eq!(other["score_cp"], sss["score_cp"], "{algorithm}");
        assert_eq!(other["bestmove"], sss["bestmove"], "{algorithm}");
        assert_eq!(other["depth"], 3, "{algorithm}");
    }
}

#[test]
fn alphabeta_and_bstar_answer_in_the_same_shape() {
    let pos = Position::startpos();
    let strong = json(&["--algorithm", "alphabeta", "--depth", "4", "--json"]);
    legal_best(&strong, &pos);
    let bstar = json(&["--algorithm", "bstar", "--nodes", "15", "--json"]);
    legal_best(&bstar, &pos);
    for key in [
        "bestmove", "chinese", "score_cp", "mate", "depth", "nodes", "nps", "pv",
    ] {
        assert!(bstar.get(key).is_some(), "{key}");
    }
    let (ok, stdout, _) = run(&["--algorithm", "bstar", "--nodes", "15"]);
    assert!(ok);
    assert!(stdout.contains("algorithm bstar\n"), "{stdout}");
    assert!(
        stdout.contains("bstar stop limit expansions 15\n"),
        "{stdout}"
    );
}

#[test]
fn a_mate_in_one_is_reported_as_mate_by_every_algorithm() {
    // a5e5 mates; f1f8 leaves Black no move (stalemate, a win too).
    let fen = "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    for algorithm in ["minimax", "alphabeta", "sss", "mtsss", "mtdf", "bstar"] {
        let report = json(&[
            "--fen",
            fen,
            "--algorithm",
            algorithm,
            "--depth",
            "2",
            "--json",
        ]);
        let mut after = pos.clone();
        after.make_move(legal_best(&report, &pos));
        assert!(!after.has_legal_move(), "{algorithm}: {report}");
        assert_eq!(report["mate"], 1, "{algorithm}");
    }
}

#[test]
fn scores_are_from_reds_view_and_a_mate_names_its_side() {
    // The mate in one above, colours swapped: Black to move mates.
    let fen = "3k5/5r3/9/9/9/r8/9/9/9/4K4 b - - 0 1";
    let report = json(&["--fen", fen, "--depth", "2", "--json"]);
    assert_eq!(report["score_view"], "red");
    assert_eq!(report["mate"], -1, "{report}");
    let (ok, stdout, _) = run(&["--fen", fen, "--depth", "2"]);
    assert!(ok);
    assert!(stdout.contains("score Black mates in 1\n"), "{stdout}");
    // Black to move and a pawn up: Red's view is negative.
    let fen = "3k5/9/9/9/9/9/9/9/p8/4K4 b - - 0 1";
    let report = json(&["--fen", fen, "--depth", "3", "--json"]);
    assert!(report["score_cp"].as_i64().unwrap() < 0, "{report}");
    let (_, stdout, _) = run(&["--fen", fen, "--depth", "3"]);
    let score = stdout.lines().find(|l| l.starts_with("score ")).unwrap();
    assert!(
        score.starts_with("score -") && score.ends_with(" (Red's view)"),
        "{score}"
    );
}

#[test]
fn trace_prints_the_steps_with_nodes_named_by_their_moves() {
    let fen = "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1";
    let (ok, stdout, stderr) = run(&[
        "--fen",
        fen,
        "--algorithm",
        "sss",
        "--depth",
        "1",
        "--trace",
    ]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "step 0: OPEN = root/L/inf");
    assert!(lines[1].starts_with("step 1: pop root/L/inf ; case G6 ; push 车四进五/L/inf "));
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("case done ; value 998999999")
    );
    // What it found, and the view of its scores, on standard error.
    assert_eq!(
        stderr,
        "algorithm sss, depth 1, 36 nodes: best 车九平五 (a5e5), Red mates in 1; trace \
         scores are Red's view (MAX, the side to move) in centipawns\n"
    );
    // From the start, SSS*'s OPEN holds every root move and their replies: each line
    // shows OPEN's first entries and its length, so lines stay short.
    let (ok, stdout, stderr) = run(&["--algorithm", "sss", "--depth", "2", "--trace"]);
    assert!(ok, "{stderr}");
    let longest = stdout.lines().map(str::len).max().unwrap();
    assert!(longest < 2_000, "{longest}");
    assert!(stdout.contains(" … (44 in all)"), "{stdout}");
    assert!(stderr.starts_with("algorithm sss, depth 2, "), "{stderr}");
    let (ok, stdout, _) = run(&["--algorithm", "alphabeta", "--trace", "--notation", "iccs"]);
    assert!(ok);
    assert_eq!(
        stdout.lines().next(),
        Some("enter root alpha=-inf beta=inf")
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("leaf h2e2,")),
        "depth 2 by default"
    );
}

#[test]
fn bad_choices_are_one_line_errors() {
    let (ok, _, stderr) = run(&["--algorithm", "negascout"]);
    assert!(!ok);
    assert_eq!(
        stderr,
        "xiangqi-tui: --algorithm: unknown value 'negascout': valid values are minimax, alphabeta, sss, mtsss, mtdf, bstar\n"
    );
    // Any case, as in the config file.
    let (ok, stdout, stderr) = run(&["--algorithm", "MTDF", "--depth", "1"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("\nalgorithm mtdf\n"), "{stdout}");
    let (ok, _, stderr) = run(&["--trace", "--json"]);
    assert!(!ok);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
