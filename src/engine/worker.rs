//! A search worker thread for the UI: commands go in over a channel, events come out
//! over a bounded channel, and each search has a stop flag the UI can set at any time.
//! Nothing here blocks the caller: `search`, `stop` and `try_recv` return at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TrySendError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::{Engine, Limits, SearchInfo, SearchOptions, SearchResult};
use crate::board::Position;
use crate::search::Algorithm;

/// Identifies one search, so stale events from an earlier search can be told apart.
pub type SearchId = u64;

/// What the worker is asked to do.
#[derive(Debug)]
pub enum WorkerCommand {
    Search {
        id: SearchId,
        position: Box<Position>,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
    SetHashMb(usize),
    SetOptions(SearchOptions),
    /// The backend of the searches that follow (`alphabeta`: the strong engine).
    SetAlgorithm(Algorithm),
    NewGame,
    Quit,
}

/// What the worker reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerEvent {
    /// Progress after an iteration. Dropped when the UI lags behind (the channel is
    /// bounded); the final `Done` is never dropped.
    Info { id: SearchId, info: SearchInfo },
    /// The search ended (limit reached or stopped).
    Done { id: SearchId, result: SearchResult },
}

/// Capacity of the event channel.
const EVENT_CAPACITY: usize = 256;

/// Handle to the worker thread. Dropping it stops any search and joins the thread.
pub struct Worker {
    commands: Sender<WorkerCommand>,
    events: Option<Receiver<WorkerEvent>>,
    current_stop: Arc<AtomicBool>,
    next_id: SearchId,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the worker with a transposition table of `hash_mb` megabytes.
    pub fn spawn(hash_mb: usize) -> Worker {
        let (command_tx, command_rx) = mpsc::channel();
        let (event_tx, event_rx) = mpsc::sync_channel(EVENT_CAPACITY);
        let thread = thread::Builder::new()
            .name("xiangqi-search".into())
            .spawn(move || worker_loop(Engine::new(hash_mb), command_rx, event_tx))
            .expect("the search thread starts");
        Worker {
            commands: command_tx,
            events: Some(event_rx),
            current_stop: Arc::new(AtomicBool::new(false)),
            next_id: 1,
            thread: Some(thread),
        }
    }

    /// Starts a search of `position` (stopping the one running, if any) and returns its id.
    pub fn search(&mut self, position: &Position, limits: Limits) -> SearchId {
        self.current_stop.store(true, Ordering::Relaxed);
        self.current_stop = Arc::new(AtomicBool::new(false));
        let id = self.next_id;
        self.next_id += 1;
        self.send(WorkerCommand::Search {
            id,
            position: Box::new(position.clone()),
            limits,
            stop: Arc::clone(&self.current_stop),
        });
        id
    }

    /// Asks the running search to stop; its `Done` event follows shortly.
    pub fn stop(&self) {
        self.current_stop.store(true, Ordering::Relaxed);
    }

    pub fn set_hash_mb(&self, mb: usize) {
        self.send(WorkerCommand::SetHashMb(mb));
    }

    pub fn set_options(&self, options: SearchOptions) {
        self.send(WorkerCommand::SetOptions(options));
    }

    /// Chooses the backend for the searches that follow (queued after any running search).
    pub fn set_algorithm(&self, algorithm: Algorithm) {
        self.send(WorkerCommand::SetAlgorithm(algorithm));
    }

    /// Clears the table and history (queued after any running search).
    pub fn new_game(&self) {
        self.send(WorkerCommand::NewGame);
    }

    /// The next event, if one is waiting.
    pub fn try_recv(&self) -> Option<WorkerEvent> {
        self.events.as_ref()?.try_recv().ok()
    }

    /// Waits up to `timeout` for the next event.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<WorkerEvent> {
        self.events.as_ref()?.recv_timeout(timeout).ok()
    }

    fn send(&self, command: WorkerCommand) {
        // The worker only exits on Quit or a panic; either way there is nobody to tell.
        let _ = self.commands.send(command);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.current_stop.store(true, Ordering::Relaxed);
        let _ = self.commands.send(WorkerCommand::Quit);
        // Dropping the receiver unblocks a worker waiting to deliver an event.
        self.events.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn worker_loop(
    mut engine: Engine,
    commands: Receiver<WorkerCommand>,
    events: SyncSender<WorkerEvent>,
) {
    while let Ok(command) = commands.recv() {
        match command {
            WorkerCommand::Search {
                id,
                position,
                limits,
                stop,
            } => {
                let mut report = |info: &SearchInfo| {
                    let event = WorkerEvent::Info {
                        id,
                        info: info.clone(),
                    };
                    if let Err(TrySendError::Disconnected(_)) = events.try_send(event) {
                        stop.store(true, Ordering::Relaxed);
                    }
                };
                let result = engine.search(&position, &limits, &stop, &mut report);
                if events.send(WorkerEvent::Done { id, result }).is_err() {
                    return;
                }
            }
            WorkerCommand::SetHashMb(mb) => engine.set_hash_mb(mb),
            WorkerCommand::SetOptions(options) => engine.options = options,
            WorkerCommand::SetAlgorithm(algorithm) => engine.algorithm = algorithm,
            WorkerCommand::NewGame => engine.new_game(),
            WorkerCommand::Quit => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_done(worker: &Worker, id: SearchId) -> (Vec<SearchInfo>, SearchResult) {
        let mut infos = Vec::new();
        loop {
            match worker.recv_timeout(Duration::from_secs(30)) {
                Some(WorkerEvent::Info { id: got, info }) if got == id => infos.push(info),
                Some(WorkerEvent::Done { id: got, result }) if got == id => return (infos, result),
                Some(_) => {}
                None => panic!("no Done for search {id}"),
            }
        }
    }

    #[test]
    fn searches_report_progress_and_finish() {
        let mut worker = Worker::spawn(4);
        let pos = Position::startpos();
        let id = worker.search(&pos, Limits::depth(4));
        let (infos, result) = wait_done(&worker, id);
        assert_eq!(
            infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert!(pos.is_legal(result.best_move.unwrap()));
    }

    #[test]
    fn stop_ends_an_infinite_search_and_a_new_search_supersedes_the_old() {
        let mut worker = Worker::spawn(4);
        let pos = Position::startpos();
        let first = worker.search(&pos, Limits::infinite());
        // Starting another search stops the first; both report Done, in order.
        let second = worker.search(&pos, Limits::infinite());
        let (_, stopped) = wait_done(&worker, first);
        assert!(pos.is_legal(stopped.best_move.unwrap()));
        worker.stop();
        let (_, result) = wait_done(&worker, second);
        assert!(pos.is_legal(result.best_move.unwrap()));
        assert!(worker.try_recv().is_none());
    }

    #[test]
    fn every_backend_runs_in_the_worker_and_stops_when_told() {
        let mut worker = Worker::spawn(4);
        let pos = Position::startpos();
        for algorithm in Algorithm::ALL {
            worker.set_algorithm(algorithm);
            let id = worker.search(&pos, Limits::depth(2));
            let (infos, result) = wait_done(&worker, id);
            assert!(!infos.is_empty(), "{algorithm}");
            assert!(pos.is_legal(result.best_move.unwrap()), "{algorithm}");
            // Without limits a search runs until stopped, and still answers.
            let id = worker.search(&pos, Limits::infinite());
            thread::sleep(Duration::from_millis(20));
            worker.stop();
            let (_, result) = wait_done(&worker, id);
            assert!(pos.is_legal(result.best_move.unwrap()), "{algorithm}");
        }
    }

    #[test]
    fn dropping_the_worker_mid_search_returns() {
        let mut worker = Worker::spawn(4);
        worker.search(&Position::startpos(), Limits::infinite());
        drop(worker);
    }
}
