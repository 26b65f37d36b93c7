//! Game files the TUI reads and writes: the autosave, PGN export, loading a game.
//!
//! TEMPORARY until `crate::record` is merged: the autosave is a small text format (a FEN
//! line and the moves in ICCS), PGN is written with ICCS moves, and reading accepts a
//! FEN, the autosave format, or PGN whose moves `notation_link::parse_move` reads.
//! Swap the bodies for the record module's PGN reader and writer.

use std::fmt;

use crate::board::{Move, Position};

use super::game::GameRecord;
use super::notation_link;

/// The first line of an autosave file.
const AUTOSAVE_HEADER: &str = "xiangqi-tui autosave 1";

/// Why a game file could not be read: what, and on which line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line, when one is to blame.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

fn error(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line: Some(line),
        message: message.into(),
    }
}

/// The game as the autosave file holds it.
pub fn autosave_text(game: &GameRecord) -> String {
    let moves: Vec<String> = game.moves().map(Move::iccs).collect();
    format!(
        "{AUTOSAVE_HEADER}\nfen {}\nmoves {}\n",
        game.start().to_fen(),
        moves.join(" ")
    )
}

/// The game as PGN.
pub fn pgn_text(game: &GameRecord) -> String {
    let start = game.start().to_fen();
    let result = game
        .position()
        .outcome()
        .map_or("*", |outcome| outcome.pgn_result());
    let mut out = String::from("[Game \"Chinese Chess\"]\n[Event \"xiangqi-tui\"]\n");
    out.push_str(&format!("[Result \"{result}\"]\n"));
    if start != Position::START_FEN {
        out.push_str(&format!("[FEN \"{start}\"]\n"));
    }
    out.push_str("[Format \"ICCS\"]\n\n");
    let mut words = Vec::new();
    let black_first = game.start().side_to_move() == crate::board::Color::Black;
    let mut number = game.start().fullmove_number();
    for (ply, mv) in game.moves().enumerate() {
        let red_move = (ply % 2 == 0) != black_first;
        if red_move {
            words.push(format!("{number}."));
        } else if ply == 0 {
            words.push(format!("{number}. ..."));
        }
        if !red_move {
            number += 1;
        }
        let iccs = mv.iccs().to_ascii_uppercase();
        words.push(format!("{}-{}", &iccs[..2], &iccs[2..]));
    }
    words.push(result.to_owned());
    // Lines of at most 80 characters, as PGN asks.
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Reads a game: a FEN on its own, an autosave file, or a PGN game.
pub fn read_game(text: &str) -> Result<GameRecord, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().next().unwrap_or("").trim();
    if first == AUTOSAVE_HEADER {
        return read_autosave(text);
    }
    if !first.starts_with('[')
        && let Ok(position) = Position::from_fen(first)
        && text.lines().skip(1).all(|line| line.trim().is_empty())
    {
        return Ok(GameRecord::new(position));
    }
    read_pgn(text)
}

fn read_autosave(text: &str) -> Result<GameRecord, RecordError> {
    let mut start = None;
    let mut moves = Vec::new();
    for (index, line) in text.lines().enumerate().skip(1) {
        let number = index + 1;
        if let Some(fen) = line.strip_prefix("fen ") {
            let position =
                Position::from_fen(fen).map_err(|e| error(number, format!("bad FEN: {e}")))?;
            start = Some(position);
        } else if let Some(list) = line.strip_prefix("moves") {
            for word in list.split_whitespace() {
                let mv = Move::parse_coords(word)
                    .ok_or_else(|| error(number, format!("'{word}' is not a move")))?;
                moves.push((number, mv));
            }
        } else if !line.trim().is_empty() {
            return Err(error(number, format!("unexpected line '{line}'")));
        }
    }
    let start = start.ok_or_else(|| RecordError {
        line: None,
        message: "no 'fen' line".into(),
    })?;
    let list: Vec<Move> = moves.iter().map(|(_, mv)| *mv).collect();
    GameRecord::with_moves(start, &list).map_err(|illegal| {
        error(
            moves[illegal.index].0,
            format!("move {} ({}) is illegal", illegal.index + 1, illegal.mv),
        )
    })
}

fn read_pgn(text: &str) -> Result<GameRecord, RecordError> {
    let mut game: Option<GameRecord> = None;
    let mut depth = 0usize; // inside ( ) variations
    let mut in_comment = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        if !in_comment && depth == 0 && trimmed.starts_with('[') {
            if let Some(fen) = tag_value(trimmed, "FEN") {
                let position =
                    Position::from_fen(fen).map_err(|e| error(number, format!("bad FEN: {e}")))?;
                game = Some(GameRecord::new(position));
            }
            continue;
        }
        if trimmed.starts_with(';') {
            continue;
        }
        for word in trimmed.split_whitespace() {
            if in_comment {
                in_comment = !word.contains('}');
                continue;
            }
            if word.starts_with('{') {
                in_comment = !word.contains('}');
                continue;
            }
            depth += word.matches('(').count();
            let closes = word.matches(')').count();
            if depth > 0 || closes > 0 {
                depth = depth.saturating_sub(closes);
                continue;
            }
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if word.is_empty()
                || word.starts_with('$')
                || matches!(word, "*" | "1-0" | "0-1" | "1/2-1/2" | "...")
            {
                continue;
            }
            let game = game.get_or_insert_with(|| GameRecord::new(Position::startpos()));
            let mv = notation_link::parse_move(game.position(), word)
                .map_err(|e| error(number, e.message().to_owned()))?;
            game.play(mv);
        }
    }
    game.ok_or_else(|| RecordError {
        line: None,
        message: "no game found (expected a FEN or a PGN game)".into(),
    })
}

fn tag_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let rest = line.strip_prefix('[')?.strip_prefix(name)?;
    let rest = rest.trim_start();
    let value = rest.strip_prefix('"')?;
    value.split('"').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> GameRecord {
        let moves: Vec<Move> = moves
            .iter()
            .map(|text| Move::parse_coords(text).unwrap())
            .collect();
        GameRecord::with_moves(Position::startpos(), &moves).unwrap()
    }

    fn iccs(game: &GameRecord) -> Vec<String> {
        game.moves().map(Move::iccs).collect()
    }

    #[test]
    fn autosave_and_pgn_read_back() {
        let original = game(&["h2e2", "h9g7", "h0g2"]);
        let back = read_game(&autosave_text(&original)).unwrap();
        assert_eq!(iccs(&back), ["h2e2", "h9g7", "h0g2"]);
        let pgn = pgn_text(&original);
        assert!(pgn.contains("1. H2-E2 H9-G7 2. H0-G2 *"), "{pgn}");
        assert_eq!(iccs(&read_game(&pgn).unwrap()), ["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn a_game_from_a_fen_keeps_its_start() {
        let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1";
        let start = read_game(fen).unwrap();
        assert_eq!(start.start().to_fen(), fen);
        let mut played = start.clone();
        played.play(Move::parse_coords("e9e8").unwrap());
        let pgn = pgn_text(&played);
        assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
        assert!(pgn.contains("1. ... E9-E8"), "{pgn}");
        assert_eq!(read_game(&pgn).unwrap().start().to_fen(), fen);
    }

    #[test]
    fn errors_say_which_line() {
        let text = format!(
            "{AUTOSAVE_HEADER}\nfen {}\nmoves h2e2 h2e2\n",
            Position::START_FEN
        );
        let error = read_game(&text).unwrap_err();
        assert_eq!(error.to_string(), "line 3: move 2 (h2e2) is illegal");
        let error = read_game("[Event \"x\"]\n\n1. h2e2 zz9\n").unwrap_err();
        assert_eq!(error.line, Some(3));
        assert!(read_game("").is_err());
        assert!(read_game("\u{feff}[Event \"x\"]\n1. h2e2 {a comment} (1... b9c7) h9g7 *").is_ok());
    }
}
