//! The piece array: 32 slots, one per piece of the opening set (Red's chariot, horse,
//! elephant, advisor, general, advisor, elephant, horse, chariot, two cannons, five
//! soldiers, then Black's the same), each holding the square `x * 10 + y` the piece stands
//! on (x the file from Red's left, y the rank from Red's side) or 90 and more when it is
//! off the board. Version 11 and later add a key to each square; version 12 and later
//! also rotate the slots by it.

use crate::board::{Color, FenError, Kind, Piece, Position, Square};

use super::keys::{FIRST_ROTATED, Keys};

/// The pieces of the 32 slots, in slot order.
const SLOTS: [(Color, Kind); 32] = {
    use Color::{Black, Red};
    use Kind::*;
    const SET: [Kind; 16] = [
        Chariot, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Chariot, Cannon,
        Cannon, Soldier, Soldier, Soldier, Soldier, Soldier,
    ];
    let mut out = [(Red, Chariot); 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (if i < 16 { Red } else { Black }, SET[i % 16]);
        i += 1;
    }
    out
};

/// The byte for an empty slot (a piece off the board), as XQF.TXT writes it.
const OFF_BOARD: u8 = 0xff;

/// The square of an XQF square byte, if it is on the board.
pub fn square(byte: u8) -> Option<Square> {
    (byte < 90).then(|| Square::new(byte / 10, byte % 10))
}

/// The XQF byte of a square.
pub fn byte(square: Square) -> u8 {
    square.x() * 10 + square.y()
}

/// The slot of the stored array that piece `slot` of `SLOTS` is kept in.
fn stored_slot(slot: usize, version: u8, keys: &Keys) -> usize {
    if version >= FIRST_ROTATED {
        // Stored slot i holds piece (key + 1 + i) % 32.
        (slot + 64 - 1 - usize::from(keys.piece) % 32) % 32
    } else {
        slot
    }
}

/// The board the stored array describes, or what is wrong with it (the stored slot, from 0,
/// and why).
pub fn read_board(
    stored: &[u8; 32],
    version: u8,
    keys: &Keys,
) -> Result<[Piece; 90], (usize, String)> {
    let mut board = [Piece::NONE; 90];
    let mut owner = [usize::MAX; 90];
    for (slot, &(color, kind)) in SLOTS.iter().enumerate() {
        let at = stored_slot(slot, version, keys);
        let Some(sq) = square(stored[at].wrapping_sub(keys.piece)) else {
            continue;
        };
        if owner[sq.index()] != usize::MAX {
            let other = SLOTS[owner[sq.index()]];
            return Err((
                at,
                format!(
                    "two pieces on {sq}: {} {} and {} {}",
                    other.0.name(),
                    other.1.name(),
                    color.name(),
                    kind.name()
                ),
            ));
        }
        owner[sq.index()] = slot;
        board[sq.index()] = Piece::new(color, kind);
    }
    Ok(board)
}

/// The position of `board` with `side` to move, checked as a FEN would be.
pub fn position(board: &[Piece; 90], side: Color) -> Result<Position, FenError> {
    let side = if side == Color::Black { 'b' } else { 'w' };
    Position::from_fen(&format!("{} {side}", crate::board::placement(board)))
}

/// The stored array of `pos`: each piece in the first free slot of its kind (a position
/// holds no more of a kind than the opening set), each side's pieces taken from its own
/// right to left as XQF.TXT lists the opening; empty slots off the board.
pub fn write_board(pos: &Position, version: u8, keys: &Keys) -> [u8; 32] {
    let mut plain = [OFF_BOARD; 32];
    let red = (0..9)
        .rev()
        .flat_map(|x| (0..10).map(move |y| (Color::Red, Square::new(x, y))));
    let black = (0..9).flat_map(|x| {
        (0..10)
            .rev()
            .map(move |y| (Color::Black, Square::new(x, y)))
    });
    for (color, sq) in red.chain(black) {
        let piece = pos.piece_at(sq);
        if piece.is_none() || piece.color() != color {
            continue;
        }
        if let Some(slot) =
            (0..32).find(|&s| plain[s] == OFF_BOARD && SLOTS[s] == (piece.color(), piece.kind()))
        {
            plain[slot] = byte(sq);
        }
    }
    let mut stored = [0u8; 32];
    for (slot, &value) in plain.iter().enumerate() {
        stored[stored_slot(slot, version, keys)] = value.wrapping_add(keys.piece);
    }
    stored
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The opening position as XQF.TXT lists it (bytes 0x10..0x30 of its sample).
    const OPENING: [u8; 32] = [
        80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59, 69,
        79, 89, 17, 77, 6, 26, 46, 66, 86,
    ];

    #[test]
    fn the_sample_array_is_the_opening_position() {
        let board = read_board(&OPENING, 10, &Keys::plain()).unwrap();
        assert_eq!(position(&board, Color::Red).unwrap(), Position::startpos());
    }

    #[test]
    fn written_arrays_read_back_in_every_version() {
        let start = Position::startpos();
        for version in [10, 11, 12, 18] {
            let mut tag = [0u8; 16];
            tag[2] = version;
            tag[12..].copy_from_slice(&[9, 200, 31, 77]);
            let keys = Keys::from_tag(&tag);
            let stored = write_board(&start, version, &keys);
            let board = read_board(&stored, version, &keys).unwrap();
            assert_eq!(position(&board, Color::Red).unwrap(), start, "v{version}");
        }
    }

    #[test]
    fn two_pieces_on_a_square_are_refused() {
        let mut array = OPENING;
        array[1] = 80;
        assert_eq!(
            read_board(&array, 10, &Keys::plain()),
            Err((1, "two pieces on i0: Red chariot and Red horse".to_string()))
        );
    }
}
