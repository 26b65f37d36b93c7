//! The engine: an alpha-beta searcher for xiangqi positions (`Engine`), its limits and
//! results, a worker thread the UI drives over channels (`worker`), and the UCI/UCCI
//! front end (`uci`).

mod iterate;
pub mod limits;
pub mod ordering;
mod quiescence;
pub mod repetition;
pub mod score;
mod search;
pub mod see;
mod table_memory;
pub mod tt;
pub mod uci;
pub mod worker;

pub use limits::{Clock, Limits};
pub use score::Verdict;
pub use search::{SearchInfo, SearchOptions, SearchResult};

use std::sync::atomic::AtomicBool;

use crate::board::Position;
use ordering::History;
use tt::TranspositionTable;

/// A searcher with its memory (transposition table and move-ordering history), which
/// persists from one search to the next until `new_game`.
pub struct Engine {
    tt: TranspositionTable,
    history: History,
    pub options: SearchOptions,
}

impl Engine {
    pub const DEFAULT_HASH_MB: usize = 64;

    /// An engine with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            history: History::default(),
            options: SearchOptions::default(),
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forgets everything learnt: table and history. Searches after this are the same
    /// as on a fresh engine.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Searches `pos` within `limits`, calling `report` after each completed iteration.
    /// Setting `stop` ends the search at once with the best move found so far. For a
    /// fixed depth or node limit, the same engine state gives the same result.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tt.new_search();
        self.history.age();
        iterate::iterative_deepening(
            pos,
            &mut self.tt,
            &mut self.history,
            self.options,
            limits,
            stop,
            report,
        )
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Engine::DEFAULT_HASH_MB)
    }
}

#[cfg(test)]
mod tests;
