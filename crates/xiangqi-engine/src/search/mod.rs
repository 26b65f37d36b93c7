//! Game-tree search: the [`Game`] seam, the pluggable backends (minimax,
//! alpha-beta, SSS*, MT-SSS*, MTD(f), B*), their limits and results, and
//! typed tracing that can be replayed step by step or rendered as the text
//! lines of the spec (`docs/search-algorithms.md`).
//!
//! Every backend implements [`Search`] for any [`Game`] (B*: any
//! [`IntervalGame`]), so the same code runs on textbook trees and on positions.
//! [`Algorithm`] picks a backend by name.

mod algorithm;
mod alphabeta;
mod bstar;
mod depth_first;
mod game;
mod limits;
mod minimax;
mod mt;
mod path;
mod render;
mod score;
mod sss;
mod trace;
mod tt;

pub use algorithm::{Algorithm, Backend, SearchOptions, UnknownAlgorithm};
pub use alphabeta::AlphaBeta;
pub use bstar::BStar;
pub use depth_first::Bounding;
pub use game::{Game, IntervalGame, NodeId};
pub use limits::{Completion, Details, Limits, SearchResult, SearchStats};
pub use minimax::Minimax;
pub use mt::{MtSss, Mtdf};
pub use render::{IdNames, NodeNames, TraceScores, TraceText, trace_lines};
pub use score::{INFINITY, Interval, MATE, MAX_EVAL, MAX_MATE_PLIES, Score, ScoreText, is_mate};
pub use sss::Sss;
pub use trace::{
    BStarStop, BoundKind, Descriptor, GammaCase, Limit, NoTrace, PassOutcome, Recorder, Status,
    Strategy, StrategyReason, TraceEvent, Tracer,
};
pub use tt::{TranspositionTable, TtEntry};

/// A search backend. Generic over the game at the trait level so that a
/// backend can ask more of it (B* needs [`IntervalGame`]).
pub trait Search<G: Game> {
    /// Searches from the current node of `game`, which is left unchanged.
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move>;
}
