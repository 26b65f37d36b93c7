//! Move notation (docs/notation.md): reading any move a player types, in Chinese, WXF or
//! ICCS notation, against the position it is played in; and printing a move in canonical
//! Chinese (simplified or traditional), WXF or ICCS.
//!
//! ```
//! use xiangqi_core::board::Position;
//! use xiangqi_core::notation::{Notation, format_move, parse_move};
//!
//! let pos = Position::startpos();
//! let mv = parse_move(&pos, "炮二平五").unwrap();
//! assert_eq!(mv, parse_move(&pos, "C2.5").unwrap());
//! assert_eq!(mv, parse_move(&pos, "h2e2").unwrap());
//! assert_eq!(format_move(&pos, mv, Notation::Wxf), "C2.5");
//! ```

mod chinese;
mod diagnose;
mod error;
mod iccs;
mod layout;
mod resolve;
mod text;
mod wxf;

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Move, Position};

pub use chinese::Script;
pub use error::{Candidate, IllegalReason, MoveError};
pub use iccs::format_uci;
use layout::{Convention, Layout};

/// A notation to print moves in, or to read them in when the caller knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Chinese in simplified characters (`炮二平五`, `马8进7`): the canonical form.
    #[default]
    Chinese,
    /// Chinese in traditional characters (`炮二平五`, `馬8進7`).
    ChineseTraditional,
    /// WXF letters (`C2.5`, `H8+7`).
    Wxf,
    /// ICCS/UCCI coordinates with ranks 0-9 (`h2e2`).
    Iccs,
}

impl Notation {
    /// The characters Chinese text goes with this notation in: traditional for
    /// `ChineseTraditional`, simplified otherwise.
    pub fn script(self) -> Script {
        match self {
            Notation::ChineseTraditional => Script::Traditional,
            _ => Script::Simplified,
        }
    }

    /// The name `FromStr` reads.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Chinese => "chinese",
            Notation::ChineseTraditional => "traditional",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown notation '{0}': expected chinese, traditional, wxf or iccs")]
pub struct UnknownNotation(pub String);

impl FromStr for Notation {
    type Err = UnknownNotation;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chinese" | "zh" | "simplified" => Ok(Notation::Chinese),
            "traditional" | "chinese-traditional" => Ok(Notation::ChineseTraditional),
            "wxf" => Ok(Notation::Wxf),
            "iccs" | "ucci" => Ok(Notation::Iccs),
            _ => Err(UnknownNotation(s.to_string())),
        }
    }
}

/// Prints moves of one position; build it once to print many of its moves.
pub struct MoveWriter<'a> {
    pos: &'a Position,
    layout: Layout,
}

impl<'a> MoveWriter<'a> {
    pub fn new(pos: &'a Position) -> MoveWriter<'a> {
        MoveWriter {
            pos,
            layout: Layout::new(pos),
        }
    }

    /// The move in canonical form. A move that does not start from a piece of the side to
    /// move has no Chinese or WXF form and is printed in ICCS.
    pub fn write(&self, mv: Move, notation: Notation) -> String {
        let convention = match notation {
            Notation::Iccs => return mv.iccs(),
            Notation::Wxf => Convention::Wxf,
            Notation::Chinese | Notation::ChineseTraditional => Convention::Chinese,
        };
        let Some(written) = resolve::written_form(self.pos, &self.layout, mv, convention) else {
            return mv.iccs();
        };
        let side = self.layout.side();
        match notation {
            Notation::Wxf => wxf::spell(&written),
            Notation::ChineseTraditional => chinese::spell(&written, side, Script::Traditional),
            _ => chinese::spell(&written, side, Script::Simplified),
        }
    }
}

/// A move of `pos` in canonical form (see [`MoveWriter::write`]).
pub fn format_move(pos: &Position, mv: Move, notation: Notation) -> String {
    MoveWriter::new(pos).write(mv, notation)
}

/// Reads a move in any accepted notation, detected from the text, and returns the one
/// legal move it names in `pos`.
///
/// Chinese (simplified or traditional characters, every piece-name variant, full-width or
/// ASCII digits, 上/下, 前/中/后, 一…五, the doubled-file forms), WXF (`H2+3`, `C2.5`,
/// `C2=5`, `C25`, `C+.5`, `+C.5`, `3+.4`, either case) and ICCS (`h2e2`, `H2-E2`) are
/// accepted, with trailing check marks and comments. Text that names several legal moves
/// is [`MoveError::Ambiguous`]: this never guesses.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    parse(pos, text, None)
}

/// Reads a move in a notation the caller knows (say from a PGN `[Format]` tag) instead of
/// detecting it.
pub fn parse_move_as(pos: &Position, text: &str, notation: Notation) -> Result<Move, MoveError> {
    parse(pos, text, Some(notation))
}

/// Reads a UCI move with ranks 1-10 (`h3e3` is ICCS `h2e2`), as Fairy-Stockfish writes
/// them. Only for engines known to speak it: `parse_move` never reads this form.
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let chars = text::prepare(text);
    let mv = iccs::read_uci(&chars, text::end_column(text))
        .map_err(|(column, reason)| malformed(text, column, reason))?;
    resolve::resolve_coords(pos, text, mv)
}

fn malformed(text: &str, column: usize, reason: String) -> MoveError {
    MoveError::Malformed {
        input: text.to_string(),
        column,
        reason,
    }
}

fn parse(pos: &Position, text: &str, notation: Option<Notation>) -> Result<Move, MoveError> {
    let chars = text::prepare(text);
    let end = text::end_column(text);
    if chars.is_empty() {
        return Err(malformed(text, 1, "empty move".to_string()));
    }
    let to_error = |(column, reason): (usize, String)| malformed(text, column, reason);
    match notation.unwrap_or_else(|| detect(&chars)) {
        Notation::Iccs => {
            let mv = iccs::read(&chars, end).map_err(to_error)?;
            resolve::resolve_coords(pos, text, mv)
        }
        Notation::Wxf => {
            let written = wxf::read(&chars, end).map_err(to_error)?;
            resolve::resolve(pos, text, Convention::Wxf, written)
        }
        Notation::Chinese | Notation::ChineseTraditional => {
            let written = chinese::read(&chars, end).map_err(to_error)?;
            resolve::resolve(pos, text, Convention::Chinese, written)
        }
    }
}

/// Chinese moves start with a CJK character, or with an ordinal digit and then one
/// (`２卒平5`); coordinates have their own shape; everything else is read as WXF.
fn detect(chars: &[text::InputChar]) -> Notation {
    let non_ascii = |i: usize| chars.get(i).is_some_and(|c| !c.ch.is_ascii());
    if non_ascii(0) || (chars[0].ch.is_ascii_digit() && non_ascii(1)) {
        Notation::Chinese
    } else if iccs::looks_like_iccs(chars) {
        Notation::Iccs
    } else {
        Notation::Wxf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_names_round_trip() {
        for n in [
            Notation::Chinese,
            Notation::ChineseTraditional,
            Notation::Wxf,
            Notation::Iccs,
        ] {
            assert_eq!(n.name().parse::<Notation>(), Ok(n));
        }
        assert!("klingon".parse::<Notation>().is_err());
    }

    #[test]
    fn start_position_examples() {
        let pos = Position::startpos();
        let mv = parse_move(&pos, "h2e2").unwrap();
        assert_eq!(format_move(&pos, mv, Notation::Chinese), "炮二平五");
        assert_eq!(format_move(&pos, mv, Notation::Wxf), "C2.5");
        assert_eq!(format_move(&pos, mv, Notation::Iccs), "h2e2");
        for text in [
            "炮二平五",
            "炮2平5",
            "砲二平五",
            "C2.5",
            "c2=5",
            "C25",
            "H2-E2",
        ] {
            assert_eq!(parse_move(&pos, text), Ok(mv), "{text}");
        }
        assert_eq!(parse_uci_move(&pos, "h3e3"), Ok(mv));
        assert_eq!(format_uci(mv), "h3e3");
    }
}
