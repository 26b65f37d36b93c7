//! What every connection shares: the rooms, the lobby's change signal, the engine pool,
//! the saver and the shutdown signal. (The connection counts behind the limits are the
//! gate's.)

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use xiangqi_app::game::{ClockChoice, NewRoom, RoomKind, RoomSummary};
use xiangqi_core::board::Color;

use super::ServerSettings;
use super::engine_pool::{EnginePool, WatchedSearch};
use super::log;
use super::moderation::Moderators;
use super::names::Names;
use super::room::{RoomState, Seat};
use super::room_record;
use super::saver::Saver;
use super::stats::Stats;
use crate::store::{Store, unix_now};
use xiangqi_app::jobs::Jobs;
use xiangqi_app::train::SchoolTables;

#[path = "hub_tasks.rs"]
mod tasks;
#[path = "hub_tournament.rs"]
mod tournament_rooms;
pub use tasks::expire_rooms_every_minute;

#[path = "hub_adjourn.rs"]
mod adjourn;

use adjourn::AdjournedGames;

#[path = "hub_restore.rs"]
mod restore;
#[path = "hub_room.rs"]
mod shared_room;
use restore::restore_rooms;
pub use shared_room::Room;

pub struct Hub {
    pub settings: ServerSettings,
    /// Players, ratings, the archive, bans (blocking calls: made off the async workers).
    pub db: Arc<dyn Store>,
    rooms: Mutex<BTreeMap<String, Arc<Room>>>,
    pub lobby: watch::Sender<u64>,
    pub shutdown: watch::Sender<bool>,
    /// The one pool of the CPU work sessions start: room engines, reviews, the prover,
    /// the school's tables.
    pub jobs: Jobs,
    pool: Arc<EnginePool>,
    /// The endgame school's tables, shared by every session.
    pub school: Arc<SchoolTables>,
    pub saver: Arc<Saver>,
    next_room: AtomicU64,
    pub stats: Stats,
    pub names: Arc<Names>,
    /// The sessions open, the admins' commands, room openings per identity.
    pub moderation: Moderators,
    /// The room list of one lobby version, read once for all its viewers.
    summaries: Mutex<(u64, Arc<Vec<RoomSummary>>)>,
    /// Names of saved rooms the server could not read, kept for a person to look at
    /// (never written over), with the reason.
    kept: Mutex<BTreeMap<String, String>>,
    /// The tournaments, run by their director (`tournament.rs`).
    pub tournaments: crate::tournament::Tournaments,
    /// Games adjourned: their players are away.
    adjourned: AdjournedGames,
}

impl Hub {
    /// A hub with the rooms in progress the store holds.
    pub fn new(settings: ServerSettings, db: Arc<dyn Store>) -> Result<Arc<Hub>, String> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = settings.engine_threads.clamp(1, cores);
        let jobs = Jobs::new(threads, settings.engine_hash_mb, settings.jobs_queue)
            .map_err(|error| format!("cannot start the job threads: {error}"))?;
        let pool = EnginePool::new(jobs.clone(), settings.engine_limits.clone());
        log(&format!(
            "job pool: {} threads, {} MB hash each, {} jobs may wait",
            jobs.threads(),
            jobs.hash_mb(),
            settings.jobs_queue
        ));
        // The school's generation runs as one job: one thread.
        let school = Arc::new(SchoolTables::new(&settings.data_dir.join("egtb"), 1));
        for line in super::import::import_room_files(&settings.data_dir, db.as_ref()) {
            log(&line);
        }
        let saved = restore_rooms(db.as_ref());
        for problem in &saved.problems {
            log(&format!("skipped a saved room: {problem}"));
        }
        let rooms: BTreeMap<String, Arc<Room>> = saved
            .rooms
            .into_iter()
            .map(|state| {
                let room = Room::new(state);
                let name = room.lock().name.clone();
                (name, room)
            })
            .collect();
        if !rooms.is_empty() {
            log(&format!("restored {} unfinished rooms", rooms.len()));
        }
        let tournaments = crate::tournament::Tournaments::load(db.as_ref());
        Ok(Arc::new(Hub {
            tournaments,
            saver: Saver::new(Arc::clone(&db)),
            moderation: Moderators::new(
                settings.rooms_per_minute,
                settings.new_names_per_hour,
                settings.say_per_minute,
            ),
            settings,
            db,
            rooms: Mutex::new(rooms),
            lobby: watch::Sender::new(0),
            shutdown: watch::Sender::new(false),
            jobs,
            pool,
            school,
            next_room: AtomicU64::new(saved.next_number),
            kept: Mutex::new(saved.kept.into_iter().collect()),
            adjourned: AdjournedGames::new(saved.adjourned),
            stats: Stats::default(),
            names: Arc::default(),
            summaries: Mutex::new((u64::MAX, Arc::default())),
        }))
    }

    /// Saves every dirty room now (the server is stopping): how many were written, and
    /// the rooms still not saved with why.
    pub async fn flush(&self) -> (usize, Vec<(String, String)>) {
        let rooms: Vec<Arc<Room>> = self.rooms().values().cloned().collect();
        let written = self.saver.flush(rooms.clone()).await;
        let unsaved = rooms
            .iter()
            .filter(|room| room.dirty())
            .map(|room| {
                let state = room.lock();
                let why = state
                    .not_saved
                    .clone()
                    .unwrap_or_else(|| "not written".into());
                (state.name.clone(), why)
            })
            .collect();
        (written, unsaved)
    }

    /// Starts the engines of restored rooms whose move it is, and their clocks' flag
    /// timers (needs the runtime).
    pub fn resume_engines(self: &Arc<Self>) {
        let rooms: Vec<Arc<Room>> = self.rooms().values().cloned().collect();
        for room in rooms {
            self.engine_if_due(&room);
            self.arm_flag(&room);
        }
    }

    fn rooms(&self) -> MutexGuard<'_, BTreeMap<String, Arc<Room>>> {
        self.rooms
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The lobby's room list, read once per lobby change however many watch it.
    pub fn summaries(&self) -> Vec<RoomSummary> {
        let version = *self.lobby.borrow();
        let mut cached = self.summaries.lock().unwrap_or_else(|p| p.into_inner());
        if cached.0 != version {
            let fresh: Vec<RoomSummary> = self
                .rooms()
                .values()
                .map(|room| room.lock().summary())
                .collect();
            *cached = (version, Arc::new(fresh));
        }
        cached.1.as_ref().clone()
    }

    pub fn room(&self, name: &str) -> Option<Arc<Room>> {
        self.rooms().get(name).cloned()
    }

    /// Whether `room` is still the hub's room of its name.
    pub fn holds(&self, room: &Arc<Room>) -> bool {
        let name = room.lock().name.clone();
        self.rooms()
            .get(&name)
            .is_some_and(|held| Arc::ptr_eq(held, room))
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

    /// `play`: seats `identity` in the oldest human room waiting for an opponent with
    /// the clock asked for (not one of its own), or opens one with that clock; the
    /// room, and whether it was opened (the player waits there).
    pub fn pair(
        self: &Arc<Self>,
        clock: ClockChoice,
        identity: &str,
        display: &str,
        opener: &str,
    ) -> Result<(Arc<Room>, bool), String> {
        let control = clock.resolve(self.settings.time);
        let mut waiting: Vec<Arc<Room>> = self
            .rooms()
            .values()
            .filter(|room| {
                let state = room.lock();
                state.kind == RoomKind::Human
                    && state.control() == control
                    && state.game.ply() == 0
                    && !state.is_over()
                    && state.seats.iter().any(Option::is_none)
                    && state.side_of(identity).is_none()
            })
            .cloned()
            .collect();
        waiting.sort_by_key(|room| room.opened);
        for room in waiting {
            // Another `play` may have taken the seat since: then the next room.
            let seated = self.change(&room, |state| {
                if state.seats.iter().all(Option::is_some) || state.game.ply() > 0 {
                    return Err("taken".to_owned());
                }
                state.take_seat(identity, display)
            });
            if seated.is_ok() {
                return Ok((room, false));
            }
        }
        let order = NewRoom {
            kind: RoomKind::Human,
            name: None,
            clock,
            rated: true,
        };
        self.create(&order, identity, display, opener)
            .map(|room| (room, true))
    }

    /// Opens the room `order` asks for (named, or a fresh name) with `identity` seated,
    /// counted against `opener` (the key, or a guest's address): its rooms with a game
    /// on, and its openings this minute.
    pub fn create(
        self: &Arc<Self>,
        order: &NewRoom,
        identity: &str,
        display: &str,
        opener: &str,
    ) -> Result<Arc<Room>, String> {
        let (name, kind) = (order.name.clone(), order.kind);
        let mut rooms = self.rooms();
        self.sweep(&mut rooms);
        let waiting = self.jobs.counts().waiting;
        if kind == RoomKind::Engine && waiting >= self.settings.jobs_queue {
            return Err(format!(
                "the engines are busy ({waiting} jobs waiting for one): try again in a minute"
            ));
        }
        if rooms.len() >= self.settings.max_rooms {
            return Err(format!(
                "the server has {} rooms open, its limit: try again later",
                rooms.len()
            ));
        }
        let name = match name {
            Some(name) => {
                if let Some(room) = rooms.get(&name) {
                    let state = room.lock();
                    // A finished game is in the archive: its room's name is free again
                    // (whoever still looks at the old game keeps it on their screen).
                    let archived = state.is_over() && state.to_archive.is_empty();
                    if !archived {
                        return Err(if state.is_over() {
                            format!("room {name} is archiving its game: try again in a moment")
                        } else {
                            format!("room {name} exists: join or watch it")
                        });
                    }
                }
                if let Some(why) = self.kept_names().get(&name) {
                    return Err(format!("{why}: choose another name"));
                }
                if self.adjourned_room(&name).is_some() {
                    return Err(format!(
                        "room {name} holds an adjourned game: choose another name"
                    ));
                }
                name
            }
            None => loop {
                let number = self.next_room.fetch_add(1, Ordering::Relaxed);
                let name = format!("r{number}");
                if !rooms.contains_key(&name)
                    && !self.kept_names().contains_key(&name)
                    && self.adjourned_room(&name).is_none()
                {
                    break name;
                }
            },
        };
        self.may_open(&rooms, opener)?;
        let seat = Seat {
            identity: identity.to_owned(),
            name: display.to_owned(),
            connected: 0,
        };
        let mut state = RoomState::new(&name, kind, seat, self.settings.start.clone());
        state.opener = opener.to_owned();
        state.set_control(order.clock.resolve(self.settings.time));
        state.rated = order.rated;
        let room = Room::new(state);
        // New, so dirty: written by the saver, never here under the map's lock.
        room.edits.store(1, Ordering::Release);
        rooms.insert(name.clone(), Arc::clone(&room));
        drop(rooms);
        self.saver.queue(&room);
        // Renamed: `display` is also a name tracing's macro brings into scope.
        let user = display;
        tracing::info!(
            event = "room_opened",
            room = %name,
            kind = kind.name(),
            user,
            "room {name} opened by {user}"
        );
        self.lobby.send_modify(|version| *version += 1);
        Ok(room)
    }

    /// Whether `opener` may open a room now (`rooms_per_identity` rooms with a game
    /// on, `rooms_per_minute` openings a minute); the opening is counted when it may.
    /// What to do is said when it may not.
    pub fn may_open(
        &self,
        rooms: &BTreeMap<String, Arc<Room>>,
        opener: &str,
    ) -> Result<(), String> {
        let mine: Vec<String> = rooms
            .values()
            .filter_map(|room| {
                let state = room.lock();
                (state.opener == opener && !state.is_over()).then(|| state.name.clone())
            })
            .collect();
        if mine.len() >= self.settings.rooms_per_identity {
            let who = if room_record::key_of(opener).is_some() {
                "you have"
            } else {
                "your address has"
            };
            return Err(format!(
                "{who} {} rooms with a game on ({}), the most allowed: finish or resign one \
                 (join it), or wait until its players are away {} min and it is adjourned",
                mine.len(),
                mine.join(", "),
                self.settings.adjourn_after.as_secs() / 60
            ));
        }
        let limit = self.moderation.openings.limit();
        self.moderation
            .openings
            .take(opener, tokio::time::Instant::now())
            .map_err(|wait| super::moderation::openings_refused(limit, wait))
    }

    /// Closes the rooms nobody has been in for the expiry time (`RoomState::expired`)
    /// and adjourns the games whose players are all away; whether the list changed.
    fn sweep(self: &Arc<Self>, rooms: &mut BTreeMap<String, Arc<Room>>) -> bool {
        let adjourned = self.adjourn_due(rooms);
        self.expire(rooms) || adjourned
    }

    /// Closes the rooms nobody has been in for the expiry time (`RoomState::expired`);
    /// whether any closed. A finished game is in the archive already; the row of a room
    /// where nothing was played goes, off the async workers and after the map's lock.
    /// A room not saved yet waits for the next sweep.
    fn expire(self: &Arc<Self>, rooms: &mut BTreeMap<String, Arc<Room>>) -> bool {
        let now = std::time::Instant::now();
        let expiry = self.settings.room_expiry;
        let before = rooms.len();
        let mut empty = Vec::new();
        rooms.retain(|name, room| {
            let state = room.lock();
            if !state.expired(expiry, now) || room.dirty() {
                return true;
            }
            // A finished game is archived already (the room is not dirty).
            if !state.is_over() {
                empty.push(name.clone());
            }
            tracing::info!(
                event = "room_closed",
                room = %name,
                why = "expired",
                "room {name} closed: nobody came for {expiry:?}"
            );
            false
        });
        if !empty.is_empty() {
            let hub = Arc::clone(self);
            tokio::task::spawn_blocking(move || {
                for name in empty {
                    hub.saver.remove(&name, || !hub.rooms().contains_key(&name));
                }
            });
        }
        rooms.len() != before
    }

    fn kept_names(&self) -> MutexGuard<'_, BTreeMap<String, String>> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Applies `change` to the room; on success queues it for saving (its sessions are
    /// told once it is committed), tells the lobby, and starts the engine if it is its
    /// move. A change that ends the game hands the game to the archive.
    pub fn change<T>(
        self: &Arc<Self>,
        room: &Arc<Room>,
        change: impl FnOnce(&mut RoomState) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut state = room.lock();
        if let Some(why) = room.closed() {
            return Err(why);
        }
        let (was_over, plies_before) = (state.is_over(), state.game.ply());
        let value = change(&mut state)?;
        self.stats
            .moves_played(state.game.ply().saturating_sub(plies_before) as u64);
        if !was_over && let Some(game) = room_record::finished_game(&state, unix_now()) {
            self.stats.game_finished();
            tracing::info!(
                event = "game_finished",
                room = %state.name,
                red = %game.red.name,
                black = %game.black.name,
                result = %game.result,
                termination = %game.termination,
                "room {}: game over, {} {} {} by {}",
                state.name,
                game.red.name,
                game.result,
                game.black.name,
                game.termination
            );
            state.to_archive.push(game);
        }
        // Counted under the state lock, so a copy taken under it knows what it holds.
        room.edits.fetch_add(1, Ordering::AcqRel);
        drop(state);
        self.saver.queue(room);
        self.lobby.send_modify(|version| *version += 1);
        self.engine_if_due(room);
        self.arm_flag(room);
        Ok(value)
    }

    /// Closes the room `name` now (an admin's `:close`, a tournament's no-show: the
    /// log's `cause`): it leaves the list, its sessions go back to the lobby told
    /// `why`, and nothing of it is restored on a restart (a finished game's file is
    /// kept, its name stays taken).
    pub fn close(
        self: &Arc<Self>,
        name: &str,
        why: String,
        cause: &'static str,
    ) -> Result<(), String> {
        let room = self
            .rooms()
            .remove(name)
            .ok_or_else(|| format!("no room {name}"))?;
        {
            // Under the state lock: a change after this is refused (`change`).
            let _state = room.lock();
            *room.closed.lock().unwrap_or_else(|p| p.into_inner()) = Some(why);
        }
        room.version.send_modify(|version| *version += 1);
        let hub = Arc::clone(self);
        let owner = name.to_owned();
        tokio::task::spawn_blocking(move || {
            hub.saver
                .close(&room, &owner, || !hub.rooms().contains_key(&owner));
        });
        tracing::info!(
            event = "room_closed",
            room = %name,
            why = cause,
            "room {name} closed ({cause})"
        );
        self.lobby.send_modify(|version| *version += 1);
        Ok(())
    }

    /// Rooms open now.
    pub fn room_count(&self) -> usize {
        self.rooms().len()
    }

    /// A change of who is here (connections, spectators): sessions are told at once.
    /// What it says in the room's log (joins, drops, returns) is saved with the chat
    /// right after, so a restart keeps it.
    pub fn touch(&self, room: &Arc<Room>, change: impl FnOnce(&mut RoomState)) {
        let mut state = room.lock();
        let chat_before = state.chat_next();
        change(&mut state);
        let said = state.chat_next() != chat_before;
        if said {
            room.edits.fetch_add(1, Ordering::AcqRel);
        }
        drop(state);
        if said {
            self.saver.queue(room);
        }
        room.version.send_modify(|version| *version += 1);
        self.lobby.send_modify(|version| *version += 1);
    }
}
