//! Scores and intervals shared by every backend.

use std::fmt;

/// A position's value on the search's generic scale, the textbook backends' and the
/// trees': positive is good for the side the value is taken from (the side to move
/// inside negamax code, MAX, the root mover, in trace events and results). Mates are
/// [`MATE`] less the plies to them. The strong engine keeps its own scale (`i32`
/// centipawns with mates at `engine::score::MATE`); the two meet only through
/// `engine::score::from_search` and `to_search`, so they cannot be mixed.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct Score(i32);

impl Score {
    pub const ZERO: Score = Score(0);

    /// A value of `value` (an evaluation, a tree's leaf).
    pub const fn new(value: i32) -> Score {
        Score(value)
    }

    pub const fn get(self) -> i32 {
        self.0
    }

    /// Winning by a mate `plies` plies from here.
    pub const fn mate_in(plies: u32) -> Score {
        Score(MATE.0 - plies as i32)
    }

    /// Losing to a mate `plies` plies from here.
    pub const fn mated_in(plies: u32) -> Score {
        Score(-MATE.0 + plies as i32)
    }

    /// Plies to the mate this score says (either side's), if it is one.
    pub fn mate_plies(self) -> Option<u32> {
        is_mate(self).then(|| (MATE.0 - self.0.abs()) as u32)
    }

    pub const fn abs(self) -> Score {
        Score(self.0.abs())
    }

    /// `self + delta`, kept inside `[-inf, inf]`.
    pub fn saturating_add(self, delta: Score) -> Score {
        Score(self.0.saturating_add(delta.0)).clamp(-INFINITY, INFINITY)
    }

    /// `self - delta`, kept inside `[-inf, inf]`.
    pub fn saturating_sub(self, delta: Score) -> Score {
        Score(self.0.saturating_sub(delta.0)).clamp(-INFINITY, INFINITY)
    }
}

impl std::ops::Neg for Score {
    type Output = Score;

    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl std::ops::Add for Score {
    type Output = Score;

    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl std::ops::Sub for Score {
    type Output = Score;

    fn sub(self, other: Score) -> Score {
        Score(self.0 - other.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Larger than any real score: the window bound "infinity" and SSS*'s initial merit.
/// Symmetric, so negation never overflows.
pub const INFINITY: Score = Score(1_000_000_000);

/// The value of a won game (the side to move mates). A game's `outcome` should
/// encode distance as `MATE - plies` (and `-(MATE - plies)` when mated: see
/// [`Score::mate_in`]) so that shorter mates score better.
pub const MATE: Score = Score(999_000_000);

/// Mates are scores within this many plies of [`MATE`].
pub const MAX_MATE_PLIES: i32 = 10_000;

/// The largest magnitude an ordinary (non-mate) evaluation may have. Textbook
/// tree values are checked against it.
pub const MAX_EVAL: Score = Score(MATE.0 - MAX_MATE_PLIES - 1);

/// Whether `score` says "mate in some number of plies" for either side.
pub fn is_mate(score: Score) -> bool {
    score.abs() > MAX_EVAL && score.abs() < INFINITY
}

/// Formats a score with `inf` / `-inf` for the infinities, as the trace files do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreText(pub Score);

impl fmt::Display for ScoreText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            v if v >= INFINITY => f.write_str("inf"),
            v if v <= -INFINITY => f.write_str("-inf"),
            v => write!(f, "{v}"),
        }
    }
}

/// A closed interval `[lo, hi]` of scores: B*'s pessimistic and optimistic bounds,
/// or what a search knows about a value (exact when `lo == hi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub lo: Score,
    pub hi: Score,
}

impl Interval {
    /// Nothing known: `[-inf, inf]`.
    pub const UNKNOWN: Interval = Interval {
        lo: Score(-INFINITY.0),
        hi: INFINITY,
    };

    /// `[lo, hi]`; the caller guarantees `lo <= hi`.
    pub const fn new(lo: Score, hi: Score) -> Interval {
        Interval { lo, hi }
    }

    /// The point interval `[v, v]`.
    pub const fn point(v: Score) -> Interval {
        Interval { lo: v, hi: v }
    }

    /// The value, when the interval is a single point.
    pub fn exact(self) -> Option<Score> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// The same interval seen by the other player: `[-hi, -lo]`.
    pub fn negated(self) -> Interval {
        Interval {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    /// Both bounds moved outwards by `delta`, kept inside `[-inf, inf]`.
    pub fn widened(self, delta: Score) -> Interval {
        Interval {
            lo: self.lo.saturating_sub(delta),
            hi: self.hi.saturating_add(delta),
        }
    }

    /// This interval as seen from MAX when it is given from the side to move at `ply`.
    pub fn from_mover(self, ply: u32) -> Interval {
        if ply.is_multiple_of(2) {
            self
        } else {
            self.negated()
        }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", ScoreText(self.lo), ScoreText(self.hi))
    }
}

/// A score given from the side to move at `ply`, seen from MAX (the root mover).
pub(crate) fn max_view(score: Score, ply: u32) -> Score {
    if ply.is_multiple_of(2) { score } else { -score }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinities_print_as_words() {
        assert_eq!(ScoreText(INFINITY).to_string(), "inf");
        assert_eq!(ScoreText(-INFINITY).to_string(), "-inf");
        assert_eq!(ScoreText(Score::new(-7)).to_string(), "-7");
        assert_eq!(
            Interval::new(-INFINITY, Score::new(4)).to_string(),
            "[-inf,4]"
        );
    }

    #[test]
    fn negation_swaps_bounds() {
        let interval = |lo, hi| Interval::new(Score::new(lo), Score::new(hi));
        assert_eq!(interval(2, 9).negated(), interval(-9, -2));
        assert_eq!(interval(2, 9).from_mover(1), interval(-9, -2));
        assert_eq!(interval(2, 9).from_mover(2), interval(2, 9));
        assert_eq!(Interval::UNKNOWN.widened(Score::new(5)), Interval::UNKNOWN);
    }

    #[test]
    fn mate_range_excludes_evaluations_and_infinity() {
        assert!(is_mate(Score::mate_in(3)));
        assert!(is_mate(Score::mated_in(3)));
        assert_eq!(Score::mated_in(3), -(MATE - Score::new(3)));
        assert_eq!(Score::mate_in(3).mate_plies(), Some(3));
        assert_eq!(Score::new(-250).mate_plies(), None);
        assert!(!is_mate(MAX_EVAL));
        assert!(!is_mate(INFINITY));
    }
}
