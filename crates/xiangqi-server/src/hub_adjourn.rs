//! Games whose players are all away: after `adjourn_after` the game is adjourned (it
//! leaves the room list and the server's memory, the store keeps it), its players see
//! it in their lobby and resume it (`join ROOM`, a guest by `resume CODE`), and one
//! adjourned longer than `forfeit_after` is scored: the side to move loses on time (it
//! left the game waiting on its move), or, when a side never moved, the game is
//! dropped without a result.

use std::sync::atomic::AtomicI64;

use super::*;
use crate::store::UnixTime;
use xiangqi_core::board::rules::Outcome;

/// An adjourned game as its players' lobbies list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjourned {
    pub name: String,
    /// Red's and Black's (identity, name); `None`: the engine.
    pub seats: [Option<(String, String)>; 2],
    pub plies: usize,
    pub to_move: Color,
    /// Since when (Unix time).
    pub since: UnixTime,
}

impl Adjourned {
    fn of(state: &RoomState, since: UnixTime) -> Adjourned {
        let seat = |color: Color| {
            state.seats[color.index()]
                .as_ref()
                .map(|seat| (seat.identity.clone(), seat.name.clone()))
        };
        Adjourned {
            name: state.name.clone(),
            seats: [seat(Color::Red), seat(Color::Black)],
            plies: state.game.ply(),
            to_move: state.game.position().side_to_move(),
            since,
        }
    }

    pub fn has(&self, identity: &str) -> bool {
        self.seats.iter().flatten().any(|(id, _)| id == identity)
    }

    /// `r5: ann vs bob, 23 plies, Red to move: join r5 resumes it`.
    pub fn line(&self) -> String {
        let name = |color: Color| {
            self.seats[color.index()]
                .as_ref()
                .map_or(crate::room::ENGINE_NAME, |(_, name)| name.as_str())
                .to_owned()
        };
        format!(
            "{}: {} vs {}, {} plies, {} to move: join {} resumes it",
            self.name,
            name(Color::Red),
            name(Color::Black),
            self.plies,
            self.to_move.name(),
            self.name
        )
    }
}

/// The adjourned games and what goes with them.
#[derive(Default)]
pub struct AdjournedGames {
    games: Mutex<BTreeMap<String, Adjourned>>,
    /// Held while a game goes into or out of adjournment in the store, so the two
    /// never cross.
    store: Mutex<()>,
    /// When idle players were last purged (Unix time).
    purged: AtomicI64,
}

impl AdjournedGames {
    pub(super) fn new(restored: Vec<(RoomState, UnixTime)>) -> AdjournedGames {
        let games = restored
            .iter()
            .map(|(state, since)| (state.name.clone(), Adjourned::of(state, *since)))
            .collect();
        AdjournedGames {
            games: Mutex::new(games),
            ..AdjournedGames::default()
        }
    }

    fn games(&self) -> MutexGuard<'_, BTreeMap<String, Adjourned>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Hub {
    /// The adjourned game called `name`, if any.
    pub fn adjourned_room(&self, name: &str) -> Option<Adjourned> {
        self.adjourned.games().get(name).cloned()
    }

    /// The adjourned games `identity` plays in.
    pub fn adjourned_of(&self, identity: &str) -> Vec<Adjourned> {
        self.adjourned
            .games()
            .values()
            .filter(|game| game.has(identity))
            .cloned()
            .collect()
    }

    /// Adjourns the games of `rooms` whose players have been away `adjourn_after`
    /// (saved as they are: a room with a change not written yet waits for the next
    /// sweep); whether any was. Its spectators go back to the lobby, told why.
    pub(super) fn adjourn_due(self: &Arc<Self>, rooms: &mut BTreeMap<String, Arc<Room>>) -> bool {
        let now = std::time::Instant::now();
        let after = self.settings.adjourn_after;
        let due: Vec<String> = rooms
            .iter()
            .filter(|(_, room)| !room.dirty() && room.lock().adjourn_due(after, now))
            .map(|(name, _)| name.clone())
            .collect();
        let since = unix_now();
        for name in &due {
            let Some(room) = rooms.remove(name) else {
                continue;
            };
            let entry = {
                let state = room.lock();
                *room.closed.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                    "room {name} was adjourned: its players are away (they resume it later)"
                ));
                Adjourned::of(&state, since)
            };
            self.adjourned.games().insert(name.clone(), entry);
            let search = room
                .engine_task
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
            if let Some((_, search)) = search {
                search.abort();
            }
            if let Some(timer) = room
                .flag_timer
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
            {
                timer.abort();
            }
            room.version.send_modify(|version| *version += 1);
            tracing::info!(
                event = "room_adjourned",
                room = %name,
                "room {name} adjourned: its players are away"
            );
        }
        if due.is_empty() {
            return false;
        }
        let hub = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let _store = hub
                .adjourned
                .store
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            for name in due {
                // Resumed meanwhile: it is in play again.
                if hub.adjourned_room(&name).is_none() {
                    continue;
                }
                if let Err(error) = hub.db.adjourn_room(&name, Some(since)) {
                    log(&format!("cannot mark room {name} adjourned: {error}"));
                }
            }
        });
        true
    }

    /// Brings the adjourned game `name` back into play for `identity`, one of its
    /// players: read from the store, back in the room list (clocks go on from the time
    /// left when it was saved).
    pub async fn resume_adjourned(
        self: &Arc<Self>,
        name: &str,
        identity: &str,
    ) -> Result<Arc<Room>, String> {
        let listed = self.adjourned_room(name);
        if !listed.as_ref().is_some_and(|game| game.has(identity)) {
            return Err(format!("no room {name}"));
        }
        if self.room_count() >= self.settings.max_rooms {
            return Err(format!(
                "the server has {} rooms open, its limit: try again later",
                self.room_count()
            ));
        }
        let hub = Arc::clone(self);
        let owned = name.to_owned();
        let read = tokio::task::spawn_blocking(move || {
            let _store = hub
                .adjourned
                .store
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            // Taken out of the list first: a second player resuming at once waits
            // for this one and finds the room in play.
            if hub.adjourned.games().remove(&owned).is_none() {
                return Ok(None);
            }
            let saved = hub
                .db
                .room(&owned)
                .map_err(|error| error.to_string())?
                .ok_or_else(|| format!("room {owned} is no longer in the store"))?;
            let state = super::restore::restored_room(hub.db.as_ref(), &saved)?
                .ok_or_else(|| format!("room {owned} holds a finished game"))?;
            hub.db
                .adjourn_room(&owned, None)
                .map_err(|error| error.to_string())?;
            Ok::<_, String>(Some(state))
        })
        .await
        .map_err(|error| format!("cannot resume room {name}: {error}"))?;
        let state = match read {
            Ok(Some(state)) => state,
            // Resumed by the other player meanwhile.
            Ok(None) => return self.room(name).ok_or_else(|| format!("no room {name}")),
            Err(error) => {
                if let Some(game) = listed {
                    self.adjourned.games().insert(name.to_owned(), game);
                }
                return Err(format!("cannot resume room {name}: {error}"));
            }
        };
        let room = Room::new(state);
        self.rooms().insert(name.to_owned(), Arc::clone(&room));
        tracing::info!(event = "room_resumed", room = %name, "room {name} resumed");
        self.engine_if_due(&room);
        self.arm_flag(&room);
        self.lobby.send_modify(|version| *version += 1);
        Ok(room)
    }

    /// Scores the games adjourned longer than `forfeit_after`, and once a day deletes
    /// the players idle for long; off the async workers.
    pub(super) fn forfeit_due(self: &Arc<Self>) {
        let now = unix_now();
        let after = i64::try_from(self.settings.forfeit_after.as_secs()).unwrap_or(i64::MAX);
        let due: Vec<String> = self
            .adjourned
            .games()
            .values()
            .filter(|game| now.saturating_sub(game.since) >= after)
            .map(|game| game.name.clone())
            .collect();
        let purge = now - self.adjourned.purged.load(Ordering::Relaxed) >= 24 * 60 * 60;
        if due.is_empty() && !purge {
            return;
        }
        if purge {
            self.adjourned.purged.store(now, Ordering::Relaxed);
        }
        let hub = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            for name in due {
                hub.forfeit(&name, now);
            }
            if purge {
                match hub.db.purge_players(now - crate::store::IDLE_PLAYER, now) {
                    Ok(0) => {}
                    Ok(n) => log(&format!(
                        "deleted {n} players idle for 90 days with nothing kept"
                    )),
                    Err(error) => log(&format!("cannot delete idle players: {error}")),
                }
            }
        });
    }

    /// Ends the adjourned game `name` (blocking): lost on time by the side to move, or
    /// dropped when a side never moved.
    fn forfeit(&self, name: &str, now: UnixTime) {
        let _store = self
            .adjourned
            .store
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if self.adjourned.games().remove(name).is_none() {
            return;
        }
        let saved = match self.db.room(name) {
            Ok(Some(saved)) => saved,
            Ok(None) => return,
            Err(error) => return log(&format!("cannot score adjourned room {name}: {error}")),
        };
        let state = match room_record::parse_room(&saved.pgn) {
            Ok(Some(state)) => state,
            _ => {
                return log(&format!(
                    "cannot read adjourned room {name}: left in the store"
                ));
            }
        };
        let done = if state.game.ply() < 2 {
            self.db
                .delete_room(name)
                .map(|()| "dropped: a side never moved".to_owned())
        } else {
            let mut state = state;
            let loser = state.game.position().side_to_move();
            state.game.end(Outcome::flag_fall(loser));
            match room_record::finished_game(&state, now) {
                Some(game) => self.db.archive(&game, Some(name)).map(|archived| {
                    format!(
                        "{} loses on time: archived as #{}",
                        loser.name(),
                        archived.id
                    )
                }),
                None => return,
            }
        };
        match done {
            Ok(how) => tracing::info!(
                event = "room_forfeited",
                room = %name,
                "adjourned room {name}: {how}"
            ),
            Err(error) => log(&format!("cannot score adjourned room {name}: {error}")),
        }
    }
}
