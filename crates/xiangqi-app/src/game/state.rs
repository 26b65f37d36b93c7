//! The game on the board: where it started, the moves played, the moves taken back,
//! its result and the offers waiting for an answer. Files hold a `record::GameRecord`;
//! this adds undo/redo and the moves' texts on top.

use xiangqi_core::board::rules::Outcome;
use xiangqi_core::board::{Color, Move, Position, Ruling};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_core::record::{GameRecord, GameResult};
use xiangqi_engine::opening::Opening;

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

/// What waits for the other side's answer: a draw offer, a request to take back, each
/// with the side that made it. A move answers both (it declines them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pending {
    pub draw_offer: Option<Color>,
    pub takeback: Option<Color>,
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
    pub(super) pending: Pending,
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
            pending: Pending::default(),
        }
    }

    /// The verdict if the game is over: a result given (resignation, flag fall, agreed
    /// draw) or the board's (mate, repetition, no-capture rule).
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.position.outcome())
    }

    /// The arbiter's ruling when the repetition rules ended the game (on the board, not
    /// by a result given).
    pub fn ruling(&self) -> Option<Ruling> {
        match self.ended {
            Some(_) => None,
            None => self.position.ruling(),
        }
    }

    /// How the game ended for the `Termination` tag: the rule for a ruling
    /// ("perpetual chase (rule 18)"), else the outcome's word ("normal", "resignation").
    pub fn termination(&self) -> Option<String> {
        match self.ruling() {
            Some(ruling) => Some(ruling.termination()),
            None => self
                .outcome()
                .map(|outcome| outcome.termination().to_owned()),
        }
    }

    /// How the game ended in a few words, for lists of games: the rule for a ruling,
    /// else the outcome's ("checkmate", "resignation").
    pub fn ending(&self) -> Option<String> {
        match self.ruling() {
            Some(ruling) => Some(ruling.termination()),
            None => self.outcome().map(|outcome| outcome.how().to_owned()),
        }
    }

    /// Ends the game with a result the board does not show.
    pub fn end(&mut self, outcome: Outcome) {
        self.ended = Some(outcome);
        self.pending = Pending::default();
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

    /// Removes tag `name`, if present.
    pub fn remove_tag(&mut self, name: &str) {
        self.tags.retain(|(tag, _)| tag != name);
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
        // A result the board does not show (resignation, time, agreement) stands.
        if game.position.outcome().is_none() {
            game.ended = given_result(record.result, game.tag("Termination"));
        }
        Ok(game)
    }

    /// The game as a record, with its result when it is over.
    pub fn to_record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.start.clone());
        record.tags = self.tags.clone();
        record.moves = self.moves().collect();
        if let Some(ruling) = self.ruling() {
            record.set_tag("Termination", &ruling.termination());
        }
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

    /// The opening (ECCO code and name) of the game's first `ply` moves, when the
    /// table knows it.
    pub fn opening_at(&self, ply: usize) -> Option<Opening> {
        let moves: Vec<Move> = self.moves().take(ply).collect();
        xiangqi_engine::opening::classify(&self.start, &moves)
    }

    pub fn ply(&self) -> usize {
        self.played.len()
    }

    /// The offer and the request waiting for an answer.
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// Puts back the offer and the request a saved game was waiting on (a room read
    /// back after a restart): they are the game's state as much as its moves.
    pub fn restore_pending(&mut self, pending: Pending) {
        self.pending = pending;
    }

    /// Plays `mv`, which must be legal. Playing the move redo would play keeps the
    /// rest of the redo line; any other move drops it. It answers any pending offer.
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
        self.pending = Pending::default();
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

    /// The position after the first `ply` plies (the current one from `ply()` on).
    pub fn position_at(&self, ply: usize) -> Position {
        if ply >= self.ply() {
            return self.position.clone();
        }
        let mut position = self.start.clone();
        for played in &self.played[..ply] {
            position.make_move(played.mv);
        }
        position
    }

    /// Cuts the game after `ply` plies: the moves after are dropped (not kept for redo).
    pub fn cut_at(&mut self, ply: usize) {
        while self.ply() > ply {
            self.undo();
        }
        self.taken_back.clear();
        self.pending = Pending::default();
    }

    /// A new game from the position after `ply` plies, with the moves before it: the
    /// record browsed goes on from there ("continue from here").
    pub fn continued_at(&self, ply: usize) -> GameState {
        let moves: Vec<Move> = self.moves().take(ply).collect();
        GameState::with_moves(self.start.clone(), &moves).expect("the moves of a game are legal")
    }
}

/// The result a record gives that the board does not show, told apart by its
/// `Termination` tag (a win without one is taken for a resignation).
fn given_result(result: GameResult, termination: Option<&str>) -> Option<Outcome> {
    let loser = match result {
        GameResult::RedWins => Color::Black,
        GameResult::BlackWins => Color::Red,
        GameResult::Draw => {
            return Some(Outcome::Draw(
                xiangqi_core::board::rules::DrawReason::Agreement,
            ));
        }
        GameResult::Unknown => return None,
    };
    let on_time = termination.is_some_and(|text| {
        let text = text.to_ascii_lowercase();
        text.contains("time") || text.contains("flag")
    });
    Some(if on_time {
        Outcome::flag_fall(loser)
    } else {
        Outcome::resignation(loser)
    })
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
    fn a_record_resigned_shows_its_result_and_browsing_positions_keep_the_game() {
        let game = GameState::with_moves(Position::startpos(), &[mv("h2e2"), mv("h9g7")]).unwrap();
        let mut record = game.to_record();
        record.result = GameResult::BlackWins;
        let loaded = GameState::from_record(&record).unwrap();
        assert_eq!(loaded.outcome(), Some(Outcome::resignation(Color::Red)));
        assert!(loaded.ended_off_board());
        let mut after_one = Position::startpos();
        after_one.make_move(mv("h2e2"));
        assert_eq!(loaded.position_at(1).key(), after_one.key());
        assert_eq!(loaded.position_at(9).key(), loaded.position().key());
        let goes_on = loaded.continued_at(1);
        assert_eq!(goes_on.outcome(), None);
        assert_eq!(goes_on.ply(), 1);
        let mut cut = game.clone();
        cut.cut_at(1);
        assert_eq!(cut.ply(), 1);
        assert!(!cut.can_redo());
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
