//! Counting nodes and deciding when to stop: the node limit exactly, the clock, the stop
//! flag and a parallel search's shared count every 1024 nodes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::Searcher;

impl<'a> Searcher<'a> {
    /// Makes this searcher one thread of a parallel search counting its nodes in `shared`.
    pub(crate) fn share_node_count(&mut self, shared: &'a AtomicU64) {
        self.shared_nodes = Some(shared);
    }

    /// Counts a node and tells whether the search must stop now. Alone, the node limit is
    /// exact (so node-limited searches are deterministic); the clock, the stop flag and
    /// a parallel search's total are read every 1024 nodes.
    #[inline]
    pub(crate) fn count_node_and_check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if self.stop.load(Ordering::Relaxed) || self.flush_nodes() >= self.node_limit {
                self.stopped = true;
            } else if let Some(deadline) = self.deadline
                && Instant::now() >= deadline
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Adds this thread's new nodes to the shared count; returns the search's total.
    pub(crate) fn flush_nodes(&mut self) -> u64 {
        let Some(shared) = self.shared_nodes else {
            return self.nodes;
        };
        let fresh = self.nodes - self.flushed_nodes;
        self.flushed_nodes = self.nodes;
        shared.fetch_add(fresh, Ordering::Relaxed) + fresh
    }

    /// Nodes of the whole search: this thread's, or all threads' in a parallel search
    /// (the others' as of their last count).
    pub(crate) fn total_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + self.nodes - self.flushed_nodes,
            None => self.nodes,
        }
    }
}
