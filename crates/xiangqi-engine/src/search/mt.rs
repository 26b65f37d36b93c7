//! MT-SSS* and MTD(f) (§6): SSS*'s best-first order obtained from repeated
//! null-window alpha-beta passes over a transposition table.

use crate::search::Search;
use crate::search::depth_first::{Bounding, DepthFirst};
use crate::search::game::Game;
use crate::search::limits::{Completion, Details, Limits, SearchResult};
use crate::search::score::{INFINITY, Interval, Score};
use crate::search::trace::{PassOutcome, TraceEvent, Tracer};
use crate::search::tt::TranspositionTable;

/// Table size used when the caller does not choose one.
pub const DEFAULT_TABLE_ENTRIES: usize = 1 << 16;

/// MT-SSS*: MTD starting from +infinity, so every pass but the last fails low
/// with a sharper upper bound. Evaluates the same leaves as SSS*, in the same
/// order, when the table is large enough.
///
/// The table persists between searches (so iterative deepening can reuse it);
/// call `table.clear()` to start afresh.
#[derive(Clone, Debug)]
pub struct MtSss<M> {
    pub table: TranspositionTable<M>,
}

impl<M: Copy> MtSss<M> {
    pub fn new(table: TranspositionTable<M>) -> Self {
        MtSss { table }
    }
}

impl<M: Copy> Default for MtSss<M> {
    fn default() -> Self {
        MtSss::new(TranspositionTable::with_entries(DEFAULT_TABLE_ENTRIES))
    }
}

/// MTD(f): MTD starting from a first guess, usually the previous iteration's value.
#[derive(Clone, Debug)]
pub struct Mtdf<M> {
    pub table: TranspositionTable<M>,
    pub first_guess: Score,
}

impl<M: Copy> Mtdf<M> {
    pub fn new(table: TranspositionTable<M>, first_guess: Score) -> Self {
        Mtdf { table, first_guess }
    }
}

impl<M: Copy> Default for Mtdf<M> {
    fn default() -> Self {
        Mtdf::new(
            TranspositionTable::with_entries(DEFAULT_TABLE_ENTRIES),
            Score::ZERO,
        )
    }
}

impl<G: Game> Search<G> for MtSss<G::Move> {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        mtd(game, limits, tracer, &mut self.table, None)
    }
}

impl<G: Game> Search<G> for Mtdf<G::Move> {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        mtd(
            game,
            limits,
            tracer,
            &mut self.table,
            Some(self.first_guess),
        )
    }
}

/// The MTD driver: `first_guess == None` is MT-SSS* (each pass tests the
/// current upper bound), otherwise MTD(f).
fn mtd<G: Game, T: Tracer<G::Move>>(
    game: &mut G,
    limits: &Limits,
    tracer: &mut T,
    table: &mut TranspositionTable<G::Move>,
    first_guess: Option<Score>,
) -> SearchResult<G::Move> {
    let mut core = DepthFirst::new(game, tracer, limits, Bounding::FailSoft, Some(table));
    let (mut lower, mut upper) = (-INFINITY, INFINITY);
    let mut guess = first_guess.unwrap_or(INFINITY).clamp(-INFINITY, INFINITY);
    let mut best_move = None;
    let mut passes = 0;
    while lower < upper {
        let gamma = match first_guess {
            None => upper,
            Some(_) if guess == lower => guess + Score::new(1),
            Some(_) => guess,
        };
        passes += 1;
        core.tracer().event(TraceEvent::PassStart {
            pass: passes,
            gamma,
        });
        // MT(root, gamma) answers "is the value >= gamma?".
        let value = core.search(0, gamma - Score::new(1), gamma);
        if core.stopped.is_some() {
            break;
        }
        let outcome = if value >= gamma {
            lower = value;
            // The child that failed high is the left-most one worth `value`.
            best_move = core.root_best;
            PassOutcome::FailedHigh
        } else {
            upper = value;
            PassOutcome::FailedLow
        };
        guess = value;
        core.tracer().event(TraceEvent::PassEnd {
            pass: passes,
            value,
            outcome,
            lower,
            upper,
        });
    }
    let completion = match core.stopped {
        None => {
            core.tracer().event(TraceEvent::MtDone {
                value: lower,
                passes,
            });
            Completion::Finished
        }
        Some(limit) => Completion::LimitReached(limit),
    };
    SearchResult {
        value: Interval::new(lower, upper),
        best_move,
        completion,
        stats: core.stats,
        details: Details::Mt { passes },
    }
}
