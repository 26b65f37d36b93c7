//! Explaining an illegal move: which rule of movement or safety a from→to move breaks.

use crate::board::{Color, Kind, Position, Square};

use super::error::IllegalReason;

/// Why moving the side to move's piece on `from` to `to` is illegal, or `None` if it is
/// legal. The checks run from the piece's pattern of movement, through the board, to the
/// safety of its own general.
pub(crate) fn explain(pos: &Position, from: Square, to: Square) -> Option<IllegalReason> {
    let piece = pos.piece_at(from);
    let side = pos.side_to_move();
    if piece.is_none() {
        return Some(IllegalReason::EmptySquare(from));
    }
    if piece.color() != side {
        return Some(IllegalReason::NotYourPiece(from));
    }
    if let Some(why) = pattern_error(side, piece.kind(), from, to) {
        return Some(IllegalReason::CannotMoveThatWay(why));
    }
    let target = pos.piece_at(to);
    if target.is_some() && target.color() == side {
        return Some(IllegalReason::OwnPieceOnTarget(to));
    }
    if let Some(reason) = board_error(pos, piece.kind(), from, to) {
        return Some(reason);
    }
    if pos.is_legal(crate::board::Move::new(from, to)) {
        return None;
    }
    let mut after = pos.clone();
    after.make_move(crate::board::Move::new(from, to));
    Some(if after.generals_face() {
        IllegalReason::GeneralsWouldFace
    } else {
        IllegalReason::LeavesGeneralInCheck
    })
}

/// Whether the move fits how the kind moves at all, on an empty board.
fn pattern_error(side: Color, kind: Kind, from: Square, to: Square) -> Option<&'static str> {
    let dx = (i32::from(to.x()) - i32::from(from.x())).abs();
    let dy_signed = i32::from(to.y()) - i32::from(from.y());
    let dy = dy_signed.abs();
    if dx == 0 && dy == 0 {
        return Some("a move must change the piece's point");
    }
    match kind {
        Kind::General => {
            if dx + dy != 1 {
                Some("the general moves one point along a file or rank")
            } else if !to.in_palace(side) {
                Some("the general must stay in the palace")
            } else {
                None
            }
        }
        Kind::Advisor => {
            if dx != 1 || dy != 1 {
                Some("an advisor moves one point diagonally")
            } else if !to.in_palace(side) {
                Some("an advisor must stay in the palace")
            } else {
                None
            }
        }
        Kind::Elephant => {
            if dx != 2 || dy != 2 {
                Some("an elephant moves exactly two points diagonally")
            } else if !to.on_own_side(side) {
                Some("an elephant cannot cross the river")
            } else {
                None
            }
        }
        Kind::Horse => {
            if (dx, dy) == (1, 2) || (dx, dy) == (2, 1) {
                None
            } else {
                Some("a horse moves one point straight, then one diagonally")
            }
        }
        Kind::Chariot | Kind::Cannon => {
            if dx != 0 && dy != 0 {
                Some("it moves along a file or a rank only")
            } else {
                None
            }
        }
        Kind::Soldier => {
            let forward = match side {
                Color::Red => dy_signed,
                Color::Black => -dy_signed,
            };
            if forward < 0 {
                Some("a soldier never moves backwards")
            } else if dx + dy != 1 {
                Some("a soldier moves one point at a time")
            } else if dx == 1 && from.on_own_side(side) {
                Some("a soldier moves sideways only after crossing the river")
            } else {
                None
            }
        }
    }
}

/// Whether other pieces stop a move that fits the kind's pattern.
fn board_error(pos: &Position, kind: Kind, from: Square, to: Square) -> Option<IllegalReason> {
    let (fx, fy) = (i32::from(from.x()), i32::from(from.y()));
    let (tx, ty) = (i32::from(to.x()), i32::from(to.y()));
    match kind {
        Kind::Horse => {
            // The leg is the point next to the origin in the direction of the long step.
            let leg = if (tx - fx).abs() == 2 {
                Square::new(((fx + tx) / 2) as u8, from.y())
            } else {
                Square::new(from.x(), ((fy + ty) / 2) as u8)
            };
            pos.piece_at(leg)
                .is_some()
                .then_some(IllegalReason::HorseLegBlocked(leg))
        }
        Kind::Elephant => {
            let eye = Square::new(((fx + tx) / 2) as u8, ((fy + ty) / 2) as u8);
            pos.piece_at(eye)
                .is_some()
                .then_some(IllegalReason::ElephantEyeBlocked(eye))
        }
        Kind::Chariot | Kind::Cannon => {
            let between: Vec<Square> = points_between(from, to)
                .filter(|&s| pos.piece_at(s).is_some())
                .collect();
            let capture = pos.piece_at(to).is_some();
            if kind == Kind::Cannon && capture {
                (between.len() != 1).then_some(IllegalReason::CannonScreens(between.len() as u32))
            } else {
                between.first().map(|&s| IllegalReason::PathBlocked(s))
            }
        }
        Kind::General | Kind::Advisor | Kind::Soldier => None,
    }
}

/// The points strictly between two points of one line, nearest `from` first.
fn points_between(from: Square, to: Square) -> impl Iterator<Item = Square> {
    let (fx, fy) = (i32::from(from.x()), i32::from(from.y()));
    let (tx, ty) = (i32::from(to.x()), i32::from(to.y()));
    let (sx, sy) = ((tx - fx).signum(), (ty - fy).signum());
    let steps = (tx - fx).abs().max((ty - fy).abs());
    (1..steps).filter_map(move |k| Square::try_new(fx + sx * k, fy + sy * k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'0')
    }

    #[test]
    fn start_position_reasons() {
        let pos = Position::startpos();
        assert_eq!(explain(&pos, sq("h2"), sq("e2")), None);
        assert_eq!(
            explain(&pos, sq("h0"), sq("f1")),
            Some(IllegalReason::HorseLegBlocked(sq("g0")))
        );
        assert_eq!(
            explain(&pos, sq("i0"), sq("i5")),
            Some(IllegalReason::PathBlocked(sq("i3")))
        );
        assert_eq!(
            explain(&pos, sq("h2"), sq("h7")),
            Some(IllegalReason::CannonScreens(0))
        );
        assert_eq!(explain(&pos, sq("h2"), sq("h9")), None);
        assert_eq!(
            explain(&pos, sq("e3"), sq("d3")),
            Some(IllegalReason::CannotMoveThatWay(
                "a soldier moves sideways only after crossing the river"
            ))
        );
        assert_eq!(
            explain(&pos, sq("e0"), sq("e2")),
            Some(IllegalReason::CannotMoveThatWay(
                "the general moves one point along a file or rank"
            ))
        );
        let open = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(
            explain(&open, sq("d0"), sq("e0")),
            Some(IllegalReason::GeneralsWouldFace)
        );
        let pinned = Position::from_fen("4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        assert_eq!(
            explain(&pinned, sq("e1"), sq("d1")),
            Some(IllegalReason::LeavesGeneralInCheck)
        );
    }
}
