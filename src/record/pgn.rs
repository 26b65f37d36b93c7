//! Reading PGN game records as xqbase-style sites and datasets publish them (§5): tags
//! (with `[FEN]` and `[Format]`), numbered move pairs with or without `...`, `1．` full-width
//! dots, comments `{...}` and `;...`, variations `(...)` (skipped), NAGs and results. Moves
//! stay text here; [`PgnGame::replay_partial`] resolves them against the positions.

use thiserror::Error;

use crate::board::{FenError, Position};
use crate::notation::{MoveError, Notation, parse_move, parse_move_as};

use super::game::{GameRecord, GameResult};

/// A tag pair, with where its `[` stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    pub line: usize,
    pub column: usize,
}

/// One move of the main line as written, with where it stands in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    pub text: String,
    pub line: usize,
    pub column: usize,
}

/// A game as read from PGN text, before its moves are resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnGame {
    pub tags: Vec<Tag>,
    pub moves: Vec<MoveText>,
    /// The result token closing the move text, if any.
    pub result: Option<GameResult>,
}

/// A PGN syntax or setup error, with its line and column (1-based, in characters).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}:{column}: {kind}")]
pub struct PgnError {
    pub line: usize,
    pub column: usize,
    pub kind: PgnErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    #[error("malformed tag: {0}")]
    BadTag(&'static str),
    #[error("comment '{{' is never closed")]
    UnclosedComment,
    #[error("variation '(' is never closed")]
    UnclosedVariation,
    #[error("')' closes no variation")]
    StrayParenthesis,
    #[error("[FEN]: {0}")]
    Fen(FenError),
    #[error("[Format]: unknown format '{0}', expected ICCS, WXF or Chinese")]
    Format(String),
}

/// The first move of a record that cannot be played, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}:{column}: move {ply} {error}")]
pub struct MoveFailure {
    /// The move's place in the game, counted in plies from 1.
    pub ply: usize,
    pub text: String,
    pub line: usize,
    pub column: usize,
    pub error: MoveError,
}

/// Reads the first game of a PGN text.
pub fn parse_pgn(text: &str) -> Result<PgnGame, PgnError> {
    Reader::new(text).game()
}

impl PgnGame {
    /// The value of a tag, names compared without case.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.find_tag(name).map(|t| t.value.as_str())
    }

    fn find_tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The position the game starts from: the `[FEN]` tag, or the standard start.
    pub fn start_position(&self) -> Result<Position, PgnError> {
        match self.find_tag("FEN").filter(|t| !t.value.trim().is_empty()) {
            None => Ok(Position::startpos()),
            Some(tag) => Position::from_fen(&tag.value).map_err(|e| PgnError {
                line: tag.line,
                column: tag.column,
                kind: PgnErrorKind::Fen(e),
            }),
        }
    }

    /// The notation the `[Format]` tag declares; `None` (detect per move) without one.
    pub fn notation(&self) -> Result<Option<Notation>, PgnError> {
        let Some(tag) = self.find_tag("Format") else {
            return Ok(None);
        };
        match tag.value.trim().to_ascii_lowercase().as_str() {
            "" => Ok(None),
            "iccs" => Ok(Some(Notation::Iccs)),
            "wxf" => Ok(Some(Notation::Wxf)),
            "chinese" => Ok(Some(Notation::Chinese)),
            _ => Err(PgnError {
                line: tag.line,
                column: tag.column,
                kind: PgnErrorKind::Format(tag.value.clone()),
            }),
        }
    }

    /// The game result: the token closing the moves, else the `[Result]` tag.
    pub fn game_result(&self) -> GameResult {
        self.result
            .or_else(|| self.tag("Result").and_then(GameResult::from_token))
            .unwrap_or(GameResult::Unknown)
    }

    /// Plays the moves from the start position as far as they go: the record of the moves
    /// that could be played, and the first that could not, if any.
    pub fn replay_partial(&self) -> Result<(GameRecord, Option<MoveFailure>), PgnError> {
        let start = self.start_position()?;
        let notation = self.notation()?;
        let mut record = GameRecord::new(start.clone());
        record.result = self.game_result();
        record.tags = self
            .tags
            .iter()
            .filter(|t| {
                !["FEN", "Format", "Result"]
                    .iter()
                    .any(|n| t.name.eq_ignore_ascii_case(n))
            })
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        let mut pos = start;
        for (i, written) in self.moves.iter().enumerate() {
            let parsed = match notation {
                Some(n) => parse_move_as(&pos, &written.text, n),
                None => parse_move(&pos, &written.text),
            };
            match parsed {
                Ok(mv) => {
                    pos.make_move(mv);
                    record.moves.push(mv);
                }
                Err(error) => {
                    let column = written.column + error.column().map_or(0, |c| c - 1);
                    let failure = MoveFailure {
                        ply: i + 1,
                        text: written.text.clone(),
                        line: written.line,
                        column,
                        error,
                    };
                    return Ok((record, Some(failure)));
                }
            }
        }
        Ok((record, None))
    }
}

/// A cursor over the text that knows its line and column.
struct Reader {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
}

/// Characters that end a move token besides whitespace.
fn is_delimiter(c: char) -> bool {
    matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']')
}

fn is_dot(c: char) -> bool {
    matches!(c, '.' | '．' | '。' | '…')
}

impl Reader {
    fn new(text: &str) -> Reader {
        Reader {
            chars: text.chars().collect(),
            at: 0,
            line: 1,
            column: 1,
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

    fn game(mut self) -> Result<PgnGame, PgnError> {
        let mut game = PgnGame::default();
        loop {
            self.skip_whitespace();
            let (line, column) = (self.line, self.column);
            let Some(c) = self.peek() else { break };
            match c {
                '[' if game.moves.is_empty() && game.result.is_none() => {
                    let tag = self.tag()?;
                    game.tags.push(tag);
                }
                // A tag after the moves starts the next game.
                '[' => break,
                '{' => self.comment(line, column)?,
                ';' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '(' => self.variation(line, column)?,
                ')' => return Err(self.error(line, column, PgnErrorKind::StrayParenthesis)),
                // `%` at the start of a line escapes the whole line (PGN standard 6).
                '%' if column == 1 => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                _ => {
                    let word = self.word();
                    self.token(&mut game, &word, line, column);
                }
            }
        }
        Ok(game)
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

    /// Sorts a word of move text: result, NAG, move number, or move.
    fn token(&self, game: &mut PgnGame, word: &[char], line: usize, column: usize) {
        let text: String = word.iter().collect();
        if let Some(result) = GameResult::from_token(&text) {
            game.result = Some(result);
            return;
        }
        if text.starts_with('$') || text == "}" || text == "]" {
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
        game.moves.push(MoveText {
            text: rest.iter().collect(),
            line,
            column: column + skipped,
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

    fn comment(&mut self, line: usize, column: usize) -> Result<(), PgnError> {
        self.bump();
        loop {
            match self.bump() {
                None => return Err(self.error(line, column, PgnErrorKind::UnclosedComment)),
                Some('}') => return Ok(()),
                Some(_) => {}
            }
        }
    }

    /// Skips a variation, nested ones and comments inside it included.
    fn variation(&mut self, line: usize, column: usize) -> Result<(), PgnError> {
        self.bump();
        let mut depth = 1;
        while depth > 0 {
            let (l, c) = (self.line, self.column);
            match self.bump() {
                None => return Err(self.error(line, column, PgnErrorKind::UnclosedVariation)),
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => {
                    // Step back so comment() sees the brace it reports.
                    self.at -= 1;
                    self.column -= 1;
                    self.comment(l, c)?;
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(game: &PgnGame) -> Vec<&str> {
        game.moves.iter().map(|m| m.text.as_str()).collect()
    }

    #[test]
    fn reads_tags_numbers_comments_variations_and_result() {
        let text = "[Game \"Chinese Chess\"]\n[Event \"a \\\"quoted\\\" name\"]\n\n\
                    1. 炮二平五 {centre} 马8进7 (1... 炮8平5 2. 马二进三) \n\
                    2．马二进三 $1 车9平8 ; rest of line\n3.车一平二 ...\n1-0\n";
        let game = parse_pgn(text).unwrap();
        assert_eq!(game.tag("event"), Some("a \"quoted\" name"));
        let loose = parse_pgn("[Event \"\"Cup\" final\"] [Round \"1\"]").unwrap();
        assert_eq!(loose.tag("Event"), Some("\"Cup\" final"));
        assert_eq!(loose.tag("Round"), Some("1"));
        assert_eq!(
            texts(&game),
            ["炮二平五", "马8进7", "马二进三", "车9平8", "车一平二"]
        );
        assert_eq!(game.result, Some(GameResult::RedWins));
        let glued = &game.moves[4];
        assert_eq!((glued.line, glued.column), (6, 3));
    }

    #[test]
    fn wxf_moves_starting_with_digits_are_not_move_numbers() {
        let game = parse_pgn("1. 3+.4 33.4 2. ... C2.5").unwrap();
        assert_eq!(texts(&game), ["3+.4", "33.4", "C2.5"]);
    }

    #[test]
    fn syntax_errors_say_where() {
        let err = parse_pgn("[Event \"x\"]\n1. 炮二平五 {never closed").unwrap_err();
        assert_eq!((err.line, err.column), (2, 9));
        assert_eq!(err.kind, PgnErrorKind::UnclosedComment);
        let err = parse_pgn("1. 炮二平五 ( 马8进7").unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::UnclosedVariation);
        let err = parse_pgn("[Event x]").unwrap_err();
        assert_eq!((err.line, err.column), (1, 8));
        let err = parse_pgn("1. 炮二平五 )").unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::StrayParenthesis);
    }
}
