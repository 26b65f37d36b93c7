//! A room: one shared game, its two seats, its spectators and chat. The rules of the
//! game (whose move, offers, takebacks, the engine's answer to a draw offer) are the
//! game domain's (`crate::game`), the same as at home; a room adds who sits where and
//! what it says in its chat. Every session shows the room through its own `App`
//! (`RoomView`). Plain state under a lock: no I/O.

use std::collections::VecDeque;
use std::time::Instant;

use crate::board::{Color, Move, Position};
use crate::game::rating::Rating;
use crate::game::{
    DrawReply, GameState, Players, RoomKind, RoomSummary, RoomView, RuleError, SearchView,
    TakebackReply, ended_text,
};
use crate::record::GameResult;
use crate::store::{Archived, FinishedGame, UnixTime};

/// Chat lines kept per room.
const CHAT_KEPT: usize = 50;
/// Longest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 200;
/// The room's status while its saves fail.
pub const NOT_SAVED: &str = "NOT SAVED: the server keeps retrying";
/// Name shown for the engine's seat.
pub const ENGINE_NAME: &str = "engine";

/// Who sits on a seat: `identity` is the key fingerprint (or guest name and address).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub identity: String,
    pub name: String,
    /// Sessions of this player showing the room now (0: disconnected, seat kept).
    pub connected: usize,
}

#[derive(Debug, Clone)]
pub struct RoomState {
    pub name: String,
    pub kind: RoomKind,
    /// Whether its games change ratings (a room is rated unless created `unrated`).
    pub rated: bool,
    /// The game with its result and the offer or request waiting for an answer.
    pub game: GameState,
    /// Red, Black. In an engine room the engine's seat stays `None`.
    pub seats: [Option<Seat>; 2],
    pub engine_side: Option<Color>,
    /// What the room's engine found in its latest search: its answer to a draw offer
    /// goes by it, as the local engine's does.
    pub engine_view: Option<SearchView>,
    pub spectators: usize,
    /// Red's and Black's ratings as they sit down (`None`: a guest or the engine); moved
    /// when a rated game is archived.
    pub ratings: [Option<Rating>; 2],
    /// When its game started (for the archive).
    pub started: UnixTime,
    /// The archive's id of the game the room finished, once archived.
    pub archived: Option<i64>,
    /// Games finished here and not archived yet, oldest first (the saver archives
    /// them before it writes anything else of the room).
    pub to_archive: Vec<FinishedGame>,
    /// Chat lines numbered below this are in the store.
    pub chat_saved: u64,
    /// Since when no session shows the room (`None`: someone is here). A room nobody
    /// plays in expires (the hub decides when).
    pub vacant_since: Option<Instant>,
    /// Why the latest save failed, while the room is not on disk as it is.
    pub not_saved: Option<String>,
    chat: VecDeque<(u64, String)>,
    chat_next: u64,
}

/// A refusal in a room's words.
fn refusal(error: RuleError) -> String {
    match error {
        RuleError::TakebackAskedAlready => {
            "you asked already: waiting for your opponent's :undo".to_owned()
        }
        other => other.to_string(),
    }
}

impl RoomState {
    /// A new room. Against the engine its creator plays Red; a room for two people is
    /// opened by its host on Black, so the guest who joins opens the game with Red.
    pub fn new(name: &str, kind: RoomKind, creator: Seat, start: Position) -> RoomState {
        let seats = match kind {
            RoomKind::Engine => [Some(creator), None],
            RoomKind::Human => [None, Some(creator)],
        };
        RoomState {
            name: name.to_owned(),
            kind,
            rated: true,
            game: GameState::new(start),
            seats,
            engine_side: (kind == RoomKind::Engine).then_some(Color::Black),
            engine_view: None,
            spectators: 0,
            ratings: [None, None],
            started: crate::store::unix_now(),
            archived: None,
            to_archive: Vec::new(),
            chat_saved: 0,
            vacant_since: Some(Instant::now()),
            not_saved: None,
            chat: VecDeque::new(),
            chat_next: 0,
        }
    }

    /// Who plays the room's game, as the rules see it.
    pub fn players(&self) -> Players {
        match self.engine_side {
            Some(engine) => Players::Engine(engine),
            None => Players::TwoPeople,
        }
    }

    pub fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// A result given off the board (resignation, agreed draw) as the room tells it,
    /// and the result.
    pub fn ended(&self) -> Option<(String, GameResult)> {
        let text = ended_text(&self.game)?;
        Some((text, self.game.to_record().result))
    }

    /// The side `identity` plays, if it holds a seat.
    pub fn side_of(&self, identity: &str) -> Option<Color> {
        Color::BOTH.into_iter().find(|&color| {
            self.seats[color.index()]
                .as_ref()
                .is_some_and(|seat| seat.identity == identity)
        })
    }

    /// Seats `identity` (its seat again when it has one); the side, or why not.
    pub fn take_seat(&mut self, identity: &str, name: &str) -> Result<Color, String> {
        if let Some(color) = self.side_of(identity) {
            return Ok(color);
        }
        if self.kind == RoomKind::Engine {
            return Err(format!(
                "room {} is a game against the engine: watch it",
                self.name
            ));
        }
        let Some(color) = Color::BOTH
            .into_iter()
            .find(|&color| self.seats[color.index()].is_none())
        else {
            return Err(format!("room {} has no open seat: watch it", self.name));
        };
        self.seats[color.index()] = Some(Seat {
            identity: identity.to_owned(),
            name: name.to_owned(),
            connected: 0,
        });
        self.say_system(format!("{name} sits down as {}", color.name()));
        Ok(color)
    }

    /// A session of the player on `color` arrives (`true`) or leaves.
    pub fn set_connected(&mut self, color: Color, arrives: bool) {
        if let Some(seat) = &mut self.seats[color.index()] {
            seat.connected = if arrives {
                seat.connected + 1
            } else {
                seat.connected.saturating_sub(1)
            };
        }
        self.note_vacancy();
    }

    /// A spectator arrives (`true`) or leaves.
    pub fn set_watching(&mut self, arrives: bool) {
        self.spectators = if arrives {
            self.spectators + 1
        } else {
            self.spectators.saturating_sub(1)
        };
        self.note_vacancy();
    }

    fn note_vacancy(&mut self) {
        let occupied =
            self.spectators > 0 || self.seats.iter().flatten().any(|seat| seat.connected > 0);
        self.vacant_since = match (occupied, self.vacant_since) {
            (true, _) => None,
            (false, None) => Some(Instant::now()),
            (false, since) => since,
        };
    }

    /// Whether the room may be closed, nobody having been in it for `expiry`: only a
    /// room with nothing to resume (no move played) or a finished one. A game in
    /// progress stays for its players to come back to.
    pub fn expired(&self, expiry: std::time::Duration, now: Instant) -> bool {
        let idle = self
            .vacant_since
            .is_some_and(|since| now.saturating_duration_since(since) >= expiry);
        idle && (self.game.ply() == 0 || self.is_over())
    }

    pub fn seat_name(&self, color: Color) -> String {
        if self.engine_side == Some(color) {
            return ENGINE_NAME.to_owned();
        }
        match &self.seats[color.index()] {
            Some(seat) if seat.connected == 0 => format!("{} (away)", self.rated_name(color)),
            Some(_) => self.rated_name(color),
            None => "(open)".to_owned(),
        }
    }

    /// The seat's name with its rating, as lists show it: `ann 1612`, `bob 1500?`.
    pub fn rated_name(&self, color: Color) -> String {
        let Some(seat) = &self.seats[color.index()] else {
            return "(open)".to_owned();
        };
        match &self.ratings[color.index()] {
            Some(rating) => format!("{} {}", seat.name, rating.label()),
            None => seat.name.clone(),
        }
    }

    /// Plays `mv` for `side`; the move must be that side's and legal. It answers any
    /// offer.
    pub fn play(&mut self, side: Color, mv: Move) -> Result<(), String> {
        self.game.play_for(side, mv).map_err(refusal)
    }

    pub fn resign(&mut self, side: Color) -> Result<(), String> {
        self.game.resign(side, self.players()).map_err(refusal)?;
        self.say_ended();
        Ok(())
    }

    /// `:draw`: offers a draw, or accepts the other side's offer. The engine answers at
    /// once, by the same rule as at home.
    pub fn draw(&mut self, side: Color) -> Result<&'static str, String> {
        let reply = self
            .game
            .offer_draw(side, self.players(), self.engine_view)
            .map_err(refusal)?;
        match reply {
            DrawReply::Offered => {
                self.say_system(format!("{} offers a draw", side.name()));
                Ok("draw offered")
            }
            DrawReply::Agreed => {
                self.say_ended();
                Ok("draw agreed")
            }
            DrawReply::Accepted(answer) => {
                self.say_system(format!(
                    "{} offers a draw; the engine accepts: {}",
                    side.name(),
                    answer.describe()
                ));
                self.say_ended();
                Ok("draw agreed")
            }
            DrawReply::Declined(answer) => {
                Err(format!("draw offer declined: {}", answer.describe()))
            }
        }
    }

    /// `:undo`: asks to take back the last move, or agrees to the other side's request.
    /// Against the engine the engine always agrees (it takes back its reply too).
    pub fn undo(&mut self, side: Color) -> Result<&'static str, String> {
        let reply = self
            .game
            .ask_takeback(side, self.players())
            .map_err(refusal)?;
        Ok(match reply {
            TakebackReply::Asked => {
                self.say_system(format!("{} asks to take back the last move", side.name()));
                "asked to take back"
            }
            TakebackReply::TookBack(_) if self.engine_side.is_some() => "took back your move",
            TakebackReply::TookBack(_) => {
                self.say_system("the last move was taken back by agreement".into());
                "took back the last move"
            }
        })
    }

    /// Records how the latest save went (`Err`: why it failed) and tells the chat when
    /// that changes: failing, or saved again. `true` when it changed (to log it once).
    pub fn set_saved(&mut self, result: Result<(), &str>) -> bool {
        match result {
            Ok(()) => {
                if self.not_saved.take().is_none() {
                    return false;
                }
                self.say_system("the game is saved again".into());
            }
            Err(error) => {
                if self.not_saved.as_deref() == Some(error) {
                    return false;
                }
                if self.not_saved.is_none() {
                    self.say_system(format!(
                        "this game is NOT being saved ({error}); the server keeps retrying"
                    ));
                }
                self.not_saved = Some(error.to_owned());
            }
        }
        true
    }

    /// The chat lines numbered `seq` and after.
    pub fn chat_since(&self, seq: u64) -> impl Iterator<Item = (u64, &str)> {
        self.chat
            .iter()
            .filter(move |(number, _)| *number >= seq)
            .map(|(number, line)| (*number, line.as_str()))
    }

    /// The number the next chat line gets.
    pub fn chat_next(&self) -> u64 {
        self.chat_next
    }

    /// Puts back the chat lines the store kept (a restart), oldest first.
    pub fn restore_chat(&mut self, lines: impl IntoIterator<Item = (u64, String)>) {
        for (seq, line) in lines {
            if self.chat.len() == CHAT_KEPT {
                self.chat.pop_front();
            }
            self.chat.push_back((seq, line));
            self.chat_next = self.chat_next.max(seq + 1);
        }
        self.chat_saved = self.chat_next;
    }

    /// The oldest finished game waiting was archived: the room says under which id and,
    /// for a rated game, how the ratings moved (shown next to the names from now on).
    pub fn archived_one(&mut self, archived: Archived) {
        if self.to_archive.is_empty() {
            return;
        }
        let game = self.to_archive.remove(0);
        self.archived = Some(archived.id);
        self.say_system(format!(
            "the game is archived as #{id}: `pgn {id}` shows it",
            id = archived.id
        ));
        let Some((red, black)) = archived.ratings else {
            return;
        };
        let mut moves = Vec::new();
        for (side, new) in [(&game.red, red), (&game.black, black)] {
            // The seats may have swapped since (a rematch): the rating follows the key.
            let seat = Color::BOTH.into_iter().find(|&color| {
                self.seats[color.index()]
                    .as_ref()
                    .is_some_and(|seat| side.key.as_deref() == Some(seat.identity.as_str()))
            });
            let old = seat.and_then(|color| self.ratings[color.index()]);
            if let Some(color) = seat {
                self.ratings[color.index()] = Some(new);
            }
            let change = old.map_or(String::new(), |old| {
                format!(" ({:+.0})", new.rating.round() - old.rating.round())
            });
            moves.push(format!("{} {}{change}", side.name, new.label()));
        }
        self.say_system(format!("ratings: {}", moves.join(", ")));
    }

    pub fn say(&mut self, from: &str, text: &str) {
        let text: String = text
            .chars()
            .filter(|c| !c.is_control())
            .take(CHAT_MAX_CHARS)
            .collect();
        self.push_chat(format!("{from}: {text}"));
    }

    /// Tells the chat how the game ended off the board.
    fn say_ended(&mut self) {
        if let Some(text) = ended_text(&self.game) {
            self.say_system(text);
        }
    }

    fn say_system(&mut self, text: String) {
        self.push_chat(format!("* {text}"));
    }

    fn push_chat(&mut self, line: String) {
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back((self.chat_next, line));
        self.chat_next += 1;
    }

    /// The room as `viewer` sees it (`None`: a spectator).
    pub fn view(&self, viewer: Option<Color>) -> RoomView {
        let pending = self.game.pending();
        let pending = match (pending.draw_offer, pending.takeback) {
            (Some(side), _) => Some(format!("{} offers a draw (:draw accepts)", side.name())),
            (None, Some(side)) => Some(format!("{} asks to take back (:undo agrees)", side.name())),
            (None, None) => None,
        };
        // In the status line while it lasts: the chat line scrolls away.
        let pending = match (&self.not_saved, pending) {
            (None, pending) => pending,
            (Some(_), None) => Some(NOT_SAVED.to_owned()),
            (Some(_), Some(pending)) => Some(format!("{NOT_SAVED} | {pending}")),
        };
        RoomView {
            name: self.name.clone(),
            kind: self.kind,
            my_side: viewer,
            red: self.seat_name(Color::Red),
            black: self.seat_name(Color::Black),
            spectators: self.spectators,
            game: self.game.clone(),
            ended: ended_text(&self.game),
            pending,
            chat: self.chat.iter().cloned().collect(),
        }
    }

    pub fn summary(&self) -> RoomSummary {
        let seat = |color: Color| {
            if self.engine_side == Some(color) {
                return Some(ENGINE_NAME.to_owned());
            }
            self.seats[color.index()]
                .as_ref()
                .map(|_| self.rated_name(color))
        };
        RoomSummary {
            name: self.name.clone(),
            kind: self.kind,
            red: seat(Color::Red),
            black: seat(Color::Black),
            spectators: self.spectators,
            plies: self.game.ply(),
            to_move: self.game.position().side_to_move(),
            over: self.is_over(),
        }
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && self.engine_side == Some(self.game.position().side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(name: &str) -> Seat {
        Seat {
            identity: format!("id-{name}"),
            name: name.into(),
            connected: 1,
        }
    }

    fn mv(text: &str) -> Move {
        Move::parse_coords(text).unwrap()
    }

    #[test]
    fn seats_turns_and_agreements() {
        let mut room = RoomState::new("k7", RoomKind::Human, seat("ann"), Position::startpos());
        assert_eq!(room.take_seat("id-bob", "bob"), Ok(Color::Red));
        assert_eq!(room.take_seat("id-ann", "ann"), Ok(Color::Black));
        assert!(room.take_seat("id-cy", "cy").is_err());
        assert_eq!(
            room.play(Color::Black, mv("h9g7")),
            Err("it is your opponent's move".into())
        );
        room.play(Color::Red, mv("h2e2")).unwrap();
        assert_eq!(room.undo(Color::Red), Ok("asked to take back"));
        assert_eq!(room.game.ply(), 1);
        assert_eq!(room.undo(Color::Black), Ok("took back the last move"));
        assert_eq!(room.game.ply(), 0);
        assert_eq!(room.draw(Color::Red), Ok("draw offered"));
        assert!(room.draw(Color::Red).is_err());
        assert_eq!(room.draw(Color::Black), Ok("draw agreed"));
        assert!(room.is_over());
        assert!(room.play(Color::Red, mv("h2e2")).is_err());
        let view = room.view(Some(Color::Red));
        assert_eq!(view.ended.as_deref(), Some("draw agreed (1/2-1/2)"));
        assert!(
            view.chat
                .iter()
                .any(|(_, line)| line == "* Red offers a draw")
        );
    }

    #[test]
    fn the_rooms_engine_answers_a_draw_offer_by_its_latest_search() {
        let mut room = RoomState::new("e", RoomKind::Engine, seat("ann"), Position::startpos());
        room.play(Color::Red, mv("h2e2")).unwrap();
        assert_eq!(
            room.draw(Color::Red),
            Err("draw offer declined: the engine has not searched the position yet".into())
        );
        room.play(Color::Black, mv("h9g7")).unwrap();
        room.engine_view = Some(SearchView {
            depth: 9,
            centipawns: Some(-45),
        });
        assert_eq!(
            room.draw(Color::Red),
            Err("draw offer declined: the engine sees an advantage".into())
        );
        assert!(!room.is_over());
        room.engine_view = Some(SearchView {
            depth: 9,
            centipawns: Some(12),
        });
        assert_eq!(room.draw(Color::Red), Ok("draw agreed"));
        assert_eq!(
            room.ended().unwrap(),
            ("draw agreed (1/2-1/2)".into(), GameResult::Draw)
        );
        let view = room.view(Some(Color::Red));
        assert_eq!(
            view.chat
                .iter()
                .map(|(_, line)| line.as_str())
                .collect::<Vec<_>>(),
            [
                "* Red offers a draw; the engine accepts: the engine's search calls the position level",
                "* draw agreed (1/2-1/2)"
            ]
        );
        assert_eq!(room.undo(Color::Red), Err("the game is over".into()));
    }

    #[test]
    fn a_failing_save_is_told_once_and_shown_until_a_save_succeeds() {
        let mut room = RoomState::new("k7", RoomKind::Human, seat("ann"), Position::startpos());
        assert!(!room.set_saved(Ok(())));
        assert!(room.set_saved(Err("disk full")));
        assert!(!room.set_saved(Err("disk full")));
        assert!(room.set_saved(Err("read-only")));
        room.draw(Color::Black).unwrap();
        let view = room.view(None);
        assert_eq!(
            view.pending.as_deref(),
            Some("NOT SAVED: the server keeps retrying | Black offers a draw (:draw accepts)")
        );
        assert!(room.set_saved(Ok(())));
        assert_eq!(
            room.view(None).pending.as_deref(),
            Some("Black offers a draw (:draw accepts)")
        );
        let chat: Vec<String> = room
            .view(None)
            .chat
            .into_iter()
            .map(|(_, line)| line)
            .collect();
        assert_eq!(
            chat,
            [
                "* this game is NOT being saved (disk full); the server keeps retrying",
                "* Black offers a draw",
                "* the game is saved again"
            ]
        );
    }

    #[test]
    fn resigning_ends_the_game_for_the_other_side() {
        let mut room = RoomState::new("x", RoomKind::Engine, seat("ann"), Position::startpos());
        assert!(room.take_seat("id-bob", "bob").is_err());
        room.resign(Color::Red).unwrap();
        assert_eq!(room.ended().unwrap().1, GameResult::BlackWins);
        assert_eq!(room.summary().black.as_deref(), Some(ENGINE_NAME));
    }
}
