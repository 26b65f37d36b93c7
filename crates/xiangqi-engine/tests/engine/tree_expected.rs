//! Every key of every `.expected` file, and every trace file line for line,
//! for the textbook trees in `tests/data/trees`.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use xiangqi_engine::search::{Algorithm, Bounding, Limits, SearchOptions};
use xiangqi_engine::tree::{Expected, Tree, TreeReport, run_tree};

fn data_dir() -> PathBuf {
    Path::new(crate::TOP).join("tests/data/trees")
}

fn tree_names() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(data_dir())
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            (path.extension()? == "tree")
                .then(|| path.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

fn load(name: &str) -> Tree {
    let text = fs::read_to_string(data_dir().join(format!("{name}.tree"))).unwrap();
    Tree::parse(&text).unwrap_or_else(|error| panic!("{name}.tree: {error}"))
}

fn report(tree: &Tree, algorithm: Algorithm, bounding: Bounding) -> TreeReport {
    let options = SearchOptions {
        bounding,
        ..SearchOptions::default()
    };
    run_tree(tree, algorithm, &Limits::none(), &options).unwrap()
}

/// A JSON value written the way `.expected` files write values.
fn as_expected_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        Value::Array(items) => items
            .iter()
            .map(as_expected_text)
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// The algorithms whose JSON answers `key`.
fn answering(key: &str) -> Vec<Algorithm> {
    if key == "value" || key == "best move" {
        return Algorithm::ALL
            .into_iter()
            .filter(|a| a.is_exact())
            .collect();
    }
    let prefix = key.split(' ').next().unwrap();
    vec![
        prefix
            .parse()
            .unwrap_or_else(|_| panic!("no algorithm answers key '{key}'")),
    ]
}

#[test]
fn there_are_thirteen_trees() {
    assert_eq!(tree_names().len(), 13);
}

#[test]
fn every_expected_key_matches() {
    let mut checked = 0;
    for name in tree_names() {
        let tree = load(&name);
        let text = fs::read_to_string(data_dir().join(format!("{name}.expected"))).unwrap();
        let expected = Expected::parse(&text).unwrap();
        assert!(!expected.entries().is_empty());
        if tree.has_estimates() {
            assert!(
                expected.get("bstar best").is_some(),
                "{name}: interval trees have bstar keys"
            );
        }
        for (key, want) in expected.entries() {
            let json_key = key.replace(' ', "_");
            for algorithm in answering(key) {
                for bounding in [Bounding::FailSoft, Bounding::FailHard] {
                    let json = report(&tree, algorithm, bounding).to_json();
                    let got = json.get(&json_key).unwrap_or_else(|| {
                        panic!("{name}: {algorithm} gives no '{json_key}' in {json}")
                    });
                    assert_eq!(
                        &as_expected_text(got),
                        want,
                        "{name}: key '{key}' from {algorithm} ({bounding:?})"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200, "only {checked} checks ran");
}

#[test]
fn trace_files_are_reproduced_line_for_line() {
    let mut compared = 0;
    for name in tree_names() {
        let tree = load(&name);
        for (extension, algorithm) in [
            ("sss-trace", Algorithm::Sss),
            ("ab-trace", Algorithm::AlphaBeta),
            ("bstar-trace", Algorithm::BStar),
        ] {
            let Ok(text) = fs::read_to_string(data_dir().join(format!("{name}.{extension}")))
            else {
                continue;
            };
            // The `.ab-trace` files record the textbook fail-hard procedure.
            let lines = report(&tree, algorithm, Bounding::FailHard).trace;
            let want: Vec<&str> = text.lines().collect();
            for (number, (got, want)) in lines.iter().zip(&want).enumerate() {
                assert_eq!(got, want, "{name}.{extension} line {}", number + 1);
            }
            assert_eq!(lines.len(), want.len(), "{name}.{extension}: line count");
            compared += 1;
        }
    }
    assert_eq!(compared, 9, "4 SSS*, 4 alpha-beta and 1 B* trace files");
}

#[test]
fn fail_soft_differs_from_fail_hard_only_in_cut_values() {
    // On the AIMA tree C fails low: fail-hard returns alpha (3), fail-soft its
    // own bound (2). Leaves and the root value agree.
    let tree = load("aima-fig6-2");
    let hard = report(&tree, Algorithm::AlphaBeta, Bounding::FailHard);
    let soft = report(&tree, Algorithm::AlphaBeta, Bounding::FailSoft);
    assert_eq!(hard.leaves, soft.leaves);
    assert_eq!(hard.value, soft.value);
    assert!(hard.trace.contains(&"exit C -> 3".to_string()));
    assert!(soft.trace.contains(&"exit C -> 2".to_string()));
}
