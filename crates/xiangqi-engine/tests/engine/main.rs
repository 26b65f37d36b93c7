//! The integration tests of this crate, one binary (each module was a test file).

/// The repository's top, where the test data all crates share is (`tests/data`).
const TOP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

mod book_build;
mod book_builtin;
mod book_file;
mod egtb;
mod levels;
mod mates;
mod opening;
mod position_backends;
mod search_graph;
mod search_limits;
mod search_properties;
mod smp;
mod tree_expected;
mod tree_format;
mod tui_study;
