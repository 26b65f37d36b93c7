//! Alpha-beta (§4): full-window, fail-soft by default, fail-hard on request
//! (the textbook form the `.ab-trace` files record).

use crate::search::Search;
use crate::search::depth_first::{Bounding, DepthFirst};
use crate::search::game::Game;
use crate::search::limits::{Completion, Details, Limits, SearchResult};
use crate::search::score::{INFINITY, Interval};
use crate::search::trace::Tracer;

/// Depth-first alpha-beta with the window `(-inf, +inf)` at the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaBeta {
    pub bounding: Bounding,
}

impl AlphaBeta {
    pub fn new(bounding: Bounding) -> AlphaBeta {
        AlphaBeta { bounding }
    }
}

impl<G: Game> Search<G> for AlphaBeta {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        let mut core = DepthFirst::new(game, tracer, limits, self.bounding, None);
        let value = core.search(0, -INFINITY, INFINITY);
        let (value, best_move, completion) = match core.stopped {
            None => (Interval::point(value), core.root_best, Completion::Finished),
            // The finished root children give a lower bound and a move.
            Some(limit) => match core.root_progress {
                Some((value, mv)) => (
                    Interval::new(value, INFINITY),
                    Some(mv),
                    Completion::LimitReached(limit),
                ),
                None => (Interval::UNKNOWN, None, Completion::LimitReached(limit)),
            },
        };
        SearchResult {
            value,
            best_move,
            completion,
            stats: core.stats,
            details: Details::None,
        }
    }
}
