//! The service's thread with scripted searches (the plumbing: step gate, stop, order of
//! events) and with the built-in engine (progress, stop, every backend, housekeeping).

use std::sync::mpsc;
use std::time::Duration;

use super::*;
use crate::engine::{Limits, SearchInfo};
use crate::search::Algorithm;
use xiangqi_core::board::{Move, Position};

/// A search that reports `events` trace lines per iteration, for `iterations`
/// iterations, and plays the first legal move: it exercises the thread, not a search.
struct Scripted {
    iterations: u32,
    events: u32,
}

impl Searcher for Scripted {
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move> {
        let mv = request.position.legal_move_list().first().copied();
        for depth in 1..=self.iterations {
            for event in 0..self.events {
                if !report.trace(format!("d{depth} e{event}")) {
                    return mv;
                }
            }
            report.iteration(SearchInfo {
                depth,
                nodes: u64::from(depth),
                pv: mv.into_iter().collect(),
                ..SearchInfo::default()
            });
        }
        mv
    }
}

fn request(id: SearchId, step: bool) -> SearchRequest {
    SearchRequest {
        hash_mb: 1,
        trace: TraceLevel::Events,
        step,
        ..SearchRequest::new(id, Position::startpos(), &Limits::default())
    }
}

fn spawn_with(searcher: Box<dyn Searcher>) -> (EngineLink, mpsc::Receiver<EngineEvent>) {
    let (sent, received) = mpsc::channel();
    let sink: EventSink = Box::new(move |event| sent.send(event).is_ok());
    (EngineLink::spawn(searcher, sink).unwrap(), received)
}

fn spawn(iterations: u32, events: u32) -> (EngineLink, mpsc::Receiver<EngineEvent>) {
    spawn_with(Box::new(Scripted { iterations, events }))
}

#[test]
fn a_stepping_search_reports_one_event_per_step_and_stops_when_told() {
    let (mut link, events) = spawn(3, 4);
    link.start(request(7, true));
    link.step(7, StepCommand::One);
    assert_eq!(
        events.recv().unwrap(),
        EngineEvent::Trace {
            id: 7,
            lines: vec!["d1 e0".into()]
        }
    );
    link.step(7, StepCommand::One);
    assert_eq!(
        events.recv().unwrap(),
        EngineEvent::Trace {
            id: 7,
            lines: vec!["d1 e1".into()]
        }
    );
    // To the end of the iteration: the other two events, then the summary.
    link.step(7, StepCommand::ToIterationEnd);
    let mut lines = Vec::new();
    loop {
        match events.recv().unwrap() {
            EngineEvent::Trace { lines: more, .. } => lines.extend(more),
            EngineEvent::Iteration { info, .. } => {
                assert_eq!(info.depth, 1);
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(lines, ["d1 e2", "d1 e3"]);
    link.stop(7);
    let first = Position::startpos().legal_move_list()[0];
    assert_eq!(
        events.recv().unwrap(),
        EngineEvent::BestMove {
            id: 7,
            mv: Some(first),
            ponder: None,
        }
    );
}

#[test]
fn a_free_search_runs_to_its_end_and_the_next_one_starts_fresh() {
    let (mut link, events) = spawn(2, 3);
    link.start(request(1, false));
    let mut traced = 0;
    let mut iterations = 0;
    loop {
        match events.recv().unwrap() {
            EngineEvent::Trace { id: 1, lines } => traced += lines.len(),
            EngineEvent::Iteration { id: 1, .. } => iterations += 1,
            EngineEvent::BestMove { id: 1, mv, .. } => {
                assert!(mv.is_some());
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((traced, iterations), (6, 2));
    // A stepping search stopped before its first event still answers.
    link.start(request(2, true));
    link.stop(2);
    assert!(matches!(
        events.recv().unwrap(),
        EngineEvent::BestMove { id: 2, .. }
    ));
}

/// A search that panics: the client hears why, and the thread serves the next one.
struct Panicking;

impl Searcher for Panicking {
    fn search(&mut self, request: &SearchRequest, _: &mut Reporter<'_>) -> Option<Move> {
        assert!(request.id != 1, "search 1 panics");
        request.position.legal_move_list().first().copied()
    }
}

#[test]
fn a_search_that_panics_fails_and_the_next_one_runs() {
    let (mut link, events) = spawn_with(Box::new(Panicking));
    link.start(request(1, false));
    assert!(matches!(
        events.recv().unwrap(),
        EngineEvent::Failed { id: 1, .. }
    ));
    assert!(matches!(
        events.recv().unwrap(),
        EngineEvent::BestMove {
            id: 1,
            mv: None,
            ..
        }
    ));
    link.start(request(2, false));
    assert!(matches!(
        events.recv().unwrap(),
        EngineEvent::BestMove {
            id: 2,
            mv: Some(_),
            ..
        }
    ));
}

/// A request for the built-in engine's strong search, reporting summaries only.
fn engine_request(id: SearchId, algorithm: Algorithm, depth: Option<u32>) -> SearchRequest {
    SearchRequest {
        algorithm,
        depth,
        infinite: depth.is_none(),
        hash_mb: 4,
        trace: TraceLevel::Off,
        ..request(id, false)
    }
}

fn engine() -> (EngineLink, mpsc::Receiver<EngineEvent>) {
    spawn_with(Box::new(EngineSearcher::new(4)))
}

/// The iterations and the answer of search `id`.
fn wait_done(
    events: &mpsc::Receiver<EngineEvent>,
    id: SearchId,
) -> (Vec<SearchInfo>, Option<Move>, Option<Move>) {
    let mut infos = Vec::new();
    loop {
        match events.recv_timeout(Duration::from_secs(30)) {
            Ok(EngineEvent::Iteration { id: got, info }) if got == id => infos.push(info),
            Ok(EngineEvent::BestMove {
                id: got,
                mv,
                ponder,
            }) if got == id => return (infos, mv, ponder),
            Ok(_) => {}
            Err(_) => panic!("no best move for search {id}"),
        }
    }
}

#[test]
fn the_engine_reports_every_iteration_and_its_move_with_the_expected_reply() {
    let (mut link, events) = engine();
    let pos = Position::startpos();
    link.start(engine_request(1, Algorithm::AlphaBeta, Some(4)));
    let (infos, mv, ponder) = wait_done(&events, 1);
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    let mv = mv.unwrap();
    assert!(pos.is_legal(mv));
    assert_eq!(infos.last().unwrap().pv[..2], [mv, ponder.unwrap()]);
}

#[test]
fn stop_ends_an_infinite_search_and_a_new_search_supersedes_the_old() {
    let (mut link, events) = engine();
    let pos = Position::startpos();
    link.start(engine_request(1, Algorithm::AlphaBeta, None));
    // Starting another search stops the first; both answer, in order.
    link.start(engine_request(2, Algorithm::AlphaBeta, None));
    let (_, stopped, _) = wait_done(&events, 1);
    assert!(pos.is_legal(stopped.unwrap()));
    link.stop(2);
    let (_, answered, _) = wait_done(&events, 2);
    assert!(pos.is_legal(answered.unwrap()));
    assert!(events.try_recv().is_err());
}

#[test]
fn every_backend_runs_on_the_service_and_stops_when_told() {
    let (mut link, events) = engine();
    let pos = Position::startpos();
    let mut id = 0;
    for algorithm in Algorithm::ALL {
        id += 1;
        link.start(engine_request(id, algorithm, Some(2)));
        let (infos, mv, _) = wait_done(&events, id);
        assert!(!infos.is_empty(), "{algorithm}");
        assert!(pos.is_legal(mv.unwrap()), "{algorithm}");
        // Without limits a search runs until stopped, and still answers.
        id += 1;
        link.start(engine_request(id, algorithm, None));
        std::thread::sleep(Duration::from_millis(20));
        link.stop(id);
        let (_, mv, _) = wait_done(&events, id);
        assert!(pos.is_legal(mv.unwrap()), "{algorithm}");
    }
}

#[test]
fn a_new_game_searches_as_a_fresh_engine_does() {
    let (mut link, events) = engine();
    let nodes = |infos: &[SearchInfo]| infos.last().unwrap().nodes;
    link.start(engine_request(1, Algorithm::AlphaBeta, Some(5)));
    let fresh = nodes(&wait_done(&events, 1).0);
    // The table of the first search shortens the second.
    link.start(engine_request(2, Algorithm::AlphaBeta, Some(5)));
    assert_ne!(nodes(&wait_done(&events, 2).0), fresh);
    link.new_game();
    link.start(engine_request(3, Algorithm::AlphaBeta, Some(5)));
    assert_eq!(nodes(&wait_done(&events, 3).0), fresh);
    // A new table alone keeps the move-ordering history: not a fresh engine.
    link.set_hash_mb(4);
    link.start(engine_request(4, Algorithm::AlphaBeta, Some(5)));
    assert_ne!(nodes(&wait_done(&events, 4).0), fresh);
}

#[test]
fn dropping_the_link_mid_search_returns() {
    let (mut link, _events) = engine();
    link.start(engine_request(1, Algorithm::AlphaBeta, None));
    drop(link);
}

/// Trace lines, notes and iterations of search `id`, to its answer.
fn traced(
    events: &mpsc::Receiver<EngineEvent>,
    id: SearchId,
) -> (Vec<String>, Vec<String>, Vec<SearchInfo>) {
    let (mut lines, mut notes, mut infos) = (Vec::new(), Vec::new(), Vec::new());
    loop {
        match events.recv_timeout(Duration::from_secs(30)) {
            Ok(EngineEvent::Trace {
                id: got,
                lines: more,
            }) if got == id => lines.extend(more),
            Ok(EngineEvent::Note { id: got, text }) if got == id => notes.push(text),
            Ok(EngineEvent::Iteration { id: got, info }) if got == id => infos.push(info),
            Ok(EngineEvent::BestMove { id: got, .. }) if got == id => {
                return (lines, notes, infos);
            }
            Ok(_) => {}
            Err(_) => panic!("no best move for search {id}"),
        }
    }
}

#[test]
fn a_traced_search_writes_its_scores_as_its_iterations_do() {
    let (mut link, events) = engine();
    // Black to move: the trace's MAX is Black, the log's view Red's.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let position = Position::from_fen(fen).unwrap();
    link.start(SearchRequest {
        position: position.clone(),
        depth: Some(2),
        ..request(1, false)
    });
    let (lines, notes, infos) = traced(&events, 1);
    let last = infos.last().unwrap();
    let summary = format!("{:#}", last.verdict().shown(position.side_to_move()));
    let exit = lines
        .iter()
        .rev()
        .find(|line| line.starts_with("exit root -> "))
        .unwrap();
    assert_eq!(*exit, format!("exit root -> {summary}"), "{lines:?}");
    assert!(
        notes
            .iter()
            .any(|note| note.starts_with("trace scores are Red's view in pawns")),
        "{notes:?}"
    );
    // A depth was given: nothing to explain about how deep it went.
    assert!(
        !notes.iter().any(|note| note.starts_with("traced:")),
        "{notes:?}"
    );
    // Without one, the search says what the trace cost it.
    link.start(SearchRequest {
        position,
        movetime_ms: Some(50),
        ..request(2, false)
    });
    let (_, notes, infos) = traced(&events, 2);
    let depth = infos.last().map_or(0, |info| info.depth);
    assert!(
        notes.contains(&format!(
            "traced: the textbook alphabeta logs every event and reached depth {depth}; \
             untraced (F11: summary) the engine searches far deeper"
        )),
        "{notes:?}"
    );
}
