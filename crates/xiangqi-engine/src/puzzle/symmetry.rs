//! One puzzle, four boards: a position, its left-right mirror, and both seen from the
//! other chair (colours swapped, board turned) are the same puzzle.

use crate::eval::{colour_flipped, mirrored_files};
use xiangqi_core::board::Position;

/// The smallest Zobrist key of the position and its three images: equal for positions
/// that are the same puzzle.
pub fn canonical_key(pos: &Position) -> u64 {
    let flipped = colour_flipped(pos);
    [
        pos.key(),
        mirrored_files(pos).key(),
        flipped.key(),
        mirrored_files(&flipped).key(),
    ]
    .into_iter()
    .min()
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_share_the_key_and_other_positions_do_not() {
        let pos = Position::from_fen("3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1").unwrap();
        let key = canonical_key(&pos);
        assert_eq!(canonical_key(&mirrored_files(&pos)), key);
        assert_eq!(canonical_key(&colour_flipped(&pos)), key);
        let other = Position::from_fen("3aka3/9/4C4/9/9/C8/9/9/9/4K4 w - - 0 1").unwrap();
        assert_ne!(canonical_key(&other), key);
    }
}
