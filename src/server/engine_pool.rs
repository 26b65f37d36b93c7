//! One bounded pool of engines for every engine room: at most `threads` searches run at
//! once (each on a blocking thread, never on the async workers that serve the
//! sessions), each engine with `hash_total / threads` MB, so the hash is bounded in
//! total. A busy pool queues searches in arrival order.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::board::{Move, Position};
use crate::engine::{Engine, Limits, Verdict};
use crate::game::SearchView;

pub struct EnginePool {
    permits: Semaphore,
    engines: Mutex<Vec<Engine>>,
    limits: Limits,
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
            engines: Mutex::new(Vec::new()),
            limits,
            threads,
            hash_mb_each,
        })
    }

    /// The engine's move in `position` (`None` when it has none), with what its search
    /// found (a draw offer is answered by it).
    pub async fn best_move(self: &Arc<Self>, position: Position) -> Option<(Move, SearchView)> {
        let _permit = self.permits.acquire().await.ok()?;
        let pool = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let engine = pool
                .engines
                .lock()
                .ok()
                .and_then(|mut engines| engines.pop());
            let mut engine = engine.unwrap_or_else(|| Engine::new(pool.hash_mb_each));
            engine.new_game();
            let stop = AtomicBool::new(false);
            let result = engine.search(&position, &pool.limits, &stop, &mut |_| {});
            if let Ok(mut engines) = pool.engines.lock() {
                engines.push(engine);
            }
            let view = SearchView {
                depth: result.depth,
                centipawns: match result.verdict() {
                    Verdict::Centipawns(cp) => Some(cp),
                    Verdict::Mate(_) => None,
                },
            };
            result.best_move.map(|mv| (mv, view))
        })
        .await
        .ok()
        .flatten()
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
