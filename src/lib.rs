//! xiangqi-tui: rules, notation, search, evaluation, game records and configuration
//! for xiangqi (Chinese chess). Nothing in this library touches a terminal except
//! `tui`, which the binary drives.

pub mod board;
pub mod book;
pub mod clock;
pub mod config;
pub mod draw_offer;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod external;
pub mod notation;
pub mod record;
pub mod rng;
pub mod search;
pub mod paths;
pub mod server;
pub mod study;
pub mod tree;
pub mod tui;
