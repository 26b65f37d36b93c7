//! Left-right mirror merging: a position and its mirror image (file x becomes 8 - x) are
//! one book position. Entries are stored under the smaller of the two Zobrist keys, with
//! moves written as they are played in that canonical one; a lookup from the other side
//! mirrors them back.

use crate::eval::mirrored_files;
use xiangqi_core::board::{Move, Position, Square};

/// The point on the mirrored file, same rank.
pub fn mirror_square(s: Square) -> Square {
    Square::new(8 - s.x(), s.y())
}

/// The move mirrored left to right.
pub fn mirror_move(mv: Move) -> Move {
    Move::new(mirror_square(mv.from()), mirror_square(mv.to()))
}

/// How a position is filed in the book: the canonical key, and whether its moves must
/// be mirrored to be written in the canonical frame (and back when read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookKey {
    pub key: u64,
    pub mirrored: bool,
}

impl BookKey {
    /// From the keys of a position and of its mirror image. A symmetric position (the
    /// start) is its own mirror: its moves are kept as played, so h2e2 and b2e2 stay
    /// two entries there.
    pub fn from_keys(key: u64, mirror_key: u64) -> BookKey {
        if mirror_key < key {
            BookKey {
                key: mirror_key,
                mirrored: true,
            }
        } else {
            BookKey {
                key,
                mirrored: false,
            }
        }
    }

    pub fn of(pos: &Position) -> BookKey {
        BookKey::from_keys(pos.key(), mirrored_files(pos).key())
    }

    /// A move of the position as stored (or a stored move as played: mirroring is its
    /// own inverse).
    pub fn convert(self, mv: Move) -> Move {
        if self.mirrored { mirror_move(mv) } else { mv }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_positions_share_a_key() {
        let mut left = Position::startpos();
        left.make_move(Move::parse_coords("b2e2").unwrap());
        let mut right = Position::startpos();
        right.make_move(Move::parse_coords("h2e2").unwrap());
        let (l, r) = (BookKey::of(&left), BookKey::of(&right));
        assert_eq!(l.key, r.key);
        assert_ne!(l.mirrored, r.mirrored);
        // The same reply, seen from each side, is stored as one move.
        let reply = Move::parse_coords("h9g7").unwrap();
        assert_eq!(l.convert(mirror_move(reply)), r.convert(reply));
        let start = BookKey::of(&Position::startpos());
        assert!(!start.mirrored);
        assert_eq!(start.key, Position::startpos().key());
    }

    #[test]
    fn mirroring_twice_is_the_identity() {
        let mv = Move::parse_coords("a0a1").unwrap();
        assert_eq!(mirror_move(mv).iccs(), "i0i1");
        assert_eq!(mirror_move(mirror_move(mv)), mv);
    }
}
