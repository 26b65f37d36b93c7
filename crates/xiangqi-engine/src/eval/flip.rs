//! Symmetry helpers: the colour-flipped mirror of a position (Red and Black swap pieces,
//! the board turns top to bottom, the other side moves) and the left-right mirror. A
//! symmetric evaluation scores both the same from the side to move.

use xiangqi_core::board::Position;

/// The position with colours swapped and ranks mirrored (rank y becomes 9 - y), with the
/// other colour to move: the same game seen from the other chair. Move history is not
/// carried over.
pub fn colour_flipped(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields = fen.split(' ');
    let board = fields.next().unwrap_or_default();
    let side = fields.next().unwrap_or("w");
    let rest: Vec<&str> = fields.collect();
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    let flipped = format!("{} {side} {}", ranks.join("/"), rest.join(" "));
    Position::from_fen(&flipped).expect("the colour flip of a valid position is valid")
}

/// The position mirrored left to right (file x becomes 8 - x), same side to move.
pub fn mirrored_files(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let (board, rest) = fen.split_once(' ').unwrap_or((&fen, "w"));
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let mirrored = format!("{} {rest}", ranks.join("/"));
    Position::from_fen(&mirrored).expect("the mirror of a valid position is valid")
}
