//! Ratings: Glicko-2 (the `skillratings` crate) and the rules of which games count.
//! Pure arithmetic: the store applies it in the transaction that archives the game.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use xiangqi_core::board::rules::{DrawReason, Outcome};
use xiangqi_core::record::GameResult;

/// A rating is provisional (shown with `?`) while its deviation is above this, as on
/// lichess: the number says little yet.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A draw agreed before this full move is not rated (a quick agreed draw says nothing
/// about strength, and two friends could farm rating with it).
pub const RATED_DRAW_FROM_MOVE: usize = 10;

/// A player's Glicko-2 rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A newcomer: 1500, deviation 350, volatility 0.06 (Glicko-2's defaults).
    fn default() -> Rating {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(rating: Glicko2Rating) -> Rating {
        Rating {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(rating: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// As shown next to a name: `1612`, or `1500?` while provisional.
    pub fn label(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        format!("{:.0}{mark}", self.rating)
    }
}

/// Whether a finished game changes ratings: the room is rated, both players have a key
/// (guests and the engine are not rated), the game has a winner or a draw, and it is
/// not a draw agreed before move `RATED_DRAW_FROM_MOVE`. `plies` counts both sides'
/// moves.
pub fn counts(room_rated: bool, both_keyed: bool, outcome: Option<Outcome>, plies: usize) -> bool {
    let Some(outcome) = outcome else {
        return false;
    };
    if !room_rated || !both_keyed {
        return false;
    }
    // Move 10 starts after 9 full moves (18 plies).
    let early = plies < (RATED_DRAW_FROM_MOVE - 1) * 2;
    !(outcome == Outcome::Draw(DrawReason::Agreement) && early)
}

/// Red's and Black's ratings after a game with `result` (`Unknown` changes nothing).
pub fn rate(red: Rating, black: Rating, result: GameResult) -> (Rating, Rating) {
    let outcome = match result {
        GameResult::RedWins => Outcomes::WIN,
        GameResult::BlackWins => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
        GameResult::Unknown => return (red, black),
    };
    let (red, black) = glicko2(&red.into(), &black.into(), &outcome, &Glicko2Config::new());
    (red.into(), black.into())
}

#[cfg(test)]
mod tests {
    use xiangqi_core::board::Color;
    use xiangqi_core::board::rules::WinReason;

    use super::*;

    #[test]
    fn a_win_moves_the_winner_up_and_the_loser_down_and_narrows_both() {
        let (red, black) = rate(Rating::default(), Rating::default(), GameResult::BlackWins);
        assert_eq!(red.rating.round(), 1338.0);
        assert_eq!(black.rating.round(), 1662.0);
        assert_eq!(red.deviation.round(), 290.0);
        assert!(red.provisional());
        assert_eq!(black.label(), "1662?");
        let settled = Rating {
            rating: 1612.4,
            deviation: 60.0,
            volatility: 0.06,
        };
        assert_eq!(settled.label(), "1612");
        let (strong, weak) = rate(settled, Rating::default(), GameResult::Draw);
        assert!(strong.rating < settled.rating, "{strong:?}");
        assert!(weak.rating > 1500.0, "{weak:?}");
        assert_eq!(
            rate(settled, settled, GameResult::Unknown),
            (settled, settled)
        );
    }

    #[test]
    fn only_finished_games_between_keys_in_rated_rooms_count_and_not_early_agreed_draws() {
        let resigned = Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Resignation,
        });
        let agreed = Some(Outcome::Draw(DrawReason::Agreement));
        let repeated = Some(Outcome::Draw(DrawReason::Repetition));
        assert!(counts(true, true, resigned, 1));
        assert!(!counts(false, true, resigned, 40));
        assert!(!counts(true, false, resigned, 40));
        assert!(!counts(true, true, None, 40));
        assert!(!counts(true, true, agreed, 17));
        assert!(counts(true, true, agreed, 18));
        assert!(counts(true, true, repeated, 12));
    }
}
