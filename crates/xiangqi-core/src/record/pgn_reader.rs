//! The PGN text reader: tags, then move text with move numbers, comments `{...}` and
//! `;...`, NAGs (`$n` and the `!`/`?` suffixes), nested variations `(...)` and the result.
//! It only sorts the text; `pgn.rs` resolves the moves against the positions.

use super::MAX_NESTING;
use super::game::GameResult;
use super::pgn::{MoveText, PgnError, PgnErrorKind, PgnGame, Tag, VariationText};

/// Reads the first game of a PGN text.
pub(crate) fn read_game(text: &str) -> Result<PgnGame, PgnError> {
    Reader::new(text).game()
}

/// A cursor over the text that knows its line and column.
struct Reader {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
    /// Variations open around the text read: at most `MAX_NESTING`, so hostile
    /// nesting is an error and not a stack overflow.
    depth: usize,
}

/// Moves with their notes as they are read: the main line or a variation.
#[derive(Default)]
struct Sequence {
    comment: Option<String>,
    moves: Vec<MoveText>,
    result: Option<GameResult>,
}

impl Sequence {
    /// A comment belongs to the move before it, or to the line when no move came yet.
    fn add_comment(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let slot = match self.moves.last_mut() {
            Some(mv) => &mut mv.comment,
            None => &mut self.comment,
        };
        match slot {
            Some(existing) => {
                existing.push(' ');
                existing.push_str(text);
            }
            None => *slot = Some(text.to_string()),
        }
    }
}

/// What ended a sequence of move text.
enum End {
    /// The text ran out, or a tag starts the next game.
    Text,
    /// A `)` closed the variation.
    Close,
}

/// Characters that end a move token besides whitespace.
fn is_delimiter(c: char) -> bool {
    matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']' | '$')
}

fn is_dot(c: char) -> bool {
    matches!(c, '.' | '．' | '。' | '…')
}

/// The NAG a move suffix stands for (PGN standard 10): `!` 1, `?` 2, `!!` 3, `??` 4,
/// `!?` 5, `?!` 6.
fn suffix_nag(suffix: &str) -> Option<u8> {
    Some(match suffix {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

impl Reader {
    fn new(text: &str) -> Reader {
        Reader {
            chars: text.chars().collect(),
            at: 0,
            line: 1,
            column: 1,
            depth: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, line: usize, column: usize, kind: PgnErrorKind) -> PgnError {
        PgnError { line, column, kind }
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn rest_of_line(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek().filter(|&c| c != '\n') {
            text.push(c);
            self.bump();
        }
        text
    }

    fn game(mut self) -> Result<PgnGame, PgnError> {
        let mut game = PgnGame::default();
        let mut main = Sequence::default();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some('[') if main.moves.is_empty() && main.result.is_none() => {
                    game.tags.push(self.tag()?);
                }
                _ => break,
            }
        }
        self.sequence(&mut main, None)?;
        game.comment = main.comment;
        game.moves = main.moves;
        game.result = main.result;
        Ok(game)
    }

    /// Reads move text into `seq` up to the end of the text or a tag (the main line,
    /// `open` is `None`) or up to the `)` closing the variation opened at `open`.
    fn sequence(
        &mut self,
        seq: &mut Sequence,
        open: Option<(usize, usize)>,
    ) -> Result<End, PgnError> {
        loop {
            self.skip_whitespace();
            let (line, column) = (self.line, self.column);
            let unclosed = |r: &Reader, end| match open {
                Some((l, c)) => Err(r.error(l, c, PgnErrorKind::UnclosedVariation)),
                None => Ok(end),
            };
            let Some(c) = self.peek() else {
                return unclosed(self, End::Text);
            };
            match c {
                // A tag after the moves starts the next game.
                '[' => return unclosed(self, End::Text),
                '{' => {
                    let text = self.comment(line, column)?;
                    seq.add_comment(&text);
                }
                ';' => {
                    self.bump();
                    let text = self.rest_of_line();
                    seq.add_comment(&text);
                }
                '(' => {
                    if seq.moves.is_empty() {
                        return Err(self.error(line, column, PgnErrorKind::VariationWithoutMove));
                    }
                    if self.depth == MAX_NESTING {
                        let max = MAX_NESTING;
                        return Err(self.error(line, column, PgnErrorKind::TooDeep { max }));
                    }
                    self.bump();
                    self.depth += 1;
                    let mut variation = Sequence::default();
                    self.sequence(&mut variation, Some((line, column)))?;
                    self.depth -= 1;
                    // The move it replaces was checked for above.
                    if let Some(mv) = seq.moves.last_mut() {
                        mv.variations.push(VariationText {
                            comment: variation.comment,
                            moves: variation.moves,
                        });
                    }
                }
                ')' if open.is_some() => {
                    self.bump();
                    return Ok(End::Close);
                }
                ')' => return Err(self.error(line, column, PgnErrorKind::StrayParenthesis)),
                '$' => {
                    self.bump();
                    // A lone `$` has no number: what follows it is not read as one.
                    let numbered = self
                        .peek()
                        .is_some_and(|c| !c.is_whitespace() && !is_delimiter(c));
                    let text: String = if numbered {
                        self.word().iter().collect()
                    } else {
                        String::new()
                    };
                    let nag = text
                        .parse::<u8>()
                        .map_err(|_| self.error(line, column, PgnErrorKind::BadNag(text)))?;
                    if let Some(mv) = seq.moves.last_mut() {
                        mv.nags.push(nag);
                    }
                }
                // `%` at the start of a line escapes the whole line (PGN standard 6).
                '%' if column == 1 => {
                    self.rest_of_line();
                }
                _ => {
                    let word = self.word();
                    self.token(seq, &word, line, column, open.is_none());
                }
            }
        }
    }

    fn word(&mut self) -> Vec<char> {
        let mut word = Vec::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || is_delimiter(c) {
                break;
            }
            word.push(c);
            self.bump();
        }
        if word.is_empty() {
            // A lone '}' or ']': skip it so reading goes on.
            if let Some(c) = self.bump() {
                word.push(c);
            }
        }
        word
    }

    /// Sorts a word of move text: result, suffix NAG, move number, or move.
    fn token(&self, seq: &mut Sequence, word: &[char], line: usize, column: usize, main: bool) {
        let text: String = word.iter().collect();
        if let Some(result) = GameResult::from_token(&text) {
            // A result inside a variation says nothing about the game.
            if main {
                seq.result = Some(result);
            }
            return;
        }
        if text == "}" || text == "]" {
            return;
        }
        if let Some(nag) = suffix_nag(&text) {
            if let Some(mv) = seq.moves.last_mut() {
                mv.nags.push(nag);
            }
            return;
        }
        // A move number: digits then dots (`12.`, `12...`, `1．`), possibly glued to the
        // move. Digits followed by a digit after the dot are a WXF move (`33.4`), not one.
        let digits = word
            .iter()
            .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
            .count();
        let dots = word[digits..].iter().take_while(|&&c| is_dot(c)).count();
        let rest = &word[digits + dots..];
        let numbered = digits > 0 && dots > 0 && !rest.first().is_some_and(|c| c.is_ascii_digit());
        let bare_number = digits == word.len();
        let only_dots = word.iter().all(|&c| is_dot(c));
        if bare_number || only_dots || (numbered && rest.is_empty()) {
            return;
        }
        let (rest, skipped) = if numbered {
            (rest, digits + dots)
        } else {
            (word, 0)
        };
        // A glued suffix (`马8进7?!`) is a NAG, not part of the move.
        let suffix_len = rest
            .iter()
            .rev()
            .take_while(|&&c| c == '!' || c == '?')
            .count();
        let (move_chars, suffix) = rest.split_at(rest.len() - suffix_len);
        let suffix: String = suffix.iter().collect();
        let nag = suffix_nag(&suffix);
        let move_chars = if nag.is_some() && !move_chars.is_empty() {
            move_chars
        } else {
            rest
        };
        seq.moves.push(MoveText {
            text: move_chars.iter().collect(),
            line,
            column: column + skipped,
            nags: nag.into_iter().collect(),
            comment: None,
            variations: Vec::new(),
        });
    }

    fn tag(&mut self) -> Result<Tag, PgnError> {
        let (line, column) = (self.line, self.column);
        let bad = |r: &Reader, what| r.error(r.line, r.column, PgnErrorKind::BadTag(what));
        self.bump(); // '['
        self.skip_whitespace();
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(bad(self, "expected a tag name after '['"));
        }
        self.skip_whitespace();
        if self.peek() != Some('"') {
            return Err(bad(self, "expected '\"' before the tag value"));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(bad(self, "the tag value is never closed")),
                Some('\\') if matches!(self.peek(), Some('"') | Some('\\')) => {
                    value.extend(self.bump());
                }
                // Real records leave inner quotes unescaped (`""凈安杯"象棋名人賽"`): only a
                // quote followed by `]` closes the value.
                Some('"') if self.closing_bracket_follows() => break,
                Some(c) => value.push(c),
            }
        }
        self.skip_whitespace();
        if self.peek() != Some(']') {
            return Err(bad(self, "expected ']' after the tag value"));
        }
        self.bump();
        Ok(Tag {
            name,
            value,
            line,
            column,
        })
    }

    fn closing_bracket_follows(&self) -> bool {
        self.chars[self.at..]
            .iter()
            .find(|c| !matches!(c, ' ' | '\t'))
            .is_some_and(|&c| c == ']')
    }

    /// Reads a `{...}` comment opened at `line`:`column`; its text without the braces.
    fn comment(&mut self, line: usize, column: usize) -> Result<String, PgnError> {
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error(line, column, PgnErrorKind::UnclosedComment)),
                Some('}') => return Ok(text),
                Some(c) => text.push(c),
            }
        }
    }
}
