//! Coordinate notations (§3): ICCS/UCCI with ranks 0-9 (`h2e2`, `H2-E2`), and the UCI form
//! with ranks 1-10 (`h3e3`, `a10a9`) that Fairy-Stockfish speaks. The two are never told
//! apart by guessing: the UCI form is read only when a caller asks for it.

use crate::board::{Move, Square};

use super::text::{InputChar, check_tail};

/// True if the characters start like an ICCS move (`h2e2`, `h2-e2`), which no WXF or
/// Chinese move does.
pub(crate) fn looks_like_iccs(chars: &[InputChar]) -> bool {
    let file = |i: usize| chars.get(i).is_some_and(|c| file_of(c.ch).is_some());
    let rank = |i: usize| chars.get(i).is_some_and(|c| c.ch.is_ascii_digit());
    file(0) && rank(1) && (file(2) || (chars.get(2).is_some_and(|c| c.ch == '-') && file(3)))
}

fn file_of(c: char) -> Option<u8> {
    let c = c.to_ascii_lowercase();
    ('a'..='i').contains(&c).then(|| c as u8 - b'a')
}

/// Reads an ICCS move (ranks 0-9). Legality is not checked here.
pub(crate) fn read(chars: &[InputChar], end: usize) -> Result<Move, (usize, String)> {
    read_coords(chars, end, Ranks::Iccs)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ranks {
    /// 0-9, one digit.
    Iccs,
    /// 1-10, one or two digits.
    Uci,
}

fn read_coords(chars: &[InputChar], end: usize, ranks: Ranks) -> Result<Move, (usize, String)> {
    let mut i = 0;
    let fail = |i: usize, what: &str| -> (usize, String) {
        match chars.get(i) {
            Some(c) => (c.column, format!("unexpected '{}': expected {what}", c.ch)),
            None => (end, format!("the move stops too early: expected {what}")),
        }
    };
    let square = |i: &mut usize| -> Result<Square, (usize, String)> {
        let x = chars
            .get(*i)
            .and_then(|c| file_of(c.ch))
            .ok_or_else(|| fail(*i, "a file letter a-i"))?;
        *i += 1;
        let digit = |i: usize| chars.get(i).and_then(|c| c.ch.to_digit(10));
        let y = match ranks {
            Ranks::Iccs => digit(*i).ok_or_else(|| fail(*i, "a rank digit 0-9"))?,
            Ranks::Uci => match (digit(*i), digit(*i + 1)) {
                (Some(1), Some(0)) => {
                    *i += 1;
                    10
                }
                (Some(d), _) if d >= 1 => d,
                _ => return Err(fail(*i, "a rank 1-10")),
            },
        };
        *i += 1;
        let y = if ranks == Ranks::Uci { y - 1 } else { y };
        Ok(Square::new(x, y as u8))
    };
    let from = square(&mut i)?;
    if chars.get(i).is_some_and(|c| c.ch == '-') {
        i += 1;
    }
    let to = square(&mut i)?;
    check_tail(&chars[i..])?;
    Ok(Move::new(from, to))
}

/// Reads a UCI move with ranks 1-10 (`h3e3`, `a10a9`). Legality is not checked here.
pub(crate) fn read_uci(chars: &[InputChar], end: usize) -> Result<Move, (usize, String)> {
    read_coords(chars, end, Ranks::Uci)
}

/// Writes a move in the UCI form with ranks 1-10: `h2e2` in ICCS is `h3e3`.
pub fn format_uci(mv: Move) -> String {
    let square = |s: Square| format!("{}{}", char::from(b'a' + s.x()), s.y() + 1);
    format!("{}{}", square(mv.from()), square(mv.to()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::text::prepare;

    #[test]
    fn iccs_and_uci_read_the_same_move_differently() {
        let text = "h2e2";
        let iccs = read(&prepare(text), 5).unwrap();
        assert_eq!(iccs.iccs(), "h2e2");
        let uci = read_uci(&prepare(text), 5).unwrap();
        assert_eq!(uci.iccs(), "h1e1");
        assert_eq!(read_uci(&prepare("a10a9"), 6).unwrap().iccs(), "a9a8");
        assert_eq!(format_uci(iccs), "h3e3");
        assert_eq!(read(&prepare("H2-E2"), 6).unwrap(), iccs);
    }

    #[test]
    fn bad_coordinates_point_at_the_character() {
        assert_eq!(read(&prepare("h2j2"), 5).unwrap_err().0, 3);
        assert_eq!(read(&prepare("h2e"), 4).unwrap_err().0, 4);
        assert_eq!(read_uci(&prepare("h0e1"), 5).unwrap_err().0, 2);
    }
}
