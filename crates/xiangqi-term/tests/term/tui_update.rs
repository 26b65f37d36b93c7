//! The app's update logic driven by synthetic keys, with no terminal: moves typed in any
//! notation, errors, the engine's answers, undo/redo against it, stopping, step mode.

use crate::tui_support;

use std::time::Duration;

use tui_support::*;
use xiangqi_app::config::EngineSide;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Command, Effect, Focus, update};
use xiangqi_engine::engine::SearchInfo;
use xiangqi_engine::service::{EngineEvent, StepCommand};

#[test]
fn a_move_typed_in_any_notation_then_enter_plays_h2e2() {
    for text in ["炮二平五", "C2.5", "h2e2", "  H2-E2 "] {
        let mut app = two_player_app();
        let effects = type_line(&mut app, text);
        assert_eq!(played(&app), ["h2e2"], "{text}");
        assert_eq!(app.input.text(), "", "{text}: the line is emptied");
        assert!(
            matches!(effects.as_slice(), [Effect::Autosave(pgn)] if pgn.contains("炮二平五")),
            "{text}: {effects:?}"
        );
    }
}

#[test]
fn against_the_engine_a_move_starts_its_search_and_its_answer_is_played() {
    let mut app = app_against_engine();
    let effects = type_line(&mut app, "炮二平五");
    let id = started_search(&effects).expect("the engine answers");
    let Some(Effect::StartSearch(request)) = effects.last() else {
        panic!("{effects:?}");
    };
    assert_eq!(request.position.last_move(), Some(mv("h2e2")));
    assert_eq!(
        request.movetime_ms,
        Some(1000),
        "answers within about a second"
    );
    // The input refuses moves while the engine thinks, keeping the text.
    type_line(&mut app, "h0g2");
    assert!(app.input.error().unwrap().contains("thinking"));
    assert_eq!(app.input.text(), "h0g2");
    update(&mut app, ctrl('u'));
    let info = SearchInfo {
        depth: 3,
        score: -12,
        nodes: 12_345,
        nps: 250_000,
        time: Duration::from_millis(49),
        pv: vec![mv("h9g7"), mv("h0g2")],
        ..SearchInfo::default()
    };
    update(
        &mut app,
        Action::Engine(EngineEvent::Iteration { id, info }),
    );
    let last = app.log.lines().back().unwrap().text.clone();
    // Black's -0.12 is Red's +0.12: every score is shown from Red's view.
    assert_eq!(last, "d3    +0.12   12.3k  250.0k/s 马8进7 马二进三");
    let effects = update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert!(
        matches!(effects.as_slice(), [Effect::Autosave(_)]),
        "{effects:?}"
    );
    assert!(app.people_may_move());
}

#[test]
fn a_bad_move_shows_the_notation_error_and_keeps_the_text() {
    let mut app = two_player_app();
    let effects = type_line(&mut app, "马二进四");
    assert!(effects.is_empty());
    assert!(played(&app).is_empty());
    assert_eq!(app.input.text(), "马二进四");
    let error = app.input.error().unwrap();
    assert!(error.starts_with("'马二进四': illegal"), "{error}");
    // Editing the text clears the error; fixing it plays.
    update(&mut app, key(KeyCode::Backspace));
    assert_eq!(app.input.error(), None);
    type_line(&mut app, "三");
    assert_eq!(played(&app), ["h0g2"]);
    type_line(&mut app, "zz9");
    assert!(
        app.input.error().unwrap().contains("column"),
        "{:?}",
        app.input.error()
    );
}

#[test]
fn undo_against_the_engine_takes_back_your_move_and_its_reply() {
    let mut app = app_against_engine();
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    let id = started_search(&type_line(&mut app, "h0g2")).unwrap();
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("i9h9")),
            ponder: None,
        }),
    );
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2", "i9h9"]);

    let effects = update(&mut app, ctrl('z'));
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert!(
        started_search(&effects).is_none(),
        "you are to move: {effects:?}"
    );
    assert!(app.people_may_move());
    // Redo plays both again.
    update(&mut app, ctrl('y'));
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    update(&mut app, ctrl('z'));
    update(&mut app, ctrl('z'));
    assert!(played(&app).is_empty());
    let effects = update(&mut app, ctrl('z'));
    assert!(effects.is_empty());
    assert!(app.notice.as_ref().unwrap().alert);
}

#[test]
fn undo_while_the_engine_thinks_stops_it_first_and_ignores_its_late_answer() {
    let mut app = app_against_engine();
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    let effects = update(&mut app, ctrl('z'));
    assert_eq!(effects.first(), Some(&Effect::StopSearch(id)));
    assert!(played(&app).is_empty());
    assert!(app.engine.thinking.is_none());
    // The stopped search's answer arrives late: nothing happens.
    let effects = update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    assert!(effects.is_empty());
    assert!(played(&app).is_empty());
    // New game and quit stop it too.
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    // (Ctrl-N asks first: the game is unfinished.)
    assert!(update(&mut app, ctrl('n')).is_empty());
    let effects = update(&mut app, key(KeyCode::Char('y')));
    assert_eq!(effects, [Effect::StopSearch(id), Effect::RemoveAutosave]);
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    let effects = update(&mut app, ctrl('c'));
    assert_eq!(effects.first(), Some(&Effect::StopSearch(id)));
    assert!(matches!(effects.get(1), Some(Effect::Autosave(_))));
    assert_eq!(effects.last(), Some(&Effect::Quit));
    assert!(app.quitting);
}

#[test]
fn stop_thinking_waits_and_engine_moves_now_resumes() {
    let mut app = app_against_engine();
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    assert_eq!(update(&mut app, ctrl('t')), [Effect::StopSearch(id)]);
    assert!(app.engine.paused);
    // Stopped, people may move for the engine's side.
    assert!(app.people_may_move());
    let effects = update(&mut app, ctrl('g'));
    let id = started_search(&effects).expect("a new search");
    // Ctrl-G while it thinks: stop and play the best move so far.
    assert_eq!(update(&mut app, ctrl('g')), [Effect::StopSearch(id)]);
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("b9c7")),
            ponder: None,
        }),
    );
    assert_eq!(played(&app), ["h2e2", "b9c7"]);
}

#[test]
fn the_engine_playing_red_moves_first_and_the_board_turns() {
    let mut app = App::new(
        config_with(|settings| settings.engine_side = EngineSide::Red),
        colour_terminal(),
        true,
    );
    assert!(app.flipped, "Black, the player's side, at the bottom");
    let effects = update(&mut app, Action::Command(Command::NewGame));
    let id = started_search(&effects).expect("Red's engine starts");
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h2e2")),
            ponder: None,
        }),
    );
    // Your move is Black's; undo has no move of yours to take back.
    assert!(update(&mut app, ctrl('z')).is_empty());
    assert_eq!(played(&app), ["h2e2"]);
    type_line(&mut app, "马8进7");
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
}

fn stepping_app() -> (App, u64) {
    let mut app = App::new(
        config_with(|settings| settings.step = true),
        colour_terminal(),
        true,
    );
    let effects = type_line(&mut app, "h2e2");
    let Some(Effect::StartSearch(request)) = effects.last() else {
        panic!("{effects:?}");
    };
    assert!(request.step);
    (app, request.id)
}

fn trace(app: &mut App, id: u64, line: &str) {
    update(
        app,
        Action::Engine(EngineEvent::Trace {
            id,
            lines: vec![line.to_owned()],
        }),
    );
}

#[test]
fn step_mode_advances_one_event_per_key() {
    let (mut app, id) = stepping_app();
    assert_eq!(
        app.focus,
        Focus::Log,
        "the log takes the keys while stepping"
    );
    assert!(
        app.log.step.unwrap().waiting(),
        "paused before the first event"
    );
    for n in 0..3 {
        let effects = update(&mut app, key(KeyCode::Char(' ')));
        assert_eq!(
            effects,
            [Effect::Step {
                id,
                command: StepCommand::One
            }]
        );
        assert!(!app.log.step.unwrap().waiting());
        trace(&mut app, id, &format!("event {n}"));
        assert!(
            app.log.step.unwrap().waiting(),
            "held again after one event"
        );
        assert_eq!(app.log.lines().back().unwrap().text, format!("event {n}"));
    }
    // i: to the end of the iteration; the summary pauses it again.
    let effects = update(&mut app, key(KeyCode::Char('i')));
    assert_eq!(
        effects,
        [Effect::Step {
            id,
            command: StepCommand::ToIterationEnd
        }]
    );
    trace(&mut app, id, "event 3");
    trace(&mut app, id, "event 4");
    assert!(!app.log.step.unwrap().waiting());
    let info = SearchInfo {
        depth: 1,
        score: 0,
        nodes: 5,
        nps: 5,
        time: Duration::from_millis(1),
        pv: vec![mv("h9g7")],
        ..SearchInfo::default()
    };
    update(
        &mut app,
        Action::Engine(EngineEvent::Iteration { id, info }),
    );
    assert!(app.log.step.unwrap().waiting());
    // c: continue freely. F8 from any pane is one event too.
    let effects = update(&mut app, key(KeyCode::Char('c')));
    assert_eq!(
        effects,
        [Effect::Step {
            id,
            command: StepCommand::Continue
        }]
    );
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.focus, Focus::Input);
    let effects = update(&mut app, key(KeyCode::F(8)));
    assert_eq!(
        effects,
        [Effect::Step {
            id,
            command: StepCommand::One
        }]
    );
    // The search ends: focus goes back where it was, the mirror is cleared.
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    assert_eq!(app.log.step, None);
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
}

#[test]
fn the_log_scrolls_back_and_follows_again() {
    let (mut app, id) = stepping_app();
    update(&mut app, key(KeyCode::Char('c')));
    for n in 0..30 {
        trace(&mut app, id, &format!("event {n}"));
    }
    update(&mut app, key(KeyCode::PageUp));
    assert_eq!(app.log.scroll(), 10);
    trace(&mut app, id, "event 30");
    assert_eq!(app.log.scroll(), 11, "the lines read stay in view");
    update(&mut app, key(KeyCode::Char('G')));
    assert_eq!(app.log.scroll(), 0);
}

#[test]
fn an_engine_without_tracing_is_never_started_stepping() {
    let mut app = App::new(
        config_with(|s| {
            s.step = true;
            s.trace = xiangqi_app::config::TraceLevel::Events;
        }),
        colour_terminal(),
        true,
    );
    app.engine.traces = false;
    let effects = type_line(&mut app, "h2e2");
    let Some(Effect::StartSearch(request)) = effects.last() else {
        panic!("{effects:?}");
    };
    assert!(!request.step);
    assert_eq!(request.trace, xiangqi_app::config::TraceLevel::Summary);
    assert_eq!(app.focus, Focus::Input, "nothing to step, the focus stays");
    assert!(
        app.log
            .lines()
            .iter()
            .any(|line| line.text.contains("no stepping"))
    );
    assert!(!app.log.step.unwrap().waiting());
}

#[test]
fn engine_against_engine_plays_on_until_stopped() {
    let mut app = App::new(
        config_with(|s| s.engine_side = xiangqi_app::config::EngineSide::Both),
        colour_terminal(),
        true,
    );
    let mut id = started_search(&update(&mut app, Action::Command(Command::NewGame))).unwrap();
    for reply in ["h2e2", "h9g7", "h0g2"] {
        let effects = update(
            &mut app,
            Action::Engine(EngineEvent::BestMove {
                id,
                mv: Some(mv(reply)),
                ponder: None,
            }),
        );
        id = started_search(&effects).expect("the other engine answers");
    }
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"]);
    // Ctrl-T stops and pauses both; undo takes back one move; Ctrl-G resumes.
    assert_eq!(update(&mut app, ctrl('t')), [Effect::StopSearch(id)]);
    let effects = update(&mut app, ctrl('z'));
    assert!(started_search(&effects).is_none(), "{effects:?}");
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert!(started_search(&update(&mut app, ctrl('g'))).is_some());
}

#[test]
fn a_mate_ends_the_game_and_the_autosave() {
    let mut app = app_against_engine();
    // The chariot checks on the e-file; the other holds the f-file, the general the d-file.
    type_line(&mut app, ":fen 4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1");
    let effects = type_line(&mut app, "a5e5");
    assert_eq!(
        effects,
        [Effect::RemoveAutosave],
        "over: nothing to resume, no search"
    );
    assert!(app.game_over());
    assert!(
        app.notice
            .as_ref()
            .unwrap()
            .text
            .contains("Red wins by checkmate")
    );
    type_line(&mut app, "e9e8");
    assert!(app.input.error().unwrap().contains("the game is over"));
}

// Issue 40: after an undo the status line still showed the search of the position
// taken back (`last: d16 Red -6.66`). The last search speaks of its position only.
#[test]
fn the_status_line_shows_the_last_search_only_while_its_position_is_in_the_game() {
    let mut app = app_against_engine();
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    let info = SearchInfo {
        depth: 16,
        score: 666,
        nodes: 12_345,
        ..SearchInfo::default()
    };
    update(
        &mut app,
        Action::Engine(EngineEvent::Iteration { id, info }),
    );
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    let status = |app: &App| {
        let screen = screen_text(&render(app, 120, 40));
        screen.lines().last().unwrap().to_owned()
    };
    // A key first: the notice of the engine's move gives the line back.
    update(&mut app, key(KeyCode::Esc));
    assert!(
        status(&app).contains("last: d16 Red -6.66"),
        "{}",
        status(&app)
    );
    // Taken back (the person's move and the engine's reply): the search is gone.
    update(&mut app, ctrl('z'));
    assert!(played(&app).is_empty());
    update(&mut app, key(KeyCode::Esc));
    assert!(!status(&app).contains("last:"), "{}", status(&app));
    // Played again to the same position, it is the same search's position again.
    update(&mut app, ctrl('y'));
    update(&mut app, ctrl('y'));
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert!(
        status(&app).contains("last: d16 Red -6.66"),
        "{}",
        status(&app)
    );
}
