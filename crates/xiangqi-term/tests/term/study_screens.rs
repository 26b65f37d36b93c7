//! The study screens show the whole event: `study FILE.tree` has its own screen (no
//! board, no move list, no game status, no hidden game: game keys and typed moves are
//! refused), the selected trace event is shown in full, wrapped (an SSS* step with its
//! Γ case and whole OPEN list), at 80x24 and 120x40; the explorer shows one iteration
//! of an iterative search at a time.

use crate::tui_support;

use std::sync::atomic::AtomicBool;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Focus, open_tree, update};
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::Notation;
use xiangqi_engine::engine::{Limits as EngineLimits, PositionNames, search_position_with};
use xiangqi_engine::search::{Algorithm, Recorder, TraceEvent, TraceText};
use xiangqi_engine::service::EngineEvent;
use xiangqi_engine::study::Explorer;
use xiangqi_engine::tree::Tree;

const TREES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/trees");

fn studying(name: &str, algorithm: Algorithm) -> App {
    let mut app = two_player_app();
    let text = std::fs::read_to_string(format!("{TREES}/{name}.tree")).unwrap();
    open_tree(&mut app, Tree::parse(&text).unwrap(), algorithm).unwrap();
    app
}

/// Steps the SSS* replay to its step with the longest OPEN list; that line.
fn at_the_longest_open_list(app: &mut App) -> String {
    let mut longest = (0, 0, String::new());
    let mut steps = 0;
    loop {
        let before = app.log.len();
        update(app, key(KeyCode::Char(' ')));
        if app.log.len() == before {
            break;
        }
        steps += 1;
        let line = app.log.lines().back().unwrap().text.clone();
        let open = line
            .split(" ; OPEN = ")
            .nth(1)
            .map_or(0, |list| list.split(' ').count());
        if open > longest.0 && line.contains(" ; push ") {
            longest = (open, steps, line);
        }
    }
    let mut again = studying("uneven", Algorithm::Sss);
    for _ in 0..longest.1 {
        update(&mut again, key(KeyCode::Char(' ')));
    }
    *app = again;
    longest.2
}

fn event_screen(width: u16, height: u16) -> String {
    let mut app = studying("uneven", Algorithm::Sss);
    let line = at_the_longest_open_list(&mut app);
    let screen = screen_text(&render(&app, width, height));
    // Every part of the event is on the screen, the whole OPEN list included.
    let flat: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    let list = line.split(" ; OPEN = ").nth(1).unwrap();
    for entry in list.split(' ') {
        assert!(flat.contains(entry), "{entry} of {line}\n{screen}");
    }
    assert!(screen.contains("case G"), "{screen}");
    assert!(!screen.contains("Board") && !screen.contains("Moves"));
    assert!(!screen.contains("to move"), "no game status line: {screen}");
    screen
}

#[test]
fn study_event_in_full_80x24() {
    assert_snapshot!(event_screen(80, 24));
}

#[test]
fn study_event_in_full_120x40() {
    assert_snapshot!(event_screen(120, 40));
}

#[test]
fn a_study_has_no_game_to_play_and_says_so() {
    let mut app = studying("course-sss", Algorithm::AlphaBeta);
    let start = app.position().to_fen();
    app.focus = Focus::Input;
    assert!(type_line(&mut app, "h2e2").is_empty());
    assert_eq!(
        app.input.error(),
        Some("no game in the tree study: Space steps, :trace save PATH saves")
    );
    app.input.clear();
    for (key, name) in [
        ('g', "Ctrl-G"),
        ('n', "Ctrl-N"),
        ('z', "Ctrl-Z"),
        ('a', "Ctrl-A"),
    ] {
        assert!(update(&mut app, ctrl(key)).is_empty(), "{name}");
        assert_eq!(
            app.notice.as_ref().map(|n| n.text.as_str()),
            Some(format!("{name} is not available in the tree study").as_str())
        );
    }
    assert!(type_line(&mut app, ":fen 4k4/9/9/9/9/9/9/9/9/4K4 w").is_empty());
    assert_eq!(
        app.input.error(),
        Some(":fen is not available in the tree study")
    );
    app.input.clear();
    assert_eq!(app.position().to_fen(), start);
    assert_eq!(app.game.ply(), 0);
    assert!(matches!(app.mode, xiangqi_app::AppMode::Study(_)));
    // F12 keeps the explorer: there is no board behind it.
    update(&mut app, key(KeyCode::F(12)));
    assert!(app.study.shown && app.focus == Focus::Board);
}

/// Alpha-beta iterated to depth 3 on a position: three trees, not one merged tree.
#[test]
fn the_explorer_shows_one_iteration_at_a_time() {
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1").unwrap();
    let mut recorder = Recorder::<Move>::new();
    search_position_with(
        Algorithm::AlphaBeta,
        &pos,
        &EngineLimits::depth(3),
        &AtomicBool::new(false),
        &mut recorder,
    );
    let names = PositionNames::new(&pos, Notation::Iccs);
    let mut explorer = Explorer::from_events(&recorder.events, &names, 1_000_000);
    assert_eq!(explorer.iterations(), 3);
    assert_eq!(explorer.shown_iteration(), 2, "the last is shown");
    let mut sizes = Vec::new();
    for depth in (1..=3u32).rev() {
        let tree = explorer.tree();
        let deepest = tree.nodes().iter().map(|n| n.ply).max().unwrap();
        assert_eq!(deepest, depth, "iteration {depth} goes {depth} plies down");
        for node in tree.nodes() {
            assert!(
                node.leaf.is_none() || node.children.is_empty(),
                "a leaf with children: the iterations are merged"
            );
        }
        assert_eq!(tree.nodes().iter().filter(|n| n.ply == 0).count(), 1);
        sizes.push(tree.len());
        explorer.show_iteration(-1);
    }
    assert!(
        !explorer.show_iteration(-1),
        "no iteration before the first"
    );
    assert_eq!(explorer.shown_iteration(), 0);
    assert!(sizes[0] > sizes[1] && sizes[1] > sizes[2], "{sizes:?}");
}

/// A stepping SSS* search on a position with the explorer shown: the explorer's lower
/// part shows the step in full.
fn position_step_screen(width: u16, height: u16) -> String {
    let app = position_step_app();
    screen_text(&render(&app, width, height))
}

fn position_step_app() -> App {
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
        Algorithm::Sss,
        &pos,
        &EngineLimits::depth(1),
        &AtomicBool::new(false),
        &mut recorder,
    );
    let mut text = TraceText::new(&names);
    for event in recorder
        .events
        .iter()
        .take_while(|e| !matches!(e, TraceEvent::SssDone { .. }))
        .take(300)
    {
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
                    lines: vec![line],
                }),
            );
        }
    }
    update(&mut app, key(KeyCode::F(12)));
    app
}

/// `e` opens the event in a window: the whole OPEN list of a position's SSS* step,
/// 45 entries, at 80x24.
#[test]
fn the_whole_event_opens_in_a_window() {
    let mut app = position_step_app();
    let line = app
        .log
        .lines()
        .iter()
        .rev()
        .find(|l| l.text.contains(" ; OPEN = "))
        .unwrap()
        .text
        .clone();
    update(&mut app, key(KeyCode::Char('e')));
    let screen = screen_text(&render(&app, 80, 24));
    let list = line.split(" ; OPEN = ").nth(1).unwrap();
    assert!(list.split(' ').count() > 40);
    for entry in list.split(' ') {
        assert!(screen.contains(entry), "{entry}\n{screen}");
    }
    assert!(screen.contains("case G4: live leaf: evaluated"), "{screen}");
    assert_snapshot!(screen);
    update(&mut app, key(KeyCode::Esc));
    assert!(app.popups.is_empty());
}

#[test]
fn position_step_event_80x24() {
    let screen = position_step_screen(80, 24);
    assert!(screen.contains("Event: line"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn position_step_event_120x40() {
    assert_snapshot!(position_step_screen(120, 40));
}

#[test]
fn the_iteration_keys_change_the_tree_shown_and_are_in_the_help() {
    let help = xiangqi_app::help_lines(xiangqi_app::Place::Game);
    assert!(
        help.iter()
            .any(|(keys, text)| keys == "[ ]" && text.contains("the previous / next iteration")),
        "{help:?}"
    );
    let mut app = studying("course-sss", Algorithm::AlphaBeta);
    update(&mut app, key(KeyCode::Char('c')));
    update(&mut app, key(KeyCode::F(12)));
    update(&mut app, key(KeyCode::Char('[')));
    assert_eq!(
        app.notice.as_ref().map(|n| n.text.as_str()),
        Some("iteration 1 of 1: no other that way")
    );
}

#[test]
fn a_save_in_the_background_shows_its_progress_on_the_status_line() {
    use xiangqi_app::{Effect, TraceSaveUpdate};
    let mut app = studying("course-sss", Algorithm::Sss);
    update(&mut app, key(KeyCode::Char('c')));
    app.focus = Focus::Input;
    // A file where a folder should be: the save fails, and says so.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let target = format!("{}/t.jsonl", file.display());
    let effects = type_line(&mut app, &format!(":trace save {target}"));
    assert!(
        matches!(effects.as_slice(), [Effect::SaveTrace(_)]),
        "{effects:?}"
    );
    // A second save waits for the first.
    assert!(type_line(&mut app, ":trace save other.jsonl").is_empty());
    assert!(app.input.error().unwrap().contains("is being saved"));
    app.input.clear();
    update(
        &mut app,
        Action::TraceSave(TraceSaveUpdate::Progress {
            done: 50,
            total: 200,
        }),
    );
    let screen = screen_text(&render(&app, 80, 24));
    let status = screen.lines().last().unwrap();
    assert!(status.contains(" | saving "), "{status}");
    assert!(status.contains("25%"), "{status}");
    let [Effect::SaveTrace(job)] = effects.as_slice() else {
        unreachable!()
    };
    let mut updates = Vec::new();
    xiangqi_app::run_trace_save(job, &mut |update| {
        updates.push(update);
        true
    });
    for progress in updates {
        update(&mut app, Action::TraceSave(progress));
    }
    let notice = app.notice.as_ref().unwrap();
    assert!(
        notice.alert && notice.text.starts_with(&format!("cannot save {target}: ")),
        "{}",
        notice.text
    );
    assert!(app.study.saving.is_none());
}
