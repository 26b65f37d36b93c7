//! Bytes from a remote terminal (an SSH channel) decoded into the same key, mouse and
//! paste events the local driver gets from crossterm: UTF-8 text, C0 control keys,
//! CSI and SS3 sequences (arrows, Home/End, Insert/Delete, PageUp/PageDown, F1-F12,
//! Shift-Tab, modifiers), SGR mouse reports and bracketed paste.
//!
//! crossterm only parses its own process's terminal, and termwiz's parser would bring a
//! second terminal library and its own event types to convert back; the sequences a
//! terminal sends are few enough to read here. Unknown sequences are skipped whole.

use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use xiangqi_app::action::Action;

/// Longest escape sequence or paste kept while waiting for its end; longer input is
/// dropped (a hostile client cannot grow the buffer).
const MAX_PENDING: usize = 64 * 1024;
const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

/// Decodes a byte stream; sequences split across reads are completed by the next one.
#[derive(Debug, Default)]
pub struct InputDecoder {
    pending: Vec<u8>,
}

/// What one step of decoding found.
enum Step {
    /// An action (or nothing worth reporting) and the bytes it used.
    Done(Option<Action>, usize),
    /// The bytes so far start a sequence that is not complete yet.
    Incomplete,
}

impl InputDecoder {
    /// Decodes `bytes` into actions. A lone ESC at the end of a read is the Esc key:
    /// terminals send a whole sequence in one write.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Action> {
        self.pending.extend_from_slice(bytes);
        let mut actions = Vec::new();
        let mut at = 0;
        while at < self.pending.len() {
            match decode(&self.pending[at..]) {
                Step::Done(action, used) => {
                    actions.extend(action);
                    at += used;
                }
                Step::Incomplete if self.pending[at..] == [0x1b] => {
                    actions.push(key(KeyCode::Esc, KeyModifiers::NONE));
                    at += 1;
                }
                Step::Incomplete => break,
            }
        }
        self.pending.drain(..at);
        if self.pending.len() > MAX_PENDING {
            self.pending.clear();
        }
        actions
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Action {
    Action::Key(KeyEvent::new(code, modifiers))
}

fn decode(bytes: &[u8]) -> Step {
    let first = bytes[0];
    match first {
        0x1b => escape(bytes),
        b'\r' | b'\n' => Step::Done(Some(key(KeyCode::Enter, KeyModifiers::NONE)), 1),
        b'\t' => Step::Done(Some(key(KeyCode::Tab, KeyModifiers::NONE)), 1),
        0x7f | 0x08 => Step::Done(Some(key(KeyCode::Backspace, KeyModifiers::NONE)), 1),
        0x00 => Step::Done(Some(key(KeyCode::Char(' '), KeyModifiers::CONTROL)), 1),
        0x01..=0x1a => {
            let letter = char::from(b'a' + first - 1);
            Step::Done(Some(key(KeyCode::Char(letter), KeyModifiers::CONTROL)), 1)
        }
        0x1c..=0x1f => Step::Done(None, 1),
        _ => utf8(bytes),
    }
}

fn utf8(bytes: &[u8]) -> Step {
    let len = match bytes[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        // A stray continuation or invalid lead byte: skip it.
        _ => return Step::Done(None, 1),
    };
    if bytes.len() < len {
        // Wait for the rest, unless what is there already cannot continue the character.
        if bytes[1..].iter().any(|b| b & 0xc0 != 0x80) {
            return Step::Done(None, 1);
        }
        return Step::Incomplete;
    }
    match std::str::from_utf8(&bytes[..len]) {
        Ok(text) => {
            let c = text.chars().next().unwrap_or(' ');
            Step::Done(Some(key(KeyCode::Char(c), KeyModifiers::NONE)), len)
        }
        Err(_) => Step::Done(None, 1),
    }
}

fn escape(bytes: &[u8]) -> Step {
    let Some(&second) = bytes.get(1) else {
        return Step::Incomplete;
    };
    match second {
        b'[' => csi(bytes),
        b'O' => {
            let Some(&last) = bytes.get(2) else {
                return Step::Incomplete;
            };
            let code = match last {
                b'P' => KeyCode::F(1),
                b'Q' => KeyCode::F(2),
                b'R' => KeyCode::F(3),
                b'S' => KeyCode::F(4),
                b'A' => KeyCode::Up,
                b'B' => KeyCode::Down,
                b'C' => KeyCode::Right,
                b'D' => KeyCode::Left,
                b'H' => KeyCode::Home,
                b'F' => KeyCode::End,
                b'M' => KeyCode::Enter,
                _ => return Step::Done(None, 3),
            };
            Step::Done(Some(key(code, KeyModifiers::NONE)), 3)
        }
        0x1b => Step::Done(Some(key(KeyCode::Esc, KeyModifiers::NONE)), 1),
        // ESC then a key is that key with Alt.
        _ => match decode(&bytes[1..]) {
            Step::Done(Some(Action::Key(mut event)), used) => {
                event.modifiers |= KeyModifiers::ALT;
                Step::Done(Some(Action::Key(event)), used + 1)
            }
            Step::Done(other, used) => Step::Done(other, used + 1),
            Step::Incomplete => Step::Incomplete,
        },
    }
}

/// Modifiers of xterm's `1;N` parameter.
fn modifiers(parameter: u16) -> KeyModifiers {
    modifier_bits(parameter.saturating_sub(1))
}

/// Shift, Alt and Ctrl from the low three bits, as xterm's parameters and its mouse
/// buttons (shifted) give them.
fn modifier_bits(bits: u16) -> KeyModifiers {
    let mut modifiers = KeyModifiers::NONE;
    if bits & 1 != 0 {
        modifiers |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        modifiers |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        modifiers |= KeyModifiers::CONTROL;
    }
    modifiers
}

fn csi(bytes: &[u8]) -> Step {
    // Parameters and intermediates run up to a final byte in 0x40..=0x7e.
    let Some(end) = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
        return if bytes.len() > 64 {
            Step::Done(None, bytes.len())
        } else {
            Step::Incomplete
        };
    };
    let end = end + 2;
    let used = end + 1;
    let body = &bytes[2..end];
    let last = bytes[end];
    if bytes[..used] == *PASTE_START {
        return paste(bytes);
    }
    if body.first() == Some(&b'<') {
        return Step::Done(sgr_mouse(&body[1..], last), used);
    }
    let numbers: Vec<u16> = body
        .split(|b| *b == b';')
        .map(|part| {
            std::str::from_utf8(part)
                .ok()
                .and_then(|text| text.parse().ok())
                .unwrap_or(0)
        })
        .collect();
    let modifier = modifiers(numbers.get(1).copied().unwrap_or(1));
    let code = match last {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P' => KeyCode::F(1),
        b'Q' => KeyCode::F(2),
        b'R' => KeyCode::F(3),
        b'S' => KeyCode::F(4),
        b'Z' => return Step::Done(Some(key(KeyCode::BackTab, KeyModifiers::SHIFT)), used),
        b'~' => match numbers.first().copied().unwrap_or(0) {
            1 | 7 => KeyCode::Home,
            2 => KeyCode::Insert,
            3 => KeyCode::Delete,
            4 | 8 => KeyCode::End,
            5 => KeyCode::PageUp,
            6 => KeyCode::PageDown,
            11 => KeyCode::F(1),
            12 => KeyCode::F(2),
            13 => KeyCode::F(3),
            14 => KeyCode::F(4),
            15 => KeyCode::F(5),
            17 => KeyCode::F(6),
            18 => KeyCode::F(7),
            19 => KeyCode::F(8),
            20 => KeyCode::F(9),
            21 => KeyCode::F(10),
            23 => KeyCode::F(11),
            24 => KeyCode::F(12),
            _ => return Step::Done(None, used),
        },
        _ => return Step::Done(None, used),
    };
    Step::Done(Some(key(code, modifier)), used)
}

/// `ESC [ < button ; column ; row M|m` (1-based cells): presses and the wheel.
fn sgr_mouse(body: &[u8], last: u8) -> Option<Action> {
    let text = std::str::from_utf8(body).ok()?;
    let mut parts = text.split(';').map(|part| part.parse::<u16>().ok());
    let (button, column, row) = (parts.next()??, parts.next()??, parts.next()??);
    let modifiers = modifier_bits(button >> 2);
    let pressed = last == b'M';
    let kind = match (button & !(4 | 8 | 16), pressed) {
        (0, true) => MouseEventKind::Down(MouseButton::Left),
        (1, true) => MouseEventKind::Down(MouseButton::Middle),
        (2, true) => MouseEventKind::Down(MouseButton::Right),
        (0, false) => MouseEventKind::Up(MouseButton::Left),
        (1, false) => MouseEventKind::Up(MouseButton::Middle),
        (2, false) => MouseEventKind::Up(MouseButton::Right),
        (64, _) => MouseEventKind::ScrollUp,
        (65, _) => MouseEventKind::ScrollDown,
        _ => return None,
    };
    Some(Action::Mouse(MouseEvent {
        kind,
        column: column.saturating_sub(1),
        row: row.saturating_sub(1),
        modifiers,
    }))
}

/// Bracketed paste: everything up to `ESC [ 201 ~`, as text.
fn paste(bytes: &[u8]) -> Step {
    let body = &bytes[PASTE_START.len()..];
    let Some(end) = body
        .windows(PASTE_END.len())
        .position(|window| window == PASTE_END)
    else {
        return Step::Incomplete;
    };
    let text = String::from_utf8_lossy(&body[..end]).into_owned();
    Step::Done(
        Some(Action::Paste(text)),
        PASTE_START.len() + end + PASTE_END.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Action> {
        InputDecoder::default().feed(bytes)
    }

    fn k(code: KeyCode) -> Action {
        key(code, KeyModifiers::NONE)
    }

    #[test]
    fn text_control_keys_and_chinese_become_keys() {
        assert_eq!(
            keys("a炮\r\x7f\t".as_bytes()),
            [
                k(KeyCode::Char('a')),
                k(KeyCode::Char('炮')),
                k(KeyCode::Enter),
                k(KeyCode::Backspace),
                k(KeyCode::Tab)
            ]
        );
        assert_eq!(
            keys(b"\x03\x12"),
            [
                key(KeyCode::Char('c'), KeyModifiers::CONTROL),
                key(KeyCode::Char('r'), KeyModifiers::CONTROL)
            ]
        );
    }

    #[test]
    fn a_character_split_across_reads_is_joined() {
        let mut decoder = InputDecoder::default();
        let bytes = "炮".as_bytes();
        assert_eq!(decoder.feed(&bytes[..1]), []);
        assert_eq!(decoder.feed(&bytes[1..]), [k(KeyCode::Char('炮'))]);
        assert_eq!(decoder.feed(b"\x1b["), []);
        assert_eq!(decoder.feed(b"A"), [k(KeyCode::Up)]);
    }

    #[test]
    fn csi_and_ss3_sequences_become_named_keys() {
        assert_eq!(
            keys(b"\x1b[A\x1b[D\x1bOP\x1b[15~\x1b[24~\x1b[3~\x1b[5~\x1b[H\x1b[Z"),
            [
                k(KeyCode::Up),
                k(KeyCode::Left),
                k(KeyCode::F(1)),
                k(KeyCode::F(5)),
                k(KeyCode::F(12)),
                k(KeyCode::Delete),
                k(KeyCode::PageUp),
                k(KeyCode::Home),
                key(KeyCode::BackTab, KeyModifiers::SHIFT),
            ]
        );
        assert_eq!(
            keys(b"\x1b[1;5C"),
            [key(KeyCode::Right, KeyModifiers::CONTROL)]
        );
        assert_eq!(keys(b"\x1b"), [k(KeyCode::Esc)]);
        assert_eq!(keys(b"\x1bx"), [key(KeyCode::Char('x'), KeyModifiers::ALT)]);
        // Unknown sequences are skipped whole.
        assert_eq!(keys(b"\x1b[99X\x1b[?1;2c!"), [k(KeyCode::Char('!'))]);
    }

    #[test]
    fn sgr_mouse_reports_are_zero_based_clicks_and_wheel() {
        assert_eq!(
            keys(b"\x1b[<0;10;5M\x1b[<65;1;1M"),
            [
                Action::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left),
                    column: 9,
                    row: 4,
                    modifiers: KeyModifiers::NONE
                }),
                Action::Mouse(MouseEvent {
                    kind: MouseEventKind::ScrollDown,
                    column: 0,
                    row: 0,
                    modifiers: KeyModifiers::NONE
                })
            ]
        );
    }

    #[test]
    fn sgr_mouse_modifiers_are_shift_alt_and_ctrl_as_in_keys() {
        // Button 20 is a left press with Shift (4) and Ctrl (16); 8 on a release is Alt.
        assert_eq!(
            keys(b"\x1b[<20;3;2M\x1b[<8;3;2m"),
            [
                Action::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left),
                    column: 2,
                    row: 1,
                    modifiers: KeyModifiers::SHIFT | KeyModifiers::CONTROL
                }),
                Action::Mouse(MouseEvent {
                    kind: MouseEventKind::Up(MouseButton::Left),
                    column: 2,
                    row: 1,
                    modifiers: KeyModifiers::ALT
                })
            ]
        );
        // The same three bits in a key's parameter: 1 + Shift (1) + Alt (2).
        assert_eq!(
            keys(b"\x1b[1;4A"),
            [key(KeyCode::Up, KeyModifiers::SHIFT | KeyModifiers::ALT)]
        );
    }

    #[test]
    fn bracketed_paste_is_one_text_even_across_reads() {
        let mut decoder = InputDecoder::default();
        assert_eq!(decoder.feed("\x1b[200~炮二".as_bytes()), []);
        assert_eq!(
            decoder.feed("平五\x1b[201~x".as_bytes()),
            [Action::Paste("炮二平五".into()), k(KeyCode::Char('x'))]
        );
    }
}
