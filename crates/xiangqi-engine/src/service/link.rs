//! The service's handle: a thread that runs one search at a time, with a stop flag
//! and a step gate per search, reporting `EngineEvent`s to a sink. Nothing here blocks
//! the caller: `start`, `stop`, `step` and the housekeeping calls return at once.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;

use xiangqi_core::board::Move;

use super::event::EventSink;
use super::reporter::{Reporter, Searcher};
use super::request::{SearchId, SearchRequest};
use super::step::{StepCommand, StepGate, StepState};

/// What the thread is asked to do, in order.
enum Job {
    Search {
        request: Box<SearchRequest>,
        stop: Arc<AtomicBool>,
        gate: Arc<StepGate>,
    },
    NewGame,
    SetHashMb(u32),
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

/// The service's thread and the search it runs.
pub struct EngineLink {
    jobs: Option<mpsc::Sender<Job>>,
    running: Option<Running>,
}

fn run_search(searcher: &mut dyn Searcher, sink: &EventSink, job: Job) -> bool {
    let (request, stop, gate) = match job {
        Job::Search {
            request,
            stop,
            gate,
        } => (request, stop, gate),
        Job::NewGame => {
            searcher.new_game();
            return true;
        }
        Job::SetHashMb(mb) => {
            searcher.set_hash_mb(mb);
            return true;
        }
    };
    tracing::debug!(
        id = ?request.id,
        fen = %request.position.to_fen(),
        algorithm = ?request.algorithm,
        depth = ?request.depth,
        movetime_ms = ?request.movetime_ms,
        "search started"
    );
    let mut reporter = Reporter::new(request.id, sink, &gate, &stop);
    let searched = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(&request, &mut reporter)
    }));
    let mv = searched.unwrap_or_else(|_| {
        // The searcher is kept: what it holds (tables, a child process) is still whole.
        tracing::error!(id = ?request.id, "the search panicked");
        reporter.fail("the search failed unexpectedly".to_owned());
        None
    });
    tracing::debug!(id = ?request.id, best = ?mv, "search finished");
    reporter.finish(mv)
}

/// Runs `request` with `searcher` on the caller's thread (a worker of a server's job
/// pool, which bounds how many run at once), reporting to `sink` as a link's thread
/// does, until it ends or `stop` is set; what the search returned (`None`: no move).
pub fn search_now(
    searcher: &mut dyn Searcher,
    request: SearchRequest,
    stop: &Arc<AtomicBool>,
    sink: &EventSink,
) -> Option<Move> {
    let gate = StepGate::new(StepState::free());
    let mut reporter = Reporter::new(request.id, sink, &gate, stop);
    let searched = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(&request, &mut reporter)
    }));
    let mv = searched.unwrap_or_else(|_| {
        tracing::error!(id = ?request.id, "the search panicked");
        reporter.fail("the search failed unexpectedly".to_owned());
        None
    });
    reporter.finish(mv);
    mv
}

impl EngineLink {
    /// Starts the service's thread.
    pub fn spawn(mut searcher: Box<dyn Searcher>, sink: EventSink) -> std::io::Result<EngineLink> {
        let (jobs, queue) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                for job in queue {
                    if !run_search(searcher.as_mut(), &sink, job) {
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
        let job = Job::Search {
            request: Box::new(request),
            stop: Arc::clone(&running.stop),
            gate: Arc::clone(&running.gate),
        };
        if self.send(job) {
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

    /// Forgets what earlier searches learnt, once the search running (if any) is done.
    pub fn new_game(&self) {
        self.send(Job::NewGame);
    }

    /// A fresh table of `mb` megabytes, once the search running (if any) is done.
    pub fn set_hash_mb(&self, mb: u32) {
        self.send(Job::SetHashMb(mb));
    }

    fn send(&self, job: Job) -> bool {
        self.jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(job).is_ok())
    }

    fn stop_running(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop();
        }
    }
}

impl Drop for EngineLink {
    /// Stops the search and lets the thread end; never waits for it, so quitting is
    /// never held up by a search that is slow to notice.
    fn drop(&mut self) {
        self.stop_running();
        self.jobs = None;
    }
}
