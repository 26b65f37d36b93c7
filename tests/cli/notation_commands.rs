//! End-to-end runs of `moves`, `notation` and `replay` through the built binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "0")
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn fixture(name: &str) -> String {
    format!("{}/tests/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn moves_lists_the_legal_moves_in_the_chosen_notation() {
    let out = run(&["moves"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 44);
    assert_eq!(lines[0], "车一进一\ti0i1");
    assert!(lines.contains(&"炮二平五\th2e2"));
    assert!(lines.contains(&"兵七进一\tc3c4"));

    let out = run(&["moves", "--notation", "wxf"], None);
    assert!(stdout(&out).lines().any(|l| l == "C2.5\th2e2"));
    let out = run(&["--notation", "iccs", "moves"], None);
    assert!(stdout(&out).lines().all(|l| l.len() == 4));

    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let out = run(&["moves", "--fen", black], None);
    assert!(stdout(&out).lines().any(|l| l == "马8进7\th9g7"));
}

#[test]
fn moves_rejects_bad_arguments_with_a_message() {
    let out = run(&["moves", "--notation", "klingon"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("unknown notation 'klingon'"));
    let out = run(&["moves", "--fen", "9/9 w"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad FEN"), "{}", stderr(&out));
}

#[test]
fn notation_converts_each_line_and_carries_on_after_errors() {
    let input = format!(
        "{START}\t炮二平五\n\n{START}\t马二进四\nnot a fen\th2e2\n{START}\tC2.5\n{START}\n\
         {START}\th0g2\r\n{START}\t炮二平\n"
    );
    let out = run(&["notation"], Some(&input));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(lines[0], "h2e2\t炮二平五\tC2.5");
    assert_eq!(lines[1], "error\tempty line: expected FEN<TAB>MOVE");
    assert!(
        lines[2].starts_with("error\t'马二进四': illegal: the Red horse on h0"),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("error\tbad FEN:"), "{}", lines[3]);
    assert_eq!(lines[4], "h2e2\t炮二平五\tC2.5");
    assert_eq!(lines[5], "error\tno tab: expected FEN<TAB>MOVE");
    assert_eq!(lines[6], "h0g2\t马二进三\tH2+3");
    assert_eq!(
        lines[7],
        "error\t'炮二平': column 4: the move stops too early: expected a number from 1 to 9"
    );
}

#[test]
fn replay_prints_the_final_position_and_the_plies() {
    let out = run(&["replay", &fixture("opening_utf8.pgn")], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "fen r2akabr1/8c/1cn1b1n2/p1p1p1R1p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 14 8\n\
         moves 14\nresult 1-0\n"
    );
    let out = run(&["replay", "--json", &fixture("endgame_big5.pgn")], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"moves\":7,\"fen\":\"9/3ka1R2/9/9/9/9/4p4/5A3/9/3AK4 w - - 7 5\",\"result\":\"1-0\",\
         \"comments\":1,\"variations\":0,\"ecco\":null,\"opening\":null,\"ruling\":null}\n"
    );
    let out = run(&["replay", "--json", &fixture("opening_utf8.pgn")], None);
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        (&value["comments"], &value["variations"]),
        (&4.into(), &2.into())
    );
    // From the standard start, the opening the built-in table gives the moves.
    assert_eq!(value["ecco"], "C20");
    assert_eq!(value["opening"], "中炮过河车七路马对屏风马两头蛇");
    let out = run(&["replay", "--json", &fixture("opening_gbk.pgn")], None);
    assert!(
        stdout(&out).starts_with("{\"moves\":10,"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn replay_reports_the_first_failing_move() {
    let path = fixture("illegal_move.pgn");
    let out = run(&["replay", &path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let message = stderr(&out);
    assert!(
        message.contains(
            "line 5:4: move 3 '马二进四': illegal: the Red horse on h0 cannot move to f1"
        ),
        "{message}"
    );

    let out = run(&["replay", "--json", &path], None);
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(value["move_number"], 3);
    assert_eq!(value["text"], "马二进四");
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .contains("leg at g0 is blocked")
    );

    let out = run(&["replay", "--json", "/no/such/file.pgn"], None);
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .starts_with("/no/such/file.pgn: ")
    );
}
