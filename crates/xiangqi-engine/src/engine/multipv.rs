//! MultiPV: the search's best few root moves, each with its own score and variation.
//! Each iteration searches the root once per line, leaving out the root moves of the
//! lines already found at that depth (as Stockfish does), so line k is the best move
//! that is none of lines 1..k-1.

use crate::engine::score::Verdict;
use xiangqi_core::board::Move;

/// Most lines one search reports.
pub const MAX_MULTIPV: usize = 10;

/// One line of a MultiPV search: its score (side to move's view) and variation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PvLine {
    pub score: i32,
    pub pv: Vec<Move>,
}

impl PvLine {
    pub fn verdict(&self) -> Verdict {
        Verdict::from_score(self.score)
    }

    pub fn first_move(&self) -> Option<Move> {
        self.pv.first().copied()
    }
}

/// Sorts lines best first, keeping the search order among equal scores.
pub(crate) fn sort_lines(lines: &mut [PvLine]) {
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
}

/// The lines of an iteration stopped part way: those it completed (best first), then
/// the previous iteration's lines for the moves it did not reach, up to `wanted`.
pub(crate) fn merge_partial(
    mut current: Vec<PvLine>,
    previous: &[PvLine],
    wanted: usize,
) -> Vec<PvLine> {
    sort_lines(&mut current);
    for line in previous {
        if current.len() >= wanted {
            break;
        }
        if !current.iter().any(|c| c.first_move() == line.first_move()) {
            current.push(line.clone());
        }
    }
    current
}
