//! Keys and mouse events as the app takes them. They are the app's own types, so the
//! model needs no terminal library: the local driver converts crossterm's events, and an
//! SSH session's decoder makes them from the bytes a client sends. The names follow
//! crossterm's, which most readers know.

use std::ops::{BitOr, BitOrAssign};

/// A key, as far as the app tells keys apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Backspace,
    Enter,
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
    PageUp,
    PageDown,
    Tab,
    /// Shift-Tab.
    BackTab,
    Delete,
    Insert,
    /// A function key, F1 to F12 (or more, where a terminal has them).
    F(u8),
    /// A printable character, with Shift already applied (`'Z'`, not Shift-`'z'`).
    Char(char),
    Esc,
}

/// The modifier keys held with a key or a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KeyModifiers(u8);

impl KeyModifiers {
    pub const NONE: KeyModifiers = KeyModifiers(0);
    pub const SHIFT: KeyModifiers = KeyModifiers(1);
    pub const CONTROL: KeyModifiers = KeyModifiers(1 << 1);
    pub const ALT: KeyModifiers = KeyModifiers(1 << 2);

    /// Whether every modifier of `other` is held.
    pub const fn contains(self, other: KeyModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any modifier of `other` is held.
    pub const fn intersects(self, other: KeyModifiers) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl BitOr for KeyModifiers {
    type Output = KeyModifiers;

    fn bitor(self, other: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 | other.0)
    }
}

impl BitOrAssign for KeyModifiers {
    fn bitor_assign(&mut self, other: KeyModifiers) {
        self.0 |= other.0;
    }
}

/// A key pressed (releases never reach the app).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

impl KeyEvent {
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent { code, modifiers }
    }
}

impl From<KeyCode> for KeyEvent {
    fn from(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MouseButton {
    Left,
    Right,
    Middle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MouseEventKind {
    Down(MouseButton),
    Up(MouseButton),
    Drag(MouseButton),
    Moved,
    ScrollDown,
    ScrollUp,
    ScrollLeft,
    ScrollRight,
}

/// A click, a drag or a turn of the wheel at a cell of the screen (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MouseEvent {
    pub kind: MouseEventKind,
    pub column: u16,
    pub row: u16,
    pub modifiers: KeyModifiers,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_combine_and_test_as_sets() {
        let both = KeyModifiers::CONTROL | KeyModifiers::SHIFT;
        assert!(both.contains(KeyModifiers::CONTROL));
        assert!(both.contains(KeyModifiers::CONTROL | KeyModifiers::SHIFT));
        assert!(!both.contains(KeyModifiers::ALT));
        assert!(both.intersects(KeyModifiers::ALT | KeyModifiers::SHIFT));
        assert!(!KeyModifiers::CONTROL.intersects(KeyModifiers::ALT));
        assert!(KeyModifiers::NONE.is_empty());
        assert!(KeyModifiers::NONE.contains(KeyModifiers::NONE));
        let mut held = KeyModifiers::NONE;
        held |= KeyModifiers::ALT;
        assert_eq!(held, KeyModifiers::ALT);
    }
}
