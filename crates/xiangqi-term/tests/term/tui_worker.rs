//! The app and the engine worker together: a scripted search (it reports events and
//! plays the first legal move; it exercises the plumbing, not a search) run through the
//! real worker thread and step gate, driven by synthetic keys.

use crate::tui_support;

use std::sync::mpsc;
use std::time::Duration;

use tui_support::*;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Effect, update};
use xiangqi_core::board::Move;
use xiangqi_engine::engine::SearchInfo;
use xiangqi_engine::service::{
    EngineEvent, EngineLink, EventSink, Reporter, SearchRequest, Searcher,
};

struct Scripted;

impl Searcher for Scripted {
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move> {
        let best = request.position.legal_move_list().first().copied();
        report.note("scripted: three events per iteration".into());
        for depth in 1..=2 {
            for event in 0..3 {
                if !report.trace(format!("depth {depth} event {event}")) {
                    return best;
                }
            }
            report.iteration(SearchInfo {
                depth,
                score: 0,
                nodes: 3,
                nps: 3,
                time: Duration::from_millis(1),
                pv: best.into_iter().collect(),
                ..SearchInfo::default()
            });
        }
        best
    }
}

fn perform(link: &mut EngineLink, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::StartSearch(request) => link.start(*request),
            Effect::StopSearch(id) => link.stop(id),
            Effect::Step { id, command } => link.step(id, command),
            _ => {}
        }
    }
}

fn traced(app: &App) -> Vec<String> {
    app.log
        .lines()
        .iter()
        .filter(|line| line.text.starts_with("depth"))
        .map(|line| line.text.clone())
        .collect()
}

#[test]
fn each_key_lets_exactly_one_event_through_the_worker() {
    let (sender, events) = mpsc::channel();
    let sink: EventSink = Box::new(move |event| sender.send(event).is_ok());
    let mut link = EngineLink::spawn(Box::new(Scripted), sink).unwrap();
    let mut app = App::new(config_with(|s| s.step = true), colour_terminal(), true);
    perform(&mut link, type_line(&mut app, "h2e2"));
    // Notes are not trace events: they pass the gate.
    let note = events.recv().unwrap();
    update(&mut app, Action::Engine(note));
    assert_eq!(
        app.log.lines().back().unwrap().text,
        "scripted: three events per iteration"
    );

    for n in 0..3 {
        perform(&mut link, update(&mut app, key(KeyCode::Char(' '))));
        // The worker sends exactly the one event let through, then waits.
        let event = events.recv().unwrap();
        assert!(matches!(&event, EngineEvent::Trace { lines, .. } if lines.len() == 1));
        update(&mut app, Action::Engine(event));
        assert_eq!(traced(&app).len(), n + 1);
        assert!(app.log.step.unwrap().waiting());
    }
    // The first iteration is complete: its summary comes next.
    perform(&mut link, update(&mut app, key(KeyCode::Char('i'))));
    let event = events.recv().unwrap();
    assert!(matches!(event, EngineEvent::Iteration { .. }), "{event:?}");
    update(&mut app, Action::Engine(event));
    assert!(
        app.log.step.unwrap().waiting(),
        "paused at the iteration's end"
    );

    // Continue: the rest of the search runs and its move is played.
    perform(&mut link, update(&mut app, key(KeyCode::Char('c'))));
    loop {
        let event = events.recv().unwrap();
        let done = matches!(event, EngineEvent::BestMove { .. });
        perform(&mut link, update(&mut app, Action::Engine(event)));
        if done {
            break;
        }
    }
    assert_eq!(traced(&app).len(), 6);
    let first = xiangqi_core::board::Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    )
    .unwrap()
    .legal_move_list()[0];
    assert_eq!(played(&app), ["h2e2".to_owned(), first.iccs()]);
}

#[test]
fn undo_while_a_stepping_search_waits_releases_the_worker() {
    let (sender, events) = mpsc::channel();
    let sink: EventSink = Box::new(move |event| sender.send(event).is_ok());
    let mut link = EngineLink::spawn(Box::new(Scripted), sink).unwrap();
    let mut app = App::new(config_with(|s| s.step = true), colour_terminal(), true);
    perform(&mut link, type_line(&mut app, "h2e2"));
    // Held before its first event; undo stops it, and its answer is ignored.
    perform(&mut link, update(&mut app, ctrl('z')));
    assert!(matches!(events.recv().unwrap(), EngineEvent::Note { .. }));
    let event = events.recv().unwrap();
    assert!(matches!(event, EngineEvent::BestMove { .. }), "{event:?}");
    assert!(update(&mut app, Action::Engine(event)).is_empty());
    assert!(played(&app).is_empty());
    // The worker is free for the next search.
    perform(&mut link, type_line(&mut app, "h2e2"));
    perform(&mut link, update(&mut app, key(KeyCode::Char('c'))));
    loop {
        let event = events.recv().unwrap();
        let done = matches!(event, EngineEvent::BestMove { .. });
        perform(&mut link, update(&mut app, Action::Engine(event)));
        if done {
            break;
        }
    }
    assert_eq!(played(&app).len(), 2);
}
