//! The explorer's tree is the tree the backend explored: node counts, leaves and values
//! on the textbook trees and on positions at depths 2-3; step mode keeps the selection
//! on the node of the current event, both ways with the log; the explorer pane at 80x24
//! and 120x40.

use crate::tui_support;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::config::EngineSide;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Focus, open_tree, update};
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::Notation;
use xiangqi_engine::engine::{
    Limits as EngineLimits, PositionGame, PositionNames, search_position_with,
};
use xiangqi_engine::search::{
    Algorithm, Backend, BoundKind, Game, Limits, NodeId, Recorder, Score, Search, SearchOptions,
    SearchResult, Status, TraceEvent, TraceText,
};
use xiangqi_engine::service::EngineEvent;
use xiangqi_engine::study::{ExploredTree, Explorer};
use xiangqi_engine::tree::{Tree, exact_table_entries};

const TREES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/trees");

fn trees() -> Vec<(String, Tree)> {
    let mut names: Vec<String> = std::fs::read_dir(TREES)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".tree").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let text =
                std::fs::read_to_string(Path::new(TREES).join(format!("{name}.tree"))).unwrap();
            (name, Tree::parse(&text).unwrap())
        })
        .collect()
}

/// Every node's minimax value (MAX's view), by node id, from the game itself.
fn minimax_values<G: Game>(
    game: &mut G,
    ply: u32,
    depth: Option<u32>,
    out: &mut HashMap<NodeId, Score>,
) -> Score {
    let id = game.node_id();
    let terminal = game.outcome();
    let mut moves = Vec::new();
    if terminal.is_none() && depth.is_none_or(|d| ply < d) {
        game.moves(&mut moves);
    }
    let value = if terminal.is_some() || moves.is_empty() {
        let mover = terminal.unwrap_or_else(|| game.evaluate());
        if ply.is_multiple_of(2) { mover } else { -mover }
    } else {
        let values = moves.iter().map(|&mv| {
            game.play(mv);
            let v = minimax_values(game, ply + 1, depth, out);
            game.undo(mv);
            v
        });
        let values: Vec<Score> = values.collect();
        if ply.is_multiple_of(2) {
            *values.iter().max().unwrap()
        } else {
            *values.iter().min().unwrap()
        }
    };
    out.insert(id, value);
    value
}

/// The explored tree agrees with the search's own counts and with the true values.
fn check<M>(
    what: &str,
    algorithm: Algorithm,
    explored: &ExploredTree,
    result: &SearchResult<M>,
    recorder: &Recorder<M>,
    truth: &HashMap<NodeId, Score>,
) {
    let leaves: HashSet<NodeId> = explored
        .nodes()
        .iter()
        .filter(|n| n.leaf.is_some())
        .map(|n| n.id)
        .collect();
    let distinct: HashSet<NodeId> = recorder.distinct_leaves().into_iter().collect();
    assert_eq!(leaves, distinct, "{what} {algorithm}: leaves");
    for node in explored.nodes() {
        if let Some(value) = node.leaf {
            assert_eq!(value, truth[&node.id], "{what} {algorithm}: leaf value");
        }
        match node.value {
            Some((v, BoundKind::Exact)) => {
                assert_eq!(v, truth[&node.id], "{what} {algorithm}: exact")
            }
            Some((v, BoundKind::Lower)) => {
                assert!(truth[&node.id] >= v, "{what} {algorithm}: lower")
            }
            Some((v, BoundKind::Upper)) => {
                assert!(truth[&node.id] <= v, "{what} {algorithm}: upper")
            }
            None => {}
        }
        if let Some(interval) = node.interval {
            assert!(
                interval.lo <= truth[&node.id] && truth[&node.id] <= interval.hi,
                "{what}: B* bounds"
            );
        }
    }
    let root = explored.node(explored.root().unwrap());
    assert_eq!(
        root.id,
        recorder
            .events
            .iter()
            .find_map(|e| match e {
                TraceEvent::Enter { node, .. } | TraceEvent::Expand { node, .. } => Some(*node),
                TraceEvent::OpenEntry { desc } => Some(desc.node),
                _ => None,
            })
            .unwrap()
    );
    match algorithm {
        Algorithm::Minimax | Algorithm::AlphaBeta | Algorithm::Sss => {
            assert_eq!(
                explored.leaf_count() as u64,
                result.stats.leaves,
                "{what} {algorithm}"
            );
            assert_eq!(
                explored.interior_count() as u64,
                result.stats.interior,
                "{what} {algorithm}"
            );
            let examined = explored.nodes().iter().filter(|n| n.examined()).count() as u64;
            assert_eq!(examined, result.stats.nodes(), "{what} {algorithm}: nodes");
            if algorithm != Algorithm::Sss {
                assert_eq!(
                    explored.len() as u64,
                    result.stats.nodes(),
                    "{what} {algorithm}: every node entered"
                );
            }
        }
        Algorithm::MtSss | Algorithm::Mtdf => {
            assert_eq!(
                root.value.map(|(v, _)| v),
                result.value.exact(),
                "{what} {algorithm}"
            );
            assert!(root.passes.len() as u64 >= 1);
        }
        Algorithm::BStar => {
            let expanded: Vec<NodeId> = explored
                .nodes()
                .iter()
                .filter(|n| n.expanded)
                .map(|n| n.id)
                .collect();
            let mut recorded = recorder.expanded();
            recorded.sort();
            recorded.dedup();
            let mut expanded_sorted = expanded.clone();
            expanded_sorted.sort();
            assert_eq!(expanded_sorted, recorded, "{what}: B* expansions");
        }
    }
    if algorithm == Algorithm::Sss {
        assert_eq!(root.sss.map(|(s, _)| s), Some(Status::Solved));
    }
    if algorithm == Algorithm::Minimax {
        for node in explored.nodes() {
            assert_eq!(
                node.value.map(|(v, _)| v),
                Some(truth[&node.id]),
                "{what}: minimax value"
            );
        }
    }
}

#[test]
fn the_explorer_tree_is_the_explored_tree_on_every_textbook_tree() {
    for (name, tree) in trees() {
        let mut truth = HashMap::new();
        minimax_values(&mut tree.game(), 0, None, &mut truth);
        for algorithm in Algorithm::ALL {
            if tree.check_algorithm(algorithm).is_err()
                || (algorithm == Algorithm::BStar && !tree.has_estimates())
            {
                continue;
            }
            let options = SearchOptions {
                table_entries: exact_table_entries(&tree),
                ..SearchOptions::default()
            };
            let mut recorder = Recorder::new();
            let result = Backend::new(algorithm, &options).search(
                &mut tree.game(),
                &Limits::none(),
                &mut recorder,
            );
            let explorer = Explorer::from_events(&recorder.events, &tree, 10_000);
            check(
                &name,
                algorithm,
                explorer.tree(),
                &result,
                &recorder,
                &truth,
            );
            assert!(!explorer.tree().truncated());
        }
    }
}

#[test]
fn the_explorer_tree_is_the_explored_tree_on_positions_at_depths_two_and_three() {
    let fens = [
        "4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1",
        "r1bakabr1/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN4CN/9/R1BAKABR1 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 2..=3u32 {
            let mut truth = HashMap::new();
            minimax_values(&mut PositionGame::new(&pos), 0, Some(depth), &mut truth);
            for algorithm in [
                Algorithm::Minimax,
                Algorithm::AlphaBeta,
                Algorithm::Sss,
                Algorithm::MtSss,
                Algorithm::Mtdf,
            ] {
                let limits = Limits::none().with_depth(depth);
                let mut recorder = Recorder::<Move>::new();
                let options = SearchOptions {
                    table_entries: 1 << 18,
                    ..SearchOptions::default()
                };
                let result = Backend::new(algorithm, &options).search(
                    &mut PositionGame::new(&pos),
                    &limits,
                    &mut recorder,
                );
                let names = PositionNames::new(&pos, Notation::Iccs);
                let explorer = Explorer::from_events(&recorder.events, &names, 1_000_000);
                check(
                    &format!("{fen} d{depth}"),
                    algorithm,
                    explorer.tree(),
                    &result,
                    &recorder,
                    &truth,
                );
            }
        }
    }
}

#[test]
fn past_the_cap_the_tree_is_shown_up_to_the_cap() {
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1").unwrap();
    let mut recorder = Recorder::<Move>::new();
    search_position_with(
        Algorithm::Minimax,
        &pos,
        &EngineLimits::depth(2),
        &AtomicBool::new(false),
        &mut recorder,
    );
    let names = PositionNames::new(&pos, Notation::Iccs);
    let explorer = Explorer::from_events(&recorder.events, &names, 50);
    assert_eq!(explorer.tree().len(), 50);
    assert!(explorer.tree().truncated());
    assert!(
        explorer
            .summary()
            .starts_with("tree shown up to 50 nodes; "),
        "{}",
        explorer.summary()
    );
}

/// The node a trace line is about: its second word (enter X, leaf X, exit X, ...).
fn line_node(line: &str) -> &str {
    line.split_whitespace().nth(1).unwrap()
}

fn studying(algorithm: Algorithm) -> App {
    let mut app = two_player_app();
    let text = std::fs::read_to_string(format!("{TREES}/course-sss.tree")).unwrap();
    open_tree(&mut app, Tree::parse(&text).unwrap(), algorithm).unwrap();
    app
}

#[test]
fn stepping_a_tree_keeps_the_selection_on_the_event_node_both_ways() {
    let mut app = studying(Algorithm::AlphaBeta);
    assert_eq!(app.focus, Focus::Log);
    let mut steps = 0;
    loop {
        let before = app.log.len();
        update(&mut app, key(KeyCode::Char(' ')));
        if app.log.len() == before {
            break;
        }
        steps += 1;
        let ended = app.log.lines().back().unwrap().text == "end of the search";
        let at = app.log.len() - 1 - usize::from(ended);
        let line = app.log.lines()[at].text.clone();
        let selected = app.study.explorer.selected().unwrap();
        assert_eq!(
            app.study.explorer.label(selected),
            line_node(&line),
            "step {steps}: {line}"
        );
        assert_eq!(
            app.study.highlighted_seq(),
            Some(app.log.dropped() + at as u64)
        );
        if ended {
            break;
        }
    }
    let reference = std::fs::read_to_string(format!("{TREES}/course-sss.ab-trace")).unwrap();
    assert_eq!(
        steps,
        reference.lines().count(),
        "one step per line of the reference trace"
    );
    let shown: Vec<&str> = app
        .log
        .lines()
        .iter()
        .skip(2)
        .take(steps)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(shown, reference.lines().collect::<Vec<_>>());
    // Scrolling the log back moves the explorer to the bottom line's node.
    for _ in 0..5 {
        update(&mut app, key(KeyCode::Up));
        let bottom = app.log.visible(1).next().unwrap().text.clone();
        let selected = app.study.explorer.selected().unwrap();
        assert_eq!(
            app.study.explorer.label(selected),
            line_node(&bottom),
            "{bottom}"
        );
    }
}

#[test]
fn a_stepping_position_search_selects_each_event_node() {
    let mut app = app_against_engine();
    app.config.settings.step = true;
    let effects = type_line(&mut app, "炮二平五");
    let request = effects
        .iter()
        .find_map(|e| match e {
            xiangqi_app::Effect::StartSearch(request) => Some(request.clone()),
            _ => None,
        })
        .expect("the engine answers");
    let pos = request.position.clone();
    let names = PositionNames::new(&pos, Notation::Iccs);
    let mut recorder = Recorder::<Move>::new();
    search_position_with(
        Algorithm::AlphaBeta,
        &pos,
        &EngineLimits::depth(1),
        &AtomicBool::new(false),
        &mut recorder,
    );
    let mut text = TraceText::new(&names);
    for event in recorder.events.iter().take(40) {
        let line = text.feed(event);
        update(
            &mut app,
            Action::Engine(EngineEvent::Explored {
                id: request.id,
                events: vec![(*event, line.is_some())],
            }),
        );
        if let Some(line) = line {
            update(
                &mut app,
                Action::Engine(EngineEvent::Trace {
                    id: request.id,
                    lines: vec![line.clone()],
                }),
            );
            let selected = app.study.explorer.selected().unwrap();
            let node = app.study.explorer.tree().node(selected).id;
            let expected = xiangqi_engine::search::NodeNames::label(&names, node).into_owned();
            assert!(line.contains(&expected), "{line} vs {expected}");
        }
    }
}

fn explored_screen(width: u16, height: u16) -> String {
    let mut app = studying(Algorithm::Sss);
    update(&mut app, key(KeyCode::Char('c')));
    update(&mut app, key(KeyCode::F(12)));
    assert!(app.study.shown && app.focus == Focus::Board);
    update(&mut app, key(KeyCode::Char('p')));
    screen_text(&render(&app, width, height))
}

#[test]
fn explorer_80x24() {
    assert_snapshot!(explored_screen(80, 24));
}

#[test]
fn explorer_120x40() {
    assert_snapshot!(explored_screen(120, 40));
}

#[test]
fn engine_side_is_untouched_by_study() {
    let app = studying(Algorithm::AlphaBeta);
    assert_eq!(app.config.settings.engine_side, EngineSide::None);
    assert!(app.engine.paused);
}

/// Types `:trace save NAME ...` and carries out the save as the driver does (on this
/// thread): the file's text, and the status line's message after it.
fn save(app: &mut App, dir: &Path, command: &str) -> (String, String) {
    let line = command.replacen("PATH", &dir.display().to_string(), 1);
    let effects = type_line(app, &line);
    let [xiangqi_app::Effect::SaveTrace(job)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert!(app.study.saving.is_some(), "the save is under way");
    let mut updates = Vec::new();
    xiangqi_app::run_trace_save(job, &mut |update| {
        updates.push(update);
        true
    });
    for update in updates {
        xiangqi_app::update(app, Action::TraceSave(update));
    }
    assert!(app.study.saving.is_none());
    let text = std::fs::read_to_string(&job.path).unwrap();
    (text, app.notice.take().unwrap().text)
}

#[test]
fn trace_save_writes_the_trace_shown_in_the_format_asked() {
    let mut app = studying(Algorithm::AlphaBeta);
    app.focus = Focus::Input;
    let dir = tempfile::tempdir().unwrap();
    let (contents, said) = save(&mut app, dir.path(), ":trace save PATH/out.jsonl");
    assert!(
        said.starts_with("saved ") && said.contains("out.jsonl: "),
        "{said}"
    );
    let events: Vec<TraceEvent<u32>> = xiangqi_engine::study::parse_jsonl(&contents).unwrap();
    assert!(matches!(events[0], TraceEvent::Enter { ply: 0, .. }));
    let (contents, _) = save(&mut app, dir.path(), ":trace save PATH/out.txt");
    let reference = std::fs::read_to_string(format!("{TREES}/course-sss.ab-trace")).unwrap();
    assert_eq!(contents, reference);
    let (contents, _) = save(&mut app, dir.path(), ":trace save PATH/out.gv dot");
    assert!(contents.starts_with("digraph"));
    assert!(type_line(&mut app, ":trace save x svg").is_empty());
    assert_eq!(
        app.input.error(),
        Some("unknown trace format 'svg': valid formats are text, jsonl, dot")
    );
    let mut fresh = two_player_app();
    assert!(type_line(&mut fresh, ":trace save x.txt").is_empty());
    assert_eq!(
        fresh.input.error(),
        Some(
            "no trace to save: the log keeps summaries only; F11 to nodes or events, then a \
             search (Ctrl-G) records one"
        )
    );
    fresh.config.settings.trace = xiangqi_app::config::TraceLevel::Off;
    fresh.input.clear();
    assert!(type_line(&mut fresh, ":trace save x.txt").is_empty());
    assert_eq!(
        fresh.input.error(),
        Some(
            "no trace to save: the log is off; F11 to nodes or events, then a search (Ctrl-G) \
             records one"
        )
    );
    fresh.config.settings.trace = xiangqi_app::config::TraceLevel::Events;
    fresh.input.clear();
    assert!(type_line(&mut fresh, ":trace save x.txt").is_empty());
    assert_eq!(
        fresh.input.error(),
        Some("no trace to save yet: let the engine search (Ctrl-G), then save")
    );
}

#[test]
fn compare_view_80x24() {
    use xiangqi_app::{CompareUpdate, compare_view_row};
    let mut app = two_player_app();
    let effects = type_line(&mut app, ":compare 2");
    assert!(
        matches!(effects.as_slice(), [xiangqi_app::Effect::Compare(request)] if request.depth == 2)
    );
    assert!(app.compare.shown && app.compare.running);
    // Rows as the comparing thread sends them (fixed times, so the screen is fixed).
    for (depth, algorithm, leaves) in [
        (1, Algorithm::Minimax, 44),
        (1, Algorithm::AlphaBeta, 44),
        (2, Algorithm::Minimax, 1920),
        (2, Algorithm::AlphaBeta, 84),
        (2, Algorithm::Sss, 84),
    ] {
        let update = CompareUpdate::Row(compare_view_row(depth, algorithm, leaves));
        xiangqi_app::update(&mut app, Action::Compare(update));
    }
    let screen = screen_text(&render(&app, 80, 24));
    assert!(
        screen.contains("running: 5 of 12 searches done (depths 1-2)"),
        "{screen}"
    );
    // The legend is a row of its own, whole at 80 columns: no line runs through it.
    let legend = "━━ minimax ━━ alphabeta ━━ sss ━━ mtsss ━━ mtdf ━━ bstar";
    assert!(screen.contains(legend), "{screen}");
    let big = screen_text(&render(&app, 120, 40));
    assert!(big.contains(&format!("┃{legend} ")), "{big}");
    assert_snapshot!(screen);
    update(&mut app, key(KeyCode::Esc));
    assert!(!app.compare.shown);
}

#[test]
fn the_explorer_nodes_setting_caps_the_tree_in_the_app() {
    let mut app = two_player_app();
    app.config.settings.explorer_nodes = 5;
    let text = std::fs::read_to_string(format!("{TREES}/course-sss.tree")).unwrap();
    open_tree(&mut app, Tree::parse(&text).unwrap(), Algorithm::AlphaBeta).unwrap();
    update(&mut app, key(KeyCode::Char('c')));
    let tree = app.study.explorer.tree();
    assert_eq!(tree.len(), 5);
    assert!(tree.truncated());
    assert!(
        app.study
            .explorer
            .summary()
            .starts_with("tree shown up to 5 nodes; "),
        "{}",
        app.study.explorer.summary()
    );
}
