//! The work a remote session starts (a review of an archived game, the puzzle prover,
//! the endgame school's tables), as jobs of the server's one pool (`jobs`): at most one
//! job of the session is in flight, a new one replaces it, and it is cancelled once the
//! app no longer waits for its answer (a move taken back, another puzzle, the trainer
//! left) or the session ends. Reports come back as actions, which the session collects
//! at each tick.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use super::action::Action;
use super::app::App;
use super::jobs::{JobContext, Jobs, Ticket};

/// How often a session with work under way looks for its reports.
pub const POLL: Duration = Duration::from_millis(200);

/// The request of the app a job answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkTag {
    Review(u64),
    Puzzle(u64),
    School(u64),
}

impl WorkTag {
    /// Whether `app` still waits for this answer.
    pub fn wanted(self, app: &App) -> bool {
        match self {
            WorkTag::Review(id) => app.review.running.as_ref().is_some_and(|r| r.id == id),
            WorkTag::Puzzle(id) => super::puzzle_mode::awaits(app, id),
            WorkTag::School(id) => app.school.running == Some(id),
        }
    }
}

/// The job in flight, and what the app is told if it never runs.
struct Current {
    tag: WorkTag,
    ticket: Ticket,
    /// In a mutex only so the session (held across the server's awaits) stays `Sync`.
    unanswered: Mutex<Option<Action>>,
}

/// A session's place on the server's job pool.
pub struct RemoteWork {
    jobs: Jobs,
    /// Whose jobs these are in the pool's turns: a key, or a guest's address.
    owner: String,
    sender: Sender<Action>,
    /// In a mutex only so the session stays `Sync`.
    reports: Mutex<Receiver<Action>>,
    current: Option<Current>,
}

impl RemoteWork {
    pub fn new(jobs: Jobs, owner: impl Into<String>) -> RemoteWork {
        let (sender, reports) = channel();
        RemoteWork {
            jobs,
            owner: owner.into(),
            sender,
            reports: Mutex::new(reports),
            current: None,
        }
    }

    /// Each job's share of the server's hash, in MB.
    pub fn hash_mb(&self) -> usize {
        self.jobs.hash_mb()
    }

    /// Hands `job` (which answers `tag`) to the pool in place of the session's job in
    /// flight; it reports through the sender it is given. `unanswered` is what the app
    /// gets if the job never runs (cancelled while it waits). A full queue refuses it at
    /// once: the refusal comes back, to be told, with `unanswered` to apply first
    /// (boxed: an action is large and the refusal rare).
    pub fn start(
        &mut self,
        tag: WorkTag,
        unanswered: Action,
        job: impl FnOnce(&JobContext, &Sender<Action>) + Send + 'static,
    ) -> Result<(), (String, Box<Action>)> {
        self.cancel();
        let sender = self.sender.clone();
        match self
            .jobs
            .submit(&self.owner, move |context| job(context, &sender))
        {
            Ok(ticket) => {
                self.current = Some(Current {
                    tag,
                    ticket,
                    unanswered: Mutex::new(Some(unanswered)),
                });
                Ok(())
            }
            Err(busy) => Err((busy.to_string(), Box::new(unanswered))),
        }
    }

    /// Cancels the job in flight, if any: one that never ran answers `unanswered`.
    pub fn cancel(&mut self) {
        if let Some(current) = self.current.take()
            && current.ticket.cancel()
        {
            let unanswered = current
                .unanswered
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
            if let Some(action) = unanswered {
                let _ = self.sender.send(action);
            }
        }
    }

    /// Cancels the job in flight once `app` no longer waits for its answer.
    pub fn settle(&mut self, app: &App) {
        if self
            .current
            .as_ref()
            .is_some_and(|current| !current.tag.wanted(app))
        {
            self.cancel();
        }
    }

    /// Whether a job is in flight (its reports are looked for at each tick).
    pub fn busy(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|current| !current.ticket.finished())
    }

    /// Jobs that run before the session's while it waits.
    pub fn ahead(&self) -> Option<usize> {
        self.current.as_ref()?.ticket.ahead()
    }

    /// The reports that came in since the last call.
    pub fn take(&self) -> Vec<Action> {
        let reports = self.reports.lock().unwrap_or_else(|p| p.into_inner());
        reports.try_iter().collect()
    }
}
