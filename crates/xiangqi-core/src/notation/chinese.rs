//! Chinese notation (中文纵线记谱, §1): the canonical selector rules R1-R6, the alternatives a
//! reader accepts (§1.8), spelling in simplified or traditional characters, and the grammar
//! of typed Chinese moves.

use crate::board::{Color, Kind};

use super::layout::{Action, PieceFacts, Selector, Written, kind_of_letter, letter};
use super::text::{InputChar, check_tail};

pub(crate) const FRONT: u8 = b'f';
const MIDDLE: u8 = b'm';
pub(crate) const REAR: u8 = b'r';

/// 前/后 for two on a file, 前/中/后 for three.
fn position_word(on_file: u8, index: u8) -> u8 {
    match (on_file, index) {
        (_, 0) => FRONT,
        (3, 1) => MIDDLE,
        _ => REAR,
    }
}

const fn digit(n: u8) -> u8 {
    b'0' + n
}

/// The selector this program prints (§1.6, rules R1-R6).
pub(crate) fn canonical_selector(p: &PieceFacts) -> Selector {
    let l = letter(p.kind);
    let soldier = p.kind == Kind::Soldier;
    match p.kind {
        // R1: general, advisors and elephants always by file.
        Kind::General | Kind::Advisor | Kind::Elephant => Selector::of(&[l, digit(p.file)]),
        // R2: alone on its file.
        _ if p.on_file == 1 => Selector::of(&[l, digit(p.file)]),
        // R6: soldiers doubled on two files keep the file and drop the piece.
        _ if soldier && p.doubled_files >= 2 => {
            Selector::of(&[position_word(p.on_file, p.index), digit(p.file)])
        }
        // R3, R4: 前/后 or 前/中/后 before the piece.
        _ if p.on_file <= 3 => Selector::of(&[position_word(p.on_file, p.index), l]),
        // R5: four or five soldiers, 一…五 from the front.
        _ => Selector::of(&[digit(p.index + 1), l]),
    }
}

/// Every other selector accepted for the piece (§1.8 step 3), each at most once.
pub(crate) fn alternative_selectors(p: &PieceFacts, mut accept: impl FnMut(Selector)) {
    let l = letter(p.kind);
    if p.on_file < 2 || p.kind == Kind::General {
        return;
    }
    let word = position_word(p.on_file, p.index);
    match p.kind {
        // 前仕退五: 前/后 on advisors and elephants.
        Kind::Advisor | Kind::Elephant => accept(Selector::of(&[word, l])),
        _ => {
            // The file form for a tandem piece: accepted when only one piece on the file
            // can make the move, which resolution decides.
            accept(Selector::of(&[l, digit(p.file)]));
        }
    }
    if p.kind != Kind::Soldier {
        return;
    }
    if p.doubled_files >= 2 {
        // 前兵九平八: the R6 form with the piece kept.
        accept(Selector::of(&[word, l, digit(p.file)]));
        // 前兵 without the file, as cchess prints; unique only when one doubled file can
        // make the move.
        accept(Selector::of(&[word, l]));
        // The xqbase series across files: 一兵 … 五兵.
        accept(Selector::of(&[digit(p.series), l]));
    } else if p.on_file >= 4 {
        // The traditional 前二三四(五)后 for a long file: only 前 and 后 differ from R5.
        if p.index == 0 {
            accept(Selector::of(&[FRONT, l]));
        } else if p.index + 1 == p.on_file {
            accept(Selector::of(&[REAR, l]));
        }
    }
}

/// Which Chinese characters to print: simplified or traditional (moves, opening names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Script {
    #[default]
    Simplified,
    Traditional,
}

fn piece_char(kind: Kind, side: Color, script: Script) -> char {
    let traditional = script == Script::Traditional;
    match (kind, side) {
        (Kind::General, Color::Red) if traditional => '帥',
        (Kind::General, Color::Red) => '帅',
        (Kind::General, Color::Black) if traditional => '將',
        (Kind::General, Color::Black) => '将',
        (Kind::Advisor, Color::Red) => '仕',
        (Kind::Advisor, Color::Black) => '士',
        (Kind::Elephant, Color::Red) => '相',
        (Kind::Elephant, Color::Black) => '象',
        (Kind::Horse, _) if traditional => '馬',
        (Kind::Horse, _) => '马',
        (Kind::Chariot, _) if traditional => '車',
        (Kind::Chariot, _) => '车',
        (Kind::Cannon, _) => '炮',
        (Kind::Soldier, Color::Red) => '兵',
        (Kind::Soldier, Color::Black) => '卒',
    }
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A number as `side` writes it: Chinese numerals for Red, ASCII digits for Black.
pub(crate) fn numeral(side: Color, n: u8) -> char {
    match side {
        Color::Red => CHINESE_NUMERALS[(n - 1) as usize],
        Color::Black => char::from(b'0' + n),
    }
}

/// Spells the piece-naming part of a move; a leading digit is an ordinal (一…五), written
/// in Chinese numerals for both sides.
pub(crate) fn spell_selector(selector: Selector, side: Color, script: Script) -> String {
    let mut out = String::with_capacity(16);
    for (i, &b) in selector.bytes().iter().enumerate() {
        out.push(match b {
            FRONT => '前',
            MIDDLE => '中',
            REAR if script == Script::Traditional => '後',
            REAR => '后',
            b'1'..=b'9' if i == 0 => CHINESE_NUMERALS[(b - b'1') as usize],
            b'1'..=b'9' => numeral(side, b - b'0'),
            _ => piece_char(kind_of_letter(b).unwrap_or(Kind::Soldier), side, script),
        });
    }
    out
}

/// Spells a written move: Red's numbers in Chinese numerals, Black's in ASCII digits, and
/// the 一…五 ordinals (a leading digit) in Chinese numerals for both sides (§1.3).
pub(crate) fn spell(w: &Written, side: Color, script: Script) -> String {
    let mut out = spell_selector(w.selector, side, script);
    out.push(match (w.action, script) {
        (Action::Forward, Script::Traditional) => '進',
        (Action::Forward, Script::Simplified) => '进',
        (Action::Backward, _) => '退',
        (Action::Sideways, _) => '平',
    });
    out.push(numeral(side, w.value));
    out
}

/// One character of a Chinese move, read for its meaning (§1.2-§1.4). Every variant maps to
/// a piece type, never to a colour: the side to move fixes that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Piece(Kind),
    Number(u8),
    Word(u8),
    Act(Action),
}

fn token(c: char) -> Option<Token> {
    use Token::*;
    Some(match c {
        '帅' | '帥' | '将' | '將' | '王' => Piece(Kind::General),
        '仕' | '士' | '侍' => Piece(Kind::Advisor),
        '相' | '象' => Piece(Kind::Elephant),
        '马' | '馬' | '傌' | '㐷' => Piece(Kind::Horse),
        '车' | '車' | '俥' | '伡' => Piece(Kind::Chariot),
        '炮' | '砲' | '包' => Piece(Kind::Cannon),
        '兵' | '卒' => Piece(Kind::Soldier),
        '0'..='9' => Number(c as u8 - b'0'),
        '前' => Word(FRONT),
        '中' => Word(MIDDLE),
        '后' | '後' => Word(REAR),
        '进' | '進' | '上' => Act(Action::Forward),
        '退' | '下' => Act(Action::Backward),
        '平' => Act(Action::Sideways),
        _ => Number(CHINESE_NUMERALS.iter().position(|&n| n == c)? as u8 + 1),
    })
}

/// Where the grammar stands: what has been read so far decides what may come next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    /// 炮 — a file number must follow.
    Piece,
    /// 前 — a piece or a file.
    Word,
    /// 二 (ordinal) — a piece must follow.
    Ordinal,
    /// 前兵 — an action, or a file (the five-character form).
    WordPiece,
    /// 炮二, 前三, 前兵九, 二兵 — an action must follow.
    Selected,
    /// 炮二平 — the value must follow.
    Action,
}

fn expected(state: State) -> &'static str {
    match state {
        State::Start => "a piece (车 马 炮 …) or 前/中/后",
        State::Piece => "the file the piece stands on",
        State::Word => "a piece or a file number",
        State::Ordinal => "a piece after the ordinal",
        State::WordPiece => "进, 退, 平 or a file number",
        State::Selected => "进, 退 or 平",
        State::Action => "a number from 1 to 9",
    }
}

/// Reads a Chinese move into its script-free form. Errors give the column of the offending
/// character and what was expected there.
pub(crate) fn read(chars: &[InputChar], end: usize) -> Result<Written, (usize, String)> {
    let mut selector = Selector::default();
    let mut action = Action::Forward;
    let mut state = State::Start;
    for (i, c) in chars.iter().enumerate() {
        let Some(tok) = token(c.ch) else {
            return Err((
                c.column,
                format!(
                    "'{}' is not part of Chinese notation; expected {}",
                    c.ch,
                    expected(state)
                ),
            ));
        };
        let unexpected = || {
            Err((
                c.column,
                format!("unexpected '{}': expected {}", c.ch, expected(state)),
            ))
        };
        let zero = |n: u8| n == 0;
        state = match (state, tok) {
            (_, Token::Number(n)) if zero(n) => {
                return Err((c.column, "0 is neither a file nor a step count".to_string()));
            }
            (State::Start, Token::Piece(k)) => {
                selector.push(letter(k));
                State::Piece
            }
            (State::Start, Token::Word(w)) => {
                selector.push(w);
                State::Word
            }
            (State::Start, Token::Number(n)) if n <= 5 => {
                selector.push(digit(n));
                State::Ordinal
            }
            (State::Piece, Token::Number(n)) | (State::Word, Token::Number(n)) => {
                selector.push(digit(n));
                State::Selected
            }
            (State::Word, Token::Piece(k)) => {
                selector.push(letter(k));
                State::WordPiece
            }
            (State::Ordinal, Token::Piece(k)) => {
                selector.push(letter(k));
                State::Selected
            }
            (State::WordPiece, Token::Number(n)) => {
                selector.push(digit(n));
                State::Selected
            }
            (State::WordPiece, Token::Act(a)) | (State::Selected, Token::Act(a)) => {
                action = a;
                State::Action
            }
            (State::Action, Token::Number(n)) => {
                check_tail(&chars[i + 1..])?;
                return Ok(Written {
                    selector,
                    action,
                    value: n,
                });
            }
            _ => return unexpected(),
        };
    }
    Err((
        end,
        format!("the move stops too early: expected {}", expected(state)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::text::prepare;

    fn read_str(s: &str) -> Result<String, usize> {
        read(&prepare(s), s.chars().count() + 1)
            .map(|w| spell(&w, Color::Black, Script::Simplified))
            .map_err(|(col, _)| col)
    }

    #[test]
    fn grammar_accepts_every_shape() {
        assert_eq!(read_str("炮二平五"), Ok("炮2平5".into()));
        assert_eq!(read_str("前車進１"), Ok("前车进1".into()));
        assert_eq!(read_str("前三平四"), Ok("前3平4".into()));
        assert_eq!(read_str("二卒平５"), Ok("二卒平5".into()));
        assert_eq!(read_str("前兵九平八"), Ok("前卒9平8".into()));
        assert_eq!(read_str("馬８上７（吃車）"), Ok("马8进7".into()));
        assert_eq!(read_str("车一进一将"), Ok("车1进1".into()));
    }

    #[test]
    fn grammar_points_at_the_bad_character() {
        assert_eq!(read_str("炮平五"), Err(2));
        assert_eq!(read_str("炮二x五"), Err(3));
        assert_eq!(read_str("炮二平"), Err(4));
        assert_eq!(read_str("炮二平０"), Err(4));
        assert_eq!(read_str("炮二平五六"), Err(5));
        assert_eq!(read_str("七兵进一"), Err(1));
    }
}
