//! The readers' bounds as the commands meet them, on the main thread's stack.

/// `replay` itself, on the main thread's stack: the file, and one nested
/// deeper than the bound with a move at every level.
#[test]
fn replay_refuses_deep_nesting_in_a_line() {
    let dir = tempfile::tempdir().unwrap();
    for (text, error) in [
        (
            "(".repeat(50_000),
            "line 1:1: variation '(' before any move",
        ),
        (
            format!("1. h2e2 {}", "(h2e2 ".repeat(50_000)),
            "line 1:609: variations nested more than 100 deep",
        ),
    ] {
        let path = dir.path().join("deep.pgn");
        std::fs::write(&path, text).unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
            .arg("replay")
            .arg(&path)
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("xiangqi-tui: {}: {error}\n", path.display())
        );
    }
}
