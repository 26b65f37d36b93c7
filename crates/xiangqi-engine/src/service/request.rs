//! What a client asks of the service: one search, in plain values (no config types).

use crate::engine::{Clock, Engine, Limits, skill};
use crate::external::EngineSpec;
use crate::search::Algorithm;
use xiangqi_core::board::Position;
use xiangqi_core::notation::Notation;

/// Tells one search from the next, so late events of a stopped search are ignored.
pub type SearchId = u64;

/// How much of the search is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraceLevel {
    /// Nothing.
    Off,
    /// One line per iteration: depth, score, nodes, nodes/s, principal variation.
    Summary,
    /// Also the nodes visited.
    Nodes,
    /// Every trace event of the backend (windows, cut-offs, OPEN list, intervals).
    Events,
}

impl TraceLevel {
    /// Every level, from least to most.
    pub const ALL: &'static [TraceLevel] = &[
        TraceLevel::Off,
        TraceLevel::Summary,
        TraceLevel::Nodes,
        TraceLevel::Events,
    ];

    /// The name the config, the CLI and `:trace` use.
    pub const fn as_str(self) -> &'static str {
        match self {
            TraceLevel::Off => "off",
            TraceLevel::Summary => "summary",
            TraceLevel::Nodes => "nodes",
            TraceLevel::Events => "events",
        }
    }

    /// Whether trace events are wanted at all (not only iteration summaries).
    pub fn traces(self) -> bool {
        matches!(self, TraceLevel::Nodes | TraceLevel::Events)
    }
}

impl std::fmt::Display for TraceLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for TraceLevel {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// An external engine as a request names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedEngine {
    pub name: String,
    pub spec: EngineSpec,
}

/// What to search and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    pub id: SearchId,
    /// The position with the game's moves in its history (for repetition verdicts).
    pub position: Position,
    pub algorithm: Algorithm,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    /// The side to move's clock in a timed game: the engine manages its own time.
    pub clock: Option<Clock>,
    pub nodes: Option<u64>,
    /// Search until stopped, whatever else is set (UCI's `go infinite`).
    pub infinite: bool,
    pub hash_mb: u32,
    /// Search threads of the in-process engine.
    pub threads: usize,
    /// How much of the search to report.
    pub trace: TraceLevel,
    /// Start paused before the first trace event.
    pub step: bool,
    /// The notation trace lines name moves in.
    pub notation: Notation,
    /// Lines to search (the analysis board's MultiPV); 1 to play.
    pub multipv: usize,
    /// Strength level, 1..=20 (20: full strength).
    pub level: u8,
    /// The external engine to search with (`None`: the in-process one).
    pub external: Option<NamedEngine>,
}

impl SearchRequest {
    /// A search of `position` within `limits` by the strong engine at full strength,
    /// one line, one thread, the default table, reporting iterations only.
    pub fn new(id: SearchId, position: Position, limits: &Limits) -> SearchRequest {
        SearchRequest {
            id,
            position,
            algorithm: Algorithm::AlphaBeta,
            depth: limits.depth,
            // Limits come in whole milliseconds (protocols, config).
            movetime_ms: limits.movetime.map(|time| time.as_millis() as u64),
            clock: limits.clock,
            nodes: limits.nodes,
            infinite: limits.infinite,
            hash_mb: Engine::DEFAULT_HASH_MB as u32,
            threads: 1,
            trace: TraceLevel::Off,
            step: false,
            notation: Notation::Iccs,
            multipv: 1,
            level: skill::MAX_LEVEL,
            external: None,
        }
    }

    /// The limits the engine searches within.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime_ms.map(std::time::Duration::from_millis),
            clock: self.clock,
            infinite: self.infinite,
        }
    }
}
