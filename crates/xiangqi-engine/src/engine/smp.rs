//! Lazy SMP: with more than one thread, helper threads search the same root at the same
//! time, sharing only the transposition table. What one thread learns (moves, bounds,
//! mates) steers the others through the table, so the reporting thread reaches each
//! depth sooner. Helpers skip some depths (Stockfish 9's pattern) so that the threads
//! spread over neighbouring depths instead of repeating one another. Only the main
//! thread reports and chooses the move; the helpers stop when it is done.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::iterate::{self, MAX_DEPTH};
use super::limits::Limits;
use super::ordering::History;
use super::search::{SearchInfo, SearchOptions, SearchResult, Searcher};
use super::tt::TranspositionTable;
use crate::egtb::Tablebases;
use xiangqi_core::board::Position;

/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;

/// For helper thread `i` (from 1), `SKIP_SIZE[(i-1) % 20]` depths are searched, then as
/// many skipped, starting at `SKIP_PHASE[(i-1) % 20]`.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True if helper thread `helper` (from 1) leaves out `depth`.
fn skips(helper: usize, depth: u32) -> bool {
    let i = (helper - 1) % SKIP_SIZE.len();
    !((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]).is_multiple_of(2)
}

/// What every thread of one search shares.
pub(crate) struct Shared<'a> {
    pub pos: &'a Position,
    pub tt: &'a TranspositionTable,
    pub options: SearchOptions,
    pub tablebases: Option<Arc<Tablebases>>,
}

/// Searches with one thread per history in `histories` (the first is the main thread's,
/// which reports and answers). With one history this is the plain single-thread search.
pub(crate) fn search(
    shared: &Shared,
    histories: &mut [History],
    multipv: usize,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let Some((main_history, helper_histories)) = histories.split_first_mut() else {
        return search(
            shared,
            &mut [History::default()],
            multipv,
            limits,
            stop,
            report,
        );
    };
    let mut main = Searcher::new(
        shared.pos,
        shared.tt,
        main_history,
        shared.options,
        limits,
        stop,
    );
    main.tablebases = shared.tablebases.clone();
    if helper_histories.is_empty() {
        return iterate::iterative_deepening(&mut main, multipv, limits, report);
    }

    let total_nodes = AtomicU64::new(0);
    let helpers_stop = AtomicBool::new(false);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    // Helpers keep to the node limit themselves (it bounds the threads' total); the main
    // thread ends them for every other reason.
    let helper_limits = Limits {
        nodes: limits.nodes,
        ..Limits::default()
    };
    main.share_node_count(&total_nodes);
    let mut result = std::thread::scope(|scope| {
        for (index, history) in helper_histories.iter_mut().enumerate() {
            let (total_nodes, helpers_stop, helper_limits) =
                (&total_nodes, &helpers_stop, &helper_limits);
            scope.spawn(move || {
                let mut helper = Searcher::new(
                    shared.pos,
                    shared.tt,
                    history,
                    shared.options,
                    helper_limits,
                    helpers_stop,
                );
                helper.tablebases = shared.tablebases.clone();
                helper.share_node_count(total_nodes);
                helper_deepening(&mut helper, index + 1, max_depth);
            });
        }
        let result = iterate::iterative_deepening(&mut main, multipv, limits, report);
        helpers_stop.store(true, Ordering::Relaxed);
        main.flush_nodes();
        result
    });
    // Every thread has added its last nodes once the scope has joined them.
    result.nodes = total_nodes.load(Ordering::Relaxed);
    result
}

/// A helper's iterative deepening: full-window-first aspiration searches at its depths,
/// results left in the table only.
fn helper_deepening(searcher: &mut Searcher, helper: usize, max_depth: u32) {
    let options = searcher.options;
    let mut previous = None;
    for depth in (1..=max_depth).filter(|&depth| !skips(helper, depth)) {
        searcher.seldepth = 0;
        let score = iterate::aspiration_search(searcher, depth, previous, options);
        searcher.take_root_best();
        if searcher.stopped {
            break;
        }
        previous = Some(score);
    }
    searcher.flush_nodes();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_helpers_split_the_depths_between_them() {
        let searched = |helper| (1..=8).filter(|&d| !skips(helper, d)).collect::<Vec<_>>();
        assert_eq!(searched(1), [2, 4, 6, 8]);
        assert_eq!(searched(2), [1, 3, 5, 7]);
        assert_eq!(searched(3), [1, 4, 5, 8]);
        assert_eq!(searched(4), [3, 4, 7, 8]);
    }
}
