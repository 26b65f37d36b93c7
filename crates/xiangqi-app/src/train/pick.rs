//! Choosing the next puzzle: near the player's rating, not one attempted recently, and
//! within the filters asked (`:puzzle mate 3`, `:puzzle theme sacrifice`).

use xiangqi_engine::puzzle::{Puzzle, Theme};

use super::puzzle_rating::PuzzleProfile;

/// How many of the latest attempts are not picked again.
const RECENT: usize = 50;

/// A new player starts on short mates: until this many puzzles are solved, a puzzle
/// picked without a `mate N` filter mates in at most [`WARM_UP_MATE`] moves (the
/// nearest to a new player's 1500 would be a mate in 3).
pub const WARM_UP_SOLVES: usize = 5;
pub const WARM_UP_MATE: u32 = 2;

/// What `:puzzle` narrows the choice to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PuzzleFilter {
    pub mate_in: Option<u32>,
    pub theme: Option<Theme>,
}

impl PuzzleFilter {
    pub fn admits(&self, puzzle: &Puzzle) -> bool {
        self.mate_in.is_none_or(|n| puzzle.mate_in == n)
            && self.theme.is_none_or(|theme| puzzle.has_theme(theme))
    }
}

/// The puzzle of `set` nearest the player's rating among those the filter admits and
/// not attempted lately (all admitted ones if every one was); ties go to the first in
/// the set, so the choice is deterministic. `None` when the filter admits none. A new
/// player gets short mates first (`WARM_UP_SOLVES`).
pub fn pick<'a>(
    set: &'a [Puzzle],
    profile: &PuzzleProfile,
    filter: &PuzzleFilter,
) -> Option<&'a Puzzle> {
    let recent: Vec<&str> = profile
        .history
        .iter()
        .rev()
        .take(RECENT)
        .map(|a| a.puzzle.as_str())
        .collect();
    let warming_up = filter.mate_in.is_none()
        && profile.history.iter().filter(|a| a.solved).count() < WARM_UP_SOLVES;
    let admitted = || {
        set.iter()
            .filter(|p| filter.admits(p))
            .filter(move |p| !warming_up || p.mate_in <= WARM_UP_MATE)
    };
    let fresh: Vec<&Puzzle> = admitted()
        .filter(|p| !recent.contains(&p.id.as_str()))
        .collect();
    let pool: Vec<&Puzzle> = if fresh.is_empty() {
        admitted().collect()
    } else {
        fresh
    };
    let distance = |p: &Puzzle| (profile.puzzle_rating(p).rating - profile.rating.rating).abs();
    pool.into_iter()
        .min_by(|a, b| distance(a).total_cmp(&distance(b)))
}

/// The puzzle `id` of `set` (ids are eight hex digits; case does not matter).
pub fn find_puzzle<'a>(set: &'a [Puzzle], id: &str) -> Option<&'a Puzzle> {
    set.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}
