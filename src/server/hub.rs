//! What every connection shares: the rooms, the lobby's change signal, the engine pool
//! and the shutdown signal. (The connection counts behind the limits are the gate's.)

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use crate::board::Color;
use crate::game::{RoomKind, RoomSummary};

use super::ServerSettings;
use super::engine_pool::{EnginePool, WatchedSearch};
use super::log;
use super::room::{RoomState, Seat};
use super::store;

/// A room shared by its sessions; `version` changes after every change.
pub struct Room {
    state: Mutex<RoomState>,
    pub version: watch::Sender<u64>,
    engine_busy: AtomicBool,
    /// Its engine's latest search, for the viewers' logs.
    search: Mutex<WatchedSearch>,
}

impl Room {
    fn new(state: RoomState) -> Arc<Room> {
        Arc::new(Room {
            state: Mutex::new(state),
            version: watch::Sender::new(0),
            engine_busy: AtomicBool::new(false),
            search: Mutex::default(),
        })
    }

    /// Its engine's latest search.
    pub fn search(&self) -> WatchedSearch {
        self.watched().clone()
    }

    fn watched(&self) -> MutexGuard<'_, WatchedSearch> {
        self.search
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Changes what the viewers are shown of the engine's search, and tells them.
    fn show_search(&self, change: impl FnOnce(&mut WatchedSearch)) {
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

pub struct Hub {
    pub settings: ServerSettings,
    rooms: Mutex<BTreeMap<String, Arc<Room>>>,
    pub lobby: watch::Sender<u64>,
    pub shutdown: watch::Sender<bool>,
    pool: Arc<EnginePool>,
    next_room: AtomicU64,
}

impl Hub {
    /// A hub with the unfinished rooms saved in the data directory.
    pub fn new(settings: ServerSettings) -> Arc<Hub> {
        let pool = EnginePool::new(
            settings.engine_threads,
            settings.engine_hash_mb,
            settings.engine_limits.clone(),
        );
        log(&format!(
            "engine pool: {} search threads, {} MB hash each",
            pool.threads, pool.hash_mb_each
        ));
        let (saved, problems) = store::load_all(&settings.data_dir);
        for problem in problems {
            log(&format!("skipped a saved room: {problem}"));
        }
        let rooms: BTreeMap<String, Arc<Room>> = saved
            .into_iter()
            .map(|state| (state.name.clone(), Room::new(state)))
            .collect();
        if !rooms.is_empty() {
            log(&format!("restored {} unfinished rooms", rooms.len()));
        }
        Arc::new(Hub {
            settings,
            rooms: Mutex::new(rooms),
            lobby: watch::Sender::new(0),
            shutdown: watch::Sender::new(false),
            pool,
            next_room: AtomicU64::new(1),
        })
    }

    /// Starts the engines of restored rooms whose move it is (needs the runtime).
    pub fn resume_engines(self: &Arc<Self>) {
        let rooms: Vec<Arc<Room>> = self.rooms().values().cloned().collect();
        for room in rooms {
            self.engine_if_due(&room);
        }
    }

    fn rooms(&self) -> MutexGuard<'_, BTreeMap<String, Arc<Room>>> {
        self.rooms
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn summaries(&self) -> Vec<RoomSummary> {
        self.rooms()
            .values()
            .map(|room| room.lock().summary())
            .collect()
    }

    pub fn room(&self, name: &str) -> Option<Arc<Room>> {
        self.rooms().get(name).cloned()
    }

    /// The unfinished room where `identity` holds a seat, if any (to resume it).
    pub fn seat_of(&self, identity: &str) -> Option<Arc<Room>> {
        self.rooms()
            .values()
            .find(|room| {
                let state = room.lock();
                !state.is_over() && state.side_of(identity).is_some()
            })
            .cloned()
    }

    /// Opens a room named `name` (or a fresh name) with `identity` seated.
    pub fn create(
        self: &Arc<Self>,
        name: Option<String>,
        kind: RoomKind,
        identity: &str,
        display: &str,
    ) -> Result<Arc<Room>, String> {
        let mut rooms = self.rooms();
        let name = match name {
            Some(name) => {
                if let Some(room) = rooms.get(&name) {
                    if room.lock().is_over() {
                        rooms.remove(&name);
                    } else {
                        return Err(format!("room {name} exists: join or watch it"));
                    }
                }
                name
            }
            None => loop {
                let number = self.next_room.fetch_add(1, Ordering::Relaxed);
                let name = format!("r{number}");
                if !rooms.contains_key(&name) {
                    break name;
                }
            },
        };
        let seat = Seat {
            identity: identity.to_owned(),
            name: display.to_owned(),
            connected: 0,
        };
        let state = RoomState::new(&name, kind, seat, self.settings.start.clone());
        if let Err(error) = store::save(&self.settings.data_dir, &state) {
            log(&format!("cannot save room {name}: {error}"));
        }
        let room = Room::new(state);
        rooms.insert(name.clone(), Arc::clone(&room));
        drop(rooms);
        log(&format!("room {name} opened by {display}"));
        self.lobby.send_modify(|version| *version += 1);
        Ok(room)
    }

    /// Applies `change` to the room; on success saves it, tells its sessions and the
    /// lobby, and starts the engine if it is its move.
    pub fn change<T>(
        self: &Arc<Self>,
        room: &Arc<Room>,
        change: impl FnOnce(&mut RoomState) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut state = room.lock();
        let value = change(&mut state)?;
        if let Err(error) = store::save(&self.settings.data_dir, &state) {
            log(&format!("cannot save room {}: {error}", state.name));
        }
        drop(state);
        room.version.send_modify(|version| *version += 1);
        self.lobby.send_modify(|version| *version += 1);
        self.engine_if_due(room);
        Ok(value)
    }

    /// A change that is not saved (who is connected, spectators): sessions are told.
    pub fn touch(&self, room: &Arc<Room>, change: impl FnOnce(&mut RoomState)) {
        change(&mut room.lock());
        room.version.send_modify(|version| *version += 1);
        self.lobby.send_modify(|version| *version += 1);
    }

    fn engine_if_due(self: &Arc<Self>, room: &Arc<Room>) {
        let (position, ply, side) = {
            let state = room.lock();
            if !state.engine_to_move() {
                return;
            }
            let side: Color = state.game.position().side_to_move();
            (state.game.position().clone(), state.game.ply(), side)
        };
        if room.engine_busy.swap(true, Ordering::AcqRel) {
            return;
        }
        let hub = Arc::clone(self);
        let room = Arc::clone(room);
        tokio::spawn(async move {
            let request = hub.pool.request(position);
            room.show_search(|search| {
                *search = WatchedSearch {
                    request: Some(request.clone()),
                    iterations: Vec::new(),
                }
            });
            let best = hub
                .pool
                .best_move(request, |info| {
                    room.show_search(|search| search.iterations.push(info))
                })
                .await;
            room.engine_busy.store(false, Ordering::Release);
            if let Some((mv, view)) = best {
                let played = hub.change(&room, |state| {
                    if state.game.ply() != ply {
                        return Err("the position changed during the search".to_owned());
                    }
                    state.play(side, mv)?;
                    state.engine_view = view;
                    Ok(())
                });
                if played.is_ok() {
                    return;
                }
            }
            // A stale result (a move was taken back meanwhile): search again if due.
            hub.engine_if_due(&room);
        });
    }
}
