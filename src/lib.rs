//! xiangqi-tui: the rules, notation, search, evaluation, tablebases, opening book, game
//! records, engine and configuration of xiangqi (Chinese chess); and, behind Cargo
//! features that are on by default, the terminal UI (`tui`: ratatui, crossterm) and the
//! SSH game server (`server`: tokio, russh; it implies `tui`). Only those two modules
//! touch a terminal or the network: `cargo build --no-default-features` builds the rest
//! and the engine subcommands without them.

pub mod atomic_file;
pub mod board;
pub mod book;
pub mod clock;
pub mod config;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod external;
pub mod game;
pub mod notation;
pub mod opening;
pub mod paths;
pub mod puzzle;
pub mod record;
pub mod review;
pub mod rng;
pub mod search;
#[cfg(feature = "server")]
pub mod server;
pub mod service;
#[cfg(feature = "store")]
pub mod store;
pub mod study;
pub mod text;
pub mod train;
pub mod tree;
#[cfg(feature = "tui")]
pub mod tui;
pub mod uci;

/// The log target of keys typed and text pasted (`trace` level): a log leaves it out
/// unless `RUST_LOG` names it, so it never records what a user typed unasked.
pub const KEYS_LOG_TARGET: &str = "xiangqi_tui::keys";
