//! The themes of a puzzle, told from its position and solution alone (docs/puzzles.md
//! defines each): which pieces give the checks, a double check, a smothered general, a
//! stalemate, a quiet first move, a sacrifice.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::eval::material;
use xiangqi_core::board::{Color, Kind, Move, Position, Square};

/// A theme, named in lower case with hyphens (`double-check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// A chariot gives check at some attacking move of the solution.
    Chariot,
    Horse,
    Cannon,
    Soldier,
    /// Some attacking move gives check with two pieces at once.
    DoubleCheck,
    /// The mated general is in check and every point it could step to is held by its own
    /// pieces.
    Smothered,
    /// The defender is left without a legal move and not in check.
    Stalemate,
    /// The first move gives no check.
    Quiet,
    /// The first move puts a piece where the defender may take it, and that piece is worth
    /// more than what it took.
    Sacrifice,
}

impl Theme {
    pub const ALL: [Theme; 9] = [
        Theme::Chariot,
        Theme::Horse,
        Theme::Cannon,
        Theme::Soldier,
        Theme::DoubleCheck,
        Theme::Smothered,
        Theme::Stalemate,
        Theme::Quiet,
        Theme::Sacrifice,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Chariot => Kind::Chariot.name(),
            Theme::Horse => Kind::Horse.name(),
            Theme::Cannon => Kind::Cannon.name(),
            Theme::Soldier => Kind::Soldier.name(),
            Theme::DoubleCheck => "double-check",
            Theme::Smothered => "smothered",
            Theme::Stalemate => "stalemate",
            Theme::Quiet => "quiet",
            Theme::Sacrifice => "sacrifice",
        }
    }

    /// The theme of checks by a piece of `kind` (generals, advisors and elephants give
    /// none).
    fn checks_by(kind: Kind) -> Option<Theme> {
        match kind {
            Kind::Chariot => Some(Theme::Chariot),
            Kind::Horse => Some(Theme::Horse),
            Kind::Cannon => Some(Theme::Cannon),
            Kind::Soldier => Some(Theme::Soldier),
            _ => None,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown theme name; the message lists the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown puzzle theme '{0}' (known: {list})", list = Theme::ALL.map(Theme::name).join(", "))]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(text: &str) -> Result<Theme, UnknownTheme> {
        Theme::ALL
            .into_iter()
            .find(|theme| theme.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownTheme(text.to_owned()))
    }
}

impl Serialize for Theme {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// The themes of the line `solution` (legal, ending with the defender out of moves)
/// played from `pos`, in [`Theme::ALL`] order.
pub fn themes_of(pos: &Position, solution: &[Move]) -> Vec<Theme> {
    let mut themes = Vec::new();
    let mut pos = pos.clone();
    let attacker = pos.side_to_move();
    for (ply, &mv) in solution.iter().enumerate() {
        if ply == 0 {
            if !pos.clone().gives_check(mv) {
                themes.push(Theme::Quiet);
            }
            if is_sacrifice(&pos, mv) {
                themes.push(Theme::Sacrifice);
            }
        }
        pos.make_move(mv);
        if pos.side_to_move() != attacker {
            let checkers = pos.checkers();
            let kinds: Vec<Kind> = xiangqi_core::board::Squares(checkers)
                .map(|s| pos.piece_at(s).kind())
                .collect();
            themes.extend(kinds.iter().filter_map(|&kind| Theme::checks_by(kind)));
            if kinds.len() >= 2 {
                themes.push(Theme::DoubleCheck);
            }
        }
    }
    if pos.in_check() {
        if is_smothered(&pos) {
            themes.push(Theme::Smothered);
        }
    } else {
        themes.push(Theme::Stalemate);
    }
    themes.sort();
    themes.dedup();
    themes
}

/// After `mv` the defender has a legal capture of the moved piece, which is worth more
/// than what it took (nothing, or a cheaper piece).
fn is_sacrifice(pos: &Position, mv: Move) -> bool {
    let moved = pos.piece_at(mv.from()).kind();
    let taken = pos.piece_at(mv.to());
    if moved == Kind::General {
        return false;
    }
    let gain = if taken.is_some() {
        material::value(taken.kind())
    } else {
        0
    };
    if material::value(moved) <= gain {
        return false;
    }
    let mut after = pos.clone();
    after.make_move(mv);
    after
        .legal_move_list()
        .into_iter()
        .any(|reply| reply.to() == mv.to())
}

/// The side to move's general: every point of its palace one step away is taken by a
/// piece of its own.
fn is_smothered(pos: &Position) -> bool {
    let side: Color = pos.side_to_move();
    let general = pos.general(side);
    let steps = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    steps
        .into_iter()
        .filter_map(|(dx, dy)| Square::try_new(general.x() as i32 + dx, general.y() as i32 + dy))
        .filter(|s| s.in_palace(side))
        .all(|s| {
            let piece = pos.piece_at(s);
            piece.is_some() && piece.color() == side
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn themes(fen: &str, line: &[&str]) -> Vec<Theme> {
        let pos = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = line
            .iter()
            .map(|m| Move::parse_coords(m).unwrap())
            .collect();
        themes_of(&pos, &moves)
    }

    #[test]
    fn names_read_back() {
        for theme in Theme::ALL {
            assert_eq!(theme.name().parse::<Theme>(), Ok(theme));
        }
        assert!(
            "pin"
                .parse::<Theme>()
                .unwrap_err()
                .to_string()
                .contains("double-check")
        );
    }

    #[test]
    fn the_double_cannon_mate_is_a_cannon_check_and_not_smothered() {
        // The second cannon joins the e-file behind the first; e8 is empty (and held).
        assert_eq!(
            themes("3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1", &["a4e4"]),
            vec![Theme::Cannon]
        );
    }

    #[test]
    fn a_horse_check_on_a_boxed_in_general_is_smothered() {
        // Advisors on d9 and e8, a horse on f9: the general has no point to go to.
        assert_eq!(
            themes("3akn3/4a4/9/7N1/9/9/9/9/9/3K5 w - - 0 1", &["h6g8"]),
            vec![Theme::Horse, Theme::Smothered]
        );
    }

    #[test]
    fn a_stalemating_move_is_quiet() {
        let fen = "4k4/9/4P4/N8/9/9/9/9/9/5K3 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos
            .legal_move_list()
            .into_iter()
            .find(|&mv| {
                let mut after = pos.clone();
                after.make_move(mv);
                !after.has_legal_move()
            })
            .unwrap();
        assert_eq!(
            themes(fen, &[&mv.iccs()]),
            vec![Theme::Stalemate, Theme::Quiet]
        );
    }
}
