//! The `perft` command as a user runs it.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn json_output_is_one_object_with_the_agreed_keys() {
    let (ok, stdout, _) = run(&["perft", "3", "--json"]);
    assert!(ok);
    assert_eq!(stdout.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["nodes"], 79666);
    assert_eq!(v["depth"], 3);
    assert_eq!(
        v["fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert!(v["seconds"].is_number() && v["nps"].is_number());
}

#[test]
fn divide_lists_root_moves_in_iccs() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let (ok, stdout, _) = run(&["perft", "2", "--fen", fen, "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(": ")).collect();
    assert!(lines.iter().any(|l| l.starts_with("h9g7: ")), "{stdout}");
    assert_eq!(
        lines.len(),
        45,
        "Black has 45 replies to the central cannon"
    );
    let total: u64 = lines
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(stdout.contains(&format!("nodes {total}")));
}

#[test]
fn a_bad_fen_is_one_clear_line_and_a_failure() {
    let (ok, stdout, stderr) = run(&["perft", "2", "--fen", "rnbakabnr/9 w"]);
    assert!(!ok);
    assert!(stdout.is_empty());
    assert!(stderr.contains("bad FEN"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}
