//! The TUI for a remote terminal, with no terminal of its own: the SSH server feeds it
//! input bytes and a size and sends the frames it returns as bytes. A room shows the
//! same `App`, `update` and `view` as the local TUI; the session only keeps the room's
//! rules (whose move it is, agreements between players) and reports what the player
//! asks for as `Intent`s the server carries out on the shared room.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use xiangqi_app::key::{KeyCode, KeyModifiers};

use xiangqi_app::config::Config;
use xiangqi_app::config::theme::ColorEnv;
use xiangqi_app::game::{
    LobbyCommand, Moderation, RoomKind, RoomSummary, RoomView, TournamentView,
};
use xiangqi_core::board::{Color, Move};
use xiangqi_engine::engine::SearchInfo;
use xiangqi_engine::service::{SearchId, SearchRequest};

use super::remote_input::InputDecoder;
use super::remote_lobby;
use super::view::view;
use xiangqi_app::action::{Action, BrowseTo, Command, Effect, RoomAsk};
use xiangqi_app::app::{App, AppMode, Focus};
use xiangqi_app::input::InputLine;
use xiangqi_app::keymap;
use xiangqi_app::popup::Popup;
use xiangqi_app::remote_work::{RemoteWork, WorkTag};
use xiangqi_app::search_log::LogKind;
use xiangqi_app::train::SchoolTables;
use xiangqi_app::update::update;

/// Bytes that put a remote terminal in the state the TUI draws on: the alternate
/// screen, click and wheel reports (SGR), bracketed paste.
pub const SCREEN_SETUP: &[u8] = b"\x1b[?1049h\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[2J";
/// Bytes that put it back as it was.
pub const SCREEN_RESTORE: &[u8] = b"\x1b[?2004l\x1b[?1006l\x1b[?1000l\x1b[?25h\x1b[?1049l";

/// What a player asks of the room or the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    Lobby(LobbyCommand),
    Play(Move),
    /// Confirmed with `y` after Ctrl-R (or `:resign`).
    Resign,
    /// `:draw`: offer a draw, or accept the other side's offer.
    Draw,
    /// `:undo` (or Ctrl-Z): ask to take back, or agree to the other side's request.
    Undo,
    Say(String),
    /// Back to the lobby (`:leave`); a player keeps the seat.
    Leave,
    /// `:rematch` after the game: offer a rematch, or accept the other side's offer.
    Rematch,
    /// End the session (Ctrl-C, Ctrl-D).
    Quit,
    /// A finished puzzle attempt to keep (for a key holder).
    RecordPuzzle(Box<xiangqi_app::puzzle_mode::PuzzleRecord>),
    /// An admin's command, from the lobby or a room.
    Moderate(Moderation),
}

enum Screen {
    Lobby,
    Room(Box<RoomView>),
    /// The puzzle trainer or the endgame school: the player's own, no room.
    Train,
}

/// Where the backend writes a frame; `render` takes the bytes out.
#[derive(Clone, Default)]
struct FrameSink(Arc<Mutex<Vec<u8>>>);

impl FrameSink {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

impl Write for FrameSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One remote terminal's UI.
pub struct RemoteSession {
    app: App,
    terminal: Terminal<CrosstermBackend<FrameSink>>,
    sink: FrameSink,
    decoder: InputDecoder,
    screen: Screen,
    lobby: remote_lobby::Lobby,
    /// Ctrl-R was pressed: the next key confirms (`y`) or cancels.
    confirm_resign: bool,
    /// Chat lines already in the log.
    chat_seen: u64,
    /// The room engine's search in the log, and how many of its iterations.
    search_seen: (Option<SearchId>, usize),
    needs_clear: bool,
    /// The session's job on the server's pool: a review, the prover, the school's tables.
    work: RemoteWork,
    /// Jobs ahead of the session's, as last told.
    told_ahead: Option<usize>,
    /// The server's endgame tables, shared by its sessions (`show_drill`).
    school: Option<Arc<SchoolTables>>,
    /// The server counts this session's key among its admins.
    admin: bool,
}

fn area(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.max(1), height.max(1))
}

/// A ratatui terminal drawing into `sink`, with nothing drawn yet. Its `clear` and
/// `resize` would ask the process's own terminal for the cursor, so a fresh one is made
/// instead whenever the remote screen is cleared.
fn screen(
    sink: &FrameSink,
    width: u16,
    height: u16,
) -> io::Result<Terminal<CrosstermBackend<FrameSink>>> {
    let options = TerminalOptions {
        viewport: Viewport::Fixed(area(width, height)),
    };
    Terminal::with_options(CrosstermBackend::new(sink.clone()), options)
}

impl RemoteSession {
    /// A session drawn at `width` x `height` for a terminal whose `TERM` is `term`, its
    /// work done as jobs of the server's pool through `work`.
    pub fn new(
        config: Config,
        term: &str,
        width: u16,
        height: u16,
        work: RemoteWork,
    ) -> io::Result<RemoteSession> {
        let color_env = ColorEnv {
            no_color: None,
            colorterm: None,
            term: Some(term.to_owned()),
        };
        let mut app = App::new(config, color_env, false);
        app.size = (width.max(1), height.max(1));
        app.lobby_behind = true;
        let sink = FrameSink::default();
        let terminal = screen(&sink, width, height)?;
        Ok(RemoteSession {
            app,
            terminal,
            sink,
            decoder: InputDecoder::default(),
            screen: Screen::Lobby,
            lobby: remote_lobby::Lobby::default(),
            confirm_resign: false,
            chat_seen: 0,
            search_seen: (None, 0),
            needs_clear: true,
            work,
            told_ahead: None,
            school: None,
            admin: false,
        })
    }

    /// The session is an admin's: a room offers the admins' commands.
    pub fn set_admin(&mut self, admin: bool) {
        self.admin = admin;
    }

    pub fn app(&self) -> &App {
        &self.app
    }

    /// The room shown, if any.
    pub fn room(&self) -> Option<&RoomView> {
        match &self.screen {
            Screen::Room(view) => Some(view),
            Screen::Lobby | Screen::Train => None,
        }
    }

    pub fn resize(&mut self, width: u16, height: u16) {
        let _ = update(&mut self.app, Action::Resize(width.max(1), height.max(1)));
        self.needs_clear = true;
    }

    /// The next frame starts from a cleared screen (after frames were dropped).
    pub fn force_full_redraw(&mut self) {
        self.needs_clear = true;
    }

    /// A line in the room's log that stays (what the player may need later).
    pub fn note(&mut self, text: impl Into<String>) {
        self.app.log.push(LogKind::Note, text.into());
        self.app.log.follow();
    }

    /// A message on the status line (lobby or room).
    pub fn notify(&mut self, text: impl Into<String>, alert: bool) {
        let text = text.into();
        match &self.screen {
            Screen::Lobby => self.lobby.message = Some((text, alert)),
            Screen::Room(_) | Screen::Train if alert => self.app.alert(text),
            Screen::Room(_) | Screen::Train => self.app.notify(text),
        }
    }

    /// Shows the lobby with `rooms`.
    pub fn show_lobby(&mut self, rooms: Vec<RoomSummary>) {
        self.enter_lobby();
        self.lobby.tournament = None;
        self.lobby.set_rooms(rooms);
    }

    fn enter_lobby(&mut self) {
        if !matches!(self.screen, Screen::Lobby) {
            self.leave_work();
            self.leave_training();
            self.screen = Screen::Lobby;
            self.needs_clear = true;
        }
    }

    /// Shows a tournament's screen in the lobby (entering it or following its changes).
    pub fn show_tournament(&mut self, view: TournamentView) {
        self.enter_lobby();
        self.lobby.set_tournament(view);
    }

    /// A banner over the room just opened (a tournament pairing): `title` and `text`
    /// until a key closes it.
    pub fn show_banner(&mut self, title: String, text: String) {
        self.app.popups.push(Popup::Message { title, text });
    }

    /// The player's adjourned games, listed under the rooms.
    pub fn show_adjourned(&mut self, lines: Vec<String>) {
        self.lobby.adjourned = lines;
    }

    /// Shows the lobby's help in place of the room list (until the next command).
    pub fn show_lobby_help(&mut self) {
        self.lobby.help = true;
    }

    /// Shows a list (`games`, `top`) in place of the room list, until the next command.
    pub fn show_lobby_page(&mut self, page: super::remote_lobby::Page) {
        self.lobby.page = Some(page);
    }

    /// Shows `view` (entering the room or following its changes).
    pub fn show_room(&mut self, view: RoomView) {
        if matches!(self.screen, Screen::Train) {
            self.leave_training();
        }
        let (entering, side_changed) = match &self.screen {
            Screen::Room(old) => (old.name != view.name, old.my_side != view.my_side),
            Screen::Lobby | Screen::Train => (true, true),
        };
        if entering {
            self.leave_work();
        }
        // The room's clocks, read with the room's time: every viewer sees the same.
        self.app.clock = view.clock.clone();
        self.app.time = Arc::clone(&view.time);
        if entering {
            // Nothing of the room left behind comes along (its result popup, a notice).
            self.app.popups.clear();
            self.app.notice = None;
            xiangqi_app::flow::start_game(&mut self.app, view.game.clone());
            self.app.clock = view.clock.clone();
            self.app.focus = Focus::Input;
            self.chat_seen = 0;
            self.search_seen = (None, 0);
            self.app.engine.remote = view.kind == RoomKind::Engine;
            self.confirm_resign = false;
            self.needs_clear = true;
        } else if !self.app.game.moves().eq(view.game.moves())
            || self.app.game.outcome() != view.game.outcome()
        {
            let was_over = self.app.game_over();
            self.app.game = view.game.clone();
            self.app.selected = None;
            // A viewer browsing back keeps the position shown (per viewer).
            xiangqi_app::browse::follow_browse(&mut self.app);
            if !was_over && self.app.game_over() {
                // The local game's ending: log line, status line and the result popup.
                xiangqi_app::game_controls::game_ended(&mut self.app);
                if view.event.is_some() {
                    // A tournament's game: its director pairs the next, no rematch.
                    for popup in &mut self.app.popups {
                        if let Popup::GameOver { rematch, .. } = popup {
                            *rematch = false;
                        }
                    }
                }
            } else if !self.app.game_over() {
                // A rematch: the last game's popup goes.
                self.app
                    .popups
                    .retain(|popup| !matches!(popup, Popup::GameOver { .. }));
            }
        }
        if side_changed {
            self.app.flipped = view.my_side == Some(Color::Black);
        }
        for (number, line) in &view.chat {
            if *number >= self.chat_seen {
                self.app.log.push(LogKind::Note, line.clone());
                self.chat_seen = number + 1;
            }
        }
        self.app.mode = AppMode::Room(xiangqi_app::RoomMode {
            status: status_text(&view),
            seat: view.my_side,
            admin: self.admin,
        });
        self.screen = Screen::Room(Box::new(view));
    }

    /// Shows the room engine's search as the local log shows the local engine's: who
    /// thinks within which limits, then a line per finished iteration. `iterations` are
    /// all the search's so far; those already shown are skipped.
    pub fn show_engine_search(&mut self, request: &SearchRequest, iterations: &[SearchInfo]) {
        if self.search_seen.0 != Some(request.id) {
            self.search_seen = (Some(request.id), 0);
            let line = xiangqi_app::engine_events::thinks_line(request);
            self.app.log.push(LogKind::Search, line);
            self.app.log.follow();
        }
        for info in iterations.iter().skip(self.search_seen.1) {
            let line =
                xiangqi_app::engine_events::iteration_line(&self.app, &request.position, info);
            self.app.log.push(LogKind::Iteration, line);
        }
        self.search_seen.1 = self.search_seen.1.max(iterations.len());
    }

    /// When to draw again for the clocks, while one runs: at its next reading (tenths
    /// under 20 seconds, else seconds).
    pub fn clock_refresh(&self) -> Option<std::time::Duration> {
        // Work under way is looked for at each tick.
        if self.work.busy() {
            return Some(xiangqi_app::remote_work::POLL);
        }
        if !matches!(self.screen, Screen::Room(_)) || !self.app.clock_ticking() {
            return None;
        }
        let side = self.app.clock.running()?;
        let left = self.app.clock.remaining(side, self.app.now())?;
        let step = if left.as_secs() < 20 {
            std::time::Duration::from_millis(100)
        } else {
            std::time::Duration::from_secs(1)
        };
        let into_step = left.as_nanos() % step.as_nanos();
        // Just past the next change of the reading.
        Some(
            std::time::Duration::from_nanos(into_step as u64) + std::time::Duration::from_millis(1),
        )
    }

    /// Decodes `bytes` and handles the keys; returns what the player asked for.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Intent> {
        let mut intents = Vec::new();
        for action in self.decoder.feed(bytes) {
            intents.extend(self.handle(action));
        }
        intents
    }

    /// Handles one decoded input (public for tests that skip the byte level).
    pub fn handle(&mut self, action: Action) -> Vec<Intent> {
        if let Action::Key(key) = &action
            && keymap::is_quit(key)
        {
            return vec![Intent::Quit];
        }
        match &self.screen {
            Screen::Lobby => self.lobby.handle(action),
            Screen::Room(_) => self.room_input(action),
            Screen::Train => self.train_input(action),
        }
    }

    fn room_input(&mut self, action: Action) -> Vec<Intent> {
        if let Action::Key(key) = &action
            && self.confirm_resign
        {
            self.confirm_resign = false;
            self.app.notice = None;
            if key.code == KeyCode::Char('y') {
                return vec![Intent::Resign];
            }
            self.app.notify("you play on");
            return Vec::new();
        }
        let action = match self.archive_key(&action) {
            Some(command) => Action::Command(command),
            None => action,
        };
        // The keymap and the `:` commands know what a room allows: the rest is refused
        // in the app, and what the room decides comes back as `Effect::AskRoom`.
        let effects = update(&mut self.app, action);
        self.after_update(effects)
    }

    /// In an archived game nobody moves, so with nothing typed the arrows step through
    /// it (as `[` `]` do) and `n` `N` go to the moves `:review` marked, whatever pane
    /// has the keys (the search log keeps its own).
    fn archive_key(&self, action: &Action) -> Option<Command> {
        let Action::Key(key) = action else {
            return None;
        };
        let free = self.archived()
            && self.app.popups.is_empty()
            && self.app.input.is_empty()
            && self.app.focus != Focus::Log
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if !free {
            return None;
        }
        Some(match key.code {
            KeyCode::Left | KeyCode::Up => Command::Browse(BrowseTo::Back),
            KeyCode::Right | KeyCode::Down => Command::Browse(BrowseTo::Forward),
            KeyCode::Char('n') => Command::JumpToMarked(true),
            KeyCode::Char('N') => Command::JumpToMarked(false),
            _ => return None,
        })
    }

    /// Whether the room shown is an archived game (`pgn ID`), which nobody plays.
    fn archived(&self) -> bool {
        matches!(&self.screen, Screen::Room(view) if is_archived(view))
    }

    fn my_side(&self) -> Option<Color> {
        self.room().and_then(|view| view.my_side)
    }

    fn ask_resign(&mut self) -> Vec<Intent> {
        if self.my_side().is_none() {
            self.app.alert("spectators do not resign");
            return Vec::new();
        }
        self.confirm_resign = true;
        self.app
            .alert("resign this game? y resigns, any other key plays on");
        Vec::new()
    }

    /// What the player asked of the room.
    fn asked(&mut self, ask: RoomAsk, text: String) -> Vec<Intent> {
        match ask {
            RoomAsk::Resign => self.ask_resign(),
            RoomAsk::Draw => vec![Intent::Draw],
            RoomAsk::Undo => vec![Intent::Undo],
            RoomAsk::Leave => vec![Intent::Leave],
            RoomAsk::Say => vec![Intent::Say(text)],
            RoomAsk::Rematch => vec![Intent::Rematch],
            RoomAsk::Quit => vec![Intent::Quit],
            RoomAsk::Moderate(verb) => match Moderation::parse(verb, &text) {
                Ok(command) => vec![Intent::Moderate(command)],
                Err(usage) => {
                    self.app.alert(usage);
                    Vec::new()
                }
            },
        }
    }

    /// Keeps the shared game: a move made on the board becomes a `Play` when it is the
    /// player's to make; anything else is put back as the room has it.
    fn after_update(&mut self, effects: Vec<Effect>) -> Vec<Intent> {
        self.work.settle(&self.app);
        let mut intents = Vec::new();
        for effect in effects {
            match effect {
                Effect::ClearScreen => self.needs_clear = true,
                Effect::Quit => intents.push(Intent::Quit),
                Effect::AskRoom { ask, text } => intents.extend(self.asked(ask, text)),
                Effect::Review(request) => self.start_review(*request, self.archived()),
                // No engine, no files and no autosave for a remote session: the room
                // keeps the game.
                _ => {}
            }
        }
        self.app.quitting = false;
        let Screen::Room(view) = &self.screen else {
            return intents;
        };
        if self.app.game.moves().eq(view.game.moves()) {
            return intents;
        }
        let room_moves: Vec<Move> = view.game.moves().collect();
        let mine: Vec<Move> = self.app.game.moves().collect();
        let one_more = mine.len() == room_moves.len() + 1 && mine.starts_with(&room_moves);
        let to_move = view.game.position().side_to_move();
        let why = if view.ended.is_some() {
            Some("the game is over")
        } else if view.my_side.is_none() {
            Some("spectators watch: they do not move")
        } else if view.my_side != Some(to_move) {
            Some("it is your opponent's move")
        } else if !one_more {
            Some("moves are taken back only by agreement: :undo asks")
        } else {
            None
        };
        match why {
            Some(why) => {
                self.app.game = view.game.clone();
                self.app.alert(why);
            }
            None => intents.push(Intent::Play(mine[room_moves.len()])),
        }
        intents
    }

    /// Draws the screen and returns the bytes that bring the terminal up to date.
    pub fn render(&mut self) -> io::Result<Vec<u8>> {
        if self.needs_clear {
            let (width, height) = self.app.size;
            self.terminal = screen(&self.sink, width, height)?;
            // Default colours first, so the cleared screen is blank as ratatui assumes.
            self.sink.write_all(b"\x1b[0m\x1b[2J")?;
            self.needs_clear = false;
        }
        let RemoteSession {
            app,
            terminal,
            screen,
            lobby,
            ..
        } = self;
        terminal.draw(|frame| draw_screen(screen, lobby, app, frame))?;
        Ok(self.sink.take())
    }

    /// Draws what the session shows into `frame` (any backend: the tests' too).
    pub fn draw(&self, frame: &mut ratatui::Frame) {
        draw_screen(&self.screen, &self.lobby, &self.app, frame);
    }

    /// The text of the lobby's input line (for tests).
    pub fn lobby_input(&self) -> &InputLine {
        &self.lobby.line
    }
}

fn draw_screen(
    screen: &Screen,
    lobby: &remote_lobby::Lobby,
    app: &App,
    frame: &mut ratatui::Frame,
) {
    match screen {
        Screen::Lobby => remote_lobby::draw(lobby, app, frame),
        Screen::Room(_) | Screen::Train => view(app, frame),
    }
}

#[path = "remote_jobs.rs"]
mod jobs;
#[path = "remote_status.rs"]
mod status;
use status::{is_archived, status_text};

#[path = "remote_train.rs"]
mod train;

#[cfg(test)]
#[path = "remote_tests.rs"]
mod tests;
