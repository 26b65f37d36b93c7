//! The integration tests of this crate, one binary (each module was a test file).

/// The repository's top, where the test data all crates share is (`tests/data`).
const TOP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

mod board_reference;
mod ccpd_replay;
mod chase;
mod fen;
mod master_games;
mod notation_input;
mod notation_props;
mod notation_tsv;
mod perft;
mod record;
mod rulebook;
mod rules;
mod xqf_robustness;
