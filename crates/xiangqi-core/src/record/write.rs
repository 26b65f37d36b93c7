//! Writing a game as PGN: UTF-8, xqbase-style tags with `[Format]`, one numbered move pair
//! per line with its NAGs (`$n`), comments `{...}` and variations `(...)`, the result at the
//! end.

use std::fmt::Write;

use crate::board::{Color, Move, Position};
use crate::date::Date;
use crate::notation::{MoveWriter, Notation};

use super::annotation::{Annotation, note};
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

    if let Some(comment) = &game.comment
        && !write_comment(&mut out, comment)
    {
        out.push('\n');
    }
    let number = game.start.fullmove_number().max(1);
    let mut text = Text {
        out,
        at_line_start: true,
    };
    text.line(
        &game.start,
        number,
        &game.moves,
        &game.notes,
        notation,
        true,
    );
    let mut out = text.out;
    if !text.at_line_start {
        out.push('\n');
    }
    out.push_str(game.result.as_str());
    out.push('\n');
    out
}

/// Writes a comment in braces; one holding a `}` (which braces cannot carry) as a `;`
/// comment when it fits on one line, else with its `}` made `)`.
fn write_comment(out: &mut String, comment: &str) -> bool {
    if !comment.contains('}') {
        let _ = write!(out, "{{{comment}}}");
        false
    } else if !comment.contains('\n') {
        let _ = writeln!(out, "; {comment}");
        true
    } else {
        let _ = write!(out, "{{{}}}", comment.replace('}', ")"));
        false
    }
}

/// Move text being written, and whether it stands at the start of a line.
struct Text {
    out: String,
    at_line_start: bool,
}

impl Text {
    /// Starts a new token: a space unless the line is fresh.
    fn token(&mut self) -> &mut String {
        if !self.at_line_start {
            self.out.push(' ');
        }
        self.at_line_start = false;
        &mut self.out
    }

    fn comment(&mut self, comment: &str) {
        let out = self.token();
        if write_comment(out, comment) {
            self.at_line_start = true;
        }
    }

    /// Writes `moves` from `start` (whose move number is `number`) with their notes; the
    /// main line breaks after each Black move, a variation stays on its line.
    fn line(
        &mut self,
        start: &Position,
        mut number: u16,
        moves: &[Move],
        notes: &[Annotation],
        notation: Notation,
        main: bool,
    ) {
        let mut pos = start.clone();
        // Black's move needs its number after a comment or variation, or first in a line.
        let mut numbered = false;
        for (i, &mv) in moves.iter().enumerate() {
            let text = MoveWriter::new(&pos).write(mv, notation);
            let side = pos.side_to_move();
            let out = self.token();
            match side {
                Color::Red => {
                    let _ = write!(out, "{number}. {text}");
                }
                Color::Black if numbered => out.push_str(&text),
                // xqbase style at the start of a game, `12...` elsewhere.
                Color::Black if main && i == 0 => {
                    let _ = write!(out, "{number}. ... {text}");
                }
                Color::Black => {
                    let _ = write!(out, "{number}... {text}");
                }
            }
            numbered = true;
            if let Some(note) = note(notes, i) {
                for nag in &note.nags {
                    let _ = write!(self.token(), "${nag}");
                }
                if let Some(comment) = &note.comment {
                    self.comment(comment);
                }
                for variation in &note.variations {
                    self.token().push('(');
                    self.at_line_start = true;
                    if let Some(comment) = &variation.comment {
                        self.comment(comment);
                    }
                    self.line(
                        &pos,
                        number,
                        &variation.moves,
                        &variation.notes,
                        notation,
                        false,
                    );
                    self.out.push(')');
                    self.at_line_start = false;
                }
                numbered = note.comment.is_none() && note.variations.is_empty();
            }
            pos.make_move(mv);
            if side == Color::Black {
                number += 1;
                numbered = false;
                if main {
                    self.out.push('\n');
                    self.at_line_start = true;
                }
            }
        }
    }
}

/// A day as PGN's `Date` tag writes it, `YYYY.MM.DD`, from seconds since 1970 (UTC).
pub fn pgn_date(unix_seconds: u64) -> String {
    let Date { year, month, day } = Date::from_unix(unix_seconds);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::pgn_date;

    #[test]
    fn dates_are_pgn_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_795_000_000), "2026.11.18");
    }
}
