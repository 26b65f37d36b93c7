//! The seam between the service's thread and a search: `Searcher` is what runs (the
//! built-in engine, an external program, a scripted one in tests), `Reporter` its line
//! back: progress, trace events through the step gate, and whether to stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::{PvLine, SearchInfo};
use crate::search::TraceEvent;
use xiangqi_core::board::Move;

use super::event::{EngineEvent, EventSink};
use super::request::{SearchId, SearchRequest};
use super::step::{StepGate, StepMode};

/// A search the service can run.
pub trait Searcher: Send {
    /// Searches `request.position`; reports through `report`, which also says when to
    /// stop. Returns the move to play (`None`: no legal move).
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move>;

    /// Whether it reports trace events (which step mode holds it at); without them the
    /// app asks for summaries only and never starts it stepping.
    fn traces(&self) -> bool {
        true
    }

    /// Forgets what earlier searches learnt (a new game).
    fn new_game(&mut self) {}

    /// A fresh table of `mb` megabytes from now on.
    fn set_hash_mb(&mut self, _mb: u32) {}
}

/// Trace lines sent in one batch at most, when running freely.
const TRACE_BATCH: usize = 256;
/// Typed events sent in one batch at most.
const EVENT_BATCH: usize = 4096;
/// Longest a free-running search holds trace lines back.
const TRACE_FLUSH_EVERY: Duration = Duration::from_millis(50);

/// A search's line to its client: progress, trace events (through the step gate), and
/// whether to stop.
pub struct Reporter<'a> {
    id: SearchId,
    sink: &'a EventSink,
    gate: &'a StepGate,
    stop: &'a Arc<AtomicBool>,
    pending: Vec<String>,
    pending_events: Vec<(TraceEvent<Move>, bool)>,
    last_flush: Instant,
    ponder: Option<Move>,
}

impl<'a> Reporter<'a> {
    pub(super) fn new(
        id: SearchId,
        sink: &'a EventSink,
        gate: &'a StepGate,
        stop: &'a Arc<AtomicBool>,
    ) -> Reporter<'a> {
        Reporter {
            id,
            sink,
            gate,
            stop,
            pending: Vec::new(),
            pending_events: Vec::new(),
            last_flush: Instant::now(),
            ponder: None,
        }
    }

    /// True once the search should stop: stop pressed, client gone.
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

    /// The search cannot go on (an external engine died, hung or cheated): the client
    /// is told why, and the move this search returns is ignored.
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
        let stepping = self.gate.state().mode() != StepMode::Free;
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
    pub fn event(&mut self, event: TraceEvent<Move>, line: bool) {
        self.pending_events.push((event, line));
        if self.pending_events.len() >= EVENT_BATCH {
            self.flush();
        }
    }

    /// Reports a finished iteration (a run "to the end of the iteration" pauses here).
    pub fn iteration(&mut self, info: SearchInfo) {
        self.flush();
        self.gate.iteration_end();
        self.send(EngineEvent::Iteration { id: self.id, info });
    }

    /// Reports the MultiPV lines of the iteration just reported.
    pub fn lines(&mut self, lines: Vec<PvLine>) {
        self.flush();
        self.send(EngineEvent::Lines { id: self.id, lines });
    }

    /// The reply the search expects to the move it returns, sent with that move.
    pub fn ponder(&mut self, reply: Option<Move>) {
        self.ponder = reply;
    }

    /// Sends what is held back, then the search's move.
    pub(super) fn finish(mut self, mv: Option<Move>) -> bool {
        self.flush();
        (self.sink)(EngineEvent::BestMove {
            id: self.id,
            mv,
            ponder: self.ponder,
        })
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
