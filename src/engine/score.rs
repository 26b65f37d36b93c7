//! Search scores: centipawns from the side to move, with mate scores at the ends of the
//! range. A position where the side to move has been mated (or stalemated, a loss in
//! xiangqi) `ply` plies from the root scores `-(MATE - ply)`, so shorter wins score
//! higher. Scores fit in an `i16`, the transposition table's width.

use std::fmt;

/// The score of mating right now (at the root, ply 0).
pub const MATE: i32 = 30_000;
/// Deepest ply the search ever reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates (or rule wins) found within `MAX_PLY`.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial window.
pub const INFINITE: i32 = MATE + 1;
pub const DRAW: i32 = 0;

/// Score for the side to move when it has lost at `ply` (mated, stalemated, or losing by
/// the repetition rule).
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score for the side to move when it wins at `ply`.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score relative to the root into one relative to the node at `ply`, for
/// storing in the transposition table (mate distances are kept from the node).
#[inline]
pub const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of `to_table`.
#[inline]
pub const fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as protocols and people read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// The side to move mates in N moves (N > 0) or is mated in -N moves (N < 0). Mated
    /// right now is `Mate(0)`.
    Mate(i32),
}

impl Verdict {
    pub fn from_score(score: i32) -> Verdict {
        if score >= MATE_BOUND {
            // Plies to mate, counted to the move that delivers it, as whole moves.
            Verdict::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Verdict::Mate(-(MATE + score) / 2)
        } else {
            Verdict::Centipawns(score)
        }
    }
}

impl fmt::Display for Verdict {
    /// UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Centipawns(cp) => write!(f, "cp {cp}"),
            Verdict::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_read_as_moves() {
        // Mate delivered by the side to move's next move: one ply.
        assert_eq!(Verdict::from_score(mate_in(1)), Verdict::Mate(1));
        assert_eq!(Verdict::from_score(mate_in(3)), Verdict::Mate(2));
        assert_eq!(Verdict::from_score(mated_in(0)), Verdict::Mate(0));
        assert_eq!(Verdict::from_score(mated_in(2)), Verdict::Mate(-1));
        assert_eq!(Verdict::from_score(mated_in(4)), Verdict::Mate(-2));
        assert_eq!(Verdict::from_score(35), Verdict::Centipawns(35));
    }

    #[test]
    fn table_conversion_round_trips() {
        for score in [mate_in(7), mated_in(9), 120, -40] {
            assert_eq!(from_table(to_table(score, 5), 5), score);
        }
        assert_eq!(to_table(mate_in(7), 5), mate_in(2));
    }
}
