//! Puzzle ratings: the player's and each puzzle's, Glicko-2 as the games' ratings
//! (`game::rating`). A solve is a win of the player against the puzzle, a failure (a
//! wrong move, a hint, the solution shown) a loss. Only a player's first attempt at a
//! puzzle is rated, as on lichess: a retry teaches, it does not score.

use std::collections::BTreeMap;

use crate::game::rating::{Rating, rate};
use xiangqi_core::record::GameResult;
use xiangqi_engine::puzzle::{Puzzle, Theme};

/// One attempt at a puzzle, as the history keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    pub puzzle: String,
    /// Seconds since the Unix epoch.
    pub at: u64,
    pub solved: bool,
    /// Whether it changed the ratings (the player's first attempt at the puzzle).
    pub rated: bool,
    /// The player's rating after it.
    pub rating_after: f64,
}

/// A player's puzzle rating, history (oldest first) and the ratings of the puzzles
/// attempted so far (the others keep their [`initial_rating`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PuzzleProfile {
    pub rating: Rating,
    pub history: Vec<Attempt>,
    pub puzzles: BTreeMap<String, Rating>,
}

/// A puzzle's rating before any attempt: 1100 for a mate in 1, 200 more for each
/// further move, 100 more for a quiet first move and 50 for a sacrifice, with a
/// deviation of 250 (it is a guess, but an informed one).
pub fn initial_rating(puzzle: &Puzzle) -> Rating {
    let mut rating = 1100.0 + 200.0 * f64::from(puzzle.mate_in.saturating_sub(1));
    if puzzle.has_theme(Theme::Quiet) {
        rating += 100.0;
    }
    if puzzle.has_theme(Theme::Sacrifice) {
        rating += 50.0;
    }
    Rating {
        rating,
        deviation: 250.0,
        ..Rating::default()
    }
}

impl PuzzleProfile {
    /// The puzzle's rating now.
    pub fn puzzle_rating(&self, puzzle: &Puzzle) -> Rating {
        self.puzzles
            .get(&puzzle.id)
            .copied()
            .unwrap_or_else(|| initial_rating(puzzle))
    }

    /// Whether the player attempted `id` before.
    pub fn attempted(&self, id: &str) -> bool {
        self.history.iter().any(|a| a.puzzle == id)
    }
}

/// Records an attempt at `puzzle` at time `at`: the ratings change if it is the
/// player's first attempt at it. Returns the attempt as kept.
pub fn rate_attempt(
    profile: &mut PuzzleProfile,
    puzzle: &Puzzle,
    solved: bool,
    at: u64,
) -> Attempt {
    let rated = !profile.attempted(&puzzle.id);
    if rated {
        let result = if solved {
            GameResult::RedWins
        } else {
            GameResult::BlackWins
        };
        let (player, rated_puzzle) = rate(profile.rating, profile.puzzle_rating(puzzle), result);
        profile.rating = player;
        profile.puzzles.insert(puzzle.id.clone(), rated_puzzle);
    }
    let attempt = Attempt {
        puzzle: puzzle.id.clone(),
        at,
        solved,
        rated,
        rating_after: profile.rating.rating,
    };
    profile.history.push(attempt.clone());
    attempt
}
