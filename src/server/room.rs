//! A room: one shared game, its two seats, its spectators, offers and chat. The rules
//! of a shared game live here (whose move, agreements); every session shows the room
//! through its own `App` (`RoomView`). Plain state under a lock: no I/O.

use std::collections::VecDeque;

use crate::board::{Color, Move, Position};
use crate::record::GameResult;
use crate::tui::{GameState, RoomKind, RoomSummary, RoomView};

/// Chat lines kept per room.
const CHAT_KEPT: usize = 50;
/// Longest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 200;
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
    pub game: GameState,
    /// Red, Black. In an engine room the engine's seat stays `None`.
    pub seats: [Option<Seat>; 2],
    pub engine_side: Option<Color>,
    pub spectators: usize,
    chat: VecDeque<(u64, String)>,
    chat_next: u64,
    pub draw_offer: Option<Color>,
    pub undo_request: Option<Color>,
    /// A result not on the board (resignation, agreed draw): text and result.
    pub ended: Option<(String, GameResult)>,
}

fn index(color: Color) -> usize {
    match color {
        Color::Red => 0,
        Color::Black => 1,
    }
}

fn other(color: Color) -> Color {
    match color {
        Color::Red => Color::Black,
        Color::Black => Color::Red,
    }
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
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
            game: GameState::new(start),
            seats,
            engine_side: (kind == RoomKind::Engine).then_some(Color::Black),
            spectators: 0,
            chat: VecDeque::new(),
            chat_next: 0,
            draw_offer: None,
            undo_request: None,
            ended: None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some() || self.game.position().outcome().is_some()
    }

    /// The side `identity` plays, if it holds a seat.
    pub fn side_of(&self, identity: &str) -> Option<Color> {
        [Color::Red, Color::Black].into_iter().find(|&color| {
            self.seats[index(color)]
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
        let Some(color) = [Color::Red, Color::Black]
            .into_iter()
            .find(|&color| self.seats[index(color)].is_none())
        else {
            return Err(format!("room {} has no open seat: watch it", self.name));
        };
        self.seats[index(color)] = Some(Seat {
            identity: identity.to_owned(),
            name: name.to_owned(),
            connected: 0,
        });
        self.say_system(format!("{name} sits down as {}", side_name(color)));
        Ok(color)
    }

    /// A session of the player on `color` arrives (`true`) or leaves.
    pub fn set_connected(&mut self, color: Color, arrives: bool) {
        if let Some(seat) = &mut self.seats[index(color)] {
            seat.connected = if arrives {
                seat.connected + 1
            } else {
                seat.connected.saturating_sub(1)
            };
        }
    }

    pub fn seat_name(&self, color: Color) -> String {
        if self.engine_side == Some(color) {
            return ENGINE_NAME.to_owned();
        }
        match &self.seats[index(color)] {
            Some(seat) if seat.connected == 0 => format!("{} (away)", seat.name),
            Some(seat) => seat.name.clone(),
            None => "(open)".to_owned(),
        }
    }

    /// Plays `mv` for `side`; the move must be that side's and legal.
    pub fn play(&mut self, side: Color, mv: Move) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        if self.game.position().side_to_move() != side {
            return Err("it is your opponent's move".into());
        }
        if !self.game.position().is_legal(mv) {
            return Err(format!("{} is not legal here", mv.iccs()));
        }
        self.game.play(mv);
        // A move answers any offer.
        self.draw_offer = None;
        self.undo_request = None;
        Ok(())
    }

    pub fn resign(&mut self, side: Color) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        let result = match side {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        };
        let text = format!("{} resigned ({})", side_name(side), result.as_str());
        self.say_system(text.clone());
        self.ended = Some((text, result));
        Ok(())
    }

    /// `:draw`: offers a draw, or accepts the other side's offer. The engine declines.
    pub fn draw(&mut self, side: Color) -> Result<&'static str, String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        if self.engine_side.is_some() {
            return Err("the engine plays on: it does not take draw offers".into());
        }
        match self.draw_offer {
            Some(offerer) if offerer != side => {
                let text = "draw agreed (1/2-1/2)".to_owned();
                self.say_system(text.clone());
                self.ended = Some((text, GameResult::Draw));
                self.draw_offer = None;
                Ok("draw agreed")
            }
            Some(_) => Err("you offered a draw already".into()),
            None => {
                self.draw_offer = Some(side);
                self.say_system(format!("{} offers a draw", side_name(side)));
                Ok("draw offered")
            }
        }
    }

    /// `:undo`: asks to take back the last move, or agrees to the other side's request.
    /// Against the engine the engine always agrees (it takes back its reply too).
    pub fn undo(&mut self, side: Color) -> Result<&'static str, String> {
        if self.ended.is_some() {
            return Err("the game is over".into());
        }
        if self.game.ply() == 0 {
            return Err("nothing to take back".into());
        }
        if self.engine_side.is_some() {
            let plies = if self.game.position().side_to_move() == side {
                2
            } else {
                1
            };
            if self.game.ply() < plies {
                return Err("nothing to take back".into());
            }
            for _ in 0..plies {
                self.game.undo();
            }
            return Ok("took back your move");
        }
        match self.undo_request {
            Some(asker) if asker != side => {
                self.game.undo();
                self.undo_request = None;
                self.say_system("the last move was taken back by agreement".into());
                Ok("took back the last move")
            }
            Some(_) => Err("you asked already: waiting for your opponent's :undo".into()),
            None => {
                self.undo_request = Some(side);
                self.say_system(format!(
                    "{} asks to take back the last move",
                    side_name(side)
                ));
                Ok("asked to take back")
            }
        }
    }

    pub fn say(&mut self, from: &str, text: &str) {
        let text: String = text
            .chars()
            .filter(|c| !c.is_control())
            .take(CHAT_MAX_CHARS)
            .collect();
        self.push_chat(format!("{from}: {text}"));
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
        let pending = match (self.draw_offer, self.undo_request) {
            (Some(side), _) => Some(format!("{} offers a draw (:draw accepts)", side_name(side))),
            (None, Some(side)) => Some(format!(
                "{} asks to take back (:undo agrees)",
                side_name(side)
            )),
            (None, None) => None,
        };
        RoomView {
            name: self.name.clone(),
            kind: self.kind,
            my_side: viewer,
            red: self.seat_name(Color::Red),
            black: self.seat_name(Color::Black),
            spectators: self.spectators,
            game: self.game.clone(),
            ended: self.ended.as_ref().map(|(text, _)| text.clone()),
            pending,
            chat: self.chat.iter().cloned().collect(),
        }
    }

    pub fn summary(&self) -> RoomSummary {
        let seat = |color: Color| {
            if self.engine_side == Some(color) {
                return Some(ENGINE_NAME.to_owned());
            }
            self.seats[index(color)]
                .as_ref()
                .map(|seat| seat.name.clone())
        };
        RoomSummary {
            name: self.name.clone(),
            kind: self.kind,
            red: seat(Color::Red),
            black: seat(Color::Black),
            spectators: self.spectators,
            moves: self.game.ply(),
            over: self.is_over(),
        }
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && self.engine_side == Some(self.game.position().side_to_move())
    }

    pub fn opponent_of(color: Color) -> Color {
        other(color)
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
    fn resigning_ends_the_game_for_the_other_side() {
        let mut room = RoomState::new("x", RoomKind::Engine, seat("ann"), Position::startpos());
        assert!(room.take_seat("id-bob", "bob").is_err());
        room.resign(Color::Red).unwrap();
        assert_eq!(room.ended.as_ref().unwrap().1, GameResult::BlackWins);
        assert_eq!(room.summary().black.as_deref(), Some(ENGINE_NAME));
    }
}
