//! A shared game on the server as one viewer sees it, and how a room tells a result
//! given off the board.

use std::sync::Arc;

use xiangqi_core::board::Color;
use xiangqi_core::board::rules::{DrawReason, Outcome, WinReason};
use xiangqi_core::clock::{GameClock, TimeSource};

use super::lobby::RoomKind;
use super::state::GameState;

/// A room as one session sees it: the shared game and who is who.
#[derive(Debug, Clone)]
pub struct RoomView {
    pub name: String,
    pub kind: RoomKind,
    /// The viewer's side; `None` for a spectator.
    pub my_side: Option<Color>,
    pub red: String,
    pub black: String,
    pub spectators: usize,
    pub game: GameState,
    /// How the game ended when not by the board (resignation, agreed draw), e.g.
    /// "Black resigned (1-0)".
    pub ended: Option<String>,
    /// A pending offer or request, e.g. "Red offers a draw (:draw accepts)".
    pub pending: Option<String>,
    /// Chat lines, numbered from the room's first: (number, text).
    pub chat: Vec<(u64, String)>,
    /// Both clocks as the room keeps them, read with `time` (the room's time source).
    pub clock: GameClock,
    pub time: Arc<dyn TimeSource>,
    /// Whether its games change ratings.
    pub rated: bool,
    /// The tournament game it holds, as the status line names it ("club round 2/3,
    /// board 1"); `None` for a room of its own.
    pub event: Option<String>,
}

/// A result given off the board as a room tells it ("Black resigned (1-0)", "draw
/// agreed (1/2-1/2)"); `None` while the game is on or when the board decided it.
pub fn ended_text(game: &GameState) -> Option<String> {
    if !game.ended_off_board() {
        return None;
    }
    let outcome = game.outcome()?;
    let how = match outcome {
        Outcome::Win {
            winner,
            reason: WinReason::Resignation,
        } => format!("{} resigned", winner.opponent().name()),
        Outcome::Win {
            winner,
            reason: WinReason::Timeout,
        } => format!("{}'s flag fell", winner.opponent().name()),
        Outcome::Draw(DrawReason::Agreement) => "draw agreed".to_owned(),
        other => other.describe(),
    };
    Some(format!("{how} ({})", outcome.pgn_result()))
}
