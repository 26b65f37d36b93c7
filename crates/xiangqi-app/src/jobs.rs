//! One bounded pool for the CPU work a server's sessions start (the pattern of gitui's
//! `asyncgit`: background jobs with no UI): the engine rooms' searches, `:review`, the
//! puzzle prover, the endgame school's tables. A fixed number of worker threads take
//! jobs from one queue with a bound; the queue serves its owners (a key, or a guest's
//! address) in turn, one job each, so one identity asking a lot waits behind itself
//! and not in front of everyone. Each job gets the pool's share of the hash and a stop
//! flag; a job cancelled while it waits never runs, one cancelled while it runs sees
//! its flag. Plain threads and a condition variable: no async runtime, no terminal.
//!
//! It lives here, below the terminal and the server, because the session's UI
//! (`xiangqi_term::RemoteSession`) is what turns a player's request into a job; the
//! server owns the one pool and sizes it from `[server]`.

use std::collections::{HashMap, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// What a job is given when it runs.
pub struct JobContext {
    stop: Arc<AtomicBool>,
    /// Megabytes of hash table the job may use (the pool's total over its threads).
    pub hash_mb: usize,
}

impl JobContext {
    /// Whether the job should stop now (cancelled, replaced, its session gone).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop flag itself, for work that polls it (a search, the prover).
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }
}

/// A job: runs once on a worker thread.
pub type Job = Box<dyn FnOnce(&JobContext) + Send>;

/// The queue is full: how many jobs wait before a new one could.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy {
    pub ahead: usize,
}

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server is busy: {} jobs ahead, try again in a moment",
            self.ahead
        )
    }
}

/// The counts behind the metrics and the tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JobCounts {
    pub threads: usize,
    pub running: usize,
    pub waiting: usize,
    /// Jobs that started running, that ended, that were cancelled (waiting or
    /// running), that were refused (queue full).
    pub started: u64,
    pub finished: u64,
    pub cancelled: u64,
    pub refused: u64,
    /// The most jobs that ever ran at once.
    pub peak_running: usize,
}

const WAITING: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;

struct Waiting {
    id: u64,
    stop: Arc<AtomicBool>,
    state: Arc<AtomicU8>,
    job: Job,
}

#[derive(Default)]
struct Queue {
    /// Owners with jobs waiting, in the order they are served.
    turn: VecDeque<String>,
    waiting: HashMap<String, VecDeque<Waiting>>,
    counts: JobCounts,
    next_id: u64,
    stopped: bool,
    /// The stop flags of the jobs running, to stop them with the pool.
    running: HashMap<u64, Arc<AtomicBool>>,
}

impl Queue {
    fn waiting_len(&self) -> usize {
        self.waiting.values().map(VecDeque::len).sum()
    }

    /// The next job in turn: the first owner's oldest, and that owner goes last.
    fn next(&mut self) -> Option<Waiting> {
        let owner = self.turn.pop_front()?;
        let jobs = self.waiting.get_mut(&owner)?;
        let job = jobs.pop_front();
        if jobs.is_empty() {
            self.waiting.remove(&owner);
        } else {
            self.turn.push_back(owner);
        }
        job
    }

    /// Jobs that run before job `id` of `owner`, in turn order: each owner served
    /// before it in the round it is in, and every owner's jobs of the earlier rounds.
    fn ahead(&self, owner: &str, id: u64) -> Option<usize> {
        let round = self.waiting.get(owner)?.iter().position(|w| w.id == id)?;
        let at = self.turn.iter().position(|o| o == owner)?;
        let mut ahead = round;
        for (index, other) in self.turn.iter().enumerate() {
            if index == at {
                continue;
            }
            let len = self.waiting.get(other).map_or(0, VecDeque::len);
            ahead += len.min(if index < at { round + 1 } else { round });
        }
        Some(ahead)
    }

    /// Takes job `id` of `owner` out of the queue; whether it was waiting there.
    fn remove(&mut self, owner: &str, id: u64) -> bool {
        let Some(jobs) = self.waiting.get_mut(owner) else {
            return false;
        };
        let Some(index) = jobs.iter().position(|w| w.id == id) else {
            return false;
        };
        jobs.remove(index);
        if jobs.is_empty() {
            self.waiting.remove(owner);
            self.turn.retain(|o| o != owner);
        }
        true
    }
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    threads: usize,
    hash_mb: usize,
    bound: usize,
    per_owner: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The pool; cloned handles share it.
#[derive(Clone)]
pub struct Jobs {
    shared: Arc<Shared>,
}

/// A job handed to the pool. Dropping it cancels the job (a session that ends takes
/// its work with it).
pub struct Ticket {
    shared: Arc<Shared>,
    owner: String,
    id: u64,
    stop: Arc<AtomicBool>,
    state: Arc<AtomicU8>,
}

impl Ticket {
    /// Cancels the job: taken out of the queue if it waits (then `true`: it will
    /// never run), told to stop if it runs.
    pub fn cancel(&self) -> bool {
        let again = self.stop.swap(true, Ordering::Relaxed);
        let mut queue = self.shared.lock();
        let removed = queue.remove(&self.owner, self.id);
        if !again && (removed || self.state.load(Ordering::Acquire) == RUNNING) {
            queue.counts.cancelled += 1;
            queue.counts.waiting = queue.waiting_len();
        }
        if removed {
            self.state.store(DONE, Ordering::Release);
        }
        removed
    }

    /// Jobs that run before this one while it waits; `None` once it runs or ended.
    pub fn ahead(&self) -> Option<usize> {
        if self.state.load(Ordering::Acquire) != WAITING {
            return None;
        }
        self.shared.lock().ahead(&self.owner, self.id)
    }

    /// Whether the job ended (ran to its end, or was cancelled before it ran).
    pub fn finished(&self) -> bool {
        self.state.load(Ordering::Acquire) == DONE
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if !self.finished() {
            self.cancel();
        }
    }
}

impl Jobs {
    /// A pool of `threads` workers (at least one), each job with `hash_total_mb /
    /// threads` MB, at most `bound` jobs waiting and at most half of them one owner's.
    /// Fails when no worker thread can be started.
    pub fn new(threads: usize, hash_total_mb: usize, bound: usize) -> std::io::Result<Jobs> {
        let threads = threads.max(1);
        let bound = bound.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                counts: JobCounts {
                    threads,
                    ..JobCounts::default()
                },
                ..Queue::default()
            }),
            ready: Condvar::new(),
            threads,
            hash_mb: (hash_total_mb / threads).max(1),
            bound,
            per_owner: bound.div_ceil(2),
        });
        for index in 0..threads {
            let worker = Arc::clone(&shared);
            let started = std::thread::Builder::new()
                .name(format!("job {index}"))
                .spawn(move || work(&worker));
            // Fewer workers only make the queue slower; none would never run a job.
            if let Err(error) = started
                && index == 0
            {
                return Err(error);
            }
        }
        Ok(Jobs { shared })
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.shared.threads
    }

    /// Each job's share of the hash, in MB.
    pub fn hash_mb(&self) -> usize {
        self.shared.hash_mb
    }

    /// Queues `job` for `owner` (a key, or a guest's address); refused at once when
    /// the queue, or the owner's share of it, is full.
    pub fn submit(
        &self,
        owner: &str,
        job: impl FnOnce(&JobContext) + Send + 'static,
    ) -> Result<Ticket, Busy> {
        let mut queue = self.shared.lock();
        let waiting = queue.waiting_len();
        let mine = queue.waiting.get(owner).map_or(0, VecDeque::len);
        if queue.stopped || waiting >= self.shared.bound || mine >= self.shared.per_owner {
            queue.counts.refused += 1;
            return Err(Busy { ahead: waiting });
        }
        queue.next_id += 1;
        let id = queue.next_id;
        let stop = Arc::new(AtomicBool::new(false));
        let state = Arc::new(AtomicU8::new(WAITING));
        queue
            .waiting
            .entry(owner.to_owned())
            .or_default()
            .push_back(Waiting {
                id,
                stop: Arc::clone(&stop),
                state: Arc::clone(&state),
                job: Box::new(job),
            });
        if !queue.turn.iter().any(|o| o == owner) {
            queue.turn.push_back(owner.to_owned());
        }
        queue.counts.waiting = waiting + 1;
        drop(queue);
        self.shared.ready.notify_one();
        Ok(Ticket {
            shared: Arc::clone(&self.shared),
            owner: owner.to_owned(),
            id,
            stop,
            state,
        })
    }

    pub fn counts(&self) -> JobCounts {
        self.shared.lock().counts
    }

    /// Stops the pool: waiting jobs are dropped, running ones told to stop, and the
    /// workers end once their job returns.
    pub fn stop(&self) {
        let mut queue = self.shared.lock();
        queue.stopped = true;
        for (_, jobs) in queue.waiting.drain() {
            for job in jobs {
                job.stop.store(true, Ordering::Relaxed);
                job.state.store(DONE, Ordering::Release);
            }
        }
        queue.turn.clear();
        queue.counts.waiting = 0;
        for stop in queue.running.values() {
            stop.store(true, Ordering::Relaxed);
        }
        drop(queue);
        self.shared.ready.notify_all();
    }
}

/// A worker: the next job in turn, until the pool stops.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut queue = shared.lock();
            let job = loop {
                if queue.stopped {
                    return;
                }
                if let Some(job) = queue.next() {
                    break job;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|p| p.into_inner());
            };
            // Running from the moment it leaves the queue: a cancel in between sees it.
            job.state.store(RUNNING, Ordering::Release);
            queue.running.insert(job.id, Arc::clone(&job.stop));
            let waiting = queue.waiting_len();
            let counts = &mut queue.counts;
            counts.started += 1;
            counts.running += 1;
            counts.peak_running = counts.peak_running.max(counts.running);
            counts.waiting = waiting;
            job
        };
        let context = JobContext {
            stop: Arc::clone(&job.stop),
            hash_mb: shared.hash_mb,
        };
        let run = job.job;
        // A job that panics ends (the panic hook said so); the worker goes on.
        let _ = catch_unwind(AssertUnwindSafe(|| run(&context)));
        let mut queue = shared.lock();
        queue.running.remove(&job.id);
        queue.counts.running -= 1;
        queue.counts.finished += 1;
        job.state.store(DONE, Ordering::Release);
    }
}

#[cfg(test)]
#[path = "jobs_tests.rs"]
mod tests;
