//! `xiangqi-tui egtb generate`, `egtb probe` and `egtb drill` through the binary: exact
//! JSON, exit status 2 with the command to run for a missing table, one-line errors; the
//! school's lessons list (text and JSON) with the installed tables summed up.

use std::process::{Command, Output};

fn run(args: &[&str], data_home: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        // Keep the user's data directory (and any tables in it) out of the tests.
        .env("XDG_DATA_HOME", data_home)
        .env("HOME", data_home)
        .output()
        .unwrap()
}

#[test]
fn generate_then_probe_json() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("tables");
    let dir = dir.to_str().unwrap();
    let out = run(&["egtb", "generate", "KRK", "--dir", dir], home.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("solved 2 endings"), "{stderr}");

    let out = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w",
            "--json",
            "--dir",
            dir,
        ],
        home.path(),
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"fen\":\"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1\",\"material\":\"KRK\",\
         \"result\":\"win\",\"plies\":1,\"best_move\":\"a0d0\"}\n"
    );

    // Black to move: one move, then mate.
    let out = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "3k5/9/9/9/9/9/9/9/9/R3K4 b",
            "--all",
            "--dir",
            dir,
        ],
        home.path(),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "KRK: loss in 2 plies; best move d9d8\nd9d8\tloss 2\n"
    );

    // KK: a draw, no plies; the best move is any that keeps it.
    let out = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "3k5/9/9/9/9/9/9/9/9/4K4 w",
            "--json",
            "--dir",
            dir,
        ],
        home.path(),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"fen\":\"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\",\"material\":\"KK\",\
         \"result\":\"draw\",\"plies\":null,\"best_move\":\"e0f0\"}\n"
    );

    // A second run keeps what is there.
    let out = run(&["egtb", "generate", "KRK", "--dir", dir], home.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("KRK: already complete, kept"), "{stderr}");
    assert!(stderr.contains("solved 0 endings"), "{stderr}");
}

#[test]
fn missing_material_names_the_command() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("empty");
    let dir = dir.to_str().unwrap();
    let out = run(
        &[
            "egtb",
            "probe",
            "--fen",
            "3k5/9/9/9/9/9/9/9/9/N3K4 w",
            "--dir",
            dir,
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "xiangqi-tui: no tablebase for KHK in {dir}: generate it with \
             `xiangqi-tui egtb generate KHK --dir {dir}`\n"
        )
    );
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["egtb", "probe", "--fen", "3k5/9/9 w"], home.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("xiangqi-tui: bad FEN: "), "{stderr}");

    let out = run(&["egtb", "generate", "KAKR"], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "xiangqi-tui: bad material 'KAKR': the stronger side comes first: KRKA\n"
    );
}

#[test]
fn the_lessons_are_listed_with_their_verdicts() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("tables");
    let dir = dir.to_str().unwrap();
    let out = run(&["egtb", "generate", "KPK", "--dir", dir], home.path());
    assert!(out.status.success());

    let out = run(&["egtb", "drill", "--dir", dir], home.path());
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "material  verdict      won    longest win   table"
    );
    assert!(lines.contains(&"KPK       mostly win    86.9% mate in 10    installed"));
    assert!(
        lines.contains(&"KRK       -                 - -             made on first use (seconds)")
    );

    let out = run(&["egtb", "drill", "--dir", dir, "--json"], home.path());
    let text = String::from_utf8(out.stdout).unwrap();
    let kpk = text.lines().find(|l| l.contains("\"KPK\"")).unwrap();
    assert_eq!(
        kpk,
        "{\"material\":\"KPK\",\"installed\":true,\"verdict\":\"mostly win\",\
         \"won_percent\":86.9,\"positions\":2196,\"longest_plies\":19,\
         \"longest_fen\":\"9/9/4k4/9/9/9/P8/9/9/3K5 w - - 0 1\"}"
    );
    let krk = text.lines().find(|l| l.contains("\"KRK\"")).unwrap();
    assert_eq!(
        krk,
        "{\"material\":\"KRK\",\"installed\":false,\"made_on_first_use\":true}"
    );
}

#[test]
fn a_large_missing_table_names_the_command() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("tables");
    let dir = dir.to_str().unwrap();
    let out = run(&["egtb", "drill", "KRRKR", "--dir", dir], home.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "no tablebase for KRRKR in {dir}: generate it with `xiangqi-tui egtb generate KRRKR`"
        )),
        "{stderr}"
    );
    let out = run(&["egtb", "drill", "KQK", "--dir", dir], home.path());
    assert_eq!(out.status.code(), Some(2));
}
