//! What a Swiss tournament is, as far as pairing and standings care: players
//! in pairing-number order and the games of the rounds played so far.

use std::fmt;

/// A side. `White` is the side that moves first (red in xiangqi); the crate
/// keeps FIDE's words because its rules and the TRF format use them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// A score counted in half points, so that sums stay exact.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Points(pub u32);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const HALF: Points = Points(1);
    pub const ONE: Points = Points(2);
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        Points(iter.map(|p| p.0).sum())
    }
}

impl fmt::Display for Points {
    /// `2.5`, `3`: how scores are written in tables.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// The result of a game from White's side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

/// What happened to whom in one round. Players are indices into
/// [`Tournament::players`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Game {
    /// A game that was played: it counts for colours and forbids a rematch.
    Played {
        white: usize,
        black: usize,
        result: GameResult,
    },
    /// A paired game that was not played (no-show). The winner, if any, gets a
    /// point; neither colours nor the meeting count, so the two may be paired
    /// again (FIDE C.04.1: forfeited games are not "played").
    Forfeit {
        white: usize,
        black: usize,
        winner: Option<Colour>,
    },
    /// The pairing-allocated bye of an odd player: one point, at most once.
    Bye { player: usize },
    /// A player left out of the round's pairing (absent, withdrawn, or a
    /// requested bye) with the points the organiser gives for it: usually 0,
    /// or a half point for a requested bye.
    Absent { player: usize, points: Points },
}

impl Game {
    /// The players the entry concerns.
    pub fn players(&self) -> [Option<usize>; 2] {
        match *self {
            Game::Played { white, black, .. } | Game::Forfeit { white, black, .. } => {
                [Some(white), Some(black)]
            }
            Game::Bye { player } | Game::Absent { player, .. } => [Some(player), None],
        }
    }
}

/// A player's name and rating; the pairing number is the index in
/// [`Tournament::players`] plus one, given by the organiser in rating order
/// (FIDE C.04.2: by rating, then title, then name).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Player {
    pub name: String,
    pub rating: u32,
}

/// A Swiss tournament so far.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tournament {
    pub name: String,
    /// In pairing-number order.
    pub players: Vec<Player>,
    /// The entries of each round played; a player without an entry in a round
    /// was not in the tournament then (joined late), which counts as absent
    /// with no points.
    pub rounds: Vec<Vec<Game>>,
    /// How many rounds the tournament will have: the last round relaxes the
    /// colour rules for players above half the maximum score (FIDE C.04.3 A.7).
    pub total_rounds: u32,
    /// The colour of the top seed in round 1; the rest alternate down the
    /// board (FIDE C.04.3 E.5). FIDE draws it by lot.
    pub first_colour: Colour,
}

/// One player's view of one round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Entry {
    /// `None`: no opponent (bye, absence).
    pub opponent: Option<usize>,
    /// Only for played games.
    pub colour: Option<Colour>,
    pub points: Points,
    pub played: bool,
    /// Paired (game or forfeit) or given the pairing-allocated bye.
    pub paired: bool,
}

impl Entry {
    pub const ABSENT: Entry = Entry {
        opponent: None,
        colour: None,
        points: Points::ZERO,
        played: false,
        paired: false,
    };
}

impl Tournament {
    /// Each player's entries, round by round (every player gets one per round).
    pub(crate) fn entries(&self) -> Vec<Vec<Entry>> {
        let mut out = vec![vec![Entry::ABSENT; self.rounds.len()]; self.players.len()];
        for (r, games) in self.rounds.iter().enumerate() {
            for game in games {
                match *game {
                    Game::Played {
                        white,
                        black,
                        result,
                    } => {
                        let (w, b) = match result {
                            GameResult::WhiteWins => (Points::ONE, Points::ZERO),
                            GameResult::Draw => (Points::HALF, Points::HALF),
                            GameResult::BlackWins => (Points::ZERO, Points::ONE),
                        };
                        for (me, them, colour, points) in [
                            (white, black, Colour::White, w),
                            (black, white, Colour::Black, b),
                        ] {
                            out[me][r] = Entry {
                                opponent: Some(them),
                                colour: Some(colour),
                                points,
                                played: true,
                                paired: true,
                            };
                        }
                    }
                    Game::Forfeit {
                        white,
                        black,
                        winner,
                    } => {
                        for (me, them, colour) in
                            [(white, black, Colour::White), (black, white, Colour::Black)]
                        {
                            out[me][r] = Entry {
                                opponent: Some(them),
                                colour: None,
                                points: if winner == Some(colour) {
                                    Points::ONE
                                } else {
                                    Points::ZERO
                                },
                                played: false,
                                paired: true,
                            };
                        }
                    }
                    Game::Bye { player } => {
                        out[player][r] = Entry {
                            opponent: None,
                            colour: None,
                            points: Points::ONE,
                            played: false,
                            paired: true,
                        };
                    }
                    Game::Absent { player, points } => {
                        out[player][r] = Entry {
                            points,
                            ..Entry::ABSENT
                        };
                    }
                }
            }
        }
        out
    }

    /// Checks that every player index is in range and appears at most once per
    /// round, so the rest of the crate can index freely.
    pub fn validate(&self) -> Result<(), String> {
        for (r, games) in self.rounds.iter().enumerate() {
            let mut seen = vec![false; self.players.len()];
            for game in games {
                let ps = game.players();
                if ps[0] == ps[1] && ps[0].is_some() {
                    return Err(format!(
                        "round {}: a player is paired with themselves",
                        r + 1
                    ));
                }
                for p in ps.into_iter().flatten() {
                    if p >= self.players.len() {
                        return Err(format!("round {}: no player {}", r + 1, p + 1));
                    }
                    if std::mem::replace(&mut seen[p], true) {
                        return Err(format!("round {}: player {} appears twice", r + 1, p + 1));
                    }
                }
                if let Game::Absent { points, .. } = game
                    && points.0 > 2
                {
                    return Err(format!("round {}: more than a point for an absence", r + 1));
                }
            }
        }
        Ok(())
    }
}
