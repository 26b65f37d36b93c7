//! The engine service: one way to run a search, for every client (the TUI, the UCI
//! front end, the server's engine rooms). A client builds a [`SearchRequest`] in plain
//! values, hands it to an [`EngineLink`] and hears back, through its [`EventSink`],
//! notes, trace events, one [`SearchInfo`](crate::engine::SearchInfo) per finished
//! iteration and at the end the best move; it can stop the search or, in step mode,
//! let it go on one trace event at a time ([`StepCommand`]). The search itself sits
//! behind [`Searcher`]: the built-in engine ([`EngineSearcher`]) or an external
//! UCI/UCCI program ([`RoutingSearcher`] picks the one a request names).
//!
//! Floor: above the engine, external engines, tablebases and the search framework;
//! below the app, the server and the commands. No terminal, no async runtime, no
//! config types.

mod builtin;
mod event;
mod link;
mod reporter;
mod request;
mod routing;
mod step;

pub use builtin::{EngineSearcher, STEP_DEPTH};
pub use event::{EngineEvent, EventSink};
pub use link::{EngineLink, search_now};
pub use reporter::{Reporter, Searcher};
pub use request::{NamedEngine, SearchId, SearchRequest, TraceLevel};
pub use routing::RoutingSearcher;
pub use step::{StepCommand, StepGate, StepMode, StepState};

/// The engine of this build, if it has one, with the installed endgame tables, able
/// to hand a request to the external engine it names.
pub fn default_searcher() -> Option<Box<dyn Searcher>> {
    let mut builtin = Box::new(EngineSearcher::default());
    builtin.set_tablebases(crate::egtb::Tablebases::installed());
    Some(Box::new(RoutingSearcher::new(builtin)))
}

#[cfg(test)]
mod tests;
