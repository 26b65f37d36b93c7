//! What a searcher is told about the side to move's clock: the time left, the increment
//! and the moves to the next control. The engine turns it into a time budget.

use std::time::Duration;

/// The side to move's clock in a timed game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    /// Moves until the next time control, if the game has one.
    pub moves_to_go: Option<u32>,
}
