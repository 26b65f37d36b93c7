//! xiangqi-tui: rules, notation, search, evaluation, game records and configuration
//! for xiangqi (Chinese chess). Nothing in this library touches a terminal except
//! `tui`, which the binary drives.

pub mod board;
pub mod config;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod record;
pub mod search;
pub mod server;
pub mod tree;
pub mod tui;
