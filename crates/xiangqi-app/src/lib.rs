//! The application without a terminal: the game domain (history, offers, clocks, rooms
//! and the lobby's types, ratings), training (the puzzle trainer, the endgame school)
//! and the configuration (settings, profiles, themes, `[server]`). Depends on the core
//! and engine crates; no ratatui, crossterm, tokio or russh.

pub mod config;
pub mod game;
pub mod train;

/// The log target of keys typed and text pasted (`trace` level): a log leaves it out
/// unless `RUST_LOG` names it, so it never records what a user typed unasked.
pub const KEYS_LOG_TARGET: &str = "xiangqi_tui::keys";

// The model of the program's screens (Model/Update/View), without the view.
pub mod action;
pub mod analysis;
pub mod app;
pub mod area;
pub mod aside;
pub mod book_link;
pub mod browse;
pub mod choices;
pub mod commands;
pub mod compare_view;
pub mod drill_link;
pub mod engine_choice;
pub mod engine_events;
pub mod explorer;
pub mod flow;
pub mod game_controls;
pub mod glyphs;
pub mod help;
pub mod hint;
pub mod input;
pub mod jobs;
pub mod key;
pub mod keymap;
pub mod keys;
pub mod layout;
pub mod loading;
pub mod move_list;
pub mod notation_link;
pub mod popup;
pub mod puzzle_mode;
pub mod records;
pub mod remote_work;
pub mod resume;
pub mod review_link;
pub mod ruling_view;
pub mod search_log;
pub mod study_layout;
pub mod trace_save;
pub mod update;

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
pub use resume::start_with;
pub use review_link::{
    ReviewRequest, ReviewState, ReviewUpdate, Reviewed, Running as ReviewRunning, run as run_review,
};
pub use ruling_view::{CycleRow, RulingView};
pub use search_log::{LogKind, LogLine, SearchLog};
pub use study_layout::StudyLayout;
pub use trace_save::{Saving, TraceSave, TraceSaveUpdate, run as run_trace_save};
pub use update::update;
