//! The engine of this build (`crate::engine`) as the service's `Searcher`. The strong
//! alpha-beta plays when only a summary is asked for; the textbook backends on positions
//! run otherwise (trace events, step mode), their trace events written as lines with
//! nodes named by their moves and sent through the step gate.

use std::cell::RefCell;
use std::sync::Arc;

use crate::egtb::Tablebases;
use crate::engine::{BackendSettings, Engine, PositionNames, PositionSearcher, SearchInfo, Skill};
use crate::search::{TraceEvent, TraceText};
use xiangqi_core::board::Move;

use super::reporter::{Reporter, Searcher};
use super::request::{SearchRequest, TraceLevel};

/// Depth of a stepping search when none is set.
pub const STEP_DEPTH: u32 = 4;

/// The engine and the textbook backends, each keeping its memory between searches.
pub struct EngineSearcher {
    engine: Engine,
    textbook: PositionSearcher,
    hash_mb: u32,
    /// Seed of a weakened level's picks: fixed (a session replays the same way), or
    /// `None` to take one from the clock (each game plays differently).
    skill_seed: Option<u64>,
}

impl Default for EngineSearcher {
    fn default() -> Self {
        EngineSearcher::new(Engine::DEFAULT_HASH_MB as u32)
    }
}

impl EngineSearcher {
    /// A searcher whose tables take `hash_mb` megabytes until a request asks otherwise.
    pub fn new(hash_mb: u32) -> EngineSearcher {
        let mb = hash_mb as usize;
        EngineSearcher {
            engine: Engine::new(mb),
            textbook: PositionSearcher::new(BackendSettings::with_memory_mb(mb)),
            hash_mb,
            skill_seed: None,
        }
    }

    /// Endgame tables for the strong engine's searches.
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.engine.set_tablebases(tablebases);
    }

    /// Weakened levels pick with this seed (see `skill_seed`).
    pub fn set_skill_seed(&mut self, seed: u64) {
        self.skill_seed = Some(seed);
    }

    fn skill_seed(&self) -> u64 {
        self.skill_seed
            .unwrap_or_else(xiangqi_core::rng::random_seed)
    }
}

/// Whether a trace line is shown at `level`: `nodes` keeps the nodes visited (entered,
/// evaluated, left; SSS* steps; B* expansions), `events` everything.
fn shown(level: TraceLevel, line: &str) -> bool {
    match level {
        TraceLevel::Off | TraceLevel::Summary => false,
        TraceLevel::Nodes => matches!(
            line.split_whitespace().next(),
            Some("enter" | "leaf" | "exit" | "step" | "expand" | "iteration")
        ),
        TraceLevel::Events => true,
    }
}

impl Searcher for EngineSearcher {
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move> {
        if request.hash_mb != self.hash_mb {
            self.set_hash_mb(request.hash_mb);
        }
        let algorithm = request.algorithm;
        let tracing = request.step || request.trace.traces();
        let mut limits = request.limits();
        if request.step {
            // Time spent waiting for keys is not thinking time: a stepping search has no
            // time limit, and without a depth limit it would deepen until stopped.
            limits.movetime = None;
            limits.clock = None;
            let depth = *limits.depth.get_or_insert(STEP_DEPTH);
            report.note(format!("step mode: depth {depth}, no time limit"));
        }
        let stop = report.stop_flag();
        let pos = &request.position;
        if !tracing {
            self.engine.algorithm = algorithm;
            self.engine.multipv = request.multipv;
            self.engine.set_threads(request.threads);
            if self.engine.skill.level() != request.level {
                // A new level starts its picks afresh; the same level keeps its state.
                self.engine.skill = Skill::new(request.level, self.skill_seed());
            }
            let multipv = request.multipv > 1;
            let result = self
                .engine
                .search(pos, &limits, stop, &mut |info: &SearchInfo| {
                    report.iteration(info.clone());
                    if multipv && !info.lines.is_empty() {
                        report.lines(info.lines.iter().take(request.multipv).cloned().collect());
                    }
                });
            report.ponder(result.ponder);
            return result.best_move;
        }
        let names = PositionNames::new(pos, request.notation);
        let report = RefCell::new(report);
        let mut text = TraceText::new(&names);
        let mut tracer = |event: TraceEvent<Move>| {
            let line = text.feed(&event).filter(|line| shown(request.trace, line));
            // The explorer gets every event, marked when it completes a log line.
            report.borrow_mut().event(event, line.is_some());
            if let Some(line) = line {
                // False once stopped: the stop flag the search watches is already up.
                report.borrow_mut().trace(line);
            }
        };
        let result = self.textbook.search(
            algorithm,
            pos,
            &limits,
            stop,
            &mut |info: &SearchInfo| report.borrow_mut().iteration(info.clone()),
            &mut tracer,
            Some(&names),
        );
        report.borrow_mut().ponder(result.ponder);
        result.best_move
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn set_hash_mb(&mut self, mb: u32) {
        self.hash_mb = mb;
        self.engine.set_hash_mb(mb as usize);
        self.textbook.set_memory_mb(mb as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nodes_level_keeps_node_visits_only() {
        assert!(shown(
            TraceLevel::Nodes,
            "enter 炮二平五 alpha=-inf beta=inf"
        ));
        assert!(shown(TraceLevel::Nodes, "step 3: pop root/L/inf ; case G6"));
        assert!(!shown(TraceLevel::Nodes, "alpha root := 10"));
        assert!(shown(TraceLevel::Events, "alpha root := 10"));
        assert!(!shown(TraceLevel::Summary, "enter root"));
    }
}
