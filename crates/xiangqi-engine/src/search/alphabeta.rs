//! Alpha-beta (§4): full-window, fail-soft by default, fail-hard on request
//! (the textbook form the `.ab-trace` files record).

use crate::search::Search;
use crate::search::depth_first::{Bounding, DepthFirst};
use crate::search::game::Game;
use crate::search::limits::{Limits, SearchResult};
use crate::search::score::INFINITY;
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
        SearchResult::depth_first(
            value,
            core.root_best,
            core.stopped,
            core.root_progress,
            core.stats,
        )
    }
}
