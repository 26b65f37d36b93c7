//! Clocks and game controls in the app's update loop, on a hand-moved clock: the side
//! to move's clock runs, increments are added, a flag falls on a tick or on a late move,
//! the engine is given its clock; resigning, draw offers, the result popup, rematch.
//! Snapshots of the clocks and the result popup at 80x24 and 120x40.

use crate::tui_support;

use std::time::Duration;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::config::{EngineSide, Notation};
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Effect, Popup, pgn_text, update};
use xiangqi_core::board::Color;
use xiangqi_core::board::rules::{DrawReason, Outcome, WinReason};
use xiangqi_core::clock::TimeControl;
use xiangqi_engine::engine::{Clock, SearchInfo, Verdict};
use xiangqi_engine::service::EngineEvent;

fn control(text: &str) -> Option<TimeControl> {
    Some(text.parse().unwrap())
}

fn the_request(effects: &[Effect]) -> Option<&xiangqi_engine::service::SearchRequest> {
    effects.iter().find_map(|effect| match effect {
        Effect::StartSearch(request) => Some(&**request),
        _ => None,
    })
}

#[test]
fn clocks_run_for_the_side_to_move_and_a_flag_falls_on_a_tick() {
    let (mut app, time) = timed_app(|settings| {
        settings.engine_side = EngineSide::None;
        settings.time = control("1+2");
    });
    assert!(!app.clock_ticking(), "the first move is free");
    time.advance(seconds(30));
    type_line(&mut app, "h2e2");
    assert_eq!(remaining(&app, Color::Red), Some(seconds(60)));
    assert!(app.clock_ticking());
    time.advance(seconds(5));
    assert_eq!(remaining(&app, Color::Black), Some(seconds(55)));
    type_line(&mut app, "h9g7");
    assert_eq!(
        remaining(&app, Color::Black),
        Some(seconds(57)),
        "2 s added"
    );
    time.advance(seconds(59));
    update(&mut app, Action::Tick);
    assert!(!app.game_over());
    assert_eq!(remaining(&app, Color::Red), Some(seconds(1)));
    time.advance(seconds(1));
    update(&mut app, Action::Tick);
    let outcome = app.game.outcome().unwrap();
    assert_eq!(
        outcome,
        Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Timeout
        }
    );
    assert!(matches!(app.popups.last(), Some(Popup::GameOver { .. })));
    assert!(
        app.notice
            .as_ref()
            .unwrap()
            .text
            .contains("Black wins by time")
    );
    assert!(!app.clock_ticking());
    let pgn = pgn_text(&app.game, Notation::Iccs);
    assert!(pgn.contains("[TimeControl \"60+2\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    // The result stands: no taking back, no more moves.
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, ctrl('z'));
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
}

#[test]
fn the_engine_gets_its_clock_and_loses_when_it_answers_too_late() {
    let (mut app, time) = timed_app(|settings| settings.time = control("1+0"));
    // The engine's first reply runs on its clock (Red's first move was free).
    let effects = type_line(&mut app, "h2e2");
    let request = the_request(&effects).expect("the engine answers");
    assert_eq!(
        request.movetime_ms, None,
        "a clock replaces the time per move"
    );
    assert_eq!(
        request.clock,
        Some(Clock {
            remaining: seconds(60),
            increment: Duration::ZERO,
            moves_to_go: None
        })
    );
    let id = request.id;
    time.advance(Duration::from_millis(60_001));
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    assert_eq!(
        played(&app),
        ["h2e2"],
        "a move after the flag fell does not count"
    );
    assert_eq!(app.game.outcome(), Some(Outcome::flag_fall(Color::Black)));
}

#[test]
fn per_side_controls_and_periods_reach_the_engine() {
    let (mut app, time) = timed_app(|settings| {
        settings.time_red = xiangqi_app::config::SideTime::Untimed;
        settings.time_black = xiangqi_app::config::SideTime::Control("2/1+1".parse().unwrap());
    });
    let effects = type_line(&mut app, "h2e2");
    let request = the_request(&effects).unwrap();
    assert_eq!(request.clock.unwrap().moves_to_go, Some(2));
    time.advance(seconds(10));
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id: request.id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    assert_eq!(remaining(&app, Color::Black), Some(seconds(51)));
    assert_eq!(
        remaining(&app, Color::Red),
        None,
        "Red plays without a clock"
    );
    let pgn = pgn_text(&app.game, Notation::Iccs);
    assert!(pgn.contains("[RedTimeControl \"-\"]"), "{pgn}");
    assert!(pgn.contains("[BlackTimeControl \"2/60+1\"]"), "{pgn}");
}

#[test]
fn resigning_asks_first_and_the_rematch_swaps_colours() {
    let (mut app, _) = timed_app(|settings| settings.time = control("10+5"));
    let effects = type_line(&mut app, "h2e2");
    let id = the_request(&effects).unwrap().id;
    update(&mut app, ctrl('r'));
    assert!(matches!(app.popups.last(), Some(Popup::ConfirmResign)));
    let effects = update(&mut app, key(KeyCode::Char('n')));
    assert!(!app.game_over(), "anything but y plays on");
    assert!(effects.is_empty());
    update(&mut app, ctrl('r'));
    let effects = update(&mut app, key(KeyCode::Char('y')));
    assert!(
        effects.contains(&Effect::StopSearch(id)),
        "resigning stops the engine"
    );
    assert_eq!(app.game.outcome(), Some(Outcome::resignation(Color::Red)));
    assert!(matches!(app.popups.last(), Some(Popup::GameOver { .. })));
    // Rematch: the engine now plays Red and moves first.
    let effects = update(&mut app, key(KeyCode::Char('r')));
    assert_eq!(app.config.settings.engine_side, EngineSide::Red);
    assert_eq!(app.game.ply(), 0);
    assert!(!app.game_over());
    assert!(
        the_request(&effects).is_some(),
        "the engine opens the rematch"
    );
    assert!(app.flipped, "the person's side (Black) is at the bottom");
}

fn engine_saw(app: &mut App, depth: u32, score: Verdict) {
    let effects = type_line(app, "h2e2");
    let id = the_request(&effects).unwrap().id;
    let info = SearchInfo {
        depth,
        score: score.to_score(),
        nodes: 1000,
        nps: 1000,
        time: Duration::from_millis(1),
        pv: vec![mv("h9g7")],
        ..SearchInfo::default()
    };
    update(app, Action::Engine(EngineEvent::Iteration { id, info }));
    update(
        app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
}

#[test]
fn the_engine_accepts_a_draw_only_in_a_level_position() {
    let (mut app, _) = timed_app(|_| {});
    engine_saw(&mut app, 12, Verdict::Centipawns(150));
    type_line(&mut app, ":draw");
    assert!(!app.game_over());
    assert!(app.notice.as_ref().unwrap().text.contains("declined"));

    let (mut app, _) = timed_app(|_| {});
    engine_saw(&mut app, 5, Verdict::Centipawns(0));
    type_line(&mut app, ":draw");
    assert!(!app.game_over(), "too shallow to judge");

    let (mut app, _) = timed_app(|_| {});
    engine_saw(&mut app, 12, Verdict::Centipawns(-20));
    type_line(&mut app, ":draw");
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Draw(DrawReason::Agreement))
    );
    assert!(
        pgn_text(&app.game, Notation::Iccs).contains("[Result \"1/2-1/2\"]"),
        "the record has the result"
    );
}

#[test]
fn time_controls_are_typed_or_chosen() {
    let (mut app, _) = timed_app(|_| {});
    type_line(&mut app, ":time 3+2");
    assert_eq!(app.clock.control(Color::Red), control("3+2"));
    assert_eq!(app.clock.control(Color::Black), control("3+2"));
    type_line(&mut app, ":time 3");
    assert!(
        app.input
            .error()
            .unwrap()
            .contains("the increment is missing")
    );
    update(&mut app, key(KeyCode::Esc));
    type_line(&mut app, ":time");
    assert!(matches!(app.popups.last(), Some(Popup::Choice { .. })));
    // The list: none, 1+0, 3+2, ...; the second is 1+0.
    update(&mut app, key(KeyCode::Char('2')));
    assert_eq!(app.config.settings.time, control("1+0"));
    type_line(&mut app, ":time none");
    assert!(!app.clock.is_timed());
}

#[test]
fn a_clock_set_in_the_middle_of_a_game_is_not_written_as_the_games_control() {
    let (mut app, _) = timed_app(|_| {});
    app.config.settings.engine_side = xiangqi_app::config::EngineSide::None;
    type_line(&mut app, "h2e2");
    type_line(&mut app, "h9g7");
    type_line(&mut app, ":time 10+5");
    assert_eq!(app.clock.control(Color::Red), control("10+5"));
    let pgn = pgn_text(&xiangqi_app::resume::saved_game(&app), Notation::Iccs);
    assert!(!pgn.contains("[TimeControl "), "{pgn}");
    assert!(pgn.contains("[RedTimeControl \"600+5\"]"), "{pgn}");
    assert!(pgn.contains("[ClockStart \"2\"]"), "{pgn}");
    // Resumed, the game keeps its clocks and where they started.
    let saved = xiangqi_app::resume::saved_game(&app);
    let (mut again, _) = timed_app(|_| {});
    xiangqi_app::resume::resume(&mut again, saved);
    assert_eq!(again.clock.control(Color::Black), control("10+5"));
    assert_eq!(again.game.tag("ClockStart"), Some("2"));
    assert_eq!(again.game.tag("TimeControl"), None);
}

/// A game with clocks under way: Red 9:55 running, Black 9:57.
fn clocks_midgame() -> App {
    let (mut app, time) = timed_app(|settings| settings.time = control("10+5"));
    let effects = type_line(&mut app, "炮二平五");
    time.advance(seconds(8));
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id: the_request(&effects).unwrap().id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    time.advance(seconds(10));
    app
}

#[test]
fn snapshot_clocks_80x24() {
    let app = clocks_midgame();
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains(">R 9:50  B 9:57"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn snapshot_clocks_120x40() {
    let app = clocks_midgame();
    assert_snapshot!(screen_text(&render(&app, 120, 40)));
}

fn resigned() -> App {
    let mut app = clocks_midgame();
    type_line(&mut app, ":resign");
    app
}

#[test]
fn snapshot_result_popup_80x24() {
    let app = resigned();
    let screen = screen_text(&render(&app, 80, 24));
    assert!(
        screen.contains("Black wins by resignation (0-1)"),
        "{screen}"
    );
    assert_snapshot!(screen);
}

#[test]
fn snapshot_result_popup_120x40() {
    assert_snapshot!(screen_text(&render(&resigned(), 120, 40)));
}
