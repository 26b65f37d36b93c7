//! The analysis board, the score graph and hints, driven through `update` without a
//! terminal (the engine's reports are fed in by hand), and drawn into `TestBackend`.

use crate::tui_support;

use std::time::Duration;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::config::EngineSide;
use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use xiangqi_app::{
    Action, App, ChoicePurpose, ChoiceValue, Command, Effect, LogKind, Popup, graph_points, update,
};
use xiangqi_engine::engine::{PvLine, SearchInfo};
use xiangqi_engine::service::{EngineEvent, SearchRequest};

fn request(effects: &[Effect]) -> SearchRequest {
    effects
        .iter()
        .find_map(|effect| match effect {
            Effect::StartSearch(request) => Some((**request).clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no search started: {effects:?}"))
}

fn stopped(effects: &[Effect]) -> Vec<u64> {
    effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::StopSearch(id) => Some(*id),
            _ => None,
        })
        .collect()
}

fn iteration(depth: u32, cp: i32, pv: &[&str]) -> SearchInfo {
    SearchInfo {
        depth,
        score: cp,
        nodes: 10_000 * u64::from(depth),
        nps: 1_000_000,
        time: Duration::from_millis(10),
        pv: pv.iter().map(|m| mv(m)).collect(),
        ..SearchInfo::default()
    }
}

fn line(cp: i32, pv: &[&str]) -> PvLine {
    PvLine {
        score: cp,
        pv: pv.iter().map(|m| mv(m)).collect(),
    }
}

/// Feeds one analysis iteration with three lines to search `id`.
fn three_lines(app: &mut App, id: u64, depth: u32) {
    update(
        app,
        Action::Engine(EngineEvent::Iteration {
            id,
            info: iteration(depth, 25, &["i9h9", "i0h0"]),
        }),
    );
    update(
        app,
        Action::Engine(EngineEvent::Lines {
            id,
            lines: vec![
                line(25, &["i9h9", "i0h0", "b9c7"]),
                line(12, &["b7e7", "b0c2"]),
                line(-4, &["c6c5", "g3g4"]),
            ],
        }),
    );
}

/// Two people have played three moves; the analysis board is then switched on and
/// has reported one iteration of three lines.
fn analysing() -> (App, u64) {
    let mut app = two_player_app();
    for text in ["炮二平五", "马8进7", "马二进三"] {
        type_line(&mut app, text);
    }
    let effects = update(&mut app, ctrl('a'));
    let request = request(&effects);
    assert!(app.analysing());
    assert_eq!(request.multipv, 3);
    assert_eq!(
        (request.depth, request.movetime_ms, request.nodes),
        (None, None, None),
        "analysis runs without limit"
    );
    assert_eq!(request.position.to_fen(), app.position().to_fen());
    three_lines(&mut app, request.id, 12);
    (app, request.id)
}

#[test]
fn the_analysis_board_holds_its_lines_in_a_table_and_the_log_keeps_the_final_ones() {
    let (mut app, _) = analysing();
    let iterations = |app: &App| -> Vec<String> {
        app.log
            .lines()
            .iter()
            .filter(|l| l.kind == LogKind::Iteration)
            .map(|l| l.text.clone())
            .collect()
    };
    assert!(iterations(&app).is_empty(), "the lines stay in the table");
    assert_eq!(app.analysis.lines.len(), 3);
    assert_eq!(app.analysis.depth, 12);
    for (width, height) in [(80, 24), (120, 40)] {
        let screen = screen_text(&render(&app, width, height));
        assert!(screen.contains("Analysis d12 (Red's view)"), "{screen}");
        // Black to move: its best line is Red's lowest score.
        for row in [
            "1. -0.25 车9平8",
            "2. -0.12 炮2平5 马八进七",
            "3. +0.04 卒3进1 兵三进一",
        ] {
            assert!(screen.contains(row), "{row}\n{screen}");
        }
    }
    // The position changes: the final lines of the one left go to the log.
    update(&mut app, ctrl('z'));
    assert_eq!(
        iterations(&app),
        [
            "d12 1.   -0.25 车9平8 车一平二 马2进3",
            "d12 2.   -0.12 炮2平5 马八进七",
            "d12 3.   +0.04 卒3进1 兵三进一",
        ]
    );
    assert!(app.analysis.lines.is_empty());
}

#[test]
fn undo_redo_and_a_click_in_the_move_list_re_analyse_at_once() {
    let (mut app, first) = analysing();
    let effects = update(&mut app, ctrl('z'));
    assert_eq!(stopped(&effects), [first]);
    let after_undo = request(&effects);
    assert_eq!(app.game.ply(), 2, "one ply back: two people play");
    assert_eq!(after_undo.position.to_fen(), app.position().to_fen());
    assert!(app.analysis.lines.is_empty(), "old lines are gone");

    let effects = update(&mut app, ctrl('y'));
    assert_eq!(stopped(&effects), [after_undo.id]);
    let after_redo = request(&effects);
    assert_eq!(app.game.ply(), 3);
    assert_eq!(after_redo.position.to_fen(), app.position().to_fen());

    // The first move in the list, at 120x40: the moves pane's first row.
    update(&mut app, Action::Resize(120, 40));
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 44,
        row: 1,
        modifiers: KeyModifiers::NONE,
    };
    let effects = update(&mut app, Action::Mouse(click));
    assert_eq!(app.game.ply(), 1, "after Red's first move");
    assert_eq!(request(&effects).position.to_fen(), app.position().to_fen());
    let effects = update(&mut app, Action::Command(Command::GoToPly(3)));
    assert_eq!(app.game.ply(), 3);
    assert_eq!(request(&effects).position.to_fen(), app.position().to_fen());

    // A move played on the analysis board is analysed too; the engine never plays.
    let search = request(&effects).id;
    let effects = type_line(&mut app, "车9平8");
    assert_eq!(app.game.ply(), 4, "{:?}", app.input.error());
    assert_eq!(stopped(&effects), [search]);
    let next = request(&effects);
    assert_eq!(next.position.to_fen(), app.position().to_fen());
    let effects = update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id: next.id,
            mv: Some(mv("b0c2")),
            ponder: None,
        }),
    );
    assert!(effects.is_empty());
    assert_eq!(app.game.ply(), 4, "an analysis result is not played");

    // Off again: the analysis stops.
    let effects = update(&mut app, ctrl('a'));
    assert!(!app.analysing());
    assert!(app.engine.thinking.is_none());
    assert!(started_search(&effects).is_none());
    assert_eq!(stopped(&effects).len(), 0, "the search had already ended");
}

#[test]
fn the_score_graph_keeps_each_positions_score_from_reds_view() {
    let mut app = two_player_app();
    let effects = update(&mut app, Action::Command(Command::Analyze));
    let id = request(&effects).id;
    three_lines(&mut app, id, 8); // Red to move: +0.25 for Red
    let effects = type_line(&mut app, "炮二平五");
    let id = request(&effects).id;
    update(
        &mut app,
        Action::Engine(EngineEvent::Iteration {
            id,
            info: iteration(8, 40, &["h9g7"]),
        }),
    ); // Black to move: +0.40 for Black is -0.40 for Red
    assert_eq!(graph_points(&app), [(0, 25), (1, -40)]);
    // Back at the start, the graph shows the positions up to the one shown.
    update(&mut app, ctrl('z'));
    assert_eq!(graph_points(&app), [(0, 25)]);
}

#[test]
fn a_hint_is_shown_on_the_board_and_status_line_and_cleared_by_the_next_move() {
    let mut app = app_against_engine();
    let effects = update(&mut app, ctrl('h'));
    let hint_search = request(&effects);
    assert_eq!(hint_search.multipv, 1);
    assert_eq!(hint_search.level, 20, "hints come from full strength");
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id: hint_search.id,
            mv: Some(mv("h2e2")),
            ponder: None,
        }),
    );
    assert_eq!(app.game.ply(), 0, "a hint is not played");
    let hint = app.hint.clone().expect("a hint");
    assert_eq!((hint.mv, hint.text.as_str()), (mv("h2e2"), "炮二平五"));
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("hint: 炮二平五"), "{screen}");

    // Typing over Ctrl-H: with text on the line it is Backspace.
    for c in "h2e".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    update(&mut app, ctrl('h'));
    assert_eq!(app.input.text(), "h2");
    assert!(app.engine.thinking.is_none(), "no hint asked");
    update(&mut app, key(KeyCode::Char('e')));
    update(&mut app, key(KeyCode::Char('2')));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(played(&app), ["h2e2"]);
    assert!(app.hint.is_none(), "the move cleared the hint");

    // The engine is thinking now: no hint until it is the player's move.
    update(&mut app, ctrl('h'));
    assert!(app.hint.is_none());
    // `:hint` asks as Ctrl-H does.
    let mut other = app_against_engine();
    assert!(started_search(&type_line(&mut other, ":hint")).is_some());
    // Ctrl-Backspace, as some terminals send Ctrl-H, asks for a hint on an empty line.
    let mut third = app_against_engine();
    let effects = update(
        &mut third,
        Action::Key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::CONTROL)),
    );
    assert!(started_search(&effects).is_some());
}

fn graph_game() -> App {
    let (mut app, id) = analysing();
    // Scores of the positions before, from a few more iterations at each ply.
    let scores = [(0usize, 20), (1, -30), (2, 45)];
    for (ply, cp) in scores {
        update(&mut app, Action::Command(Command::GoToPly(ply)));
        let id = app.engine.thinking.as_ref().unwrap().id;
        update(
            &mut app,
            Action::Engine(EngineEvent::Iteration {
                id,
                info: iteration(10, cp, &["h2e2"]),
            }),
        );
    }
    let _ = id;
    update(&mut app, Action::Command(Command::GoToPly(3)));
    let id = app.engine.thinking.as_ref().unwrap().id;
    three_lines(&mut app, id, 14);
    app.notice = None;
    app
}

#[test]
fn analysis_board_with_three_lines_and_the_graph_80x24() {
    let app = graph_game();
    assert_eq!(app.config.settings.engine_side, EngineSide::None);
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
}

#[test]
fn analysis_board_with_three_lines_and_the_graph_120x40() {
    let app = graph_game();
    assert_eq!(graph_points(&app).len(), 4);
    assert_snapshot!(screen_text(&render(&app, 120, 40)));
}

#[test]
fn level_and_lines_are_set_by_commands() {
    let mut app = app_against_engine();
    type_line(&mut app, ":level 21");
    assert_eq!(app.config.settings.level, 20);
    assert_eq!(
        app.input.error(),
        Some(":level needs a number from 1 to 20")
    );
    update(&mut app, key(KeyCode::Esc));
    type_line(&mut app, ":level 7");
    assert_eq!(app.config.settings.level, 7);
    let effects = type_line(&mut app, "炮二平五");
    assert_eq!(
        request(&effects).level,
        7,
        "the engine's move comes at level 7"
    );
    let (mut app, first) = analysing();
    let effects = type_line(&mut app, ":multipv 5");
    assert_eq!(stopped(&effects), [first]);
    assert_eq!(request(&effects).multipv, 5);
}

#[test]
fn level_alone_opens_the_strength_list_at_the_current_level() {
    let mut app = app_against_engine();
    type_line(&mut app, ":level 12");
    type_line(&mut app, ":level");
    let Some(Popup::Choice {
        purpose,
        items,
        selected,
    }) = app.popups.last()
    else {
        panic!("no list popup: {:?}", app.popups);
    };
    assert_eq!(*purpose, ChoicePurpose::Level);
    assert_eq!(items.len(), 20);
    assert_eq!(items[0].label, "20  full strength");
    assert_eq!(items[*selected].value, ChoiceValue::Level(12));
    // Down twice from 12: level 10, taken with Enter.
    update(&mut app, key(KeyCode::Down));
    update(&mut app, key(KeyCode::Down));
    update(&mut app, key(KeyCode::Enter));
    assert!(app.popups.is_empty());
    assert_eq!(app.config.settings.level, 10);
}

#[test]
fn on_the_analysis_board_of_a_game_against_the_engine_undo_and_redo_go_one_ply() {
    let mut app = app_against_engine();
    let effects = type_line(&mut app, "炮二平五");
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id: request(&effects).id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    update(&mut app, ctrl('a'));
    assert!(app.analysing());
    // People move both sides here: one ply back, one ply again.
    update(&mut app, ctrl('z'));
    assert_eq!(played(&app), ["h2e2"]);
    update(&mut app, ctrl('z'));
    assert!(played(&app).is_empty());
    update(&mut app, ctrl('y'));
    assert_eq!(played(&app), ["h2e2"]);
    update(&mut app, ctrl('y'));
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
}
