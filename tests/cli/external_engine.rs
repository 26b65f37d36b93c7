//! External engines through the TUI's worker: our own binary's `uci` mode plays a whole
//! game against the in-process engine inside the app's update loop, and a fake engine
//! that hangs on the handshake, plays an illegal move, answers garbage or crashes is
//! reported (status line and log) while the game is kept and another engine can take over.

use crate::tui_support;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use tui_support::*;
use xiangqi_app::config::{EngineSide, Settings};
use xiangqi_app::{Action, App, Effect, update};
use xiangqi_core::board::Position;
use xiangqi_engine::engine::{Engine, Limits};
use xiangqi_engine::external::{EngineSpec, ExternalEngine, ExternalError, Protocol};
use xiangqi_engine::service::{EngineEvent, EngineLink, EventSink, default_searcher};

/// The longest the tests wait for one engine event before calling it a failure.
const EVENT_WAIT: Duration = Duration::from_secs(60);

fn our_binary() -> EngineSpec {
    EngineSpec::new(
        env!("CARGO_BIN_EXE_xiangqi-tui"),
        vec!["uci".to_owned()],
        Protocol::Uci,
    )
}

fn fake(mode: &str) -> EngineSpec {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/engines/fake_engine.sh");
    let mut spec = EngineSpec::new(script, vec![mode.to_owned()], Protocol::Uci);
    // The real default is 10 s; a test hook keeps the hang short.
    spec.handshake_timeout = Duration::from_millis(300);
    spec
}

/// An app playing Red against the engine `name` (the given spec), with the worker.
fn app_with_engine(
    name: &str,
    spec: EngineSpec,
    change: impl FnOnce(&mut Settings),
) -> (App, EngineLink, mpsc::Receiver<EngineEvent>) {
    let mut config = config_with(|settings| {
        settings.engine_side = EngineSide::Black;
        settings.movetime_ms = None;
        settings.depth = Some(3);
        settings.hash_mb = 4;
        change(settings);
    });
    config.file.engines.insert(name.to_owned(), spec);
    config.settings.engine = name.to_owned();
    let app = App::new(config, colour_terminal(), true);
    let (sender, events) = mpsc::channel();
    let sink: EventSink = Box::new(move |event| sender.send(event).is_ok());
    let link = EngineLink::spawn(default_searcher().unwrap(), sink).unwrap();
    (app, link, events)
}

/// Carries out the engine effects and feeds the worker's events back until no search
/// runs.
fn settle(
    app: &mut App,
    link: &mut EngineLink,
    events: &mpsc::Receiver<EngineEvent>,
    mut effects: Vec<Effect>,
) {
    loop {
        for effect in effects.drain(..) {
            match effect {
                Effect::StartSearch(request) => link.start(*request),
                Effect::StopSearch(id) => link.stop(id),
                _ => {}
            }
        }
        if app.engine.thinking.is_none() {
            return;
        }
        let event = events.recv_timeout(EVENT_WAIT).expect("the worker reports");
        effects = update(app, Action::Engine(event));
    }
}

fn log_text(app: &App) -> String {
    app.log
        .lines()
        .iter()
        .map(|line| line.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn our_binary_as_an_external_engine_plays_a_whole_game_against_the_in_process_one() {
    let (mut app, mut link, events) = app_with_engine("self", our_binary(), |_| {});
    // Red is the in-process engine at depth 2, its moves typed as a person would.
    let mut red = Engine::new(4);
    let stop = AtomicBool::new(false);
    let mut plies = 0;
    while !app.game_over() && plies < 600 {
        let position: Position = app.position().clone();
        let best = red
            .search(&position, &Limits::depth(2), &stop, &mut |_| {})
            .best_move
            .expect("a legal move while the game goes on");
        let effects = type_line(&mut app, &best.iccs());
        assert_eq!(
            app.game.ply(),
            plies + 1,
            "Red's move {} was played",
            best.iccs()
        );
        settle(&mut app, &mut link, &events, effects);
        plies = app.game.ply();
        assert!(
            app.notice.as_ref().is_none_or(|notice| !notice.alert),
            "{:?}",
            app.notice
        );
    }
    assert!(app.game_over(), "the game ended ({plies} plies)");
    eprintln!("{plies} plies: {}", app.game.outcome().unwrap().describe());
    let log = log_text(&app);
    assert!(log.contains("started engine self (xiangqi-tui"), "{log}");
    // Black's moves came from the external engine, with its info lines in the log.
    assert!(log.contains("plays "), "{log}");
    assert!(log.lines().any(|line| line.starts_with("d3 ")), "{log}");
}

/// Red plays h2e2; the fake answers for Black and fails as `mode` says.
fn failing(mode: &str) -> (App, EngineLink, mpsc::Receiver<EngineEvent>) {
    let (mut app, mut link, events) = app_with_engine("fake", fake(mode), |_| {});
    let effects = type_line(&mut app, "h2e2");
    settle(&mut app, &mut link, &events, effects);
    (app, link, events)
}

fn assert_reported_and_kept(app: &App, expected: &str) {
    let notice = app
        .notice
        .as_ref()
        .expect("the status line says what happened");
    assert!(notice.alert);
    assert!(
        notice.text.contains(expected) && notice.text.contains(":engine NAME"),
        "{}",
        notice.text
    );
    assert!(log_text(app).contains(expected), "{}", log_text(app));
    assert_eq!(played(app), ["h2e2"], "the game is kept");
    assert!(!app.game_over());
    assert!(app.engine.paused, "no retry loop against a broken engine");
}

#[test]
fn an_engine_that_hangs_on_the_handshake_is_reported_and_another_takes_over() {
    let (mut app, mut link, events) = failing("hang");
    assert_reported_and_kept(&app, "no `uciok` within 300 ms: the engine hangs");
    // The player picks the built-in engine, which answers at once.
    let effects = type_line(&mut app, ":engine builtin");
    settle(&mut app, &mut link, &events, effects);
    assert_eq!(app.game.ply(), 2, "the built-in engine played Black's move");
}

#[test]
fn an_illegal_move_is_refused() {
    let (app, _link, _events) = failing("illegal");
    assert_reported_and_kept(&app, "the engine played a0a9, which is not legal here");
}

#[test]
fn words_that_are_no_move_are_refused() {
    let (app, _link, _events) = failing("garbage");
    assert_reported_and_kept(&app, "the engine answered \"xyzzy\", which is not a move");
}

#[test]
fn an_engine_that_dies_mid_search_is_reported_and_restarted_on_retry() {
    let (mut app, mut link, events) = failing("crash");
    assert_reported_and_kept(&app, "the engine exited (exit status: 3)");
    // Ctrl-G retries: a fresh process, which dies again, and is reported again.
    let effects = update(&mut app, ctrl('g'));
    settle(&mut app, &mut link, &events, effects);
    assert_reported_and_kept(&app, "the engine exited (exit status: 3)");
}

#[test]
fn a_missing_program_cannot_start() {
    let spec = EngineSpec::new("/nonexistent/engine", Vec::new(), Protocol::Uci);
    match ExternalEngine::start(&spec) {
        Err(ExternalError::Spawn { command, .. }) => assert_eq!(command, "/nonexistent/engine"),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("it started"),
    }
}

#[test]
fn the_client_searches_with_our_binary_and_reports_its_lines() {
    let mut engine = ExternalEngine::start(&our_binary()).unwrap();
    assert!(
        engine
            .id_name
            .as_deref()
            .unwrap()
            .starts_with("xiangqi-tui")
    );
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let best = engine
        .search(
            &Position::startpos(),
            &Limits::depth(4),
            &stop,
            &mut |info| depths.push(info.depth),
        )
        .unwrap()
        .unwrap();
    assert!(Position::startpos().is_legal(best));
    assert_eq!(depths, [1, 2, 3, 4]);
}

#[test]
fn the_client_speaks_ucci_with_a_clock() {
    let spec = EngineSpec::new(
        env!("CARGO_BIN_EXE_xiangqi-tui"),
        vec!["uci".to_owned()],
        Protocol::Ucci,
    );
    let mut engine = ExternalEngine::start(&spec).unwrap();
    let limits = Limits {
        clock: Some(xiangqi_engine::engine::Clock {
            remaining: Duration::from_millis(300),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let mut position = Position::startpos();
    position.make_move(xiangqi_core::board::Move::parse_coords("h2e2").unwrap());
    let stop = AtomicBool::new(false);
    let best = engine
        .search(&position, &limits, &stop, &mut |_| {})
        .unwrap()
        .unwrap();
    assert!(position.is_legal(best));
}
