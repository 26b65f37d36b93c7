//! Saving rooms into the store off the async workers. A change marks its room dirty and
//! queues it; a writer task commits queued rooms on tokio's blocking pool, so a slow
//! disk stalls no session, and no lock of the room map is held meanwhile. Only once a
//! change is committed are the room's sessions told of it: a player never sees a move
//! the store could lose (`kill -9` included). A finished game is archived (with the
//! rating change) before anything else is written for its room. A failed save keeps
//! the room dirty and is retried with a growing delay; the room's players are told at
//! once (and shown the change, marked NOT SAVED), and again when it is saved. `flush`
//! saves every dirty room before the server stops.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::store::{ChatLine, Store, unix_now};

use super::hub::Room;
use super::log;
use super::room_record;

/// The first retry's delay; each failure doubles it up to `RETRY_MAX`.
const RETRY_FIRST: Duration = Duration::from_secs(1);
const RETRY_MAX: Duration = Duration::from_secs(30);

pub struct Saver {
    db: Arc<dyn Store>,
    /// Held while writing (writer task or flush, one at a time). The room is read under
    /// it, so an older copy never lands after a newer one.
    disk: Mutex<()>,
    queue: mpsc::UnboundedSender<Arc<Room>>,
    /// Taken by the writer task when it starts.
    queued: Mutex<Option<mpsc::UnboundedReceiver<Arc<Room>>>>,
    writer: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

/// A queued room and when to try it.
struct Waiting {
    room: Arc<Room>,
    due: Instant,
    /// The delay after the next failure.
    delay: Duration,
}

impl Saver {
    pub fn new(db: Arc<dyn Store>) -> Arc<Saver> {
        let (queue, queued) = mpsc::unbounded_channel();
        Arc::new(Saver {
            db,
            disk: Mutex::new(()),
            queue,
            queued: Mutex::new(Some(queued)),
            writer: Mutex::new(None),
        })
    }

    /// Asks for `room` (marked dirty by its change) to be written.
    pub fn queue(&self, room: &Arc<Room>) {
        // Fails only once the writer is gone (runtime ending): `flush` saves then.
        let _ = self.queue.send(Arc::clone(room));
    }

    /// Starts the writer task (needs the runtime); once.
    pub fn start(self: &Arc<Self>) {
        let queued = self.queued.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(queued) = queued {
            let writer = tokio::spawn(Arc::clone(self).write_queued(queued));
            *self.writer.lock().unwrap_or_else(|p| p.into_inner()) = Some(writer);
        }
    }

    /// Ends the writer task (the server is stopping; `flush` saves the rest), so no
    /// retry of a stopped server writes later.
    pub fn stop(&self) {
        if let Some(writer) = self.writer.lock().unwrap_or_else(|p| p.into_inner()).take() {
            writer.abort();
        }
    }

    async fn write_queued(self: Arc<Self>, mut queued: mpsc::UnboundedReceiver<Arc<Room>>) {
        let mut waiting: Vec<Waiting> = Vec::new();
        let add = |waiting: &mut Vec<Waiting>, room: Arc<Room>| {
            let now = Instant::now();
            // A new change is tried at once, even while retrying: play goes on.
            match waiting.iter_mut().find(|w| Arc::ptr_eq(&w.room, &room)) {
                Some(entry) => entry.due = now,
                None => waiting.push(Waiting {
                    room,
                    due: now,
                    delay: RETRY_FIRST,
                }),
            }
        };
        loop {
            let next = waiting.iter().map(|w| w.due).min();
            tokio::select! {
                received = queued.recv() => match received {
                    Some(room) => add(&mut waiting, room),
                    None => return,
                },
                () = tokio::time::sleep_until(next.unwrap_or_else(Instant::now)), if next.is_some() => {}
            }
            while let Ok(room) = queued.try_recv() {
                add(&mut waiting, room);
            }
            let now = Instant::now();
            let due: Vec<Arc<Room>> = waiting
                .iter()
                .filter(|w| w.due <= now)
                .map(|w| Arc::clone(&w.room))
                .collect();
            if due.is_empty() {
                continue;
            }
            let results = self.write_all(due).await;
            for (room, result) in results {
                let Some(index) = waiting.iter().position(|w| Arc::ptr_eq(&w.room, &room)) else {
                    continue;
                };
                match result {
                    Ok(_) if !room.dirty() => {
                        waiting.swap_remove(index);
                    }
                    // Changed while being written: again at once.
                    Ok(_) => waiting[index].due = Instant::now(),
                    Err(_) => {
                        let entry = &mut waiting[index];
                        entry.due = Instant::now() + entry.delay;
                        entry.delay = (entry.delay * 2).min(RETRY_MAX);
                    }
                }
            }
        }
    }

    /// Writes `rooms` on the blocking pool and tells each room how it went; per room,
    /// `Ok(true)` when it was written (`false`: nothing new to write).
    async fn write_all(
        self: &Arc<Self>,
        rooms: Vec<Arc<Room>>,
    ) -> Vec<(Arc<Room>, Result<bool, String>)> {
        let saver = Arc::clone(self);
        let writing = rooms.clone();
        let written = tokio::task::spawn_blocking(move || {
            writing
                .into_iter()
                .map(|room| {
                    let result = saver.write_room(&room);
                    (room, result)
                })
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_else(|error| {
            // A panic while writing: the rooms stay dirty and are retried.
            let error = format!("the save failed: {error}");
            rooms
                .into_iter()
                .map(|room| (room, Err(error.clone())))
                .collect()
        });
        for (room, result) in &written {
            report(room, result.as_ref().map(|_| ()).map_err(String::as_str));
            // Committed (or failed and marked so): now its sessions may show it.
            room.version.send_modify(|version| *version += 1);
        }
        written
    }

    /// Removes the room `name` from the store (it closed with nothing played) unless
    /// `unused` says the name was taken again meanwhile; under the disk lock, so a new
    /// room of that name is written after, never removed. Blocking.
    pub fn remove(&self, name: &str, unused: impl FnOnce() -> bool) {
        let _disk = self.disk.lock().unwrap_or_else(|p| p.into_inner());
        if !unused() {
            return;
        }
        if let Err(error) = self.db.delete_room(name) {
            log(&format!("cannot remove room {name}: {error}"));
        }
    }

    /// A room an admin closed: the games it finished still go to the archive, then it
    /// leaves the store unless `unused` says its name was taken again meanwhile (its
    /// game in progress, if any, is dropped: it is not restored). Blocking.
    pub fn close(&self, room: &Room, name: &str, unused: impl FnOnce() -> bool) {
        if let Err(error) = self.write_room(room) {
            log(&format!(
                "room {name}, closed: cannot archive its game: {error}"
            ));
        }
        self.remove(name, unused);
    }

    /// Commits the room as it is now, if it changed since its last save: first the
    /// games it finished (archived, ratings moved), then, while a game is on (and the
    /// room is not closed), the room and its new chat lines. Blocking.
    fn write_room(&self, room: &Room) -> Result<bool, String> {
        let _disk = self.disk.lock().unwrap_or_else(|p| p.into_inner());
        let (name, to_archive, playing, edit) = {
            let state = room.lock();
            let edit = room.edits.load(Ordering::Acquire);
            if room.saved.load(Ordering::Acquire) >= edit {
                return Ok(false);
            }
            let playing = (!state.is_over() && room.closed().is_none()).then(|| {
                let chat: Vec<ChatLine> = state
                    .chat_since(state.chat_saved)
                    .map(|(seq, line)| ChatLine {
                        seq,
                        from: String::new(),
                        text: line.to_owned(),
                        time: unix_now(),
                    })
                    .collect();
                (room_record::room_pgn(&state), chat, state.chat_next())
            });
            (state.name.clone(), state.to_archive.clone(), playing, edit)
        };
        let last = to_archive.len();
        for (index, game) in to_archive.into_iter().enumerate() {
            // The room's row and chat go with its last finished game, unless a new
            // game is on in it (a rematch), which is written next.
            let room_name = (index + 1 == last && playing.is_none()).then_some(name.as_str());
            let archived = self
                .db
                .archive(&game, room_name)
                .map_err(|error| error.to_string())?;
            let mut state = room.lock();
            state.archived_one(archived);
        }
        if let Some((pgn, chat, chat_next)) = playing {
            self.db
                .save_room(&name, &pgn, &chat, unix_now())
                .map_err(|error| error.to_string())?;
            room.lock().chat_saved = chat_next;
        }
        room.saved.fetch_max(edit, Ordering::AcqRel);
        Ok(true)
    }

    /// Saves every dirty room of `rooms` now (the server is stopping); how many were
    /// written. Failures are told to the room and logged.
    pub async fn flush(self: &Arc<Self>, rooms: Vec<Arc<Room>>) -> usize {
        let dirty: Vec<Arc<Room>> = rooms.into_iter().filter(|room| room.dirty()).collect();
        if dirty.is_empty() {
            return 0;
        }
        self.write_all(dirty)
            .await
            .iter()
            .filter(|(_, result)| matches!(result, Ok(true)))
            .count()
    }
}

/// Tells the room's players, and the log, when saving starts failing, fails otherwise,
/// or works again; nothing while it stays the same.
fn report(room: &Room, result: Result<(), &str>) {
    let mut state = room.lock();
    if !state.set_saved(result) {
        return;
    }
    let name = state.name.clone();
    drop(state);
    match result {
        Ok(()) => log(&format!("room {name} is saved again")),
        Err(error) => log(&format!(
            "cannot save room {name}: {error}; retrying, its players are told"
        )),
    }
}
