//! The engine rooms' searches as jobs of the server's one pool (`xiangqi_app::jobs`,
//! beside the reviews, the prover and the school): at most `engine_threads` jobs run at
//! once (on the pool's threads, never on the async workers that serve the sessions),
//! each search with the pool's share of `engine_hash_mb`, so the hash is bounded in
//! total. A room's search belongs to whoever opened the room (a key, or a guest's
//! address): the pool serves those in turn, and tells each waiting search its place.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::mpsc;

use xiangqi_app::game::SearchView;
use xiangqi_app::jobs::{Busy, Jobs};
use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::{Limits, SearchInfo};
use xiangqi_engine::service::{
    EngineEvent, EngineSearcher, EventSink, SearchId, SearchRequest, search_now,
};

/// How often a waiting search looks at its place in the queue.
const PLACE_EVERY: Duration = Duration::from_millis(250);

pub struct EnginePool {
    jobs: Jobs,
    limits: Limits,
    next_id: AtomicU64,
}

impl EnginePool {
    /// Searches on `jobs`, each within `limits`.
    pub fn new(jobs: Jobs, limits: Limits) -> Arc<EnginePool> {
        Arc::new(EnginePool {
            jobs,
            limits,
            next_id: AtomicU64::new(1),
        })
    }

    /// The request for a room's search of `position`: the strong engine at full
    /// strength within the pool's limits, reporting one summary per iteration.
    pub fn request(&self, position: Position) -> SearchRequest {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        SearchRequest {
            hash_mb: u32::try_from(self.jobs.hash_mb()).unwrap_or(u32::MAX),
            ..SearchRequest::new(id, position, &self.limits)
        }
    }

    /// Runs `request` as a job of `owner`'s, as a new game (a fresh table), telling
    /// `on_wait` its place in the queue (1: next) each time it moves and 0 when its
    /// turn came after a wait, passing each finished iteration to `on_iteration`; the
    /// engine's move (`None` when it has none, or the job was cancelled) with what its
    /// last iteration found (a draw offer is answered by it). A full queue refuses it
    /// at once. Dropping the future cancels the search.
    pub async fn best_move(
        self: &Arc<Self>,
        owner: &str,
        request: SearchRequest,
        mut on_wait: impl FnMut(usize),
        mut on_iteration: impl FnMut(SearchInfo),
    ) -> Result<Option<(Move, Option<SearchView>)>, Busy> {
        let id: SearchId = request.id;
        let (sender, mut events) = mpsc::unbounded_channel();
        let ticket = self.jobs.submit(owner, move |job| {
            let sink: EventSink = Box::new(move |event| sender.send(event).is_ok());
            let mut searcher = EngineSearcher::new(u32::try_from(job.hash_mb).unwrap_or(u32::MAX));
            search_now(&mut searcher, request, job.stop_flag(), &sink);
        })?;
        let mut told = None;
        let mut best = None;
        let mut last = None;
        loop {
            let ahead = ticket.ahead();
            if ahead != told {
                on_wait(ahead.map_or(0, |ahead| ahead + 1));
                told = ahead;
            }
            tokio::select! {
                event = events.recv() => match event {
                    Some(EngineEvent::Iteration { id: of, info }) if of == id => {
                        last = Some(SearchView::from(&info));
                        on_iteration(info);
                    }
                    Some(EngineEvent::BestMove { id: of, mv, .. }) if of == id => {
                        best = mv;
                        break;
                    }
                    Some(_) => {}
                    // The job ended without a move (cancelled before it ran).
                    None => break,
                },
                () = tokio::time::sleep(PLACE_EVERY), if told.is_some() => {}
            }
        }
        Ok(best.map(|mv| (mv, last)))
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
