//! What the service reports about a search, in order: notes, trace events (through the
//! step gate), one report per finished iteration, and at the end its move.

use crate::engine::{PvLine, SearchInfo};
use crate::search::TraceEvent;
use xiangqi_core::board::Move;

use super::request::SearchId;

/// One report of search `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineEvent {
    Iteration {
        id: SearchId,
        info: SearchInfo,
    },
    /// Trace events as text, oldest first (batched when not stepping).
    Trace {
        id: SearchId,
        lines: Vec<String>,
    },
    /// Typed trace events for the tree explorer, oldest first, each with whether it
    /// completed a log line; sent just before the `Trace` lines they belong to.
    Explored {
        id: SearchId,
        events: Vec<(TraceEvent<Move>, bool)>,
    },
    /// The search ended; `mv` is `None` when the position has no legal move. `ponder`
    /// is the reply the search expects, when it has one.
    BestMove {
        id: SearchId,
        mv: Option<Move>,
        ponder: Option<Move>,
    },
    /// All MultiPV lines of the iteration just reported, best first (sent when more
    /// than one line was asked for).
    Lines {
        id: SearchId,
        lines: Vec<PvLine>,
    },
    /// Something the search wants the player to know, for the log.
    Note {
        id: SearchId,
        text: String,
    },
    Failed {
        id: SearchId,
        message: String,
    },
}

impl EngineEvent {
    pub fn id(&self) -> SearchId {
        match self {
            EngineEvent::Iteration { id, .. }
            | EngineEvent::Trace { id, .. }
            | EngineEvent::Explored { id, .. }
            | EngineEvent::Lines { id, .. }
            | EngineEvent::BestMove { id, .. }
            | EngineEvent::Note { id, .. }
            | EngineEvent::Failed { id, .. } => *id,
        }
    }
}

/// Where events go; returns false once nobody listens (the search then stops). It runs
/// on the service's thread, in the order the events happen.
pub type EventSink = Box<dyn Fn(EngineEvent) -> bool + Send>;
