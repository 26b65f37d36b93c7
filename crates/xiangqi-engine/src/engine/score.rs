//! Search scores: centipawns from the side to move, with mate scores at the ends of the
//! range. A position where the side to move has been mated (or stalemated, a loss in
//! xiangqi) `ply` plies from the root scores `-(MATE - ply)`, so shorter wins score
//! higher. Scores fit in an `i16`, the transposition table's width. The textbook
//! backends have their own scale, `search::Score`; `from_search` and `to_search` are
//! the only way between the two.

use std::fmt;

use xiangqi_core::board::Color;

use crate::search::Score;

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

/// A score of the search's generic scale (`search::Score`: the textbook backends run on
/// positions) on this scale, as the engine reports it: mates as far as this scale
/// counts them, evaluations kept out of its mate range.
pub fn from_search(score: Score) -> i32 {
    match score.mate_plies() {
        Some(plies) => {
            let plies = (plies as usize).min(MAX_PLY - 1);
            if score > Score::ZERO {
                mate_in(plies)
            } else {
                mated_in(plies)
            }
        }
        None => score.get().clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
    }
}

/// A score on this scale of a search rooted `ply` plies below the generic search's
/// root, on the generic scale with mate distances counted from that root.
pub fn to_search(score: i32, ply: u32) -> Score {
    if is_mate(score) {
        let plies = (MATE - score.abs()) as u32 + ply;
        if score > 0 {
            Score::mate_in(plies)
        } else {
            Score::mated_in(plies)
        }
    } else {
        Score::new(score)
    }
}

/// A score as protocols and people read it: the one score type every engine reports
/// in (the built-in one, external ones). From the side to move's view unless a method
/// says otherwise.
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

    /// The search score this verdict reads as ([`Verdict::from_score`] of it gives it
    /// back): a mate as the plies to it (at most `MAX_PLY`), centipawns kept out of
    /// the mate range.
    pub fn to_score(self) -> i32 {
        match self {
            Verdict::Centipawns(cp) => cp.clamp(1 - MATE_BOUND, MATE_BOUND - 1),
            Verdict::Mate(moves) if moves > 0 => mate_in((2 * moves as usize - 1).min(MAX_PLY)),
            Verdict::Mate(moves) => mated_in((2 * moves.unsigned_abs() as usize).min(MAX_PLY)),
        }
    }

    /// The same verdict from the other side's view. `Mate(0)` (mated now) has no
    /// mirror: it stays as it is.
    pub fn flipped(self) -> Verdict {
        match self {
            Verdict::Centipawns(cp) => Verdict::Centipawns(-cp),
            Verdict::Mate(moves) => Verdict::Mate(-moves),
        }
    }

    /// This verdict of the side to move (`side_to_move`) from Red's view: positive
    /// when Red is better.
    pub fn red_view(self, side_to_move: Color) -> Verdict {
        match side_to_move {
            Color::Red => self,
            Color::Black => self.flipped(),
        }
    }

    /// A verdict from Red's view as the side to move (`side_to_move`) sees it: the
    /// inverse of [`Verdict::red_view`].
    pub fn side_to_move_view(self, side_to_move: Color) -> Verdict {
        self.red_view(side_to_move)
    }

    /// The centipawns, when it is not a mate.
    pub fn centipawns(self) -> Option<i32> {
        match self {
            Verdict::Centipawns(cp) => Some(cp),
            Verdict::Mate(_) => None,
        }
    }

    /// Centipawns within `-clip..=clip`, a mate at the end of its side (a graph's point).
    pub fn clipped(self, clip: i32) -> i32 {
        match self {
            Verdict::Centipawns(cp) => cp.clamp(-clip, clip),
            Verdict::Mate(moves) if moves > 0 => clip,
            Verdict::Mate(_) => -clip,
        }
    }

    /// The verdict as players write it: `+0.35` (pawns), `#3`, `#-2`.
    pub fn pawns(self) -> Pawns {
        Pawns(self)
    }

    /// This verdict of the side to move (`side_to_move`) as every screen shows scores:
    /// from Red's view, mates naming the side that mates (the UCI protocol alone keeps
    /// the side to move's view).
    pub fn shown(self, side_to_move: Color) -> Shown {
        match self {
            Verdict::Centipawns(_) => Shown::Red(self.red_view(side_to_move)),
            Verdict::Mate(moves) => {
                let winner = if moves > 0 {
                    side_to_move
                } else {
                    side_to_move.opponent()
                };
                Shown::Mate {
                    winner,
                    moves: moves.unsigned_abs(),
                }
            }
        }
    }
}

/// A score as shown to people: from Red's view, a mate as "Red mates in 3" (see
/// [`Verdict::shown`]). `{}` writes `+0.35` or `Black mates in 2`; `{:#}` writes the
/// short form `+0.35`, `#3`, `#-2` (Red's view: negative when Black mates), for
/// columns that state the convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Centipawns from Red's view.
    Red(Verdict),
    /// `winner` mates in `moves` (0: has mated).
    Mate { winner: Color, moves: u32 },
}

impl Shown {
    /// The verdict from Red's view.
    pub fn red_view(self) -> Verdict {
        match self {
            Shown::Red(verdict) => verdict,
            Shown::Mate { winner, moves } => {
                let moves = moves as i32;
                Verdict::Mate(if winner == Color::Red { moves } else { -moves })
            }
        }
    }

    /// The text with the view named where the number alone would not say it:
    /// `Red +0.35`, `Black mates in 2`.
    pub fn labelled(self) -> String {
        match self {
            Shown::Red(_) => format!("Red {self}"),
            Shown::Mate { .. } => self.to_string(),
        }
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Shown::Red(verdict) => f.pad(&verdict.pawns().to_string()),
            Shown::Mate { winner, moves } if f.alternate() => {
                let sign = if winner == Color::Red { "" } else { "-" };
                f.pad(&format!("#{sign}{moves}"))
            }
            Shown::Mate { winner, moves: 0 } => f.pad(&format!("{} has mated", winner.name())),
            Shown::Mate { winner, moves } => f.pad(&format!("{} mates in {moves}", winner.name())),
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

/// A verdict shown as players write it (see [`Verdict::pawns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pawns(Verdict);

impl fmt::Display for Pawns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Verdict::Centipawns(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let cp = cp.unsigned_abs();
                // Through `pad`, so widths and alignment apply to the whole text.
                f.pad(&format!("{sign}{}.{:02}", cp / 100, cp % 100))
            }
            Verdict::Mate(moves) => f.pad(&format!("#{moves}")),
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
    fn verdicts_read_back_as_the_scores_they_came_from() {
        for score in [mate_in(1), mate_in(5), mated_in(0), mated_in(4), 35, -120] {
            assert_eq!(Verdict::from_score(score).to_score(), score);
        }
        for verdict in [Verdict::Mate(3), Verdict::Mate(-2), Verdict::Centipawns(7)] {
            assert_eq!(Verdict::from_score(verdict.to_score()), verdict);
        }
        // Centipawns never read as a mate; a mate too far to count is as far as counted.
        assert_eq!(
            Verdict::from_score(Verdict::Centipawns(40_000).to_score()),
            Verdict::Centipawns(MATE_BOUND - 1)
        );
        assert_eq!(
            Verdict::from_score(Verdict::Mate(500).to_score()),
            Verdict::Mate(MAX_PLY as i32 / 2)
        );
    }

    #[test]
    fn red_sees_black_to_move_verdicts_the_other_way_round() {
        let black_ahead = Verdict::Centipawns(35);
        assert_eq!(black_ahead.red_view(Color::Black), Verdict::Centipawns(-35));
        assert_eq!(black_ahead.red_view(Color::Red), black_ahead);
        assert_eq!(Verdict::Mate(3).red_view(Color::Black), Verdict::Mate(-3));
        for side in [Color::Red, Color::Black] {
            let red = Verdict::Mate(-2).red_view(side);
            assert_eq!(red.side_to_move_view(side), Verdict::Mate(-2));
        }
        assert_eq!(Verdict::Mate(2).clipped(1000), 1000);
        assert_eq!(Verdict::Mate(-2).clipped(1000), -1000);
        assert_eq!(Verdict::Centipawns(-5000).clipped(1000), -1000);
        assert_eq!(Verdict::Centipawns(-50).centipawns(), Some(-50));
        assert_eq!(Verdict::Mate(1).centipawns(), None);
    }

    #[test]
    fn scores_read_as_players_write_them() {
        assert_eq!(Verdict::Centipawns(35).pawns().to_string(), "+0.35");
        assert_eq!(Verdict::Centipawns(-120).pawns().to_string(), "-1.20");
        assert_eq!(Verdict::Centipawns(0).pawns().to_string(), "+0.00");
        assert_eq!(Verdict::Mate(3).pawns().to_string(), "#3");
        assert_eq!(Verdict::Mate(-2).pawns().to_string(), "#-2");
        assert_eq!(format!("{:>7}", Verdict::Mate(3).pawns()), "     #3");
    }

    #[test]
    fn scores_are_shown_from_reds_view_with_mates_named() {
        let shown = |verdict: Verdict, side| verdict.shown(side).to_string();
        assert_eq!(shown(Verdict::Centipawns(35), Color::Red), "+0.35");
        assert_eq!(shown(Verdict::Centipawns(35), Color::Black), "-0.35");
        assert_eq!(shown(Verdict::Mate(3), Color::Red), "Red mates in 3");
        assert_eq!(shown(Verdict::Mate(3), Color::Black), "Black mates in 3");
        assert_eq!(shown(Verdict::Mate(-2), Color::Red), "Black mates in 2");
        assert_eq!(shown(Verdict::Mate(-2), Color::Black), "Red mates in 2");
        // Mated now: the other side has mated, whoever is to move.
        assert_eq!(shown(Verdict::Mate(0), Color::Black), "Red has mated");
        assert_eq!(shown(Verdict::Mate(0), Color::Red), "Black has mated");
        assert_eq!(format!("{:#}", Verdict::Mate(-2).shown(Color::Red)), "#-2");
        assert_eq!(format!("{:#}", Verdict::Mate(2).shown(Color::Black)), "#-2");
        assert_eq!(
            format!("{:>#5}", Verdict::Mate(3).shown(Color::Red)),
            "   #3"
        );
        assert_eq!(
            Verdict::Centipawns(-7).shown(Color::Red).labelled(),
            "Red -0.07"
        );
        assert_eq!(
            Verdict::Mate(1).shown(Color::Black).labelled(),
            "Black mates in 1"
        );
        for side in [Color::Red, Color::Black] {
            for verdict in [Verdict::Mate(3), Verdict::Mate(-2), Verdict::Centipawns(9)] {
                assert_eq!(verdict.shown(side).red_view(), verdict.red_view(side));
            }
        }
    }

    #[test]
    fn scores_convert_between_the_scales() {
        assert_eq!(from_search(Score::mate_in(3)), mate_in(3));
        assert_eq!(from_search(Score::mated_in(4)), mated_in(4));
        assert_eq!(from_search(Score::new(-57)), -57);
        assert_eq!(from_search(Score::new(40_000)), MATE_BOUND - 1);
        assert_eq!(to_search(mate_in(2), 3), Score::mate_in(5));
        assert_eq!(to_search(mated_in(1), 2), Score::mated_in(3));
        assert_eq!(to_search(40, 7), Score::new(40));
    }

    #[test]
    fn table_conversion_round_trips() {
        for score in [mate_in(7), mated_in(9), 120, -40] {
            assert_eq!(from_table(to_table(score, 5), 5), score);
        }
        assert_eq!(to_table(mate_in(7), 5), mate_in(2));
    }
}
