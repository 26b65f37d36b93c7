//! The rules of playing a game with others: a move on the mover's turn, resignation,
//! replaying moves taken back, and why each is refused.

use std::fmt;

use xiangqi_core::board::rules::Outcome;
use xiangqi_core::board::{Color, Move};

use super::players::Players;
use super::state::GameState;

/// Why the rules refuse what a side asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleError {
    /// The game has a result (on the board or given).
    GameOver,
    /// The engine plays both sides: nobody resigns, nobody answers an offer.
    NoPerson,
    NotYourMove,
    Illegal(Move),
    NothingToTakeBack,
    NothingToReplay,
    DrawOfferedAlready,
    TakebackAskedAlready,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => f.write_str("the game is over"),
            RuleError::NoPerson => f.write_str("the engine plays both sides"),
            RuleError::NotYourMove => f.write_str("it is your opponent's move"),
            RuleError::Illegal(mv) => write!(f, "{} is not legal here", mv.iccs()),
            RuleError::NothingToTakeBack => f.write_str("nothing to take back"),
            RuleError::NothingToReplay => f.write_str("nothing to play again"),
            RuleError::DrawOfferedAlready => f.write_str("you offered a draw already"),
            RuleError::TakebackAskedAlready => {
                f.write_str("you asked already: waiting for your opponent's answer")
            }
        }
    }
}

impl std::error::Error for RuleError {}

impl GameState {
    /// Plays `mv` for `side`: the game must be on, the move `side`'s and legal.
    pub fn play_for(&mut self, side: Color, mv: Move) -> Result<(), RuleError> {
        if self.outcome().is_some() {
            return Err(RuleError::GameOver);
        }
        if self.position().side_to_move() != side {
            return Err(RuleError::NotYourMove);
        }
        if !self.position().is_legal(mv) {
            return Err(RuleError::Illegal(mv));
        }
        self.play(mv);
        Ok(())
    }

    /// Whether a side may resign now (someone plays and the game is on).
    pub fn may_resign(&self, players: Players) -> Result<(), RuleError> {
        if self.outcome().is_some() {
            Err(RuleError::GameOver)
        } else if players == Players::EngineBoth {
            Err(RuleError::NoPerson)
        } else {
            Ok(())
        }
    }

    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Color, players: Players) -> Result<Outcome, RuleError> {
        self.may_resign(players)?;
        let outcome = Outcome::resignation(side);
        self.end(outcome);
        Ok(outcome)
    }

    /// Plays again the last move taken back and, against the engine, its reply taken
    /// back with it, so the person is to move again; the plies replayed. A result
    /// given (resignation, flag fall, agreed draw) is not replayed past.
    pub fn replay(&mut self, players: Players) -> Result<usize, RuleError> {
        if !self.can_redo() || self.ended_off_board() {
            return Err(RuleError::NothingToReplay);
        }
        self.redo();
        let mut plies = 1;
        if let Players::Engine(engine) = players
            && self.position().side_to_move() == engine
            && self.redo().is_some()
        {
            plies += 1;
        }
        Ok(plies)
    }

    /// Takes back `plies` plies, which must have been played.
    pub(super) fn take_back(&mut self, plies: usize) {
        for _ in 0..plies {
            self.undo();
        }
    }
}
