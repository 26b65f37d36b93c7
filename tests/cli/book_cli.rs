//! The `book` commands as a user runs them: build from a folder, show as text and as
//! the exact JSON the issue fixes, bad input (one line, exit status 2), and the UCI
//! `OwnBook` option answering from a book without searching.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        // No user config: the built-in defaults apply.
        .env(
            "XIANGQI_TUI_CONFIG",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/configs/valid/empty.toml"),
        )
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn collection() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book/collection")
}

fn built_book(dir: &Path) -> PathBuf {
    let out = dir.join("test.xqb");
    let (code, stdout, stderr) = run(&[
        "book",
        "build",
        collection().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("5 games from 5 files in "), "{stdout}");
    assert!(
        stdout.contains(
            "skipped 1 with an illegal move, 0 unreadable\n9 entries (max ply 40, min games 1)"
        ),
        "{stdout}"
    );
    assert!(stderr.contains("skipped (illegal move): "), "{stderr}");
    assert!(stderr.contains("d_illegal.pgn game 1"), "{stderr}");
    out
}

#[test]
fn show_json_is_exact_and_most_played_first() {
    let dir = tempfile::tempdir().unwrap();
    let book = built_book(dir.path());
    let book = book.to_str().unwrap();
    let (code, stdout, stderr) = run(&[
        "book",
        "show",
        "--book",
        book,
        "--moves",
        "炮二平五",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        "{\"fen\":\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\",\
         \"ecco\":\"B00\",\"opening\":\"中炮局\",\
         \"moves\":[{\"move\":\"h9g7\",\"chinese\":\"马8进7\",\"source\":\"games\",\"count\":2,\
         \"games\":2,\"red_wins\":1,\"draws\":1,\"black_wins\":0,\"red_pct\":50.0,\
         \"draw_pct\":50.0,\"black_pct\":0.0,\"ecco\":\"C00\",\"opening\":\"中炮对屏风马\"},\
         {\"move\":\"b9c7\",\"chinese\":\"马2进3\",\"source\":\"games\",\"count\":1,\"games\":1,\
         \"red_wins\":0,\"draws\":0,\"black_wins\":1,\"red_pct\":0.0,\"draw_pct\":0.0,\
         \"black_pct\":100.0,\"ecco\":\"B00\",\"opening\":\"中炮局\"}]}\n"
    );
    // The mirror side, given as a FEN, reads the same games with its own moves.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 1 1";
    let (_, stdout, _) = run(&["book", "show", "--book", book, "--fen", fen, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["moves"][0]["move"], "b9c7");
    assert_eq!(value["moves"][0]["chinese"], "马2进3");
    assert_eq!(value["moves"][0]["count"], 2);
    // Not in the book: an empty list.
    let (code, stdout, _) = run(&["book", "show", "--book", book, "--moves", "g3g4", "--json"]);
    assert_eq!(code, Some(0));
    assert!(stdout.ends_with(",\"moves\":[]}\n"), "{stdout}");
}

#[test]
fn show_json_of_the_builtin_book_at_the_start_gives_the_master_counts() {
    let (code, stdout, stderr) = run(&["book", "show", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["ecco"], serde_json::Value::Null);
    assert_eq!(value["moves"].as_array().unwrap().len(), 19);
    assert_eq!(
        value["moves"][0].to_string(),
        "{\"move\":\"h2e2\",\"chinese\":\"炮二平五\",\"source\":\"games\",\"count\":15758,\
         \"games\":15758,\"red_wins\":5977,\"draws\":5183,\"black_wins\":4563,\"red_pct\":38.0,\
         \"draw_pct\":33.0,\"black_pct\":29.0,\"ecco\":\"B00\",\"opening\":\"中炮局\"}"
    );
    // The text names the opening of the position shown and of each move.
    let (_, stdout, _) = run(&["book", "show", "--moves", "h2e2", "b7e7"]);
    assert_eq!(
        stdout.lines().nth(1),
        Some("opening D50 中炮对列炮"),
        "{stdout}"
    );
}

#[test]
fn show_text_lists_counts_and_scores() {
    let dir = tempfile::tempdir().unwrap();
    let book = built_book(dir.path());
    let (code, stdout, _) = run(&["book", "show", "--book", book.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert_eq!(
        stdout,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         炮二平五\th2e2\tgames 2\tred 50% draw 0% black 50%\tscore 50%\t(+1 =0 -1)\tB00 中炮局\n\
         炮八平五\tb2e2\tgames 1\tred 0% draw 100% black 0%\tscore 50%\t(+0 =1 -0)\tB00 中炮局\n\
         兵七进一\tc3c4\tgames 1\tred 100% draw 0% black 0%\tscore 100%\t(+1 =0 -0)\t\
         E00 仙人指路局\n\
         相三进五\tg0e2\tgames 1\tred 0% draw 0% black 100%\tscore 0%\t(+0 =0 -1)\tA00 其他开局\n"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "book".into(),
                "show".into(),
                "--fen".into(),
                "rnbakabnr/9 w".into(),
            ],
            "bad FEN",
        ),
        (
            vec![
                "book".into(),
                "show".into(),
                "--moves".into(),
                "h2h8".into(),
            ],
            "move 'h2h8'",
        ),
        (
            vec![
                "book".into(),
                "show".into(),
                "--book".into(),
                collection()
                    .join("a_central_cannon.pgn")
                    .display()
                    .to_string(),
            ],
            "not a xiangqi-tui opening book (wrong magic bytes)",
        ),
        (
            vec![
                "book".into(),
                "show".into(),
                "--book".into(),
                dir.path().join("missing.xqb").display().to_string(),
            ],
            "missing.xqb: cannot read",
        ),
        (
            vec![
                "book".into(),
                "build".into(),
                dir.path().join("no-such-folder").display().to_string(),
                "-o".into(),
                dir.path().join("out.xqb").display().to_string(),
            ],
            "no-such-folder: no such file or folder",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("xiangqi-tui: "), "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn a_truncated_book_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let book = built_book(dir.path());
    let bytes = std::fs::read(&book).unwrap();
    std::fs::write(&book, &bytes[..bytes.len() - 3]).unwrap();
    let (code, _, stderr) = run(&["book", "show", "--book", book.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("(truncated or padded)") && stderr.contains("test.xqb"),
        "{stderr}"
    );
}

#[test]
fn uci_own_book_answers_from_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let book = built_book(dir.path());
    let script = format!(
        "uci\nsetoption name OwnBook value true\nsetoption name BookFile value {}\n\
         position startpos moves h2e2\ngo depth 3\nposition startpos moves h2e2 h9g7 h0g2 i9h9\n\
         go depth 1\nquit\n",
        book.display()
    );
    let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    xiangqi_engine::uci::run(script.as_bytes(), SharedBuffer(std::sync::Arc::clone(&out))).unwrap();
    let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"option name OwnBook type check default false"));
    let at = lines
        .iter()
        .position(|l| *l == "info string book move h9g7")
        .unwrap();
    assert_eq!(lines[at + 1], "bestmove h9g7");
    // Out of the book: a search, with its info lines, answers.
    let last = lines
        .iter()
        .rposition(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(last > at + 1);
    assert!(
        lines[at + 2..last]
            .iter()
            .any(|l| l.starts_with("info depth 1"))
    );
}

/// A writer the UCI session can own while the test reads what it wrote.
struct SharedBuffer(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
