//! Work a remote session runs on threads of its own, as the local program runs it: a
//! review of an archived game, the puzzle prover, the endgame school's tables. Their
//! reports come back as actions, which the session collects at each tick.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use super::action::Action;

/// How often a session with work under way looks for its reports.
pub const POLL: Duration = Duration::from_millis(200);

/// The threads a session started and what they reported so far.
pub struct RemoteWork {
    sender: Sender<Action>,
    /// In a mutex only so the session (held across the server's awaits) stays `Sync`.
    reports: Mutex<Receiver<Action>>,
    running: std::sync::Arc<AtomicUsize>,
}

impl Default for RemoteWork {
    fn default() -> RemoteWork {
        let (sender, reports) = channel();
        RemoteWork {
            sender,
            reports: Mutex::new(reports),
            running: Default::default(),
        }
    }
}

/// Counts a thread as running until it ends, however it ends.
struct Running(std::sync::Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl RemoteWork {
    /// Runs `job` on a thread named `name`; it reports through the sender it is given.
    pub fn spawn(
        &self,
        name: &str,
        job: impl FnOnce(Sender<Action>) + Send + 'static,
    ) -> Result<(), String> {
        let sender = self.sender.clone();
        self.running.fetch_add(1, Ordering::SeqCst);
        let running = Running(std::sync::Arc::clone(&self.running));
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let _running = running;
                job(sender);
            })
            .map(|_| ())
            .map_err(|error| format!("cannot start {name}: {error}"))
    }

    /// Whether a thread runs or a report waits.
    pub fn busy(&self) -> bool {
        self.running.load(Ordering::SeqCst) > 0
    }

    /// The reports that came in since the last call.
    pub fn take(&self) -> Vec<Action> {
        let reports = self.reports.lock().unwrap_or_else(|p| p.into_inner());
        reports.try_iter().collect()
    }
}
