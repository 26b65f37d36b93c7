//! The integration tests of this crate, one binary (each module was a test file).

mod server_browse;
mod server_club;
mod server_gate;
mod server_hardening;
mod server_hoarding;
mod server_jobs;
mod server_limits;
mod server_metrics;
mod server_moderation;
mod server_puzzles;
mod server_rooms;
mod server_ruling;
mod server_saving;
mod server_support;
mod server_tournament;
