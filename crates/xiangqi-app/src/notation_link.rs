//! The TUI's use of move notation: moves typed by the player, and lines of moves
//! (principal variations) printed from a position.

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{self, MoveError, Notation};

pub use xiangqi_core::notation::format_move;

/// The legal move `text` names in `pos`, in any notation the notation layer reads.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    notation::parse_move(pos, text.trim())
}

/// A line of moves starting in `pos` (a principal variation), in the chosen notation;
/// stops at the first move that is not legal there.
pub fn format_line(pos: &Position, moves: &[Move], chosen: Notation) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(format_move(&pos, mv, chosen));
        pos.make_move(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_variation_prints_move_by_move_and_stops_at_nonsense() {
        let pos = Position::startpos();
        let line: Vec<Move> = ["h2e2", "h9g7", "h2e2"]
            .iter()
            .map(|text| Move::parse_coords(text).unwrap())
            .collect();
        assert_eq!(
            format_line(&pos, &line, Notation::Chinese),
            ["炮二平五", "马8进7"]
        );
        assert_eq!(format_line(&pos, &line, Notation::Wxf), ["C2.5", "H8+7"]);
    }
}
