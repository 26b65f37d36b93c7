//! Game review, lichess style: every position of a game evaluated by the engine service,
//! each move judged by how much of the mover's winning chance it gave away (an
//! inaccuracy, a mistake, a blunder), the engine's better line for those, each side's
//! accuracy, and the game annotated with all of it for PGN. docs/review.md has the curve,
//! the thresholds and the accuracy formula, and why.
//!
//! Floor: beside the game domain, above the engine service; no terminal.

mod accuracy;
mod class;
mod curve;
mod evaluate;
mod game_review;

pub use accuracy::{move_accuracy, side_accuracy};
pub use class::{BLUNDER_LOSS, INACCURACY_LOSS, MISTAKE_LOSS, MoveClass};
pub use curve::{WIN_CHANCE_K, fit_scale, mean_log_likelihood, win_percent};
pub use evaluate::{
    DEFAULT_DEPTH, Evaluation, ReviewError, ReviewLimits, builtin_searchers, evaluate_positions,
};
pub use game_review::{GameReview, MoveReview, eval_text, positions, review_game};

#[cfg(test)]
mod tests;
