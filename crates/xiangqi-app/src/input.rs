//! The move input line: an editable buffer with a cursor, and the error of the last try.

use crate::key::{KeyCode, KeyEvent, KeyModifiers};

/// The longest line, in characters. Every edit and every frame costs up to this much,
/// whatever a (remote) user types or pastes; a move or command is a few dozen.
pub const MAX_INPUT_CHARS: usize = 512;

/// The text being typed. The cursor is a character index (0..=len).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputLine {
    text: String,
    cursor: usize,
    /// Why the last entry was refused; cleared by the next edit.
    error: Option<String>,
}

impl InputLine {
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The cursor as a character index.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Keeps the text for editing and shows why it was refused.
    pub fn set_error(&mut self, message: String) {
        self.error = Some(message);
    }

    pub fn clear_error(&mut self) {
        self.error = None;
    }

    /// Empties the line (after a move was played).
    pub fn clear(&mut self) {
        *self = InputLine::default();
    }

    /// Replaces the text (cut at `MAX_INPUT_CHARS`), cursor at the end.
    pub fn set_text(&mut self, text: &str) {
        self.text = text.chars().take(MAX_INPUT_CHARS).collect();
        self.cursor = self.char_count();
        self.error = None;
    }

    fn char_count(&self) -> usize {
        self.text.chars().count()
    }

    fn byte_at(&self, char_index: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_index)
            .map_or(self.text.len(), |(at, _)| at)
    }

    /// Inserts `c` at the cursor; `false` (and the line says why) when the line is full.
    pub fn insert(&mut self, c: char) -> bool {
        if c.is_control() {
            return true;
        }
        if self.char_count() >= MAX_INPUT_CHARS {
            self.error = Some(format!(
                "the line is full ({MAX_INPUT_CHARS} characters at most)"
            ));
            return false;
        }
        let at = self.byte_at(self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
        self.error = None;
        true
    }

    /// Inserts `text` (a paste) up to the line's bound; the rest is dropped, and the
    /// line says so.
    pub fn insert_str(&mut self, text: &str) {
        for c in text.chars() {
            if !self.insert(c) {
                return;
            }
        }
    }

    pub fn backspace(&mut self) {
        if self.cursor == 0 {
            return;
        }
        self.cursor -= 1;
        let at = self.byte_at(self.cursor);
        self.text.remove(at);
        self.error = None;
    }

    pub fn delete(&mut self) {
        if self.cursor < self.char_count() {
            let at = self.byte_at(self.cursor);
            self.text.remove(at);
            self.error = None;
        }
    }

    /// Deletes the word before the cursor (Ctrl-W).
    pub fn delete_word(&mut self) {
        let chars: Vec<char> = self.text.chars().collect();
        let mut start = self.cursor;
        while start > 0 && chars[start - 1].is_whitespace() {
            start -= 1;
        }
        while start > 0 && !chars[start - 1].is_whitespace() {
            start -= 1;
        }
        let (from, to) = (self.byte_at(start), self.byte_at(self.cursor));
        self.text.replace_range(from..to, "");
        self.cursor = start;
        self.error = None;
    }

    /// Deletes everything before the cursor (Ctrl-U).
    pub fn delete_to_start(&mut self) {
        let to = self.byte_at(self.cursor);
        self.text.replace_range(..to, "");
        self.cursor = 0;
        self.error = None;
    }

    pub fn left(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }

    pub fn right(&mut self) {
        self.cursor = (self.cursor + 1).min(self.char_count());
    }

    pub fn home(&mut self) {
        self.cursor = 0;
    }

    pub fn end(&mut self) {
        self.cursor = self.char_count();
    }

    /// The line editor's keys (on the input line and in prompts): characters,
    /// Backspace, Delete, Left, Right, Home, End, Ctrl-U, Ctrl-W. Whether `key` was one.
    pub fn edit_key(&mut self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if ctrl => self.delete_to_start(),
            KeyCode::Char('w') if ctrl => self.delete_word(),
            KeyCode::Char(c) if !ctrl => {
                self.insert(c);
            }
            KeyCode::Backspace => self.backspace(),
            KeyCode::Delete => self.delete(),
            KeyCode::Left => self.left(),
            KeyCode::Right => self.right(),
            KeyCode::Home => self.home(),
            KeyCode::End => self.end(),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_works_on_characters_not_bytes() {
        let mut line = InputLine::default();
        for c in "炮二平五".chars() {
            line.insert(c);
        }
        line.left();
        line.backspace();
        assert_eq!(line.text(), "炮二五");
        assert_eq!(line.cursor(), 2);
        line.insert('进');
        line.home();
        line.delete();
        assert_eq!(line.text(), "二进五");
        line.end();
        line.insert(' ');
        line.insert('x');
        line.delete_word();
        assert_eq!(line.text(), "二进五 ");
        line.delete_word();
        assert_eq!(line.text(), "");
    }

    #[test]
    fn an_error_stays_until_the_text_changes() {
        let mut line = InputLine::default();
        line.set_text("h2e9");
        line.set_error("illegal".into());
        line.left();
        assert_eq!(line.error(), Some("illegal"));
        line.insert('x');
        assert_eq!(line.error(), None);
        assert_eq!(line.text(), "h2ex9");
        line.delete_to_start();
        assert_eq!(line.text(), "9");
        line.insert('\u{7}');
        assert_eq!(line.text(), "9");
    }

    #[test]
    fn the_line_is_bounded_and_says_so() {
        let mut line = InputLine::default();
        line.insert_str(&"a".repeat(MAX_INPUT_CHARS + 100));
        assert_eq!(line.text().chars().count(), MAX_INPUT_CHARS);
        assert_eq!(
            line.error(),
            Some("the line is full (512 characters at most)")
        );
        assert!(!line.insert('b'));
        line.backspace();
        assert!(line.insert('炮'));
        assert_eq!(line.error(), None);
        assert_eq!(line.text().chars().count(), MAX_INPUT_CHARS);
        line.set_text(&"c".repeat(2 * MAX_INPUT_CHARS));
        assert_eq!(line.cursor(), MAX_INPUT_CHARS);
    }
}
