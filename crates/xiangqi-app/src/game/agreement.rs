//! What needs the other side's consent: a draw and a takeback. The other person agrees
//! by making the same offer or request; at one keyboard asking is agreeing; the engine
//! answers a draw offer by its draw rule (`draw_offer`) and always lets a person take
//! back their last move with its reply.

use xiangqi_core::board::Color;
use xiangqi_core::board::rules::{DrawReason, Outcome};

use super::draw_offer::{DrawAnswer, SearchView, answer_draw_offer};
use super::players::Players;
use super::rules::RuleError;
use super::state::GameState;

/// The answer to a draw offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawReply {
    /// It waits for the other person's answer.
    Offered,
    /// Both people agreed: the game is drawn.
    Agreed,
    /// The engine accepted, for this reason: the game is drawn.
    Accepted(DrawAnswer),
    /// The engine declined, for this reason: play goes on.
    Declined(DrawAnswer),
}

/// The answer to a request to take back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakebackReply {
    /// It waits for the other person's answer.
    Asked,
    /// Taken back: this many plies (the engine's reply with the person's move).
    TookBack(usize),
}

impl GameState {
    /// `side` offers a draw (or accepts the other person's offer). The engine answers
    /// with what it last found (`engine`: its latest search).
    pub fn offer_draw(
        &mut self,
        side: Color,
        players: Players,
        engine: Option<SearchView>,
    ) -> Result<DrawReply, RuleError> {
        if self.outcome().is_some() {
            return Err(RuleError::GameOver);
        }
        let agreed = Outcome::Draw(DrawReason::Agreement);
        match players {
            Players::EngineBoth => Err(RuleError::NoPerson),
            Players::OneKeyboard => {
                self.end(agreed);
                Ok(DrawReply::Agreed)
            }
            Players::Engine(_) => {
                let answer = answer_draw_offer(self.position(), engine);
                if answer.accepted() {
                    self.end(agreed);
                    Ok(DrawReply::Accepted(answer))
                } else {
                    Ok(DrawReply::Declined(answer))
                }
            }
            Players::TwoPeople => match self.pending.draw_offer {
                Some(offerer) if offerer != side => {
                    self.end(agreed);
                    Ok(DrawReply::Agreed)
                }
                Some(_) => Err(RuleError::DrawOfferedAlready),
                None => {
                    self.pending.draw_offer = Some(side);
                    Ok(DrawReply::Offered)
                }
            },
        }
    }

    /// `side` asks to take back its last move (or agrees to the other person's
    /// request). Against the engine, the engine agrees and takes back its reply too, so
    /// the person is to move again; with the engine to move, the person's move alone.
    /// A result given (resignation, flag fall, agreed draw) stands.
    pub fn ask_takeback(
        &mut self,
        side: Color,
        players: Players,
    ) -> Result<TakebackReply, RuleError> {
        if self.ended_off_board() {
            return Err(RuleError::GameOver);
        }
        if self.ply() == 0 {
            return Err(RuleError::NothingToTakeBack);
        }
        let plies = match players {
            Players::OneKeyboard | Players::EngineBoth => 1,
            Players::Engine(engine) if self.position().side_to_move() == engine => 1,
            Players::Engine(_) => 2,
            Players::TwoPeople => match self.pending.takeback {
                Some(asker) if asker != side => 1,
                Some(_) => return Err(RuleError::TakebackAskedAlready),
                None => {
                    self.pending.takeback = Some(side);
                    return Ok(TakebackReply::Asked);
                }
            },
        };
        if self.ply() < plies {
            return Err(RuleError::NothingToTakeBack);
        }
        self.take_back(plies);
        self.pending.takeback = None;
        Ok(TakebackReply::TookBack(plies))
    }
}
