//! The engine: an alpha-beta searcher for xiangqi positions (`Engine`), its limits and
//! results. The textbook backends run on positions too (`backends`, through the `Game`
//! seam in `position_game`), chosen by name with [`Engine::algorithm`]. Clients run it
//! through the engine service (`crate::service`).

pub mod backends;
pub mod book_gen;
mod iterate;
pub mod limits;
pub mod mate_oracle;
pub mod mate_prover;
pub mod move_paths;
pub mod multipv;
pub mod ordering;
pub mod position_game;
pub mod probe;
mod pv_trace;
mod quiescence;
pub mod repetition;
pub mod score;
mod search;
pub mod see;
pub mod self_play;
pub mod skill;
pub mod smp;
mod table_memory;
mod tablebase;
pub mod tt;

pub use backends::{BackendSettings, PositionSearcher, search_position, search_position_with};
pub use limits::{Clock, Limits};
pub use move_paths::PositionNames;
pub use multipv::{MAX_MULTIPV, PvLine};
pub use position_game::PositionGame;
pub use score::{Pawns, Shown, Verdict};
pub use search::{SearchInfo, SearchOptions, SearchResult};
pub use skill::Skill;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::egtb::Tablebases;
use crate::search::{Algorithm, Details, NoTrace, Tracer};
use ordering::History;
use tt::TranspositionTable;
use xiangqi_core::board::{Move, Position};

/// A searcher with its memory (transposition table and move-ordering history), which
/// persists from one search to the next until `new_game`.
pub struct Engine {
    tt: TranspositionTable,
    /// One move-ordering history per search thread; the first is the main thread's.
    histories: Vec<History>,
    pub options: SearchOptions,
    /// The backend that searches: `alphabeta` is this engine's own strong search; the
    /// others run the textbook backends on the position ([`backends`]).
    pub algorithm: Algorithm,
    /// Made on first use, so engines that never leave alpha-beta do not pay for it.
    backends: Option<Box<PositionSearcher>>,
    /// Endgame tablebases probed at the root and in the search; none by default, and
    /// without them the search is exactly what it was.
    tablebases: Option<Arc<Tablebases>>,
    /// How many best root moves the strong search reports (1..=[`MAX_MULTIPV`]).
    pub multipv: usize,
    /// Strength level; level 20 (the default) searches at full strength.
    pub skill: Skill,
}

impl Engine {
    pub const DEFAULT_HASH_MB: usize = 64;

    /// An engine with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            histories: vec![History::default()],
            options: SearchOptions::default(),
            algorithm: Algorithm::AlphaBeta,
            backends: None,
            tablebases: None,
            multipv: 1,
            skill: Skill::default(),
        }
    }

    /// Uses these tablebases from the next search on (`None`: none). An empty set is
    /// dropped, so it costs nothing.
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases.filter(|tb| !tb.is_empty());
    }

    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Resizes (and clears) the transposition table. The textbook backends get as much:
    /// MT-SSS* and MTD(f) for their table, SSS* and B* for their stored trees.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
        if let Some(backends) = &mut self.backends {
            backends.set_memory_mb(self.tt.size_mb());
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Searches with `threads` threads (clamped to `1..=smp::MAX_THREADS`) from the next
    /// search on. One thread (the default) gives the same result for the same limits;
    /// more share the table (Lazy SMP) and search faster, not reproducibly.
    pub fn set_threads(&mut self, threads: usize) {
        self.histories
            .resize_with(threads.clamp(1, smp::MAX_THREADS), History::default);
    }

    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Forgets everything learnt: table and history. Searches after this are the same
    /// as on a fresh engine.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.histories.iter_mut().for_each(History::clear);
    }

    /// Searches `pos` within `limits` with [`Engine::algorithm`], calling `report` after
    /// each completed iteration. Setting `stop` ends the search at once with the best
    /// move found so far. For a fixed depth or node limit, the same engine state gives
    /// the same result.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_traced(pos, limits, stop, report, &mut NoTrace, None)
    }

    /// The same, sending the textbook backends' trace events to `tracer` (see
    /// [`PositionSearcher::search`] for `names`). The strong alpha-beta emits none: to
    /// watch alpha-beta step by step, run the textbook one with
    /// [`PositionSearcher::search`].
    pub fn search_traced<T: Tracer<Move>>(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
        tracer: &mut T,
        names: Option<&PositionNames>,
    ) -> SearchResult {
        if self.algorithm == Algorithm::AlphaBeta {
            return self.search_strong(pos, limits, stop, report);
        }
        let memory_mb = self.hash_mb();
        let backends = self.backends.get_or_insert_with(|| {
            Box::new(PositionSearcher::new(BackendSettings::with_memory_mb(
                memory_mb,
            )))
        });
        backends.search(self.algorithm, pos, limits, stop, report, tracer, names)
    }

    /// What the last textbook backend search reported beyond its result (B*'s stop
    /// reason, SSS*'s steps, the MT passes); nothing after the strong search.
    pub fn last_details(&self) -> Details {
        match (&self.backends, self.algorithm) {
            (Some(backends), algorithm) if algorithm != Algorithm::AlphaBeta => {
                backends.last_details().clone()
            }
            _ => Details::None,
        }
    }

    /// The strong alpha-beta search; a weakened level searches its best few lines
    /// within its caps and plays the one its skill picks.
    fn search_strong(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if let Some(result) = self
            .tablebases
            .as_deref()
            .and_then(|tb| tablebase::root_result(tb, pos, report))
        {
            return result;
        }
        self.tt.new_search();
        self.histories.iter_mut().for_each(History::age);
        let mut multipv = self.multipv.clamp(1, MAX_MULTIPV);
        let capped;
        let limits = if self.skill.is_full_strength() {
            limits
        } else {
            multipv = multipv.max(skill::SKILL_LINES);
            capped = self.skill.limit(limits);
            &capped
        };
        let shared = smp::Shared {
            pos,
            tt: &self.tt,
            options: self.options,
            tablebases: self.tablebases.clone(),
        };
        // A weakened level is one thread, so its node cap means what it says.
        let threads = if self.skill.is_full_strength() {
            self.histories.len()
        } else {
            1
        };
        let mut result = smp::search(
            &shared,
            &mut self.histories[..threads],
            multipv,
            limits,
            stop,
            report,
        );
        if !self.skill.is_full_strength() && result.lines.len() > 1 {
            let chosen = &result.lines[self.skill.pick(&result.lines)];
            result.best_move = chosen.first_move();
            result.score = chosen.score;
            result.pv = chosen.pv.clone();
            result.ponder = result.pv.get(1).copied();
        }
        result
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Engine::DEFAULT_HASH_MB)
    }
}

#[cfg(test)]
mod tests;
