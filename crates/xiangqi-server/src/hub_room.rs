//! A room as the hub shares it between its sessions, its engine and its clock.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use crate::engine_pool::WatchedSearch;
use crate::room::RoomState;

/// A room shared by its sessions; `version` changes after every change.
pub struct Room {
    pub(super) state: Mutex<RoomState>,
    pub version: watch::Sender<u64>,
    /// Changes made (counted under the state lock) and the count the store holds: the
    /// room is dirty while they differ.
    pub edits: AtomicU64,
    pub saved: AtomicU64,
    /// Its engine's search under way: the ply it searches, and the task to cancel when
    /// the game moves on without it.
    pub(super) engine_task: Mutex<Option<(usize, tokio::task::AbortHandle)>>,
    /// Its engine's latest search, for the viewers' logs.
    pub(super) search: Mutex<WatchedSearch>,
    /// The task that ends the game when the running clock's flag falls.
    pub(super) flag_timer: Mutex<Option<tokio::task::AbortHandle>>,
    /// When this server opened (or restored) it: `play` seats people in the oldest.
    pub(super) opened: std::time::Instant,
    /// Why an admin closed it: its sessions go back to the lobby and say so.
    pub(super) closed: Mutex<Option<String>>,
}

impl Room {
    pub(super) fn new(state: RoomState) -> Arc<Room> {
        Arc::new(Room {
            state: Mutex::new(state),
            version: watch::Sender::new(0),
            edits: AtomicU64::new(0),
            saved: AtomicU64::new(0),
            engine_task: Mutex::default(),
            search: Mutex::default(),
            flag_timer: Mutex::default(),
            opened: std::time::Instant::now(),
            closed: Mutex::default(),
        })
    }

    /// Why the room was closed, once it is.
    pub fn closed(&self) -> Option<String> {
        self.closed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Whether it changed since it was last committed.
    pub fn dirty(&self) -> bool {
        self.saved.load(Ordering::Acquire) < self.edits.load(Ordering::Acquire)
    }

    /// Its engine's latest search.
    pub fn search(&self) -> WatchedSearch {
        self.watched().clone()
    }

    pub(super) fn watched(&self) -> MutexGuard<'_, WatchedSearch> {
        self.search
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Changes what the viewers are shown of the engine's search, and tells them.
    pub(super) fn show_search(&self, change: impl FnOnce(&mut WatchedSearch)) {
        change(&mut self.watched());
        self.version.send_modify(|version| *version += 1);
    }

    /// The state, read-only use; a poisoned lock still holds a consistent room (every
    /// change is one call that does not panic half-way), so it is used as it is.
    pub fn lock(&self) -> MutexGuard<'_, RoomState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
