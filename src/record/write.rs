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

/// A day as PGN's `Date` tag writes it, `YYYY.MM.DD`, from seconds since 1970 (UTC).
pub fn pgn_date(unix_seconds: u64) -> String {
    // Howard Hinnant's civil_from_days.
    let days = (unix_seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
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
