//! Writing a game as PGN: UTF-8, xqbase-style tags with `[Format]`, one numbered move pair
//! per line, the result at the end.

use std::fmt::Write;

use crate::board::{Color, Position};
use crate::notation::{MoveWriter, Notation};

use super::game::GameRecord;

fn format_tag(notation: Notation) -> &'static str {
    match notation {
        Notation::Chinese | Notation::ChineseTraditional => "Chinese",
        Notation::Wxf => "WXF",
        Notation::Iccs => "ICCS",
    }
}

/// Escapes a tag value: PGN allows `\"` and `\\` inside quotes.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

pub(crate) fn write_pgn(game: &GameRecord, notation: Notation) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    if game.tag("Game").is_none() {
        tag("Game", "Chinese Chess");
    }
    for (name, value) in &game.tags {
        tag(name, value);
    }
    tag("Result", game.result.as_str());
    let start_fen = game.start.to_fen();
    if start_fen != Position::START_FEN {
        tag("FEN", &start_fen);
    }
    tag("Format", format_tag(notation));
    out.push('\n');

    let mut pos = game.start.clone();
    let mut number = pos.fullmove_number().max(1);
    let mut line = String::new();
    for &mv in &game.moves {
        let text = MoveWriter::new(&pos).write(mv, notation);
        match pos.side_to_move() {
            Color::Red => {
                let _ = write!(line, "{number}. {text}");
            }
            Color::Black => {
                if line.is_empty() {
                    let _ = write!(line, "{number}. ... {text}");
                } else {
                    let _ = write!(line, " {text}");
                }
                out.push_str(&line);
                out.push('\n');
                line.clear();
                number += 1;
            }
        }
        pos.make_move(mv);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(game.result.as_str());
    out.push('\n');
    out
}
