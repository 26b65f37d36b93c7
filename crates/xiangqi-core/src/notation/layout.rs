//! What a written move is made of, independent of the script: which piece (the selector),
//! the action and the value; and the facts about the side to move's pieces that choose a
//! selector (how many of a kind share a file, which one is in front, how many files hold
//! doubled soldiers).

use crate::board::{Color, Kind, Position, Square};

/// The middle character of a move: forward (进, `+`), backward (退, `-`) or sideways
/// (平, `.`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Forward,
    Backward,
    Sideways,
}

/// The part of a written move that names the piece, in a script-free byte alphabet:
/// piece letters `K A E H R C P`, digits `1`-`9`, and either `f`/`m`/`r` (前/中/后, Chinese)
/// or `+`/`-` (WXF). Two or three bytes.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Selector {
    len: u8,
    bytes: [u8; 3],
}

impl Selector {
    pub fn of(bytes: &[u8]) -> Selector {
        let mut s = Selector::default();
        for &b in bytes {
            s.push(b);
        }
        s
    }

    pub fn push(&mut self, b: u8) {
        self.bytes[self.len as usize] = b;
        self.len += 1;
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl std::fmt::Debug for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", String::from_utf8_lossy(self.bytes()))
    }
}

/// A move as written: selector, action, value (steps or destination file, 1-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Written {
    pub selector: Selector,
    pub action: Action,
    pub value: u8,
}

/// Whether selectors are Chinese (`前`…) or WXF (`+`…): they share the byte alphabet but
/// not the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Convention {
    Chinese,
    Wxf,
}

/// How a selector relates to a piece: the one canonical form, or an accepted alternative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tier {
    Canonical,
    Alternative,
}

/// The letter the byte alphabet uses for a kind (the WXF letters).
pub(crate) const fn letter(kind: Kind) -> u8 {
    match kind {
        Kind::General => b'K',
        Kind::Advisor => b'A',
        Kind::Elephant => b'E',
        Kind::Horse => b'H',
        Kind::Chariot => b'R',
        Kind::Cannon => b'C',
        Kind::Soldier => b'P',
    }
}

pub(crate) fn kind_of_letter(b: u8) -> Option<Kind> {
    Some(match b {
        b'K' => Kind::General,
        b'A' => Kind::Advisor,
        b'E' => Kind::Elephant,
        b'H' => Kind::Horse,
        b'R' => Kind::Chariot,
        b'C' => Kind::Cannon,
        b'P' => Kind::Soldier,
        _ => return None,
    })
}

/// Kinds that move along lines, whose 进/退 value counts steps (§1.5).
pub(crate) const fn is_straight(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::General | Kind::Chariot | Kind::Cannon | Kind::Soldier
    )
}

/// The mover's own file number 1-9, counted from its right-hand side.
pub(crate) const fn file_number(side: Color, x: u8) -> u8 {
    match side {
        Color::Red => 9 - x,
        Color::Black => x + 1,
    }
}

/// The board file x of a mover's file number 1-9.
pub(crate) const fn file_x(side: Color, number: u8) -> u8 {
    match side {
        Color::Red => 9 - number,
        Color::Black => number - 1,
    }
}

/// +1 if `side` moves forward by increasing y.
const fn forward_dy(side: Color) -> i32 {
    match side {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// The action and value that describe a move of a `kind` piece of `side`.
pub(crate) fn action_value(side: Color, kind: Kind, from: Square, to: Square) -> (Action, u8) {
    let dy = (i32::from(to.y()) - i32::from(from.y())) * forward_dy(side);
    if dy == 0 {
        return (Action::Sideways, file_number(side, to.x()));
    }
    let action = if dy > 0 {
        Action::Forward
    } else {
        Action::Backward
    };
    let value = if is_straight(kind) && from.x() == to.x() {
        dy.unsigned_abs() as u8
    } else {
        file_number(side, to.x())
    };
    (action, value)
}

/// The point a written action and value send a piece to, by the geometry of its kind
/// alone (nothing on the board is looked at). The error says why no point fits.
pub(crate) fn target(
    side: Color,
    kind: Kind,
    from: Square,
    action: Action,
    value: u8,
) -> Result<Square, &'static str> {
    let (x, y) = (i32::from(from.x()), i32::from(from.y()));
    let off_board = "that would leave the board";
    if action == Action::Sideways {
        if !is_straight(kind) {
            return Err(match kind {
                Kind::Horse => "a horse never moves straight sideways (平)",
                Kind::Elephant => "an elephant moves diagonally, never sideways (平)",
                _ => "an advisor moves diagonally, never sideways (平)",
            });
        }
        let to_x = i32::from(file_x(side, value));
        if to_x == x {
            return Err("平 must name a different file");
        }
        return Ok(Square::new(to_x as u8, from.y()));
    }
    let sign = if action == Action::Forward { 1 } else { -1 } * forward_dy(side);
    if is_straight(kind) {
        return Square::try_new(x, y + sign * i32::from(value)).ok_or(off_board);
    }
    let to_x = i32::from(file_x(side, value));
    let dx = (to_x - x).abs();
    let dy = match (kind, dx) {
        (Kind::Horse, 1) => 2,
        (Kind::Horse, 2) => 1,
        (Kind::Horse, _) => return Err("a horse moves to a file one or two files over"),
        (Kind::Elephant, 2) => 2,
        (Kind::Elephant, _) => return Err("an elephant moves to a file two files over"),
        (_, 1) => 1,
        _ => return Err("an advisor moves to the next file"),
    };
    Square::try_new(to_x, y + sign * dy).ok_or(off_board)
}

/// The ranks of one side's pieces of one kind on one file, front first.
#[derive(Debug, Clone, Copy, Default)]
struct Stack {
    len: u8,
    ranks: [u8; 5],
}

/// Facts about one piece of the side to move that selectors are chosen from (§1.6).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PieceFacts {
    pub kind: Kind,
    /// The mover's file number of the piece, 1-9.
    pub file: u8,
    /// How many pieces of its kind stand on its file (n), itself included.
    pub on_file: u8,
    /// Its place on the file counted from the front, from 0 (i).
    pub index: u8,
    /// Files holding two or more of the side's soldiers (D).
    pub doubled_files: u8,
    /// Its number in the xqbase series across doubled files (right to left, then front
    /// to back), from 1; 0 when it is not on a doubled file.
    pub series: u8,
}

/// The side to move's pieces grouped by kind and file: everything needed to write or read
/// a move in this position.
pub(crate) struct Layout {
    side: Color,
    stacks: [[Stack; 9]; 7],
    doubled_files: u8,
}

impl Layout {
    pub fn new(pos: &Position) -> Layout {
        let side = pos.side_to_move();
        let mut stacks = [[Stack::default(); 9]; 7];
        for kind in Kind::ALL {
            for s in pos.squares_of(side, kind) {
                let stack = &mut stacks[kind.index()][s.x() as usize];
                // More than five of a kind cannot stand on a validated board; ignore extras
                // rather than index out of bounds.
                if (stack.len as usize) < stack.ranks.len() {
                    stack.ranks[stack.len as usize] = s.y();
                    stack.len += 1;
                }
            }
        }
        for file in stacks.iter_mut().flatten() {
            let ranks = &mut file.ranks[..file.len as usize];
            match side {
                Color::Red => ranks.sort_unstable_by(|a, b| b.cmp(a)),
                Color::Black => ranks.sort_unstable(),
            }
        }
        let doubled_files = stacks[Kind::Soldier.index()]
            .iter()
            .filter(|s| s.len >= 2)
            .count() as u8;
        Layout {
            side,
            stacks,
            doubled_files,
        }
    }

    pub fn side(&self) -> Color {
        self.side
    }

    /// Facts about the side to move's `kind` piece on `at`.
    pub fn facts(&self, kind: Kind, at: Square) -> PieceFacts {
        let stack = &self.stacks[kind.index()][at.x() as usize];
        let index = stack.ranks[..stack.len as usize]
            .iter()
            .position(|&y| y == at.y())
            .unwrap_or(0) as u8;
        let file = file_number(self.side, at.x());
        let mut series = 0;
        if kind == Kind::Soldier && self.doubled_files >= 2 && stack.len >= 2 {
            // Right to left from the mover's view is ascending file number.
            let before: u8 = (1..file)
                .map(|n| self.stacks[Kind::Soldier.index()][file_x(self.side, n) as usize].len)
                .filter(|&len| len >= 2)
                .sum();
            series = before + index + 1;
        }
        PieceFacts {
            kind,
            file,
            on_file: stack.len,
            index,
            doubled_files: self.doubled_files,
            series,
        }
    }

    /// Every piece of the side to move with its kind, front first on each file.
    pub fn pieces(&self) -> impl Iterator<Item = (Kind, Square)> + '_ {
        Kind::ALL.into_iter().flat_map(move |kind| {
            (0..9u8).flat_map(move |x| {
                let stack = &self.stacks[kind.index()][x as usize];
                stack.ranks[..stack.len as usize]
                    .iter()
                    .map(move |&y| (kind, Square::new(x, y)))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_numbers_follow_each_sides_right_hand() {
        assert_eq!(file_number(Color::Red, 7), 2); // h is Red's 二
        assert_eq!(file_number(Color::Black, 7), 8); // h is Black's 8
        for side in Color::BOTH {
            for x in 0..9 {
                assert_eq!(file_x(side, file_number(side, x)), x);
            }
        }
    }

    #[test]
    fn target_inverts_action_value_for_every_legal_move_of_the_start() {
        let pos = Position::startpos();
        for mv in pos.legal_move_list() {
            let kind = pos.piece_at(mv.from()).kind();
            let (action, value) = action_value(Color::Red, kind, mv.from(), mv.to());
            assert_eq!(
                target(Color::Red, kind, mv.from(), action, value),
                Ok(mv.to())
            );
        }
    }
}
