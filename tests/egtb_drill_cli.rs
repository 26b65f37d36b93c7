//! `xiangqi-tui egtb drill` through the binary: the lessons list (text and JSON) with the
//! installed tables summed up, and the one-line error naming the command to run when a
//! lesson's table is too large to generate on the spot.

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
    assert!(lines.contains(
        &"KRK       -                 - -             not installed: xiangqi-tui egtb generate KRK"
    ));

    let out = run(&["egtb", "drill", "--dir", dir, "--json"], home.path());
    let text = String::from_utf8(out.stdout).unwrap();
    let kpk = text.lines().find(|l| l.contains("\"KPK\"")).unwrap();
    assert_eq!(
        kpk,
        "{\"material\":\"KPK\",\"installed\":true,\"verdict\":\"mostly win\",\
         \"won_percent\":86.9,\"positions\":2196,\"longest_plies\":19,\
         \"longest_fen\":\"9/9/4k4/9/9/9/P8/9/9/3K5 w - - 0 1\"}"
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
