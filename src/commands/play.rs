//! The default command. Until the terminal UI lands it prints the start position and its
//! legal moves, so a first run shows the rules core at work.

use anyhow::Result;
use xiangqi_tui::board::{Position, Square};

pub fn run() -> Result<()> {
    let pos = Position::startpos();
    println!("{}", board_text(&pos));
    let moves: Vec<String> = pos.legal_move_list().iter().map(|m| m.iccs()).collect();
    println!("{} legal moves: {}", moves.len(), moves.join(" "));
    Ok(())
}

/// The board as text: Black at the top, upper case Red, lower case Black.
fn board_text(pos: &Position) -> String {
    let mut out = String::new();
    for y in (0..10u8).rev() {
        out.push_str(&format!("{y} "));
        for x in 0..9u8 {
            let p = pos.piece_at(Square::new(x, y));
            out.push(if p.is_some() { p.fen_char() } else { '.' });
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("  a b c d e f g h i\n");
    out.push_str(&pos.to_fen());
    out
}
