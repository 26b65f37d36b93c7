//! One bounded pool of engine services for every engine room: at most `threads`
//! searches run at once (each on its service's own thread, never on the async workers
//! that serve the sessions), each engine with `hash_total / threads` MB, so the hash is
//! bounded in total. A busy pool queues searches in arrival order (a room asks for one
//! search at a time, so the queue is fair between rooms and no longer than the number
//! of engine rooms), and tells each waiting search its place.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc, watch};

use xiangqi_app::game::SearchView;
use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::{Limits, SearchInfo};
use xiangqi_engine::service::{
    EngineEvent, EngineLink, EngineSearcher, EventSink, SearchId, SearchRequest,
};

/// An idle engine service and where its reports arrive.
struct Pooled {
    link: EngineLink,
    events: mpsc::UnboundedReceiver<EngineEvent>,
}

pub struct EnginePool {
    /// Tokio's semaphore serves waiters first come, first served.
    permits: Semaphore,
    /// The searches waiting for a permit, in arrival order, and a signal when it moves.
    waiting: Mutex<VecDeque<SearchId>>,
    queue_moved: watch::Sender<u64>,
    idle: Mutex<Vec<Pooled>>,
    limits: Limits,
    next_id: AtomicU64,
    pub threads: usize,
    pub hash_mb_each: usize,
}

impl EnginePool {
    /// `threads` is clamped to 1..=cores; `limits` is what each search may use.
    pub fn new(threads: usize, hash_total_mb: usize, limits: Limits) -> Arc<EnginePool> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = threads.clamp(1, cores);
        let hash_mb_each = (hash_total_mb / threads).max(1);
        Arc::new(EnginePool {
            permits: Semaphore::new(threads),
            waiting: Mutex::default(),
            queue_moved: watch::Sender::new(0),
            idle: Mutex::new(Vec::new()),
            limits,
            next_id: AtomicU64::new(1),
            threads,
            hash_mb_each,
        })
    }

    /// The request for a room's search of `position`: the strong engine at full
    /// strength within the pool's limits, reporting one summary per iteration.
    pub fn request(&self, position: Position) -> SearchRequest {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        SearchRequest {
            hash_mb: self.hash_mb_each as u32,
            ..SearchRequest::new(id, position, &self.limits)
        }
    }

    fn spawn(&self) -> Option<Pooled> {
        let (sender, events) = mpsc::unbounded_channel();
        let sink: EventSink = Box::new(move |event| sender.send(event).is_ok());
        let searcher = EngineSearcher::new(self.hash_mb_each as u32);
        let link = EngineLink::spawn(Box::new(searcher), sink).ok()?;
        Some(Pooled { link, events })
    }

    /// Searches waiting for an engine now.
    pub fn queue_len(&self) -> usize {
        self.queue().len()
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<SearchId>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a free engine, telling `on_wait` the search's place in the queue (1:
    /// next) each time it moves, and 0 when its turn came after a wait.
    async fn wait_turn(
        &self,
        id: SearchId,
        on_wait: &mut impl FnMut(usize),
    ) -> Option<tokio::sync::SemaphorePermit<'_>> {
        if let Ok(permit) = self.permits.try_acquire() {
            return Some(permit);
        }
        self.queue().push_back(id);
        self.queue_moved.send_modify(|moves| *moves += 1);
        let mut moved = self.queue_moved.subscribe();
        let acquire = self.permits.acquire();
        tokio::pin!(acquire);
        let permit = loop {
            let place = self.queue().iter().position(|&waiting| waiting == id);
            on_wait(place.map_or(1, |index| index + 1));
            tokio::select! {
                permit = &mut acquire => break permit.ok(),
                _ = moved.changed() => {}
            }
        };
        self.queue().retain(|&waiting| waiting != id);
        self.queue_moved.send_modify(|moves| *moves += 1);
        // Place 0: out of the queue, searching.
        on_wait(0);
        permit
    }

    /// Runs `request` on an idle engine (waiting for one: `on_wait` is told the place in
    /// the queue), as a new game, passing each finished iteration to `on_iteration`; the
    /// engine's move (`None` when it has none) with what its last iteration found (a draw
    /// offer is answered by it).
    pub async fn best_move(
        self: &Arc<Self>,
        request: SearchRequest,
        mut on_wait: impl FnMut(usize),
        mut on_iteration: impl FnMut(SearchInfo),
    ) -> Option<(Move, Option<SearchView>)> {
        let _permit = self.wait_turn(request.id, &mut on_wait).await?;
        let idle = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut engine = idle.or_else(|| self.spawn())?;
        let id: SearchId = request.id;
        engine.link.new_game();
        engine.link.start(request);
        let mut best = None;
        let mut last = None;
        while let Some(event) = engine.events.recv().await {
            match event {
                EngineEvent::Iteration { id: of, info } if of == id => {
                    last = Some(SearchView::from(&info));
                    on_iteration(info);
                }
                EngineEvent::BestMove { id: of, mv, .. } if of == id => {
                    best = mv;
                    break;
                }
                _ => {}
            }
        }
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(engine);
        }
        best.map(|mv| (mv, last))
    }
}

/// The limits of a server engine search: the configured ones, and a time cap so an
/// unlimited setting cannot hold a pool thread for ever.
pub fn search_limits(depth: Option<u32>, nodes: Option<u64>, movetime_ms: Option<u64>) -> Limits {
    let movetime = movetime_ms
        .map(Duration::from_millis)
        .or((depth.is_none() && nodes.is_none()).then_some(Duration::from_secs(1)));
    Limits {
        depth,
        nodes,
        movetime,
        clock: None,
        infinite: false,
    }
}

/// A room engine's latest search as the room's viewers are shown it: the request (the
/// position, the limits) and its iterations so far.
#[derive(Debug, Clone, Default)]
pub struct WatchedSearch {
    pub request: Option<SearchRequest>,
    /// The search's place in the queue for a free engine (1: next), while it waits.
    pub queued: Option<usize>,
    pub iterations: Vec<SearchInfo>,
}
