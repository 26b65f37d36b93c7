//! Evaluating every position of a game through the engine service: `threads` workers,
//! each an [`EngineLink`] with its own searcher and table, each searching one position at
//! a time with one search thread. Independent searches of different positions scale with
//! the cores where SMP threads on one position scale far less, and a worker's searches
//! are deterministic at a fixed depth: worker `w` takes the `w`-th run of consecutive
//! positions, in order, so its table carries over from each position to the next and a
//! review at `--depth` gives the same scores on every run (for the same `threads`).

use std::collections::VecDeque;
use std::sync::{Arc, mpsc};

use thiserror::Error;

use crate::egtb::Tablebases;
use crate::engine::{Limits, SearchInfo, Verdict};
use crate::service::{EngineEvent, EngineLink, EngineSearcher, SearchId, SearchRequest, Searcher};
use xiangqi_core::board::{Move, Position};

/// Search depth per position when none is chosen: about 50 ms a position on one core,
/// the depth the winning-chance curve was fitted at (docs/review.md).
pub const DEFAULT_DEPTH: u32 = 10;

/// How each position is searched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewLimits {
    /// Per position (depth or time; a time limit is not deterministic).
    pub limits: Limits,
    /// Positions searched at once, one worker each (at least 1).
    pub threads: usize,
    /// Table size of each worker.
    pub hash_mb: u32,
}

/// The engine's view of one position: its score and the line it expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// From the side to move's view; `Mate(0)` when it has no legal move (it has lost).
    pub verdict: Verdict,
    /// The principal variation, best move first; empty without a legal move.
    pub line: Vec<Move>,
}

impl Evaluation {
    pub fn best_move(&self) -> Option<Move> {
        self.line.first().copied()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReviewError {
    #[error("the engine could not be started: {0}")]
    Spawn(String),
    #[error("the search of the position after ply {ply} failed: {message}")]
    Search { ply: usize, message: String },
    #[error("the search of the position after ply {0} finished no iteration")]
    NoIteration(usize),
    #[error("the engine stopped answering")]
    EngineGone,
    #[error("the review was cancelled")]
    Cancelled,
}

/// Searchers of the built-in engine, each with its own table of `hash_mb` and the
/// endgame tables given: what a review's workers search with.
pub fn builtin_searchers(
    hash_mb: u32,
    tablebases: Option<Arc<Tablebases>>,
) -> impl Fn() -> Box<dyn Searcher> + Send {
    move || {
        let mut searcher = EngineSearcher::new(hash_mb);
        searcher.set_tablebases(tablebases.clone());
        Box::new(searcher)
    }
}

/// Evaluates each of `positions` (a position without a legal move is lost, not
/// searched) with searchers made by `searcher`. `progress(done, total)` is called after
/// each position; returning false cancels the review.
pub fn evaluate_positions(
    positions: &[Position],
    limits: &ReviewLimits,
    searcher: &dyn Fn() -> Box<dyn Searcher>,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Vec<Evaluation>, ReviewError> {
    let total = positions.len();
    let mut results: Vec<Option<Evaluation>> = vec![None; total];
    let mut todo = Vec::new();
    for (index, pos) in positions.iter().enumerate() {
        if pos.has_legal_move() {
            todo.push(index);
        } else {
            results[index] = Some(Evaluation {
                verdict: Verdict::Mate(0),
                line: Vec::new(),
            });
        }
    }
    let mut done = total - todo.len();
    if done > 0 && !progress(done, total) {
        return Err(ReviewError::Cancelled);
    }
    let workers = limits.threads.max(1).min(todo.len().max(1));
    let (events, inbox) = mpsc::channel::<EngineEvent>();
    let mut links = Vec::with_capacity(workers);
    let mut queues: Vec<VecDeque<usize>> = Vec::with_capacity(workers);
    for w in 0..workers {
        let events = events.clone();
        let sink = Box::new(move |event| events.send(event).is_ok());
        let link =
            EngineLink::spawn(searcher(), sink).map_err(|e| ReviewError::Spawn(e.to_string()))?;
        links.push(link);
        // Runs of consecutive positions, as even as they split.
        let (from, to) = (w * todo.len() / workers, (w + 1) * todo.len() / workers);
        queues.push(todo[from..to].iter().copied().collect());
    }
    drop(events);
    let request = |index: usize| {
        let mut request =
            SearchRequest::new(index as SearchId, positions[index].clone(), &limits.limits);
        request.hash_mb = limits.hash_mb;
        request
    };
    // The worker searching each position, and the last iteration each reported.
    let mut owner = vec![usize::MAX; total];
    let mut last: Vec<Option<SearchInfo>> = vec![None; total];
    for (w, queue) in queues.iter_mut().enumerate() {
        if let Some(index) = queue.pop_front() {
            owner[index] = w;
            links[w].start(request(index));
        }
    }
    while done < total {
        let event = inbox.recv().map_err(|_| ReviewError::EngineGone)?;
        let index = event.id() as usize;
        match event {
            EngineEvent::Iteration { info, .. } => last[index] = Some(info),
            EngineEvent::Failed { message, .. } => {
                return Err(ReviewError::Search {
                    ply: index,
                    message,
                });
            }
            EngineEvent::BestMove { mv, .. } => {
                let info = last[index].take().ok_or(ReviewError::NoIteration(index))?;
                let mut line = info.pv.clone();
                if line.first().copied() != mv {
                    line = mv.into_iter().collect();
                }
                results[index] = Some(Evaluation {
                    verdict: info.verdict(),
                    line,
                });
                done += 1;
                if !progress(done, total) {
                    return Err(ReviewError::Cancelled);
                }
                let w = owner[index];
                if let Some(next) = queues[w].pop_front() {
                    owner[next] = w;
                    links[w].start(request(next));
                }
            }
            _ => {}
        }
    }
    Ok(results.into_iter().flatten().collect())
}
