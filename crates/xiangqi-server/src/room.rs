//! A room: one shared game, its two seats, its spectators and chat. The rules of the
//! game (whose move, offers, takebacks, the engine's answer to a draw offer) are the
//! game domain's (`xiangqi_app::game`), the same as at home; a room adds who sits where and
//! what it says in its chat. Every session shows the room through its own `App`
//! (`RoomView`). Plain state under a lock: no I/O.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::store::{Archived, FinishedGame, UnixTime};
use xiangqi_app::game::rating::Rating;
use xiangqi_app::game::{
    DrawReply, GameState, Players, RoomKind, RoomSummary, RoomView, RuleError, SearchView,
    TakebackReply, ended_text,
};
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::clock::{GameClock, MonotonicTime, TimeControl, TimeSource};
use xiangqi_core::record::GameResult;

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
    /// Who the room counts against (`rooms_per_identity`) and whose turn its engine's
    /// searches wait for in the job pool: the key that opened it, or the guest's
    /// address (a restored room: its first player's identity).
    pub opener: String,
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
    /// Since when no player is here (spectators may be): a game on is adjourned after
    /// a while of it.
    pub players_away_since: Option<Instant>,
    /// Why the latest save failed, while the room is not on disk as it is.
    pub not_saved: Option<String>,
    /// Both clocks, one for every viewer; untimed when the room has no control. Like
    /// at home, no clock runs before Red's first move.
    pub clock: GameClock,
    /// Where the clocks read the time.
    pub time: Arc<dyn TimeSource>,
    /// The tournament game the room holds, if any (no rematch in it).
    pub tournament: Option<crate::tournament::TournamentGame>,
    /// The side that asked for a rematch, waiting for the other's `:rematch`.
    rematch: Option<Color>,
    chat: VecDeque<(u64, String)>,
    chat_next: u64,
}

/// How a session leaves a room, as its log tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Departure {
    /// `:leave`, or the session ended by the player.
    Left,
    /// The connection was lost.
    Dropped,
    /// Without a word (the server is stopping).
    Quietly,
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
        let opener = creator.identity.clone();
        let seats = match kind {
            RoomKind::Engine => [Some(creator), None],
            RoomKind::Human => [None, Some(creator)],
        };
        RoomState {
            name: name.to_owned(),
            kind,
            opener,
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
            players_away_since: Some(Instant::now()),
            not_saved: None,
            clock: GameClock::new(None, None),
            time: Arc::new(MonotonicTime::default()),
            tournament: None,
            rematch: None,
            chat: VecDeque::new(),
            chat_next: 0,
        }
    }

    /// Gives both sides `control` (`None`: no clocks), written in the game's tags too.
    pub fn set_control(&mut self, control: Option<TimeControl>) {
        self.clock = GameClock::new(control, control);
        self.game.write_controls(control, control);
    }

    /// The room's time control (both sides play with the same).
    pub fn control(&self) -> Option<TimeControl> {
        self.clock.control(Color::Red)
    }

    /// The time as the room's clocks read it.
    pub fn now(&self) -> Duration {
        self.time.now()
    }

    /// How long until the running clock's flag falls; `None` when no timed clock runs.
    pub fn time_to_flag(&self) -> Option<Duration> {
        if self.is_over() {
            return None;
        }
        let side = self.clock.running()?;
        self.clock.remaining(side, self.now())
    }

    /// Ends the game on time if the running clock's flag has fallen (the hub's timer
    /// asks when it should have); `Err` when it has not (nothing changed).
    pub fn flag_fall(&mut self) -> Result<&'static str, String> {
        let now = self.now();
        let mut clock = self.clock.clone();
        if self.game.check_flag(&mut clock, now).is_none() {
            return Err("no flag has fallen".to_owned());
        }
        self.clock = clock;
        self.say_ended();
        Ok("the flag fell")
    }

    /// After a change: a finished game's clocks stop, and after a takeback the side to
    /// move's runs.
    fn settle_clock(&mut self, now: Duration) {
        if self.is_over() {
            self.clock.stop(now);
        } else {
            self.game.follow_clock(&mut self.clock, now);
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
        self.say_system(format!("{name} joins as {}", color.name()));
        Ok(color)
    }

    /// A session of `name` arrives, on `side`'s seat or watching. `returning`: the
    /// player held the seat before this session (taking a seat is told when taken).
    pub fn arrive(&mut self, side: Option<Color>, name: &str, returning: bool) {
        match side {
            Some(color) => {
                let was_away = self.seats[color.index()]
                    .as_ref()
                    .is_some_and(|seat| seat.connected == 0);
                self.set_connected(color, true);
                if returning && was_away {
                    self.say_system(format!("{name} is back"));
                }
            }
            None => {
                self.set_watching(true);
                self.say_system(format!("{name} watches"));
            }
        }
    }

    /// A session of `name` leaves; a player's last session going is told.
    pub fn depart(&mut self, side: Option<Color>, name: &str, how: Departure) {
        let Some(color) = side else {
            self.set_watching(false);
            return;
        };
        self.set_connected(color, false);
        let gone = self.seats[color.index()]
            .as_ref()
            .is_some_and(|seat| seat.connected == 0);
        match how {
            Departure::Left if gone => self.say_system(format!("{name} left")),
            Departure::Dropped if gone => self.say_system(format!("{name} dropped")),
            _ => {}
        }
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
        let playing = self.seats.iter().flatten().any(|seat| seat.connected > 0);
        let since = |here: bool, since: Option<Instant>| match (here, since) {
            (true, _) => None,
            (false, None) => Some(Instant::now()),
            (false, since) => since,
        };
        self.vacant_since = since(playing || self.spectators > 0, self.vacant_since);
        self.players_away_since = since(playing, self.players_away_since);
    }

    /// Whether the room's game is to be adjourned: on (a move played, not over) and its
    /// players away for `after`.
    pub fn adjourn_due(&self, after: Duration, now: Instant) -> bool {
        let away = self
            .players_away_since
            .is_some_and(|since| now.saturating_duration_since(since) >= after);
        // Not a tournament's game: its clock (a tournament always has one) ends it, and
        // its round waits for it; adjourned, its room would look closed to the director.
        away && self.game.ply() > 0 && !self.is_over() && self.tournament.is_none()
    }

    /// Whether the room may be closed, nobody having been in it for `expiry`: only a
    /// room with nothing to resume (no move played) or a finished one. A game in
    /// progress stays for its players to come back to.
    pub fn expired(&self, expiry: std::time::Duration, now: Instant) -> bool {
        let idle = self
            .vacant_since
            .is_some_and(|since| now.saturating_duration_since(since) >= expiry);
        // A tournament game nobody came to is the tournament's to end (a no-show).
        idle && ((self.game.ply() == 0 && self.tournament.is_none()) || self.is_over())
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

    /// Who plays `color`, plainly: a name, the engine, or `(open)`.
    fn player_name(&self, color: Color) -> String {
        if self.engine_side == Some(color) {
            return ENGINE_NAME.to_owned();
        }
        match &self.seats[color.index()] {
            Some(seat) => seat.name.clone(),
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
    /// offer. A move made after the mover's flag fell does not count: the game is lost
    /// on time instead (and that is the change made).
    pub fn play(&mut self, side: Color, mv: Move) -> Result<&'static str, String> {
        if self.flag_fall().is_ok() {
            return Ok("your time ran out before the move: the game is lost on time");
        }
        self.game.play_for(side, mv).map_err(refusal)?;
        let now = self.now();
        if self.clock.is_timed() {
            // The flag was checked at this `now`: the clock takes the move.
            let _ = self.clock.moved(side, now);
        }
        self.settle_clock(now);
        Ok("")
    }

    pub fn resign(&mut self, side: Color) -> Result<(), String> {
        self.game.resign(side, self.players()).map_err(refusal)?;
        self.settle_clock(self.now());
        self.say_ended();
        Ok(())
    }

    /// `:rematch` after the game: offers a new game with the colours swapped and the
    /// same clocks, or agrees to the other side's offer. The engine always agrees.
    pub fn rematch(&mut self, side: Color) -> Result<&'static str, String> {
        if !self.is_over() {
            return Err("the game is on: :rematch is for after it".to_owned());
        }
        if self.tournament.is_some() {
            return Err(
                "a tournament game has no rematch: the tournament pairs the next".to_owned(),
            );
        }
        if self.engine_side.is_none() && self.seats.iter().any(Option::is_none) {
            return Err("nobody to play a rematch with".to_owned());
        }
        match self.rematch {
            Some(offered) if offered == side => {
                Err("you offered already: waiting for your opponent's :rematch".to_owned())
            }
            None if self.engine_side.is_none() => {
                self.rematch = Some(side);
                self.say_system(format!(
                    "{} offers a rematch (:rematch agrees)",
                    side.name()
                ));
                // Shown while it waits, as a draw offer is.
                Ok("")
            }
            _ => {
                self.start_rematch();
                Ok("rematch: colours swapped")
            }
        }
    }

    /// A new game in the room: the players change colours, the clocks start afresh.
    fn start_rematch(&mut self) {
        self.seats.swap(0, 1);
        self.ratings.swap(0, 1);
        self.started = crate::store::unix_now();
        self.engine_side = self.engine_side.map(Color::opponent);
        self.engine_view = None;
        self.rematch = None;
        let control = self.control();
        self.game = GameState::new(self.game.start().clone());
        self.set_control(control);
        self.say_system(format!(
            "rematch: {} plays Red, {} Black",
            self.player_name(Color::Red),
            self.player_name(Color::Black)
        ));
    }

    /// `:draw`: offers a draw, or accepts the other side's offer. The engine answers at
    /// once, by the same rule as at home.
    pub fn draw(&mut self, side: Color) -> Result<&'static str, String> {
        let reply = self
            .game
            .offer_draw(side, self.players(), self.engine_view)
            .map_err(refusal)?;
        match reply {
            // The status line shows the offer while it waits (`view`'s pending): a
            // notice saying so would outlive it.
            DrawReply::Offered => {
                self.say_system(format!("{} offers a draw", side.name()));
                Ok("")
            }
            DrawReply::Agreed => {
                self.settle_clock(self.now());
                self.say_ended();
                Ok("draw agreed")
            }
            DrawReply::Accepted(answer) => {
                self.say_system(format!(
                    "{} offers a draw; the engine accepts: {}",
                    side.name(),
                    answer.describe()
                ));
                self.settle_clock(self.now());
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
        self.settle_clock(self.now());
        Ok(match reply {
            // Shown while it waits, as a draw offer is.
            TakebackReply::Asked => {
                self.say_system(format!("{} asks to take back the last move", side.name()));
                ""
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

    /// The room as `viewer` sees it (`None`: a spectator).
    pub fn view(&self, viewer: Option<Color>) -> RoomView {
        let pending = self.game.pending();
        let pending = match (pending.draw_offer, pending.takeback) {
            (Some(side), _) => Some(format!("{} offers a draw (:draw accepts)", side.name())),
            (None, Some(side)) => Some(format!("{} asks to take back (:undo agrees)", side.name())),
            (None, None) => self
                .rematch
                .map(|side| format!("{} offers a rematch (:rematch agrees)", side.name())),
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
            clock: self.clock.clone(),
            time: Arc::clone(&self.time),
            rated: self.rated,
            event: self.tournament.as_ref().map(|game| game.label()),
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
            opening: self.game.opening_at(self.game.ply()).map(|o| o.code),
        }
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && self.engine_side == Some(self.game.position().side_to_move())
    }
}

#[path = "room_chat.rs"]
mod chat;

#[cfg(test)]
#[path = "room_tests.rs"]
mod tests;
