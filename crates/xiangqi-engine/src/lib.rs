//! The engine floor: evaluation, the textbook search backends and their traces, `.tree`
//! textbook trees, endgame tablebases, the opening book and ECCO names, the strong
//! alpha-beta engine and the mate prover, external UCI/UCCI engines, the one engine
//! service every front end searches through, certified puzzles, game review's scoring,
//! the study tools over traces and the UCI/UCCI protocol front end. Depends on
//! `xiangqi-core` only; no terminal, no network.

pub mod book;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod external;
pub mod opening;
pub mod puzzle;
pub mod review;
pub mod search;
pub mod service;
pub mod study;
pub mod tree;
pub mod uci;
