//! The game on the board: where it started, the moves played, the moves taken back.
//! Files hold a `record::GameRecord`; this adds undo/redo and the moves' texts on top.

use crate::board::rules::Outcome;
use crate::board::{Move, Position};
use crate::notation::Notation;
use crate::record::{GameRecord, GameResult};

use super::notation_link::format_move;

/// A move played, with its text in every notation (formatting needs the position
/// before the move, which is at hand only when it is played).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    chinese: String,
    traditional: String,
    wxf: String,
    iccs: String,
}

impl PlayedMove {
    fn new(before: &Position, mv: Move) -> PlayedMove {
        PlayedMove {
            mv,
            chinese: format_move(before, mv, Notation::Chinese),
            traditional: format_move(before, mv, Notation::ChineseTraditional),
            wxf: format_move(before, mv, Notation::Wxf),
            iccs: format_move(before, mv, Notation::Iccs),
        }
    }

    pub fn text(&self, notation: Notation) -> &str {
        match notation {
            Notation::Chinese => &self.chinese,
            Notation::ChineseTraditional => &self.traditional,
            Notation::Wxf => &self.wxf,
            Notation::Iccs => &self.iccs,
        }
    }
}

/// A game: a start position, the moves played from it, and the moves taken back
/// (most recent last) that redo plays again.
#[derive(Debug, Clone)]
pub struct GameState {
    start: Position,
    position: Position,
    played: Vec<PlayedMove>,
    taken_back: Vec<Move>,
    /// Tags of a loaded game (event, players...), written back when saving.
    tags: Vec<(String, String)>,
    /// A result the board does not show: resignation, flag fall, agreed draw.
    ended: Option<Outcome>,
}

/// A move of a saved or loaded game that is not legal where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMoveAt {
    /// 0-based index in the move list.
    pub index: usize,
    pub mv: Move,
}

impl GameState {
    /// A game starting at `start`, which becomes the root (its history is forgotten).
    pub fn new(mut start: Position) -> GameState {
        start.clear_history();
        GameState {
            position: start.clone(),
            start,
            played: Vec::new(),
            taken_back: Vec::new(),
            tags: Vec::new(),
            ended: None,
        }
    }

    /// The verdict if the game is over: a result given (resignation, flag fall, agreed
    /// draw) or the board's (mate, repetition, no-capture rule).
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.position.outcome())
    }

    /// Ends the game with a result the board does not show.
    pub fn end(&mut self, outcome: Outcome) {
        self.ended = Some(outcome);
        self.set_tag("Termination", outcome.termination());
    }

    /// Whether the game ended by a result given rather than on the board (it cannot be
    /// taken back).
    pub fn ended_off_board(&self) -> bool {
        self.ended.is_some()
    }

    /// Sets tag `name` (replacing it if present).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(tag, _)| tag == name) {
            Some((_, old)) => *old = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// The game a record holds, every move checked.
    pub fn from_record(record: &GameRecord) -> Result<GameState, IllegalMoveAt> {
        let mut game = GameState::with_moves(record.start.clone(), &record.moves)?;
        game.tags = record.tags.clone();
        Ok(game)
    }

    /// The game as a record, with its result when it is over.
    pub fn to_record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.start.clone());
        record.tags = self.tags.clone();
        record.moves = self.moves().collect();
        record.result = match self.outcome() {
            Some(outcome) => match outcome.pgn_result() {
                "1-0" => GameResult::RedWins,
                "0-1" => GameResult::BlackWins,
                _ => GameResult::Draw,
            },
            None => GameResult::Unknown,
        };
        record
    }

    /// A game from `start` with `moves` played, each checked for legality.
    pub fn with_moves(start: Position, moves: &[Move]) -> Result<GameState, IllegalMoveAt> {
        let mut game = GameState::new(start);
        for (index, &mv) in moves.iter().enumerate() {
            if !game.position.is_legal(mv) {
                return Err(IllegalMoveAt { index, mv });
            }
            game.play(mv);
        }
        Ok(game)
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn played(&self) -> &[PlayedMove] {
        &self.played
    }

    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.played.iter().map(|played| played.mv)
    }

    pub fn ply(&self) -> usize {
        self.played.len()
    }

    /// Plays `mv`, which must be legal. Playing the move redo would play keeps the
    /// rest of the redo line; any other move drops it.
    pub fn play(&mut self, mv: Move) {
        debug_assert!(
            self.position.is_legal(mv),
            "{mv} in {}",
            self.position.to_fen()
        );
        if self.taken_back.last() == Some(&mv) {
            self.taken_back.pop();
        } else {
            self.taken_back.clear();
        }
        self.played.push(PlayedMove::new(&self.position, mv));
        self.position.make_move(mv);
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let played = self.played.pop()?;
        self.position.unmake_move(played.mv);
        self.taken_back.push(played.mv);
        Some(played.mv)
    }

    /// Plays the last move taken back again; `None` when there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = *self.taken_back.last()?;
        self.play(mv);
        Some(mv)
    }

    pub fn can_redo(&self) -> bool {
        !self.taken_back.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse_coords(text).unwrap()
    }

    #[test]
    fn undo_and_redo_walk_the_line_and_a_new_move_drops_redo() {
        let mut game =
            GameState::with_moves(Position::startpos(), &[mv("h2e2"), mv("h9g7")]).unwrap();
        assert_eq!(game.undo(), Some(mv("h9g7")));
        assert_eq!(game.undo(), Some(mv("h2e2")));
        assert_eq!(game.undo(), None);
        assert_eq!(game.position(), &Position::startpos());
        assert_eq!(game.redo(), Some(mv("h2e2")));
        // The same move as redo would play keeps the rest of the line.
        game.play(mv("h9g7"));
        assert!(!game.can_redo());
        game.undo();
        game.play(mv("b9c7"));
        assert!(!game.can_redo());
        assert_eq!(game.moves().collect::<Vec<_>>(), [mv("h2e2"), mv("b9c7")]);
        assert_eq!(game.played()[0].text(Notation::Iccs), "h2e2");
        assert_eq!(game.played()[0].text(Notation::Chinese), "炮二平五");
        let back = GameState::from_record(&game.to_record()).unwrap();
        assert_eq!(back.moves().collect::<Vec<_>>(), [mv("h2e2"), mv("b9c7")]);
    }

    #[test]
    fn an_illegal_move_in_a_list_is_reported_with_its_index() {
        let error =
            GameState::with_moves(Position::startpos(), &[mv("h2e2"), mv("h2e2")]).unwrap_err();
        assert_eq!(
            error,
            IllegalMoveAt {
                index: 1,
                mv: mv("h2e2")
            }
        );
    }
}
