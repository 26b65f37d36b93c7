//! What a search may spend, and what it reports back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::score::{INFINITY, Interval, Score};
use crate::search::trace::{BStarStop, Limit, Strategy};

/// Bounds on one search. The default is unlimited.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Depth horizon in plies: nodes this far from the root are leaves.
    pub depth: Option<u32>,
    /// Node budget: leaf evaluations plus interior expansions (for B*, expansions).
    pub nodes: Option<u64>,
    /// SSS* and B* keep their search tree in memory: at most this many nodes.
    pub max_stored_nodes: Option<usize>,
    /// Raised by another thread to stop the search; checked before every node.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limits at all.
    pub fn none() -> Limits {
        Limits::default()
    }

    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    pub fn with_max_stored_nodes(mut self, nodes: usize) -> Limits {
        self.max_stored_nodes = Some(nodes);
        self
    }

    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    /// Whether a node at `ply` is at the depth horizon.
    pub(crate) fn at_horizon(&self, ply: u32) -> bool {
        self.depth.is_some_and(|depth| ply >= depth)
    }

    /// Whether a memory-bound search may hold `stored` nodes.
    pub(crate) fn memory_allows(&self, stored: usize) -> bool {
        self.max_stored_nodes.is_none_or(|cap| stored <= cap)
    }
}

/// Counts nodes against [`Limits::nodes`] and watches the stop flag.
#[derive(Debug)]
pub(crate) struct Budget {
    node_limit: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    used: u64,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        Budget {
            node_limit: limits.nodes,
            stop: limits.stop.clone(),
            used: 0,
        }
    }

    /// Spends one node, or says which limit forbids it.
    #[inline]
    pub(crate) fn charge(&mut self) -> Result<(), Limit> {
        self.check()?;
        self.used += 1;
        Ok(())
    }

    /// Which limit, if any, forbids spending another node.
    #[inline]
    pub(crate) fn check(&self) -> Result<(), Limit> {
        if self.node_limit.is_some_and(|limit| self.used >= limit) {
            return Err(Limit::Nodes);
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(Limit::Stopped);
        }
        Ok(())
    }
}

/// Whether the search ran to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    Finished,
    /// A limit stopped the search early; the result holds what was known then.
    LimitReached(Limit),
}

/// Work counters (§1 of the spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Static evaluations (for B*: interval estimates of generated children).
    pub leaves: u64,
    /// Interior nodes expanded (SSS*: Γ5 and Γ6 applications; B*: expansions).
    pub interior: u64,
}

impl SearchStats {
    pub fn nodes(&self) -> u64 {
        self.leaves + self.interior
    }
}

/// What only some backends report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Details {
    None,
    Sss {
        /// Descriptors popped, including the final pop of the solved root.
        steps: u64,
        /// Largest OPEN size, measured after initialisation and after every step.
        max_open: usize,
    },
    Mt {
        /// Null-window passes, including the one that confirms the value.
        passes: u32,
    },
    BStar {
        stop: BStarStop,
        /// Expansions, counting the root's.
        expansions: u64,
        /// The root strategy of each iteration.
        strategies: Vec<Strategy>,
    },
}

/// The answer of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The root's value from the root mover's point of view: a point when it is
    /// proven, otherwise the bounds that are known (B*, or a stopped search).
    pub value: Interval,
    /// The left-most best root move (B*: its chosen move); `None` when unknown.
    pub best_move: Option<M>,
    pub completion: Completion,
    pub stats: SearchStats,
    pub details: Details,
}

impl<M> SearchResult<M> {
    /// The answer of a depth-first search (minimax, alpha-beta): the proven value and
    /// best move when it finished; when a limit stopped it, the best finished root child
    /// as a lower bound and its move, if any child finished.
    pub fn depth_first(
        value: Score,
        best_move: Option<M>,
        stopped: Option<Limit>,
        best_finished: Option<(Score, M)>,
        stats: SearchStats,
    ) -> Self {
        let (value, best_move, completion) = match (stopped, best_finished) {
            (None, _) => (Interval::point(value), best_move, Completion::Finished),
            (Some(limit), Some((value, mv))) => (
                Interval::new(value, INFINITY),
                Some(mv),
                Completion::LimitReached(limit),
            ),
            (Some(limit), None) => (Interval::UNKNOWN, None, Completion::LimitReached(limit)),
        };
        SearchResult {
            value,
            best_move,
            completion,
            stats,
            details: Details::None,
        }
    }

    /// The exact value, when the search proved one.
    pub fn exact_value(&self) -> Option<Score> {
        self.value.exact()
    }

    pub fn limit_reached(&self) -> Option<Limit> {
        match self.completion {
            Completion::Finished => None,
            Completion::LimitReached(limit) => Some(limit),
        }
    }
}
