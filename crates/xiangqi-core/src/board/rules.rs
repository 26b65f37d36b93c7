//! Game-end verdicts: no legal move (a loss, whether checkmate or stalemate), threefold
//! repetition ruled by the arbiter under the Asian rules (arbiter.rs), and the 120-ply
//! no-capture draw.

use super::position::Position;
use super::types::Color;

/// Plies without a capture after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u16 = 120;

/// Times a position must occur for the repetition rule to end the game.
pub const REPETITION_COUNT: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser is not in check but has no legal move: in xiangqi that loses too.
    Stalemate,
    /// The loser gave check with every one of its moves through a threefold repetition.
    PerpetualCheck,
    /// The loser chased the same piece with every one of its moves through a threefold
    /// repetition (see `arbiter.rs`).
    PerpetualChase,
    /// The loser resigned.
    Resignation,
    /// The loser's time ran out (its flag fell).
    Timeout,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawReason {
    /// Threefold repetition in which neither side broke a rule.
    Repetition,
    /// Threefold repetition in which both sides checked with every move.
    MutualPerpetualCheck,
    /// Threefold repetition in which both sides chased with every move.
    MutualPerpetualChase,
    /// `NO_CAPTURE_LIMIT` plies without a capture.
    NoCapture,
    /// The players agreed (a draw offer accepted).
    Agreement,
}

impl Outcome {
    /// Result string as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn_result(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::Red, ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// A short English description, e.g. "Red wins by checkmate".
    pub fn describe(self) -> String {
        match self {
            Outcome::Win { winner, reason } => {
                let how = match reason {
                    WinReason::Checkmate => "checkmate",
                    WinReason::Stalemate => "stalemate (no legal move)",
                    WinReason::PerpetualCheck => "perpetual check by the opponent",
                    WinReason::PerpetualChase => "perpetual chase by the opponent",
                    WinReason::Resignation => "resignation",
                    WinReason::Timeout => "time (the opponent's flag fell)",
                };
                format!("{} wins by {how}", winner.name())
            }
            Outcome::Draw(DrawReason::Repetition) => "draw by repetition".to_string(),
            Outcome::Draw(DrawReason::MutualPerpetualCheck) => {
                "draw: both sides check perpetually".to_string()
            }
            Outcome::Draw(DrawReason::MutualPerpetualChase) => {
                "draw: both sides chase perpetually".to_string()
            }
            Outcome::Draw(DrawReason::NoCapture) => {
                format!("draw: {NO_CAPTURE_LIMIT} plies without a capture")
            }
            Outcome::Draw(DrawReason::Agreement) => "draw by agreement".to_string(),
        }
    }

    /// `loser` resigned.
    pub fn resignation(loser: Color) -> Outcome {
        Outcome::Win {
            winner: loser.opponent(),
            reason: WinReason::Resignation,
        }
    }

    /// `loser`'s time ran out.
    pub fn flag_fall(loser: Color) -> Outcome {
        Outcome::Win {
            winner: loser.opponent(),
            reason: WinReason::Timeout,
        }
    }

    /// How the game ended, in a word or two, for lists of games ("checkmate",
    /// "resignation", "repetition", ...): finer than the PGN tag's "normal".
    pub fn how(self) -> &'static str {
        match self {
            Outcome::Win { reason, .. } => match reason {
                WinReason::Checkmate => "checkmate",
                WinReason::Stalemate => "stalemate",
                WinReason::PerpetualCheck => "perpetual check",
                WinReason::PerpetualChase => "perpetual chase",
                WinReason::Resignation => "resignation",
                WinReason::Timeout => "time forfeit",
            },
            Outcome::Draw(reason) => match reason {
                DrawReason::Repetition => "repetition",
                DrawReason::MutualPerpetualCheck => "mutual perpetual check",
                DrawReason::MutualPerpetualChase => "mutual perpetual chase",
                DrawReason::NoCapture => "no-capture rule",
                DrawReason::Agreement => "agreement",
            },
        }
    }

    /// The PGN `Termination` tag's value: how the game ended, in a word or two.
    pub fn termination(self) -> &'static str {
        match self {
            Outcome::Win {
                reason: WinReason::Timeout,
                ..
            } => "time forfeit",
            Outcome::Win {
                reason: WinReason::Resignation,
                ..
            } => "resignation",
            Outcome::Draw(DrawReason::Agreement) => "agreement",
            _ => "normal",
        }
    }
}

impl Position {
    /// The verdict if the game is over in this position, judged with the moves played
    /// since the position was set up.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            let reason = if self.in_check() {
                WinReason::Checkmate
            } else {
                WinReason::Stalemate
            };
            return Some(Outcome::Win {
                winner: self.side_to_move().opponent(),
                reason,
            });
        }
        if let Some(outcome) = self.repetition_outcome() {
            return Some(outcome);
        }
        if self.halfmove_clock() >= NO_CAPTURE_LIMIT {
            return Some(Outcome::Draw(DrawReason::NoCapture));
        }
        None
    }

    /// How many times the current position has occurred, this time included. Only the
    /// plies since the last capture can repeat it.
    pub fn repetitions(&self) -> usize {
        1 + self
            .past_states()
            .take(self.halfmove_clock() as usize)
            .skip(1)
            .step_by(2)
            .filter(|&(key, _)| key == self.key())
            .count()
    }

    /// The verdict of a threefold repetition ending in this position, if there is one:
    /// the arbiter's (see `ruling`).
    pub fn repetition_outcome(&self) -> Option<Outcome> {
        self.ruling().map(|ruling| ruling.outcome)
    }

    /// Plies back to the earliest of the last `count` occurrences of this position.
    pub(crate) fn repetition_span(&self, count: usize) -> Option<usize> {
        let mut seen = 1;
        for (distance, (key, _)) in self
            .past_states()
            .take(self.halfmove_clock() as usize)
            .enumerate()
        {
            let distance = distance + 1;
            if distance % 2 == 0 && key == self.key() {
                seen += 1;
                if seen == count {
                    return Some(distance);
                }
            }
        }
        None
    }
}
