//! Trace export: `jsonl` reads back into the same typed events (trees and positions,
//! every backend), its field names are pinned, `dot` output parses (a small parser
//! here; Graphviz too when installed), and the CLI flags behave, text staying
//! byte-identical to the reference traces.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;

use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::{Limits as EngineLimits, search_position_with};
use xiangqi_engine::search::{
    Algorithm, Backend, Bounding, Limits, Recorder, Search, SearchOptions, TraceEvent,
};
use xiangqi_engine::study::{ExploredTree, TraceFormat, dot, event_json, export, parse_jsonl};
use xiangqi_engine::tree::{NodeIndex, Tree, exact_table_entries};

const TREES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trees");

fn tree(name: &str) -> Tree {
    Tree::parse(&std::fs::read_to_string(Path::new(TREES).join(format!("{name}.tree"))).unwrap())
        .unwrap()
}

fn tree_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(TREES)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".tree").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

fn tree_events(
    tree: &Tree,
    algorithm: Algorithm,
    bounding: Bounding,
) -> Vec<TraceEvent<NodeIndex>> {
    let options = SearchOptions {
        bounding,
        table_entries: exact_table_entries(tree),
        ..SearchOptions::default()
    };
    let mut recorder = Recorder::new();
    Backend::new(algorithm, &options).search(&mut tree.game(), &Limits::none(), &mut recorder);
    recorder.events
}

#[test]
fn jsonl_round_trips_every_backend_on_every_textbook_tree() {
    let mut checked = 0;
    for name in tree_names() {
        let tree = tree(&name);
        for algorithm in Algorithm::ALL {
            if tree.check_algorithm(algorithm).is_err() {
                continue;
            }
            let events = tree_events(&tree, algorithm, Bounding::FailSoft);
            let text = export(&events, &tree, TraceFormat::Jsonl, 1000);
            let snapshots = events
                .iter()
                .filter(|e| matches!(e, TraceEvent::OpenEntry { .. }))
                .count();
            // A header, then one line per event, each OPEN snapshot one change line.
            assert_eq!(text.lines().count(), 1 + events.len() - snapshots);
            let back: Vec<TraceEvent<NodeIndex>> = parse_jsonl(&text).unwrap();
            assert_eq!(back, events, "{name} {algorithm}");
            checked += 1;
        }
    }
    assert!(checked >= 13 * 5);
}

#[test]
fn jsonl_round_trips_every_backend_on_a_position_with_moves_as_iccs() {
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1").unwrap();
    for algorithm in Algorithm::ALL {
        let mut recorder = Recorder::<Move>::new();
        search_position_with(
            algorithm,
            &pos,
            &EngineLimits::depth(2),
            &AtomicBool::new(false),
            &mut recorder,
        );
        assert!(!recorder.events.is_empty());
        let names = xiangqi_engine::engine::PositionNames::new(
            &pos,
            xiangqi_core::notation::Notation::Iccs,
        );
        let text = export(&recorder.events, &names, TraceFormat::Jsonl, 1000);
        let back: Vec<TraceEvent<Move>> = parse_jsonl(&text).unwrap();
        assert_eq!(back, recorder.events, "{algorithm}");
        if algorithm == Algorithm::AlphaBeta {
            let child = text
                .lines()
                .find(|line| line.contains("\"child_value\""))
                .unwrap();
            assert!(
                child.contains("\"mv\":\"") && child.contains("\"child_label\":\""),
                "{child}"
            );
        }
    }
}

#[test]
fn jsonl_field_names_are_the_documented_ones() {
    let tree = tree("aima-fig6-2");
    let events = tree_events(&tree, Algorithm::AlphaBeta, Bounding::FailHard);
    let lines: Vec<String> = events.iter().map(|e| event_json(e, &tree)).collect();
    assert_eq!(
        lines[0],
        r#"{"event":"enter","node":0,"ply":0,"alpha":-1000000000,"beta":1000000000,"node_label":"A"}"#
    );
    assert_eq!(
        lines[2],
        r#"{"event":"enter","node":2,"ply":2,"alpha":-1000000000,"beta":1000000000,"node_label":"1.1"}"#
    );
    assert_eq!(
        lines[3],
        r#"{"event":"leaf","node":2,"ply":2,"value":3,"node_label":"1.1"}"#
    );
    assert!(
        lines.iter().any(
            |l| l == r#"{"event":"cutoff","node":5,"ply":1,"k":1,"pruned":2,"node_label":"C"}"#
        )
    );
    let exit_c = lines
        .iter()
        .find(|l| l.starts_with(r#"{"event":"exit","node":5,"#))
        .unwrap();
    assert_eq!(
        exit_c,
        r#"{"event":"exit","node":5,"ply":1,"value":3,"kind":"upper","best":1,"node_label":"C"}"#
    );
    let sss = tree_events(&tree, Algorithm::Sss, Bounding::FailSoft);
    let pop = sss
        .iter()
        .find(|e| matches!(e, TraceEvent::Pop { .. }))
        .unwrap();
    assert_eq!(
        event_json(pop, &tree),
        r#"{"event":"pop","desc":{"node":0,"ply":0,"status":"live","merit":1000000000,"node_label":"A"}}"#
    );
    let bad = parse_jsonl::<NodeIndex>("{\"event\":\"leaf\",\"node\":1}\n").unwrap_err();
    assert!(
        bad.to_string().starts_with("line 1: missing field"),
        "{bad}"
    );
}

/// A token of the DOT subset the exporter writes.
#[derive(Debug, PartialEq)]
enum Token {
    Id(String),
    Quoted(String),
    Punct(char),
    Arrow,
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next().expect("unterminated string") {
                        '\\' => match chars.next().expect("escape at end") {
                            'n' => s.push('\n'),
                            c => s.push(c),
                        },
                        '"' => break,
                        c => s.push(c),
                    }
                }
                out.push(Token::Quoted(s));
            }
            '-' if chars.peek() == Some(&'>') => {
                chars.next();
                out.push(Token::Arrow);
            }
            '{' | '}' | '[' | ']' | ';' | ',' | '=' => out.push(Token::Punct(c)),
            c if c.is_alphanumeric() || c == '_' => {
                let mut s = c.to_string();
                while let Some(&n) = chars.peek() {
                    if n.is_alphanumeric() || n == '_' {
                        s.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(Token::Id(s));
            }
            c => panic!("unexpected character {c:?}"),
        }
    }
    out
}

/// `key=value` attributes of a statement.
type Attributes = Vec<(String, String)>;

/// Parsed graph: declared nodes (with attributes) and edges (with attributes).
struct Graph {
    nodes: Vec<(String, Attributes)>,
    edges: Vec<(String, String, Attributes)>,
}

fn parse_dot(text: &str) -> Graph {
    let toks = tokens(text);
    let mut i = 0;
    let id = |t: &Token| match t {
        Token::Id(s) | Token::Quoted(s) => s.clone(),
        other => panic!("expected an id, got {other:?}"),
    };
    assert_eq!(toks[0], Token::Id("digraph".into()));
    i += 2;
    assert_eq!(toks[i], Token::Punct('{'));
    i += 1;
    let mut graph = Graph {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let attrs = |toks: &[Token], i: &mut usize| -> Vec<(String, String)> {
        let mut list = Vec::new();
        if toks[*i] != Token::Punct('[') {
            return list;
        }
        *i += 1;
        while toks[*i] != Token::Punct(']') {
            let key = id(&toks[*i]);
            assert_eq!(toks[*i + 1], Token::Punct('='));
            let value = id(&toks[*i + 2]);
            list.push((key, value));
            *i += 3;
            if toks[*i] == Token::Punct(',') {
                *i += 1;
            }
        }
        *i += 1;
        list
    };
    while toks[i] != Token::Punct('}') {
        let first = id(&toks[i]);
        i += 1;
        if toks[i] == Token::Arrow {
            let second = id(&toks[i + 1]);
            i += 2;
            let list = attrs(&toks, &mut i);
            graph.edges.push((first, second, list));
        } else {
            let list = attrs(&toks, &mut i);
            if first != "node" {
                graph.nodes.push((first, list));
            }
        }
        assert_eq!(toks[i], Token::Punct(';'), "statement end");
        i += 1;
    }
    assert_eq!(i + 1, toks.len(), "nothing after the graph");
    graph
}

fn check_dot(text: &str, explored: &ExploredTree) -> Graph {
    let graph = parse_dot(text);
    let declared: HashSet<&str> = graph.nodes.iter().map(|(n, _)| n.as_str()).collect();
    for (from, to, _) in &graph.edges {
        assert!(
            declared.contains(from.as_str()) && declared.contains(to.as_str()),
            "{from} -> {to}"
        );
    }
    let tree_nodes = graph
        .nodes
        .iter()
        .filter(|(n, _)| n.starts_with('n'))
        .count();
    assert_eq!(tree_nodes, explored.len());
    let cuts = explored
        .nodes()
        .iter()
        .filter(|n| n.cutoff.is_some_and(|(_, p)| p > 0))
        .count();
    let dashed = graph
        .edges
        .iter()
        .filter(|(_, _, a)| a.iter().any(|(k, v)| k == "style" && v == "dashed"))
        .count();
    assert_eq!(dashed, cuts);
    // The bold edges are the principal variation: a path down from the root.
    let bold: Vec<(&str, &str)> = graph
        .edges
        .iter()
        .filter(|(_, _, a)| a.iter().any(|(k, v)| k == "style" && v == "bold"))
        .map(|(f, t, _)| (f.as_str(), t.as_str()))
        .collect();
    assert_eq!(bold.len(), explored.principal_variation().len());
    let mut at = "n0";
    for (from, to) in &bold {
        assert_eq!(*from, at);
        at = to;
    }
    if let Ok(out) = Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
    {
        use std::io::Write;
        let mut child = out;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        assert!(
            child.wait().unwrap().success(),
            "graphviz rejects the graph"
        );
    }
    graph
}

#[test]
fn dot_output_parses_for_every_backend_on_every_textbook_tree() {
    for name in tree_names() {
        let tree = tree(&name);
        for algorithm in Algorithm::ALL {
            if tree.check_algorithm(algorithm).is_err() {
                continue;
            }
            let events = tree_events(&tree, algorithm, Bounding::FailHard);
            let explored = ExploredTree::from_events(&events, 1000);
            let text = dot(&explored, &tree);
            let graph = check_dot(&text, &explored);
            if name == "aima-fig6-2" && algorithm == Algorithm::AlphaBeta {
                let c = graph.nodes.iter().find(|(n, _)| n == "n5").unwrap();
                assert_eq!(
                    c.1[0],
                    (
                        "label".into(),
                        "C\n(3,inf) = 3 upper cut after #1, 2 pruned".into()
                    )
                );
            }
        }
    }
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
}

#[test]
fn tree_trace_flags_write_text_jsonl_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let file = format!("{TREES}/course-sss.tree");
    let text_out = dir.path().join("t.txt");
    let status = binary()
        .args([
            "tree",
            &file,
            "--algorithm",
            "alphabeta",
            "--trace",
            "--trace-format",
            "text",
            "--trace-out",
        ])
        .arg(&text_out)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&text_out).unwrap(),
        std::fs::read_to_string(format!("{TREES}/course-sss.ab-trace")).unwrap(),
        "text stays the reference lines, byte for byte"
    );
    let out = binary()
        .args([
            "tree",
            &file,
            "--algorithm",
            "sss",
            "--trace",
            "--trace-format",
            "jsonl",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let back: Vec<TraceEvent<NodeIndex>> =
        parse_jsonl(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let tree = tree("course-sss");
    assert_eq!(back, tree_events(&tree, Algorithm::Sss, Bounding::FailHard));
    let out = binary()
        .args([
            "tree",
            &file,
            "--algorithm",
            "alphabeta",
            "--trace",
            "--trace-format",
            "dot",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let explored = ExploredTree::from_events(
        &tree_events(&tree, Algorithm::AlphaBeta, Bounding::FailHard),
        1000,
    );
    check_dot(&String::from_utf8(out.stdout).unwrap(), &explored);
}

#[test]
fn analyze_trace_writes_a_dot_file_and_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.dot");
    let fen = "4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1";
    let status = binary()
        .args([
            "analyze",
            "--fen",
            fen,
            "--algorithm",
            "alphabeta",
            "--depth",
            "2",
            "--trace",
            "--trace-format",
            "dot",
            "--trace-out",
        ])
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    let graph = parse_dot(&text);
    assert!(graph.nodes.len() > 10);
    assert!(
        text.contains("label=\"root\\n"),
        "the root is labelled root"
    );
    let out = binary()
        .args([
            "analyze",
            "--fen",
            fen,
            "--algorithm",
            "mtdf",
            "--depth",
            "2",
            "--trace",
            "--trace-format",
            "jsonl",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let events: Vec<TraceEvent<Move>> =
        parse_jsonl(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, TraceEvent::PassStart { .. }))
    );
}

#[test]
fn bad_trace_flags_are_one_line_and_exit_status_two() {
    let file = format!("{TREES}/aima-fig6-2.tree");
    for args in [
        vec!["tree", &file, "--trace", "--trace-format", "svg"],
        vec!["tree", &file, "--trace-format", "jsonl"],
        vec!["analyze", "--trace", "--trace-format", "png"],
    ] {
        let out = binary().args(&args).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

/// A depth-3 SSS* search of the opening position: the `jsonl` export grows with the
/// search (its steps), not with OPEN's length at each step; full snapshots on request.
#[test]
fn a_depth_three_sss_export_is_proportional_to_the_search() {
    use xiangqi_engine::study::{ExportOptions, TraceStore, read_jsonl, write_trace};
    let pos = Position::startpos();
    let mut recorder = Recorder::<Move>::new();
    search_position_with(
        Algorithm::Sss,
        &pos,
        &EngineLimits::depth(3),
        &AtomicBool::new(false),
        &mut recorder,
    );
    let events = &recorder.events;
    let names =
        xiangqi_engine::engine::PositionNames::new(&pos, xiangqi_core::notation::Notation::Iccs);
    let entries = events
        .iter()
        .filter(|e| matches!(e, TraceEvent::OpenEntry { .. }))
        .count();
    let steps = events
        .iter()
        .filter(|e| matches!(e, TraceEvent::Pop { .. }))
        .count();
    let export_with = |snapshots: bool| {
        let mut out = Vec::new();
        let options = ExportOptions {
            snapshots,
            ..ExportOptions::default()
        };
        let written = write_trace(
            events.iter().copied(),
            events.len() as u64,
            &names,
            TraceFormat::Jsonl,
            options,
            None,
            &mut out,
            &mut |_, _| true,
        )
        .unwrap();
        assert_eq!(written.bytes, out.len() as u64);
        (written, String::from_utf8(out).unwrap())
    };
    let (before, full) = export_with(true);
    let (after, changes) = export_with(false);
    eprintln!(
        "depth-3 SSS* on the opening: {} events ({entries} OPEN entries, {steps} steps); \
         snapshots: {} lines {} bytes; changes: {} lines {} bytes",
        events.len(),
        before.lines,
        before.bytes,
        after.lines,
        after.bytes
    );
    // One line per event but the OPEN entries, and one per snapshot.
    assert_eq!(after.lines as usize, events.len() - entries + 1);
    assert!(after.bytes * 10 < before.bytes, "{after:?} vs {before:?}");
    assert!(
        after.bytes < 400 * (events.len() - entries) as u64,
        "bytes per event stay bounded: {after:?}"
    );
    // Both read back into the same events; so does version 1 (no header, no changes).
    assert_eq!(&read_jsonl::<Move>(&changes).unwrap().events, events);
    let version1: String = events
        .iter()
        .map(|e| event_json(e, &names) + "\n")
        .collect();
    let back = read_jsonl::<Move>(&version1).unwrap();
    assert_eq!((back.version, &back.events), (1, events));
    assert_eq!(read_jsonl::<Move>(&full).unwrap().version, 2);
    // The app's store keeps the OPEN lists as changes too, and gives back every event.
    let mut store = TraceStore::new(usize::MAX);
    for event in events {
        store.push(*event, false);
    }
    assert_eq!(&store.to_vec(), events);
}

/// A trace cut by the store's cap stops at the end of a whole event and says so.
#[test]
fn a_cut_trace_ends_on_a_whole_event_and_says_why() {
    use xiangqi_engine::search::TraceText;
    use xiangqi_engine::study::{ExportOptions, TraceStore, read_jsonl, write_trace};
    let tree = tree("course-sss");
    let events = tree_events(&tree, Algorithm::Sss, Bounding::FailHard);
    let mut store = TraceStore::new(20);
    let mut text = TraceText::new(&tree);
    for event in &events {
        store.push(*event, text.feed(event).is_some());
    }
    let cut = store.cut().expect("cut");
    assert!(cut.kept < events.len() as u64 && cut.total == events.len() as u64);
    let mut out = Vec::new();
    write_trace(
        store.iter(),
        store.len(),
        &tree,
        TraceFormat::Jsonl,
        ExportOptions::default(),
        Some(&cut),
        &mut out,
        &mut |_, _| true,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.lines().last().unwrap().starts_with("{\"cut\":"),
        "{text}"
    );
    let back = read_jsonl::<NodeIndex>(&text).unwrap();
    assert_eq!(back.events, events[..cut.kept as usize]);
    assert_eq!(back.cut, Some(cut));
    // The kept events end a text line: the last one is an OPEN entry closing a step.
    assert!(matches!(
        back.events.last(),
        Some(TraceEvent::OpenEntry { .. })
    ));
}

#[test]
fn trace_snapshots_asks_for_the_whole_open_list() {
    let file = format!("{TREES}/course-sss.tree");
    let run = |extra: &[&str]| {
        let out = binary()
            .args([
                "tree",
                &file,
                "--algorithm",
                "sss",
                "--trace",
                "--trace-format",
                "jsonl",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let changes = run(&[]);
    let full = run(&["--trace-snapshots"]);
    assert!(changes.starts_with(r#"{"trace":"xiangqi-tui","version":2,"open":"changes"}"#));
    assert!(full.starts_with(r#"{"trace":"xiangqi-tui","version":2,"open":"snapshots"}"#));
    assert!(changes.contains("\"open_change\"") && !changes.contains("\"open_entry\""));
    assert!(full.contains("\"open_entry\"") && !full.contains("\"open_change\""));
    let a: Vec<TraceEvent<NodeIndex>> = parse_jsonl(&changes).unwrap();
    let b: Vec<TraceEvent<NodeIndex>> = parse_jsonl(&full).unwrap();
    assert_eq!(a, b);
    let refused = binary()
        .args(["tree", &file, "--trace-snapshots"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
}
