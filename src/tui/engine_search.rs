//! The engine of this build (`crate::engine`) as the TUI's `Searcher`. The strong
//! alpha-beta plays when only a summary is asked for; the textbook backends on positions
//! run otherwise (another algorithm, trace events, step mode), their trace events written
//! as lines with nodes named by their moves and sent through the step gate.

use std::cell::RefCell;
use std::time::Duration;

use crate::board::Move;
use crate::config::TraceLevel;
use crate::engine::{
    BackendSettings, Engine, Limits, PositionNames, PositionSearcher, SearchInfo, Skill, Verdict,
};
use crate::search::{TraceEvent, TraceText};

use super::engine_link::{
    EngineLine, EngineScore, IterationInfo, Reporter, SearchRequest, Searcher,
};

/// Depth of a stepping search when none is set.
pub const STEP_DEPTH: u32 = 4;

/// The engine and the textbook backends, each keeping its memory between searches.
pub struct EngineSearcher {
    engine: Engine,
    textbook: PositionSearcher,
    hash_mb: u32,
}

impl Default for EngineSearcher {
    fn default() -> Self {
        let hash_mb = Engine::DEFAULT_HASH_MB;
        EngineSearcher {
            engine: Engine::new(hash_mb),
            textbook: PositionSearcher::new(BackendSettings::with_memory_mb(hash_mb)),
            hash_mb: hash_mb as u32,
        }
    }
}

impl EngineSearcher {
    /// Endgame tables for the strong engine's searches.
    pub fn set_tablebases(&mut self, tablebases: Option<std::sync::Arc<crate::egtb::Tablebases>>) {
        self.engine.set_tablebases(tablebases);
    }
}

fn engine_score(verdict: Verdict) -> EngineScore {
    match verdict {
        Verdict::Centipawns(cp) => EngineScore::Centipawns(cp),
        Verdict::Mate(moves) => EngineScore::Mate(moves),
    }
}

/// An iteration as the log and the status line show it.
fn iteration(info: &SearchInfo) -> IterationInfo {
    IterationInfo {
        depth: info.depth,
        score: engine_score(info.verdict()),
        nodes: info.nodes,
        nodes_per_second: info.nps,
        time_ms: u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX),
        pv: info.pv.clone(),
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
            self.hash_mb = request.hash_mb;
            self.engine.set_hash_mb(request.hash_mb as usize);
            self.textbook.set_memory_mb(request.hash_mb as usize);
        }
        let algorithm = request.algorithm;
        let tracing =
            request.step || !matches!(request.trace, TraceLevel::Off | TraceLevel::Summary);
        let mut limits = Limits {
            depth: request.depth,
            nodes: request.nodes,
            movetime: request.movetime_ms.map(Duration::from_millis),
            clock: request.clock,
            ..Limits::default()
        };
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
                // Each game at a weakened level plays differently.
                let seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |t| t.as_nanos() as u64);
                self.engine.skill = Skill::new(request.level, seed);
            }
            let multipv = request.multipv > 1;
            let result = self
                .engine
                .search(pos, &limits, stop, &mut |info: &SearchInfo| {
                    report.iteration(iteration(info));
                    if multipv && !info.lines.is_empty() {
                        let lines = info
                            .lines
                            .iter()
                            .take(request.multipv)
                            .map(|line| EngineLine {
                                score: engine_score(line.verdict()),
                                pv: line.pv.clone(),
                            })
                            .collect();
                        report.lines(lines);
                    }
                });
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
            &mut |info: &SearchInfo| report.borrow_mut().iteration(iteration(info)),
            &mut tracer,
            Some(&names),
        );
        result.best_move
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
