//! WXF letter notation (§2): the canonical selectors of the WXF tandem rules I-IV, the
//! alternatives accepted on input (Fairy-Stockfish's forms, §2.3), printing, and the grammar
//! of typed WXF moves (`H2+3`, `C2.5`, `C2=5`, `C25`, `C+.5`, `+C.5`, `fC.5`, `3+.4`).

use crate::board::Kind;

use super::layout::{Action, PieceFacts, Selector, Written, letter};
use super::text::{InputChar, check_tail};

const fn digit(n: u8) -> u8 {
    b'0' + n
}

/// `+` for the front piece, `-` for the rear.
fn sign(p: &PieceFacts) -> u8 {
    if p.index == 0 { b'+' } else { b'-' }
}

/// The selector this program prints (§2.2).
pub(crate) fn canonical_selector(p: &PieceFacts) -> Selector {
    let l = letter(p.kind);
    let file = digit(p.file);
    let last = p.index + 1 == p.on_file;
    match p.kind {
        Kind::General | Kind::Advisor | Kind::Elephant => Selector::of(&[l, file]),
        _ if p.on_file == 1 => Selector::of(&[l, file]),
        // Rule IV: the file digit replaces the letter; `+`, `-`, or the file again for the
        // middle of three.
        Kind::Soldier if p.doubled_files >= 2 => {
            let second = if p.index == 0 {
                b'+'
            } else if last {
                b'-'
            } else {
                file
            };
            Selector::of(&[file, second])
        }
        _ if p.on_file == 2 => Selector::of(&[l, sign(p)]),
        // Rules I-III: three `P+ P<file> P-`; four `++ P+ P- --`; five `++ P+ P<file> P- --`.
        _ => {
            let middle = p.on_file % 2 == 1 && p.index * 2 + 1 == p.on_file;
            match (p.on_file, p.index) {
                _ if middle => Selector::of(&[l, file]),
                (3, 0) => Selector::of(&[l, b'+']),
                (3, _) => Selector::of(&[l, b'-']),
                (_, 0) => Selector::of(b"++"),
                (_, 1) => Selector::of(&[l, b'+']),
                _ if last => Selector::of(b"--"),
                _ => Selector::of(&[l, b'-']),
            }
        }
    }
}

/// Other selectors accepted for the piece: `A-+5` style tandem signs on advisors and
/// elephants, and Fairy-Stockfish's file fallback, rank signs and front indexes.
pub(crate) fn alternative_selectors(p: &PieceFacts, mut accept: impl FnMut(Selector)) {
    let l = letter(p.kind);
    if p.on_file < 2 || p.kind == Kind::General {
        return;
    }
    match p.kind {
        Kind::Advisor | Kind::Elephant => accept(Selector::of(&[l, sign(p)])),
        _ if p.on_file == 2 => {
            accept(Selector::of(&[l, digit(p.file)]));
            if p.doubled_files >= 2 {
                accept(Selector::of(&[l, sign(p)]));
            }
        }
        // Three or more soldiers: Fairy-Stockfish writes the place from the front, from 1,
        // then the file (`13=4`).
        _ => accept(Selector::of(&[digit(p.index + 1), digit(p.file)])),
    }
}

/// Prints a written move: selector, operator (`.` sideways), value.
pub(crate) fn spell(w: &Written) -> String {
    let mut out = String::with_capacity(4);
    out.extend(w.selector.bytes().iter().map(|&b| char::from(b)));
    out.push(match w.action {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Sideways => '.',
    });
    out.push(char::from(digit(w.value)));
    out
}

/// A piece letter, with the aliases of §2.1 (`B`/`M` elephant, `N` horse, `G` general,
/// `S` soldier), either case.
fn piece_letter(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => Kind::General,
        'A' => Kind::Advisor,
        'E' | 'B' | 'M' => Kind::Elephant,
        'H' | 'N' => Kind::Horse,
        'R' => Kind::Chariot,
        'C' => Kind::Cannon,
        'P' | 'S' => Kind::Soldier,
        _ => return None,
    })
}

fn file_digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| d >= 1).map(|d| d as u8)
}

/// Reads a WXF move into its script-free form; errors give the column and what was
/// expected there.
pub(crate) fn read(chars: &[InputChar], end: usize) -> Result<Written, (usize, String)> {
    let at = |i: usize| chars.get(i).map(|c| (c.ch, c.column));
    let fail = |i: usize, what: &str| -> (usize, String) {
        match at(i) {
            Some((ch, col)) => (col, format!("unexpected '{ch}': expected {what}")),
            None => (end, format!("the move stops too early: expected {what}")),
        }
    };
    let Some((c0, _)) = at(0) else {
        return Err((end, "empty move".to_string()));
    };
    let c1 = at(1).map(|(c, _)| c);
    let is_sign = |c: char| c == '+' || c == '-';

    let selector = if is_sign(c0) {
        match c1 {
            Some(c) if piece_letter(c).is_some() => {
                Selector::of(&[letter(piece_letter(c).unwrap_or(Kind::Soldier)), c0 as u8])
            }
            Some(c) if c == c0 => Selector::of(&[c0 as u8, c0 as u8]),
            _ => return Err(fail(1, "a piece letter or a second sign")),
        }
    } else if let Some(f) = file_digit(c0) {
        match c1 {
            Some(c) if is_sign(c) => Selector::of(&[digit(f), c as u8]),
            Some(c) if file_digit(c).is_some() => Selector::of(&[digit(f), c as u8]),
            _ => return Err(fail(1, "+, - or a file digit")),
        }
    } else if let (true, Some(k)) = (
        matches!(c0.to_ascii_lowercase(), 'f' | 'b' | 'r'),
        c1.and_then(piece_letter),
    ) {
        // fR / bR / rR: front or rear as a prefix letter.
        let sign = if c0.eq_ignore_ascii_case(&'f') {
            b'+'
        } else {
            b'-'
        };
        Selector::of(&[letter(k), sign])
    } else if let Some(k) = piece_letter(c0) {
        match c1 {
            Some(c) if is_sign(c) => Selector::of(&[letter(k), c as u8]),
            Some(c) if file_digit(c).is_some() => Selector::of(&[letter(k), c as u8]),
            _ => return Err(fail(1, "a file digit, + or -")),
        }
    } else {
        return Err(fail(
            0,
            "a piece letter (K A E H R C P), a file digit, + or -",
        ));
    };

    // The operator, which some manuals leave out for sideways moves (`C25`).
    let (action, value_at) = match at(2).map(|(c, _)| c) {
        Some('+') => (Action::Forward, 3),
        Some('-') => (Action::Backward, 3),
        Some('.') | Some('=') => (Action::Sideways, 3),
        Some(c) if file_digit(c).is_some() => (Action::Sideways, 2),
        // After a piece named by place ("P+"), the sign that named it is not its move.
        _ if is_sign(c0) || c1.is_some_and(is_sign) => {
            let named: String = chars[..2].iter().map(|c| c.ch).collect();
            let what = format!("what '{named}' does: + - . or = and a number");
            return Err(fail(2, &what));
        }
        _ => return Err(fail(2, "an operator (+ - . =)")),
    };
    let value = match at(value_at).and_then(|(c, _)| file_digit(c)) {
        Some(v) => v,
        None => return Err(fail(value_at, "a number from 1 to 9")),
    };
    check_tail(&chars[value_at + 1..])?;
    Ok(Written {
        selector,
        action,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::text::prepare;

    fn read_str(s: &str) -> Result<String, usize> {
        read(&prepare(s), s.chars().count() + 1)
            .map(|w| spell(&w))
            .map_err(|(col, _)| col)
    }

    #[test]
    fn grammar_accepts_every_shape() {
        for (input, read_as) in [
            ("C2.5", "C2.5"),
            ("c2=5", "C2.5"),
            ("C25", "C2.5"),
            ("h2+3", "H2+3"),
            ("N2+3", "H2+3"),
            ("B3+5", "E3+5"),
            ("C+.5", "C+.5"),
            ("+C.5", "C+.5"),
            ("fC.5", "C+.5"),
            ("rR-1", "R--1"),
            ("bR-1", "R--1"),
            ("++.3", "++.3"),
            ("3+.4", "3+.4"),
            ("33.4", "33.4"),
            ("13=4", "13.4"),
            ("R9+2+", "R9+2"),
            ("C2.5!?", "C2.5"),
        ] {
            assert_eq!(read_str(input), Ok(read_as.to_string()), "{input}");
        }
    }

    #[test]
    fn grammar_points_at_the_bad_character() {
        assert_eq!(read_str("X2.5"), Err(1));
        assert_eq!(read_str("C.5"), Err(2));
        assert_eq!(read_str("C2*5"), Err(3));
        assert_eq!(read_str("C2.0"), Err(4));
        assert_eq!(read_str("C2."), Err(4));
        assert_eq!(read_str("C2.5x"), Err(5));
    }
}
