//! The TUI's one door to the engine: a worker thread that runs searches, with a stop
//! flag and a step gate per search, reporting `EngineEvent`s to a sink.
//!
//! The search itself sits behind `Searcher`; `default_searcher` names the engine the
//! program uses (`engine_search`), and tests drive the worker with scripted ones.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::board::{Move, Position};
use crate::config::TraceLevel;
use crate::search::Algorithm;

use super::step::{StepCommand, StepGate, StepState};

/// Tells one search from the next, so late events of a stopped search are ignored.
pub type SearchId = u64;

/// What to search and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    pub id: SearchId,
    /// The position with the game's moves in its history (for repetition verdicts).
    pub position: Position,
    pub algorithm: Algorithm,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    /// The side to move's clock in a timed game: the engine manages its own time.
    pub clock: Option<crate::engine::Clock>,
    pub nodes: Option<u64>,
    pub hash_mb: u32,
    /// Search threads of the in-process engine.
    pub threads: usize,
    /// How much of the search to report.
    pub trace: TraceLevel,
    /// Start paused before the first trace event.
    pub step: bool,
    /// The notation trace lines name moves in.
    pub notation: crate::notation::Notation,
    /// Lines to search (the analysis board's MultiPV); 1 to play.
    pub multipv: usize,
    /// Strength level, 1..=20 (20: full strength).
    pub level: u8,
    /// The external engine to search with (`None`: the in-process one).
    pub external: Option<super::engine_choice::NamedEngine>,
}

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineScore {
    /// Hundredths of a pawn (a soldier), as engines report them.
    Centipawns(i32),
    /// The side to move mates in this many moves; negative: it is mated in that many.
    Mate(i32),
}

impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EngineScore::Centipawns(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let cp = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", cp / 100, cp % 100)
            }
            EngineScore::Mate(moves) => write!(f, "#{moves}"),
        }
    }
}

/// The summary of one iteration of iterative deepening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IterationInfo {
    pub depth: u32,
    pub score: EngineScore,
    pub nodes: u64,
    pub nodes_per_second: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// One line of a MultiPV search: its score (side to move's view) and variation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineLine {
    pub score: EngineScore,
    pub pv: Vec<Move>,
}

/// What the worker reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineEvent {
    Iteration {
        id: SearchId,
        info: IterationInfo,
    },
    /// Trace events as text, oldest first (batched when not stepping).
    Trace {
        id: SearchId,
        lines: Vec<String>,
    },
    /// Typed trace events for the tree explorer, oldest first, each with whether it
    /// completed a log line; sent just before the `Trace` lines they belong to.
    Explored {
        id: SearchId,
        events: Vec<(crate::search::TraceEvent<Move>, bool)>,
    },
    /// The search ended; `None` when the position has no legal move.
    BestMove {
        id: SearchId,
        mv: Option<Move>,
    },
    /// All MultiPV lines of the iteration just reported, best first.
    Lines {
        id: SearchId,
        lines: Vec<EngineLine>,
    },
    /// Something the search wants the player to know, for the log.
    Note {
        id: SearchId,
        text: String,
    },
    Failed {
        id: SearchId,
        message: String,
    },
}

impl EngineEvent {
    pub fn id(&self) -> SearchId {
        match self {
            EngineEvent::Iteration { id, .. }
            | EngineEvent::Trace { id, .. }
            | EngineEvent::Explored { id, .. }
            | EngineEvent::Lines { id, .. }
            | EngineEvent::BestMove { id, .. }
            | EngineEvent::Note { id, .. }
            | EngineEvent::Failed { id, .. } => *id,
        }
    }
}

/// Where events go; returns false once nobody listens (the search then stops).
pub type EventSink = Box<dyn Fn(EngineEvent) -> bool + Send>;

/// A search the worker can run.
pub trait Searcher: Send {
    /// Searches `request.position`; reports through `report`, which also says when to
    /// stop. Returns the move to play (`None`: no legal move).
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move>;

    /// Whether it reports trace events (which step mode holds it at); without them the
    /// app asks for summaries only and never starts it stepping.
    fn traces(&self) -> bool {
        true
    }
}

/// The engine of this build, if it has one, with the installed endgame tables.
pub fn default_searcher() -> Option<Box<dyn Searcher>> {
    let mut builtin = Box::new(super::engine_search::EngineSearcher::default());
    builtin.set_tablebases(crate::egtb::Tablebases::installed());
    Some(Box::new(super::engine_choice::RoutingSearcher::new(
        builtin,
    )))
}

/// Trace lines sent in one batch at most, when running freely.
const TRACE_BATCH: usize = 256;
/// Typed events sent in one batch at most.
const EVENT_BATCH: usize = 4096;
/// Longest a free-running search holds trace lines back.
const TRACE_FLUSH_EVERY: Duration = Duration::from_millis(50);

/// A search's line to the app: progress, trace events (through the step gate), and
/// whether to stop.
pub struct Reporter<'a> {
    id: SearchId,
    sink: &'a EventSink,
    gate: &'a StepGate,
    stop: &'a Arc<AtomicBool>,
    pending: Vec<String>,
    pending_events: Vec<(crate::search::TraceEvent<Move>, bool)>,
    last_flush: Instant,
}

impl<'a> Reporter<'a> {
    /// True once the search should stop: stop pressed, app gone.
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop flag, for searches that poll it themselves (it outlives the borrow of
    /// the reporter, so a search can hold it while reporting).
    pub fn stop_flag(&self) -> &'a Arc<AtomicBool> {
        self.stop
    }

    /// A line for the log about the search itself (what it can and cannot do).
    pub fn note(&mut self, text: String) {
        self.flush();
        self.send(EngineEvent::Note { id: self.id, text });
    }

    /// The search cannot go on (an external engine died, hung or cheated): the app is
    /// told why, and the move this search returns is ignored.
    pub fn fail(&mut self, message: String) {
        self.flush();
        self.send(EngineEvent::Failed {
            id: self.id,
            message,
        });
    }

    /// Reports one trace event; waits first while step mode holds the search. False
    /// when the search should stop.
    pub fn trace(&mut self, line: String) -> bool {
        if !self.gate.before_event() {
            return false;
        }
        self.pending.push(line);
        let stepping = self.gate.state().mode() != super::step::StepMode::Free;
        if stepping
            || self.pending.len() >= TRACE_BATCH
            || self.last_flush.elapsed() >= TRACE_FLUSH_EVERY
        {
            self.flush();
        }
        !self.should_stop()
    }

    /// Keeps one typed trace event for the explorer (`line`: it completed a log line,
    /// which [`Reporter::trace`] sends next). Sent with the lines.
    pub fn event(&mut self, event: crate::search::TraceEvent<Move>, line: bool) {
        self.pending_events.push((event, line));
        if self.pending_events.len() >= EVENT_BATCH {
            self.flush();
        }
    }

    /// Reports a finished iteration (a run "to the end of the iteration" pauses here).
    pub fn iteration(&mut self, info: IterationInfo) {
        self.flush();
        self.gate.iteration_end();
        self.send(EngineEvent::Iteration { id: self.id, info });
    }

    /// Reports the MultiPV lines of the iteration just reported.
    pub fn lines(&mut self, lines: Vec<EngineLine>) {
        self.flush();
        self.send(EngineEvent::Lines { id: self.id, lines });
    }

    fn flush(&mut self) {
        self.last_flush = Instant::now();
        if !self.pending_events.is_empty() {
            let events = std::mem::take(&mut self.pending_events);
            self.send(EngineEvent::Explored {
                id: self.id,
                events,
            });
        }
        if !self.pending.is_empty() {
            let lines = std::mem::take(&mut self.pending);
            self.send(EngineEvent::Trace { id: self.id, lines });
        }
    }

    fn send(&self, event: EngineEvent) {
        if !(self.sink)(event) {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

struct Job {
    request: SearchRequest,
    stop: Arc<AtomicBool>,
    gate: Arc<StepGate>,
}

struct Running {
    id: SearchId,
    stop: Arc<AtomicBool>,
    gate: Arc<StepGate>,
}

impl Running {
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.gate.release();
    }
}

/// The worker thread and the search it runs.
pub struct EngineLink {
    jobs: Option<mpsc::Sender<Job>>,
    running: Option<Running>,
}

impl EngineLink {
    /// Starts the worker thread.
    pub fn spawn(mut searcher: Box<dyn Searcher>, sink: EventSink) -> std::io::Result<EngineLink> {
        let (jobs, queue) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                for job in queue {
                    let mut reporter = Reporter {
                        id: job.request.id,
                        sink: &sink,
                        gate: &job.gate,
                        stop: &job.stop,
                        pending: Vec::new(),
                        pending_events: Vec::new(),
                        last_flush: Instant::now(),
                    };
                    let mv = searcher.search(&job.request, &mut reporter);
                    reporter.flush();
                    let id = job.request.id;
                    if !sink(EngineEvent::BestMove { id, mv }) {
                        break;
                    }
                }
            })?;
        Ok(EngineLink {
            jobs: Some(jobs),
            running: None,
        })
    }

    /// Starts a search, stopping the one running, if any.
    pub fn start(&mut self, request: SearchRequest) {
        self.stop_running();
        let step = if request.step {
            StepState::paused()
        } else {
            StepState::free()
        };
        let running = Running {
            id: request.id,
            stop: Arc::new(AtomicBool::new(false)),
            gate: Arc::new(StepGate::new(step)),
        };
        let job = Job {
            request,
            stop: Arc::clone(&running.stop),
            gate: Arc::clone(&running.gate),
        };
        if let Some(jobs) = &self.jobs
            && jobs.send(job).is_ok()
        {
            self.running = Some(running);
        }
    }

    /// Stops search `id` (it then reports its best move so far).
    pub fn stop(&mut self, id: SearchId) {
        if self
            .running
            .as_ref()
            .is_some_and(|running| running.id == id)
        {
            self.stop_running();
        }
    }

    pub fn step(&self, id: SearchId, command: StepCommand) {
        if let Some(running) = self.running.as_ref().filter(|running| running.id == id) {
            running.gate.command(command);
        }
    }

    fn stop_running(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop();
        }
    }
}

impl Drop for EngineLink {
    /// Stops the search and lets the worker end; never waits for it, so quitting is
    /// never held up by a search that is slow to notice.
    fn drop(&mut self) {
        self.stop_running();
        self.jobs = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_players_write_them() {
        assert_eq!(EngineScore::Centipawns(35).to_string(), "+0.35");
        assert_eq!(EngineScore::Centipawns(-120).to_string(), "-1.20");
        assert_eq!(EngineScore::Centipawns(0).to_string(), "+0.00");
        assert_eq!(EngineScore::Mate(3).to_string(), "#3");
        assert_eq!(EngineScore::Mate(-2).to_string(), "#-2");
    }

    /// A search that reports `events` trace lines per iteration, for `iterations`
    /// iterations, and plays the first legal move: it exercises the worker, not a search.
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
                report.iteration(IterationInfo {
                    depth,
                    score: EngineScore::Centipawns(0),
                    nodes: u64::from(depth),
                    nodes_per_second: 0,
                    time_ms: 0,
                    pv: mv.into_iter().collect(),
                });
            }
            mv
        }
    }

    fn request(id: SearchId, step: bool) -> SearchRequest {
        SearchRequest {
            id,
            position: Position::startpos(),
            algorithm: Algorithm::AlphaBeta,
            depth: None,
            movetime_ms: None,
            clock: None,
            nodes: None,
            hash_mb: 1,
            threads: 1,
            trace: TraceLevel::Events,
            step,
            notation: crate::notation::Notation::Iccs,
            multipv: 1,
            level: 20,
            external: None,
        }
    }

    fn spawn(iterations: u32, events: u32) -> (EngineLink, mpsc::Receiver<EngineEvent>) {
        let (sent, received) = mpsc::channel();
        let sink: EventSink = Box::new(move |event| sent.send(event).is_ok());
        let link = EngineLink::spawn(Box::new(Scripted { iterations, events }), sink).unwrap();
        (link, received)
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
                mv: Some(first)
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
                EngineEvent::BestMove { id: 1, mv } => {
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
}
