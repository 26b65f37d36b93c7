//! One interactive session: a pty channel shown through a `RemoteSession`. Input comes
//! from the channel; the room or the lobby change signals redraw it; frames go out
//! through a bounded slot drained by a writer task, so a client that stops reading
//! loses frames (and gets a full redraw later) but never holds up anyone else.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use russh::ChannelMsg;
use russh::server::Msg;
use tokio::sync::watch;

use xiangqi_app::game::rating::Rating;
use xiangqi_app::game::{GameState, LobbyCommand, Moderation, ResumeCode, RoomKind, RoomView};
use xiangqi_app::remote_work::RemoteWork;
use xiangqi_core::board::Color;
use xiangqi_core::record::GameRecord;
use xiangqi_term::{Intent, LobbyPage, RemoteSession, SCREEN_RESTORE, SCREEN_SETUP};

use super::archive::{self, Asker};
use super::gate::Admission;
use super::hub::{Hub, Room};
use super::log;
use super::moderation;
use super::names::NameClaim;
use super::pacing::{FramePacer, RESIZE_COST, RateLimit};
use super::room::Departure;

#[path = "session_lobby.rs"]
mod lobby;
#[path = "session_output.rs"]
mod output;
#[path = "session_rooms.rs"]
mod rooms;
use output::Output;
#[path = "session_tournament.rs"]
mod tournament;

/// Largest window accepted; bigger requests are clamped (a frame's cost grows with it).
pub const MAX_COLUMNS: u16 = 400;
pub const MAX_ROWS: u16 = 150;
/// Output waiting for a slow client before frames are dropped.
pub const MAX_PENDING_OUTPUT: usize = 256 * 1024;

pub fn clamp_size(columns: u32, rows: u32) -> (u16, u16) {
    let clamp = |value: u32, max: u16| u16::try_from(value).unwrap_or(max).clamp(1, max);
    (clamp(columns, MAX_COLUMNS), clamp(rows, MAX_ROWS))
}

/// Who the session is and how it started.
pub struct SessionStart {
    /// The key's fingerprint, or the guest's resume code (`resume` changes it to the
    /// code typed).
    pub identity: String,
    pub name: String,
    /// A guest's resume code, told when it takes a seat.
    pub guest_code: Option<ResumeCode>,
    /// A key holder's rating as it signed in (`None`: a guest).
    pub rating: Option<Rating>,
    pub addr: Option<SocketAddr>,
    pub term: String,
    pub size: (u16, u16),
    pub command: Option<LobbyCommand>,
    /// What to tell the player first.
    pub note: Option<String>,
    /// The display name, held for the session's life.
    pub _name: NameClaim,
    /// The connection's place, held for the session's life too.
    pub admission: Arc<Admission>,
}

/// Wrong resume codes a session may type before it is closed (guessing is slow).
const MAX_BAD_CODES: u32 = 5;

/// Where the session is.
enum Place {
    Lobby,
    Room {
        room: Arc<Room>,
        side: Option<Color>,
    },
    /// An archived game, stepped through.
    Archive,
    /// The puzzle trainer (or the endgame school): the player's own screen.
    Training,
    /// A tournament's screen, by its name.
    Tournament(String),
}

struct Session {
    hub: Arc<Hub>,
    start: SessionStart,
    ui: RemoteSession,
    place: Place,
    room_version: watch::Receiver<u64>,
    quit: bool,
    bad_codes: u32,
    /// The tournament board last opened by itself (it opens once).
    auto_opened: Option<String>,
    /// The last bye this player was told of ("club 2": the tournament and round).
    bye_told: Option<String>,
}

/// Runs the session on `channel` until the player leaves, the link drops or the server
/// stops.
pub async fn run(hub: Arc<Hub>, mut channel: russh::Channel<Msg>, start: SessionStart) {
    let (width, height) = start.size;
    // The session's work is its identity's in the job pool's turns: a key, or the
    // guest's address (reconnecting does not make a new one).
    let owner = moderation::opener(
        start
            .guest_code
            .is_none()
            .then_some(start.identity.as_str()),
        start.addr,
    );
    let work = RemoteWork::new(hub.jobs.clone(), owner);
    let config = session_config(&hub);
    let ui = match RemoteSession::new(config, &start.term, width, height, work) {
        Ok(ui) => ui,
        Err(error) => {
            log(&format!("cannot start a session: {error}"));
            let _ = channel.close().await;
            return;
        }
    };
    let output = Arc::new(Output::default());
    let writer = tokio::spawn(Arc::clone(&output).drain(channel.make_writer()));
    output.push(SCREEN_SETUP);
    let mut session = Session {
        room_version: watch::Sender::new(0).subscribe(),
        hub: Arc::clone(&hub),
        ui,
        place: Place::Lobby,
        quit: false,
        bad_codes: 0,
        auto_opened: None,
        bye_told: None,
        start,
    };
    let admin = crate::moderation::is_admin(&hub, session.key());
    session.ui.set_admin(admin);
    // A guest's identity is its resume code: the log never shows it.
    let shown_identity = session.key().unwrap_or("guest").to_owned();
    let addr = addr_text(session.start.addr);
    tracing::info!(
        event = "session_started",
        addr = %addr,
        user = %session.start.name,
        key = %shown_identity,
        "{addr} session started for {}{}",
        session.start.name,
        // A guest's name says it is one already ("ann (guest)").
        session.key().map(|key| format!(" ({key})")).unwrap_or_default(),
    );
    // Held for the session's life: how an admin's kick or ban reaches it.
    let mut registration =
        hub.moderation
            .sessions
            .register(&session.start.name, session.key(), session.start.addr);
    session.begin().await;
    let mut lobby = hub.lobby.subscribe();
    let mut tournaments = hub.tournaments.changed.subscribe();
    let mut shutdown = hub.shutdown.subscribe();
    let mut rate = RateLimit::new(hub.settings.input_bytes_per_second);
    let mut idle = Box::pin(tokio::time::sleep(hub.settings.idle_timeout));
    // Whatever arrives between two frames (keys, resizes, room and lobby changes) goes
    // into one frame: a flood of any of them costs at most one frame per interval.
    let mut pacer = FramePacer::new();
    let mut warned_rate = false;
    let mut reason = "left";
    let mut goodbye = String::new();
    // Why an admin ended the session, said as its last line.
    let mut removed: Option<String> = None;
    while !session.quit {
        let in_room = matches!(session.place, Place::Room { .. });
        let next_frame = pacer.next_frame();
        let clock_tick = session.ui.clock_refresh();
        // After `clock_refresh`: a thread that ended before it was asked has sent all
        // its reports, which are taken here; one still running gets a tick.
        if let Some(intents) = session.ui.poll_work() {
            pacer.redraw = true;
            for intent in intents {
                session.act(intent).await;
            }
        }
        tokio::select! {
            message = channel.wait() => match message {
                Some(ChannelMsg::Data { data }) => {
                    idle.as_mut().reset(tokio::time::Instant::now() + hub.settings.idle_timeout);
                    let allowed = rate.allow(data.len());
                    if allowed < data.len() {
                        hub.stats.input_dropped(data.len() - allowed);
                        if !warned_rate {
                            warned_rate = true;
                            session.ui.notify("typing too fast: some input was dropped", true);
                        }
                    }
                    let intents = session.ui.feed(&data[..allowed]);
                    for intent in intents {
                        session.act(intent).await;
                    }
                    pacer.redraw = true;
                }
                Some(ChannelMsg::WindowChange { col_width, row_height, .. }) => {
                    hub.stats.window_change();
                    pacer.resize = Some(clamp_size(col_width, row_height));
                }
                Some(ChannelMsg::Eof | ChannelMsg::Close) | None => {
                    reason = "disconnected";
                    break;
                }
                Some(_) => {}
            },
            changed = session.room_version.changed(), if in_room => {
                pacer.room_changed |= changed.is_ok();
            }
            changed = lobby.changed(), if !in_room => {
                pacer.lobby_changed |= changed.is_ok();
            }
            Ok(()) = tournaments.changed() => {
                session.tournaments_changed();
                pacer.redraw = true;
            }
            () = tokio::time::sleep_until(next_frame), if pacer.pending() => {
                session.frame(&mut pacer, &mut rate, &output);
            }
            // A running clock is drawn as it runs down (the hub ends the game on time).
            () = tokio::time::sleep(clock_tick.unwrap_or_default()), if clock_tick.is_some() => {
                pacer.redraw = true;
            }
            Ok(()) = registration.ended.changed() => {
                let why = registration.ended.borrow().clone().unwrap_or_default();
                session.ui.notify(why.clone(), true);
                session.draw(&output);
                reason = "removed by an admin";
                removed = Some(why);
                break;
            }
            _ = shutdown.changed() => {
                goodbye = session.goodbye();
                session.ui.notify(format!("the server is stopping: {goodbye}"), true);
                session.draw(&output);
                reason = "server stopping";
                break;
            }
            () = &mut idle => {
                session.ui.notify("idle for too long: goodbye", true);
                session.draw(&output);
                reason = "idle timeout";
                break;
            }
        }
    }
    session.leave_room(match reason {
        "disconnected" | "idle timeout" => Departure::Dropped,
        "server stopping" => Departure::Quietly,
        _ => Departure::Left,
    });
    output.push(SCREEN_RESTORE);
    if reason == "server stopping" {
        output.push(format!("xiangqi-tui: the server is stopping; {goodbye}.\r\n").as_bytes());
    }
    if let Some(why) = &removed {
        output.push(format!("xiangqi-tui: {why}\r\n").as_bytes());
    }
    output.close();
    let _ = tokio::time::timeout(Duration::from_millis(500), writer).await;
    let _ = channel
        .exit_status(if removed.is_some() { 1 } else { 0 })
        .await;
    let _ = channel.eof().await;
    let _ = channel.close().await;
    session.start.admission.session_ended();
    drop(registration);
    tracing::info!(
        event = "session_ended",
        addr = %addr,
        user = %session.start.name,
        key = %shown_identity,
        reason,
        "{addr} session ended for {}: {reason}",
        session.start.name
    );
}

/// The settings a session's app starts with: the server's, with the engine's threads
/// and hash those of a job of the pool (what `:review` says it runs with), never the
/// operator's play settings.
fn session_config(hub: &Hub) -> xiangqi_app::config::Config {
    let mut config = hub.settings.config.clone();
    config.settings.threads = xiangqi_app::config::Threads::Count(1);
    config.settings.hash_mb = u32::try_from(hub.jobs.hash_mb()).unwrap_or(u32::MAX);
    config
}

pub fn addr_text(addr: Option<SocketAddr>) -> String {
    addr.map_or_else(|| "?".to_owned(), |addr| addr.to_string())
}

impl Session {
    /// The key the session signed in with; `None` for a guest.
    fn key(&self) -> Option<&str> {
        self.start
            .guest_code
            .is_none()
            .then_some(self.start.identity.as_str())
    }

    /// Carries out an admin's command (or refuses it) and shows the answer.
    async fn moderate(&mut self, command: Moderation) {
        let actor = self.actor();
        match moderation::carry_out(&self.hub, &actor, command).await {
            Ok(done) => self.ui.notify(done, false),
            Err(why) => self.ui.notify(why, true),
        }
    }

    /// Whom this session's rooms, jobs and chat count against: the key, or the
    /// guest's address.
    fn opener(&self) -> String {
        moderation::opener(self.key(), self.start.addr)
    }

    /// Counts a rematch (a new game, as an opened room is) against this session's
    /// identity, or says why not.
    fn may_rematch(&self) -> Result<(), String> {
        let limit = self.hub.moderation.openings.limit();
        self.hub
            .moderation
            .openings
            .take(&self.opener(), tokio::time::Instant::now())
            .map_err(|wait| moderation::openings_refused(limit, wait))
    }

    /// The first screen: the command given, the player's unfinished game, or the lobby.
    async fn begin(&mut self) {
        let note = self.start.note.take();
        self.begin_screen().await;
        if let Some(note) = note {
            self.ui.notify(note, false);
        }
    }

    async fn begin_screen(&mut self) {
        if let Some(command) = self.start.command.take() {
            self.act(Intent::Lobby(command)).await;
            // Refused (a limit, a name taken): the lobby it is told in lists the rooms.
            if matches!(self.place, Place::Lobby) {
                self.show_lobby();
            }
            return;
        }
        if let Some(room) = self.hub.seat_of(&self.start.identity) {
            let name = room.lock().name.clone();
            self.enter(room, false, true);
            self.ui
                .notify(format!("room {name}: resumed your game"), false);
            return;
        }
        self.show_lobby();
        if let Some(game) = self.hub.adjourned_of(&self.start.identity).first() {
            self.ui.notify(
                format!(
                    "your game in room {name} is adjourned: join {name} resumes it",
                    name = game.name
                ),
                false,
            );
        }
    }

    /// Applies what changed since the last frame and draws one.
    fn frame(&mut self, pacer: &mut FramePacer, rate: &mut RateLimit, output: &Output) {
        // A resize waits while the rate limit is spent: it is only delayed, the
        // latest size is kept.
        if let Some((width, height)) = pacer.resize
            && rate.pay(RESIZE_COST)
        {
            pacer.resize = None;
            self.hub.stats.resize();
            self.ui.resize(width, height);
        }
        if pacer.room_changed {
            self.refresh_room();
        }
        if pacer.lobby_changed {
            match self.place {
                Place::Lobby => self.show_lobby(),
                // Its boards' moves.
                Place::Tournament(_) => self.refresh_tournament(),
                _ => {}
            }
        }
        pacer.drawn();
        self.draw(output);
    }

    fn show_lobby(&mut self) {
        self.hub.stats.lobby_read();
        self.ui.show_lobby(self.hub.summaries());
        let adjourned = self.hub.adjourned_of(&self.start.identity);
        self.ui
            .show_adjourned(adjourned.iter().map(|game| game.line()).collect());
    }

    /// What the stopping server says of the game shown (the server saved every room it
    /// could before telling).
    fn goodbye(&self) -> String {
        let room = match &self.place {
            Place::Room { room, .. } => Some(Arc::clone(room)),
            Place::Lobby | Place::Archive | Place::Training | Place::Tournament(_) => {
                self.hub.seat_of(&self.start.identity)
            }
        };
        let not_saved = room.and_then(|room| room.lock().not_saved.clone());
        match not_saved {
            Some(error) => format!("this game could NOT be saved ({error})"),
            None => "your game is saved".to_owned(),
        }
    }

    fn draw(&mut self, output: &Output) {
        self.hub.stats.frame();
        match self.ui.render() {
            Ok(bytes) if bytes.is_empty() => {}
            Ok(bytes) => {
                if !output.push(&bytes) {
                    self.hub.stats.frame_dropped();
                    // Frames were dropped: the next one repaints everything.
                    self.ui.force_full_redraw();
                    if let Ok(bytes) = self.ui.render() {
                        output.push(&bytes);
                    }
                }
            }
            Err(error) => {
                log(&format!("cannot draw: {error}"));
                self.quit = true;
            }
        }
    }

    fn refresh_room(&mut self) {
        let closed = match &self.place {
            Place::Room { room, .. } => room.closed(),
            _ => None,
        };
        if let Some(why) = closed {
            // The room is gone from the hub: nothing to leave but the screen.
            self.place = Place::Lobby;
            self.show_lobby();
            self.ui.notify(why, true);
            return;
        }
        if let Place::Room { room, side } = &mut self.place {
            let state = room.lock();
            // A player's side changes with a rematch.
            if side.is_some() {
                *side = state.side_of(&self.start.identity);
            }
            let view = state.view(*side);
            drop(state);
            self.ui.show_room(view);
            let search = room.search();
            match (&search.request, search.queued) {
                (Some(_), Some(place)) => self.ui.notify(
                    format!("the engines are busy: your game is number {place} in their queue"),
                    false,
                ),
                (Some(request), None) => self.ui.show_engine_search(request, &search.iterations),
                (None, _) => {}
            }
        }
    }

    async fn act(&mut self, intent: Intent) {
        match intent {
            Intent::Quit => self.quit = true,
            Intent::Lobby(command) => self.lobby_command(command).await,
            Intent::Moderate(command) => self.moderate(command).await,
            Intent::RecordPuzzle(record) => self.record_puzzle(*record).await,
            Intent::Leave => {
                self.leave_room(Departure::Left);
                self.show_lobby();
                self.ui
                    .notify("back in the lobby; your seat is kept", false);
            }
            other => self.room_intent(other),
        }
    }

    fn room_intent(&mut self, intent: Intent) {
        let Place::Room { room, side } = &self.place else {
            return;
        };
        let room = Arc::clone(room);
        let name = self.start.name.clone();
        if let Intent::Say(text) = &intent {
            let limit = self.hub.moderation.says.limit();
            let now = tokio::time::Instant::now();
            if let Err(wait) = self.hub.moderation.says.take(&self.opener(), now) {
                self.ui.notify(
                    format!(
                        "you are chatting too fast ({limit} lines a minute at most): wait {}",
                        super::rate_window::wait_text(wait)
                    ),
                    true,
                );
                return;
            }
            // Spectators are marked: only the players speak for their seats.
            let from = match side {
                Some(_) => name,
                None => format!("{name} (watching)"),
            };
            let _ = self.hub.change(&room, |state| {
                state.say(&from, text);
                Ok(())
            });
            return;
        }
        let Some(side) = *side else {
            self.ui.notify("spectators watch; they can :say", true);
            return;
        };
        let result = match intent {
            Intent::Play(mv) => self.hub.change(&room, |state| state.play(side, mv)),
            Intent::Resign => self
                .hub
                .change(&room, |state| state.resign(side).map(|()| "")),
            Intent::Draw => self.hub.change(&room, |state| state.draw(side)),
            Intent::Undo => self.hub.change(&room, |state| state.undo(side)),
            // A finished room whose name was taken by a new room is only a view now.
            Intent::Rematch if !self.hub.holds(&room) => {
                Err("this room's name went to a new room: open a new room for a rematch".to_owned())
            }
            Intent::Rematch => match self.may_rematch() {
                Ok(()) => self.hub.change(&room, |state| state.rematch(side)),
                Err(why) => Err(why),
            },
            _ => Ok(""),
        };
        match result {
            Ok("") => {}
            Ok(text) => self.ui.notify(text, false),
            Err(error) => {
                // The board shows the room's game again, whatever was tried.
                self.refresh_room();
                self.ui.notify(error, true);
            }
        }
    }
}
