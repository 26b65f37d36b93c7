//! Work the server has done, counted: what the hardening tests measure instead of
//! wall time (a flood must cost a bounded number of frames, not a bounded delay).

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct Stats {
    frames: AtomicU64,
    window_changes: AtomicU64,
    resizes: AtomicU64,
    lobby_reads: AtomicU64,
    input_dropped: AtomicU64,
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

    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            frames: self.frames.load(Ordering::Relaxed),
            window_changes: self.window_changes.load(Ordering::Relaxed),
            resizes: self.resizes.load(Ordering::Relaxed),
            lobby_reads: self.lobby_reads.load(Ordering::Relaxed),
            input_dropped: self.input_dropped.load(Ordering::Relaxed),
        }
    }
}
