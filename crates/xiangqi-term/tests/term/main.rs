//! The integration tests of this crate, one binary (each module was a test file).

/// The repository's top, where the test data all crates share is (`tests/data`).
const TOP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

mod analysis;
mod book_tui;
mod egtb_tui;
mod fuzz_readers;
mod game_controls;
mod game_trust;
mod study_explorer;
mod study_screens;
mod tui_drill;
mod tui_input;
mod tui_layout;
mod tui_puzzles;
mod tui_review;
mod tui_ruling;
mod tui_screens;
mod tui_support;
mod tui_tournament;
mod tui_update;
mod tui_worker;
