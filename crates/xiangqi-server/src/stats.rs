//! Work the server has done, counted: what the hardening tests measure instead of
//! wall time (a flood must cost a bounded number of frames, not a bounded delay), and
//! what `/metrics` reports.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct Stats {
    frames: AtomicU64,
    window_changes: AtomicU64,
    resizes: AtomicU64,
    lobby_reads: AtomicU64,
    input_dropped: AtomicU64,
    frames_dropped: AtomicU64,
    moves: AtomicU64,
    games_finished: AtomicU64,
}

/// The counts at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatsSnapshot {
    /// Frames rendered, over all sessions.
    pub frames: u64,
    /// Window-change requests received.
    pub window_changes: u64,
    /// Window changes applied (each a full redraw).
    pub resizes: u64,
    /// Room lists read for lobby viewers.
    pub lobby_reads: u64,
    /// Input bytes dropped by the rate limit.
    pub input_dropped: u64,
    /// Frames dropped because their client read too slowly (a full redraw follows).
    pub frames_dropped: u64,
    /// Moves played in rooms, by people and engines.
    pub moves: u64,
    /// Games that ended in rooms.
    pub games_finished: u64,
}

impl Stats {
    pub fn frame(&self) {
        self.frames.fetch_add(1, Ordering::Relaxed);
    }

    pub fn window_change(&self) {
        self.window_changes.fetch_add(1, Ordering::Relaxed);
    }

    pub fn resize(&self) {
        self.resizes.fetch_add(1, Ordering::Relaxed);
    }

    pub fn lobby_read(&self) {
        self.lobby_reads.fetch_add(1, Ordering::Relaxed);
    }

    pub fn input_dropped(&self, bytes: usize) {
        self.input_dropped
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub fn frame_dropped(&self) {
        self.frames_dropped.fetch_add(1, Ordering::Relaxed);
    }

    pub fn moves_played(&self, moves: u64) {
        self.moves.fetch_add(moves, Ordering::Relaxed);
    }

    pub fn game_finished(&self) {
        self.games_finished.fetch_add(1, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            frames: self.frames.load(Ordering::Relaxed),
            window_changes: self.window_changes.load(Ordering::Relaxed),
            resizes: self.resizes.load(Ordering::Relaxed),
            lobby_reads: self.lobby_reads.load(Ordering::Relaxed),
            input_dropped: self.input_dropped.load(Ordering::Relaxed),
            frames_dropped: self.frames_dropped.load(Ordering::Relaxed),
            moves: self.moves.load(Ordering::Relaxed),
            games_finished: self.games_finished.load(Ordering::Relaxed),
        }
    }
}
