//! One interactive session: a pty channel shown through a `RemoteSession`. Input comes
//! from the channel; the room or the lobby change signals redraw it; frames go out
//! through a bounded slot drained by a writer task, so a client that stops reading
//! loses frames (and gets a full redraw later) but never holds up anyone else.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::ChannelMsg;
use russh::server::Msg;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, watch};

use crate::board::Color;
use crate::game::{LobbyCommand, RoomKind};
use crate::tui::{Intent, RemoteSession, SCREEN_RESTORE, SCREEN_SETUP};

use super::gate::Admission;
use super::hub::{Hub, Room};
use super::log;

/// Largest window accepted; bigger requests are clamped (a frame's cost grows with it).
pub const MAX_COLUMNS: u16 = 400;
pub const MAX_ROWS: u16 = 150;
/// Output waiting for a slow client before frames are dropped.
pub const MAX_PENDING_OUTPUT: usize = 256 * 1024;

pub fn clamp_size(columns: u32, rows: u32) -> (u16, u16) {
    let clamp = |value: u32, max: u16| u16::try_from(value).unwrap_or(max).clamp(1, max);
    (clamp(columns, MAX_COLUMNS), clamp(rows, MAX_ROWS))
}

/// Frames waiting to be written; bounded.
#[derive(Default)]
struct Output {
    pending: Mutex<(Vec<u8>, bool)>,
    ready: Notify,
}

impl Output {
    /// Queues `bytes`; `false` when the client is too far behind and everything
    /// queued was dropped (the next frame must then be a full one).
    fn push(&self, bytes: &[u8]) -> bool {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        let fits = pending.0.len() + bytes.len() <= MAX_PENDING_OUTPUT;
        if fits {
            pending.0.extend_from_slice(bytes);
        } else {
            pending.0.clear();
        }
        drop(pending);
        self.ready.notify_one();
        fits
    }

    fn close(&self) {
        self.pending.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
        self.ready.notify_one();
    }

    async fn drain(self: Arc<Self>, mut writer: impl AsyncWrite + Unpin) {
        loop {
            self.ready.notified().await;
            let (bytes, closed) = {
                let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
                (std::mem::take(&mut pending.0), pending.1)
            };
            if !bytes.is_empty()
                && (writer.write_all(&bytes).await.is_err() || writer.flush().await.is_err())
            {
                return;
            }
            if closed {
                return;
            }
        }
    }
}

/// Input allowed per second (bytes) and the burst above it.
struct RateLimit {
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new(per_second: u32) -> RateLimit {
        RateLimit {
            per_second: f64::from(per_second),
            tokens: f64::from(per_second) * 2.0,
            last: Instant::now(),
        }
    }

    /// How many of `len` bytes may be handled now.
    fn allow(&mut self, len: usize) -> usize {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.per_second * 2.0);
        self.last = now;
        let allowed = (self.tokens.floor() as usize).min(len);
        self.tokens -= allowed as f64;
        allowed
    }
}

/// Who the session is and how it started.
pub struct SessionStart {
    pub identity: String,
    pub name: String,
    pub addr: Option<SocketAddr>,
    pub term: String,
    pub size: (u16, u16),
    pub command: Option<LobbyCommand>,
    /// The connection's place, held for the session's life too.
    pub admission: Arc<Admission>,
}

/// Where the session is.
enum Place {
    Lobby,
    Room {
        room: Arc<Room>,
        side: Option<Color>,
    },
}

struct Session {
    hub: Arc<Hub>,
    start: SessionStart,
    ui: RemoteSession,
    place: Place,
    room_version: watch::Receiver<u64>,
    quit: bool,
}

/// Runs the session on `channel` until the player leaves, the link drops or the server
/// stops.
pub async fn run(hub: Arc<Hub>, mut channel: russh::Channel<Msg>, start: SessionStart) {
    let (width, height) = start.size;
    let ui = match RemoteSession::new(hub.settings.config.clone(), &start.term, width, height) {
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
        start,
    };
    log(&format!(
        "{} session started for {} ({})",
        addr_text(session.start.addr),
        session.start.name,
        session.start.identity
    ));
    session.begin();
    let mut lobby = hub.lobby.subscribe();
    let mut shutdown = hub.shutdown.subscribe();
    let mut rate = RateLimit::new(hub.settings.input_bytes_per_second);
    let mut idle = Box::pin(tokio::time::sleep(hub.settings.idle_timeout));
    let mut warned_rate = false;
    let mut reason = "left";
    while !session.quit {
        session.draw(&output);
        let in_room = matches!(session.place, Place::Room { .. });
        tokio::select! {
            message = channel.wait() => match message {
                Some(ChannelMsg::Data { data }) => {
                    idle.as_mut().reset(tokio::time::Instant::now() + hub.settings.idle_timeout);
                    let allowed = rate.allow(data.len());
                    if allowed < data.len() && !warned_rate {
                        warned_rate = true;
                        session.ui.notify("typing too fast: some input was dropped", true);
                    }
                    let intents = session.ui.feed(&data[..allowed]);
                    for intent in intents {
                        session.act(intent);
                    }
                }
                Some(ChannelMsg::WindowChange { col_width, row_height, .. }) => {
                    let (width, height) = clamp_size(col_width, row_height);
                    session.ui.resize(width, height);
                }
                Some(ChannelMsg::Eof | ChannelMsg::Close) | None => {
                    reason = "disconnected";
                    break;
                }
                Some(_) => {}
            },
            changed = session.room_version.changed(), if in_room => {
                if changed.is_ok() {
                    session.refresh_room();
                }
            }
            changed = lobby.changed(), if !in_room => {
                if changed.is_ok() {
                    session.ui.show_lobby(hub.summaries());
                }
            }
            _ = shutdown.changed() => {
                session.ui.notify("the server is stopping: your game is saved", true);
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
    session.leave_room();
    output.push(SCREEN_RESTORE);
    if reason == "server stopping" {
        output.push(b"xiangqi-tui: the server is stopping; your game is saved.\r\n");
    }
    output.close();
    let _ = tokio::time::timeout(Duration::from_millis(500), writer).await;
    let _ = channel.exit_status(0).await;
    let _ = channel.eof().await;
    let _ = channel.close().await;
    session.start.admission.session_ended();
    log(&format!(
        "{} session ended for {}: {reason}",
        addr_text(session.start.addr),
        session.start.name
    ));
}

pub fn addr_text(addr: Option<SocketAddr>) -> String {
    addr.map_or_else(|| "?".to_owned(), |addr| addr.to_string())
}

impl Session {
    /// The first screen: the command given, the player's unfinished game, or the lobby.
    fn begin(&mut self) {
        if let Some(command) = self.start.command.take() {
            self.act(Intent::Lobby(command));
            return;
        }
        if let Some(room) = self.hub.seat_of(&self.start.identity) {
            let name = room.lock().name.clone();
            self.enter(room, false);
            self.ui
                .notify(format!("room {name}: resumed your game"), false);
            return;
        }
        self.ui.show_lobby(self.hub.summaries());
    }

    fn draw(&mut self, output: &Output) {
        match self.ui.render() {
            Ok(bytes) if bytes.is_empty() => {}
            Ok(bytes) => {
                if !output.push(&bytes) {
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
        if let Place::Room { room, side } = &self.place {
            let view = room.lock().view(*side);
            self.ui.show_room(view);
            let search = room.search();
            if let Some(request) = &search.request {
                self.ui.show_engine_search(request, &search.iterations);
            }
        }
    }

    /// Shows `room`, as its player when `identity` has a seat there, else watching.
    fn enter(&mut self, room: Arc<Room>, watch_only: bool) {
        self.leave_room();
        let identity = self.start.identity.clone();
        let side = if watch_only {
            None
        } else {
            room.lock().side_of(&identity)
        };
        self.hub.touch(&room, |state| match side {
            Some(color) => state.set_connected(color, true),
            None => state.spectators += 1,
        });
        self.room_version = room.version.subscribe();
        self.place = Place::Room {
            room: Arc::clone(&room),
            side,
        };
        self.refresh_room();
    }

    fn leave_room(&mut self) {
        if let Place::Room { room, side } = std::mem::replace(&mut self.place, Place::Lobby) {
            self.hub.touch(&room, |state| match side {
                Some(color) => state.set_connected(color, false),
                None => state.spectators = state.spectators.saturating_sub(1),
            });
        }
    }

    fn act(&mut self, intent: Intent) {
        match intent {
            Intent::Quit => self.quit = true,
            Intent::Lobby(command) => self.lobby_command(command),
            Intent::Leave => {
                self.leave_room();
                self.ui.show_lobby(self.hub.summaries());
                self.ui
                    .notify("back in the lobby; your seat is kept", false);
            }
            other => self.room_intent(other),
        }
    }

    fn lobby_command(&mut self, command: LobbyCommand) {
        let identity = self.start.identity.clone();
        let name = self.start.name.clone();
        let result = match command {
            LobbyCommand::Rooms => {
                self.leave_room();
                self.ui.show_lobby(self.hub.summaries());
                Ok(())
            }
            LobbyCommand::NewEngine(room) | LobbyCommand::NewHuman(room)
                if self.hub.seat_of(&identity).is_some() && room.is_none() =>
            {
                let _ = room;
                Err("you have an unfinished game: finish it (or resign) first".to_owned())
            }
            LobbyCommand::NewEngine(room) => self
                .hub
                .create(room, RoomKind::Engine, &identity, &name)
                .map(|room| self.enter(room, false)),
            LobbyCommand::NewHuman(room) => self
                .hub
                .create(room, RoomKind::Human, &identity, &name)
                .map(|room| self.enter(room, false)),
            LobbyCommand::Join(room_name) => match self.hub.room(&room_name) {
                Some(room) => self
                    .hub
                    .change(&room, |state| state.take_seat(&identity, &name))
                    .map(|_| self.enter(room, false)),
                None => Err(format!("no room {room_name}")),
            },
            LobbyCommand::Watch(room_name) => match self.hub.room(&room_name) {
                Some(room) => {
                    self.enter(room, true);
                    Ok(())
                }
                None => Err(format!("no room {room_name}")),
            },
        };
        if let Err(error) = result {
            self.ui.notify(error, true);
        }
    }

    fn room_intent(&mut self, intent: Intent) {
        let Place::Room { room, side } = &self.place else {
            return;
        };
        let room = Arc::clone(room);
        let name = self.start.name.clone();
        if let Intent::Say(text) = &intent {
            self.hub.touch(&room, |state| state.say(&name, text));
            return;
        }
        let Some(side) = *side else {
            self.ui.notify("spectators watch; they can :say", true);
            return;
        };
        let result = match intent {
            Intent::Play(mv) => self
                .hub
                .change(&room, |state| state.play(side, mv).map(|()| "")),
            Intent::Resign => self
                .hub
                .change(&room, |state| state.resign(side).map(|()| "")),
            Intent::Draw => self.hub.change(&room, |state| state.draw(side)),
            Intent::Undo => self.hub.change(&room, |state| state.undo(side)),
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
