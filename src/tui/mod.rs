//! The terminal UI (ratatui + crossterm), the only terminal code in the crate.
//!
//! Model/Update/View: `App` is the state, `update(&mut App, Action) -> Vec<Effect>` the only
//! way it changes, `view(&App, &mut Frame)` draws it. Popups sit on a stack in the app.
//! The driver (`terminal`, `event`) owns the terminal, the input and signal threads and
//! the engine worker; it turns what happens into actions and carries out the effects.

mod action;
mod app;
mod choices;
mod commands;
mod engine_events;
mod engine_link;
mod engine_search;
mod event;
mod game;
mod glyphs;
mod help;
mod input;
mod keys;
mod layout;
mod loading;
mod notation_link;
mod popup;
mod records;
mod remote;
mod remote_input;
mod remote_lobby;
mod search_log;
mod step;
mod style;
mod terminal;
mod update;
mod view;

pub use action::{Action, Command, Direction, Effect};
pub use app::{App, EngineState, Focus, Notice, Thinking};
pub use engine_link::{
    EngineEvent, EngineLink, EngineScore, EventSink, IterationInfo, Reporter, SearchId,
    SearchRequest, Searcher, default_searcher,
};
pub use engine_search::EngineSearcher;
pub use game::{GameState, PlayedMove};
pub use glyphs::GlyphSet;
pub use help::{HELP, HelpSection};
pub use input::InputLine;
pub use layout::{MIN_HEIGHT, MIN_WIDTH, ScreenLayout};
pub use popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Popup, PromptPurpose};
pub use records::{autosave_text, pgn_text, read_game, read_game_bytes};
pub use remote::{
    Intent, LobbyCommand, RemoteSession, RoomKind, RoomSummary, RoomView, SCREEN_RESTORE,
    SCREEN_SETUP, valid_room_name,
};
pub use remote_lobby::{LOBBY_USAGE, room_line};
pub use search_log::{LogKind, LogLine, SearchLog};
pub use step::{StepCommand, StepGate, StepMode, StepState};
pub use terminal::{Exit, RunOptions, read_autosave, run, write_atomically};
pub use update::update;
pub use view::{TOO_SMALL, view};
