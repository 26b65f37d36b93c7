//! The terminal UI (ratatui + crossterm), the only terminal code in the crate.
//!
//! Model/Update/View: `App` is the state, `update(&mut App, Action) -> Vec<Effect>` the only
//! way it changes, `view(&App, &mut Frame)` draws it. Popups sit on a stack in the app.
//! The driver (`terminal`, `event`) owns the terminal, the input and signal threads and
//! the engine service's link; it turns what happens into actions and carries out the
//! effects. What the engine reports becomes actions in `engine_events`.

mod action;
mod analysis;
mod app;
mod aside;
mod book_link;
mod browse;
mod choices;
mod commands;
mod compare_view;
mod drill_link;
mod engine_choice;
mod engine_events;
mod event;
mod explorer;
mod flow;
mod frames;
mod game_controls;
mod glyphs;
mod help;
mod hint;
mod input;
mod keymap;
mod keys;
mod layout;
mod loading;
mod move_list;
mod notation_link;
mod popup;
mod puzzle_mode;
mod records;
mod remote;
mod remote_input;
mod remote_lobby;
mod remote_work;
pub(crate) mod resume;
mod review_link;
mod search_log;
mod study_layout;
mod style;
mod terminal;
mod trace_save;
mod update;
mod view;

pub use action::{Action, BrowseTo, Command, Direction, Effect, ExplorerMove, LogScroll, RoomAsk};
pub use analysis::{Analysis, Purpose, graph_points};
pub use app::{App, AppMode, Browse, EngineState, Focus, LastSearch, Notice, Thinking};
pub use compare_view::{CompareRequest, CompareUpdate, CompareView, compare_view_row};
pub use drill_link::{
    DrillMode, School, SchoolJob, SchoolUpdate, open as open_drill, run as run_school,
};
pub use explorer::{StudyNames, StudyState, open_tree};
pub use glyphs::GlyphSet;
pub use help::help_lines;
pub use hint::Hint;
pub use input::InputLine;
pub use keymap::Place;
pub use layout::{MIN_HEIGHT, MIN_WIDTH, ScreenLayout};
pub use move_list::split as moves_and_graph;
pub use popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Discard, Popup, PromptPurpose};
pub use puzzle_mode::{PuzzleMode, PuzzleRecord, RatingChange, Trainer, open_puzzle};
pub use records::{autosave_text, pgn_text, read_game, read_game_bytes};
pub use remote::{Intent, RemoteSession, SCREEN_RESTORE, SCREEN_SETUP};
pub use remote_input::InputDecoder;
pub use remote_lobby::Page as LobbyPage;
pub use resume::start_with;
pub use review_link::{
    ReviewRequest, ReviewState, ReviewUpdate, Reviewed, Running as ReviewRunning, run as run_review,
};
pub use search_log::{LogKind, LogLine, SearchLog};
pub use study_layout::StudyLayout;
pub use terminal::{Exit, RunOptions, read_autosave, run, run_with};
pub use trace_save::{Saving, TraceSave, TraceSaveUpdate, run as run_trace_save};
pub use update::update;
pub use view::{TOO_SMALL, view};
