//! The integration tests of this crate, one binary (each module was a test file).

/// The repository's top, where the test data all crates share is (`tests/data`).
const TOP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

mod config_files;
mod config_merge;
mod game_domain;
mod puzzle_trainer;
mod themes;
mod train_drill;
mod train_school_tables;
