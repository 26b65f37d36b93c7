//! `xiangqi-tui tree` end to end, through the built binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use xiangqi_engine::tree::Expected;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/trees")
        .join(name)
}

fn xiangqi_tui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        // Errors must be one line whatever the caller's environment asks for.
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .output()
        .unwrap()
}

fn tree(name: &str, extra: &[&str]) -> Output {
    let path = data(name);
    let mut args = vec!["tree", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    xiangqi_tui(&args)
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    assert!(!output.status.success(), "the command should fail");
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(output: &Output) -> Value {
    serde_json::from_str(&stdout(output)).unwrap()
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

#[test]
fn json_answers_the_expected_keys_of_each_algorithm() {
    let expected =
        Expected::parse(&std::fs::read_to_string(data("bstar-intro.expected")).unwrap()).unwrap();
    for algorithm in ["minimax", "alphabeta", "sss", "mtsss", "bstar"] {
        let object = json(&tree(
            "bstar-intro.tree",
            &["--algorithm", algorithm, "--json"],
        ));
        let own_keys: Vec<&(String, String)> = expected
            .entries()
            .iter()
            .filter(|(key, _)| key.starts_with(&format!("{algorithm} ")))
            .collect();
        assert!(!own_keys.is_empty());
        for (key, want) in own_keys {
            let got = &object[key.replace(' ', "_")];
            assert_eq!(&text(got), want, "{algorithm}: {key}");
        }
        assert_eq!(object["best_move"], "a", "{algorithm}");
        assert_eq!(object["value"], 12, "{algorithm}");
    }
    // Counts are numbers, lists are arrays of labels.
    let object = json(&tree("aima-fig6-2.tree", &["--algorithm", "sss", "--json"]));
    assert_eq!(object["sss_steps"], 18);
    assert_eq!(object["sss_leaves"][0], "1.1");
    let minimax = json(&tree(
        "aima-fig6-2.tree",
        &["--algorithm", "minimax", "--json"],
    ));
    assert_eq!(minimax["minimax_leaves"], 9);
    let bstar = json(&tree(
        "bstar-intro.tree",
        &["--json", "--algorithm", "bstar"],
    ));
    assert_eq!(
        bstar["bstar_strategies"],
        serde_json::json!(["D", "P", "D", "P", "D", "P"])
    );
}

#[test]
fn alphabeta_is_the_default() {
    let object = json(&tree("aima-fig6-2.tree", &["--json"]));
    assert_eq!(
        text(&object["alphabeta_leaves"]),
        "1.1 1.2 1.3 2.1 3.1 3.2 3.3"
    );
}

#[test]
fn trace_prints_the_trace_files_and_nothing_else() {
    for (file, algorithm, trace) in [
        ("course-sss.tree", "sss", "course-sss.sss-trace"),
        ("uneven.tree", "alphabeta", "uneven.ab-trace"),
        ("bstar-intro.tree", "bstar", "bstar-intro.bstar-trace"),
    ] {
        let out = stdout(&tree(file, &["--algorithm", algorithm, "--trace"]));
        assert_eq!(
            out,
            std::fs::read_to_string(data(trace)).unwrap(),
            "{file} {algorithm}"
        );
    }
}

#[test]
fn plain_output_lists_value_move_leaves_and_counts() {
    let out = stdout(&tree("course-sss.tree", &["--algorithm", "sss"]));
    assert_eq!(
        out,
        "algorithm: sss\nvalue: 8\nbest move: d\nleaves: l m r s v w n o x y\nleaf count: 10\ninterior: 9\nsteps: 27\nmax open: 6\n"
    );
    let out = stdout(&tree("aima-fig6-2.tree", &["--algorithm", "mtsss"]));
    assert!(out.contains("passes: 4\n"), "{out}");
}

#[test]
fn node_limit_is_reported() {
    let object = json(&tree(
        "course-sss.tree",
        &["--algorithm", "sss", "--nodes", "3", "--json"],
    ));
    assert_eq!(object["limit_reached"], "nodes");
    assert_eq!(object["value"], Value::Null);
    let out = stdout(&tree(
        "course-sss.tree",
        &["--algorithm", "sss", "--nodes", "3"],
    ));
    assert!(out.contains("limit reached: nodes\n"), "{out}");
}

#[test]
fn errors_are_one_line_and_say_where() {
    let message = stderr(&tree("aima-fig6-2.tree", &["--algorithm", "negamax"]));
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains(
        "--algorithm: unknown value 'negamax': valid values are minimax, alphabeta, sss, mtsss, mtdf, bstar"
    ));

    let dir = std::env::temp_dir().join(format!("xiangqi-tui-tree-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.tree");
    std::fs::write(&bad, "(a (b 1 2)\n   (b 3 4))\n").unwrap();
    let message = stderr(&xiangqi_tui(&["tree", bad.to_str().unwrap()]));
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains(&format!(
            "{}:2:5: duplicate name 'b' (first used at 1:5)",
            bad.display()
        )),
        "{message}"
    );

    let interval = dir.join("interval.tree");
    std::fs::write(&interval, "(1 [0,3])").unwrap();
    let message = stderr(&xiangqi_tui(&[
        "tree",
        interval.to_str().unwrap(),
        "--algorithm",
        "sss",
    ]));
    assert!(
        message.contains("1:4: interval leaf [0,3] is accepted only by bstar, not by sss"),
        "{message}"
    );
    stdout(&xiangqi_tui(&[
        "tree",
        interval.to_str().unwrap(),
        "--algorithm",
        "bstar",
    ]));
    std::fs::remove_dir_all(&dir).unwrap();

    let message = stderr(&xiangqi_tui(&["tree", "/nonexistent/x.tree"]));
    assert!(
        message.contains("cannot read /nonexistent/x.tree"),
        "{message}"
    );
    let message = stderr(&tree("aima-fig6-2.tree", &["--trace", "--json"]));
    assert!(message.contains("cannot be combined"), "{message}");
}
