//! Reading PGN game records as xqbase-style sites and datasets publish them (§5): tags
//! (with `[FEN]` and `[Format]`), numbered move pairs with or without `...`, `1．` full-width
//! dots, comments `{...}` and `;...`, NAGs, nested variations `(...)` and results (the reader is
//! `pgn_reader.rs`). Moves stay text here; [`PgnGame::replay_partial`] resolves them, and
//! each variation against the position before the move it replaces.

use thiserror::Error;

use crate::board::{FenError, Move, Position};
use crate::notation::{MoveError, Notation, parse_move, parse_move_as};

use super::annotation::{Annotation, Line};
use super::game::{GameRecord, GameResult};
use super::pgn_reader::read_game;

/// A tag pair, with where its `[` stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    pub line: usize,
    pub column: usize,
}

/// One move as written, with where it stands in the file and the notes after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// The move without its move number or `!`/`?` suffix.
    pub text: String,
    pub line: usize,
    pub column: usize,
    /// NAGs after the move: `$n` and suffixes (`?!` is 6).
    pub nags: Vec<u8>,
    /// The comments after the move, joined by a space.
    pub comment: Option<String>,
    /// Alternatives to this move, each from the position before it.
    pub variations: Vec<VariationText>,
}

/// A variation as written: a comment before its first move, then its moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VariationText {
    pub comment: Option<String>,
    pub moves: Vec<MoveText>,
}

/// A game as read from PGN text, before its moves are resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgnGame {
    pub tags: Vec<Tag>,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The main line.
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
    #[error("variation '(' before any move")]
    VariationWithoutMove,
    #[error("variations nested more than {max} deep")]
    TooDeep { max: usize },
    #[error("'${0}' is not a NAG (expected $0 to $255)")]
    BadNag(String),
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
    read_game(text)
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
        record.comment = self.comment.clone();
        let failure = resolve(
            &start,
            notation,
            &self.moves,
            0,
            &mut record.moves,
            &mut record.notes,
        )
        .err();
        Ok((record, failure))
    }
}

/// Plays `texts` from `start` into `moves` and `notes` (empty trailing notes dropped), each
/// variation resolved against the position before the move it replaces; stops at the first
/// move that cannot be played. `before` counts the plies played before `start`.
fn resolve(
    start: &Position,
    notation: Option<Notation>,
    texts: &[MoveText],
    before: usize,
    moves: &mut Vec<Move>,
    notes: &mut Vec<Annotation>,
) -> Result<(), MoveFailure> {
    let mut pos = start.clone();
    let result = texts.iter().enumerate().try_for_each(|(i, written)| {
        let ply = before + i + 1;
        let parsed = match notation {
            Some(n) => parse_move_as(&pos, &written.text, n),
            None => parse_move(&pos, &written.text),
        };
        let mv = parsed.map_err(|error| MoveFailure {
            ply,
            text: written.text.clone(),
            line: written.line,
            column: written.column + error.column().map_or(0, |c| c - 1),
            error,
        })?;
        let mut note = Annotation {
            nags: written.nags.clone(),
            comment: written.comment.clone(),
            variations: Vec::new(),
        };
        for variation in &written.variations {
            let mut line = Line {
                comment: variation.comment.clone(),
                ..Line::default()
            };
            resolve(
                &pos,
                notation,
                &variation.moves,
                ply - 1,
                &mut line.moves,
                &mut line.notes,
            )?;
            note.variations.push(line);
        }
        pos.make_move(mv);
        moves.push(mv);
        notes.push(note);
        Ok(())
    });
    while notes.last().is_some_and(Annotation::is_empty) {
        notes.pop();
    }
    result
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
        // A lone `$` is a NAG without its number, and the line break after it stays one.
        let err = parse_pgn("1. 炮二平五 $\n马8进7").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1:9: '$' is not a NAG (expected $0 to $255)"
        );
    }

    #[test]
    fn keeps_comments_nags_and_nested_variations() {
        let text = "{before} 1. 炮二平五 {centre} {again} 马8进7?! $14 \
                    (1... 炮8平5 {same} 2. 马二进三 (2. 马八进七 ; to the end\n) 马8进7) \
                    ( {other} 1... 卒7进1! ) 2. 马二进三 *";
        let game = parse_pgn(text).unwrap();
        assert_eq!(game.comment.as_deref(), Some("before"));
        assert_eq!(texts(&game), ["炮二平五", "马8进7", "马二进三"]);
        assert_eq!(game.moves[0].comment.as_deref(), Some("centre again"));
        let reply = &game.moves[1];
        assert_eq!(reply.nags, [6, 14]);
        assert_eq!(reply.variations.len(), 2);
        let first = &reply.variations[0];
        assert_eq!(
            first
                .moves
                .iter()
                .map(|m| m.text.as_str())
                .collect::<Vec<_>>(),
            ["炮8平5", "马二进三", "马8进7"]
        );
        assert_eq!(first.moves[0].comment.as_deref(), Some("same"));
        let nested = &first.moves[1].variations[0];
        assert_eq!(nested.moves[0].text, "马八进七");
        assert_eq!(nested.moves[0].comment.as_deref(), Some("to the end"));
        let second = &reply.variations[1];
        assert_eq!(second.comment.as_deref(), Some("other"));
        assert_eq!(second.moves[0].nags, [1]);
        assert_eq!(game.result, Some(GameResult::Unknown));

        let (record, failure) = game.replay_partial().unwrap();
        assert_eq!(failure, None);
        assert_eq!(record.comment.as_deref(), Some("before"));
        let note = record.note(1).unwrap();
        assert_eq!(note.nags, [6, 14]);
        let iccs = |line: &Line| line.moves.iter().map(|m| m.iccs()).collect::<Vec<_>>();
        assert_eq!(iccs(&note.variations[0]), ["h7e7", "h0g2", "h9g7"]);
        assert_eq!(iccs(&note.variations[0].notes[1].variations[0]), ["b0c2"]);
        assert_eq!(iccs(&note.variations[1]), ["g6g5"]);
        assert_eq!(record.notes.len(), 2, "no empty notes after the last");
    }

    #[test]
    fn an_illegal_move_in_a_variation_says_where() {
        let text = "1. 炮二平五 马8进7\n2. 马二进三 (2. 马八进七 (2. 车一进一 马2进9)) 车9平8 *";
        let (record, failure) = parse_pgn(text).unwrap().replay_partial().unwrap();
        let failure = failure.unwrap();
        assert_eq!((failure.ply, failure.line, failure.column), (4, 2, 27));
        assert_eq!(failure.text, "马2进9");
        assert_eq!(record.moves.len(), 2);
        let err = parse_pgn("( 1. 炮二平五 )").unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::VariationWithoutMove);
        let err = parse_pgn("1. 炮二平五 $x").unwrap_err();
        assert_eq!(
            (err.line, err.column, err.kind),
            (1, 9, PgnErrorKind::BadNag("x".into()))
        );
    }
}
