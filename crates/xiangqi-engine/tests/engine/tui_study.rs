//! The engine of this build behind the TUI's worker: the textbook backends on positions
//! agree on values and stream their trace a line per step; the strong engine plays when
//! nothing more than a summary is asked for.

use std::sync::mpsc;

use xiangqi_core::board::Position;
use xiangqi_core::notation::Notation;
use xiangqi_engine::engine::Verdict;
use xiangqi_engine::search::Algorithm;
use xiangqi_engine::service::{
    EngineEvent, EngineLink, EventSink, SearchRequest, StepCommand, TraceLevel, default_searcher,
};

/// Red to move with a chariot, a horse and a cannon against a bare general: small
/// enough for every backend at depth 2.
const ENDGAME: &str = "4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1";

fn request(id: u64, algorithm: Algorithm, trace: TraceLevel, step: bool) -> SearchRequest {
    SearchRequest {
        multipv: 1,
        level: 20,
        id,
        position: Position::from_fen(ENDGAME).unwrap(),
        algorithm,
        depth: Some(2),
        movetime_ms: None,
        clock: None,
        nodes: None,
        infinite: false,
        hash_mb: 1,
        threads: 1,
        trace,
        step,
        notation: Notation::Iccs,
        external: None,
    }
}

fn link() -> (EngineLink, mpsc::Receiver<EngineEvent>) {
    let (sender, events) = mpsc::channel();
    let sink: EventSink = Box::new(move |event| sender.send(event).is_ok());
    let searcher = default_searcher().expect("this build has an engine");
    (EngineLink::spawn(searcher, sink).unwrap(), events)
}

/// Runs a search to its end: (trace lines, last iteration's score, best move).
fn run(
    link: &mut EngineLink,
    events: &mpsc::Receiver<EngineEvent>,
    request: SearchRequest,
) -> (Vec<String>, Option<Verdict>, Option<String>) {
    link.start(request);
    let (mut lines, mut score) = (Vec::new(), None);
    loop {
        match events.recv().unwrap() {
            EngineEvent::Trace { lines: more, .. } => lines.extend(more),
            EngineEvent::Iteration { info, .. } => score = Some(info.verdict()),
            EngineEvent::BestMove { mv, .. } => return (lines, score, mv.map(|m| m.iccs())),
            EngineEvent::Note { .. } | EngineEvent::Explored { .. } | EngineEvent::Lines { .. } => {
            }
            EngineEvent::Failed { message, .. } => panic!("{message}"),
        }
    }
}

#[test]
fn every_exact_backend_finds_the_same_value_at_depth_two() {
    let (mut link, events) = link();
    let mut scores = Vec::new();
    for (id, algorithm) in [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Sss,
        Algorithm::MtSss,
        Algorithm::Mtdf,
    ]
    .into_iter()
    .enumerate()
    {
        // Tracing sends alpha-beta to the framework too, so all five run there.
        let (lines, score, best) = run(
            &mut link,
            &events,
            request(id as u64, algorithm, TraceLevel::Events, false),
        );
        assert!(!lines.is_empty(), "{algorithm}");
        assert!(best.is_some(), "{algorithm}");
        scores.push((algorithm, score.unwrap()));
    }
    let first = scores[0].1;
    for (algorithm, score) in &scores {
        assert_eq!(*score, first, "{algorithm} vs minimax");
    }
}

#[test]
fn a_stepping_study_search_sends_one_trace_line_per_step() {
    let (mut link, events) = link();
    link.start(request(1, Algorithm::AlphaBeta, TraceLevel::Events, true));
    let mut seen = Vec::new();
    for _ in 0..3 {
        link.step(1, StepCommand::One);
        loop {
            match events.recv().unwrap() {
                EngineEvent::Trace { lines, .. } => {
                    assert_eq!(lines.len(), 1);
                    seen.extend(lines);
                    break;
                }
                EngineEvent::Note { .. }
                | EngineEvent::Explored { .. }
                | EngineEvent::Lines { .. } => {}
                other => panic!("{other:?}"),
            }
        }
    }
    assert_eq!(seen[0], "enter root alpha=-inf beta=inf");
    assert!(seen[1].starts_with("enter "), "{seen:?}");
    link.stop(1);
    loop {
        if let EngineEvent::BestMove { mv, .. } = events.recv().unwrap() {
            assert!(mv.is_some(), "a stopped search still answers");
            break;
        }
    }
}

#[test]
fn the_engine_plays_when_only_a_summary_is_asked_for() {
    let (mut link, events) = link();
    let mut summary = request(1, Algorithm::AlphaBeta, TraceLevel::Summary, false);
    summary.depth = Some(4);
    let (lines, score, best) = run(&mut link, &events, summary);
    assert!(lines.is_empty());
    assert!(score.is_some());
    let pos = Position::from_fen(ENDGAME).unwrap();
    let best = xiangqi_core::board::Move::parse_coords(&best.unwrap()).unwrap();
    assert!(pos.is_legal(best));
}
