//! What the hub runs for its rooms in the background: the engine's search when it is
//! its move, the flag-fall timer of a room with a clock, and the minute's sweep of
//! expired rooms.

use super::*;

impl Hub {
    pub(super) fn engine_if_due(self: &Arc<Self>, room: &Arc<Room>) {
        let (position, ply, side, clock) = {
            let state = room.lock();
            if !state.engine_to_move() {
                return;
            }
            let side: Color = state.game.position().side_to_move();
            let clock = state.clock.engine_clock(side, state.now());
            (state.game.position().clone(), state.game.ply(), side, clock)
        };
        if room.engine_busy.swap(true, Ordering::AcqRel) {
            return;
        }
        let hub = Arc::clone(self);
        let room = Arc::clone(room);
        tokio::spawn(async move {
            let mut request = hub.pool.request(position);
            if clock.is_some() {
                // On a clock the engine manages its own time, as at home: a time per
                // move would only cut it short.
                request.clock = clock;
                request.movetime_ms = None;
            }
            room.show_search(|search| {
                *search = WatchedSearch {
                    request: Some(request.clone()),
                    queued: None,
                    iterations: Vec::new(),
                }
            });
            let best = hub
                .pool
                .best_move(
                    request,
                    |place| {
                        let queued = (place > 0).then_some(place);
                        if room.search().queued != queued {
                            room.show_search(|search| search.queued = queued);
                        }
                    },
                    |info| {
                        room.show_search(|search| {
                            search.queued = None;
                            search.iterations.push(info);
                        })
                    },
                )
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

    /// Sets the room's flag timer to the time its running clock has left (a change
    /// may have started, stopped or credited a clock). When it fires, the flag fall
    /// is a change like a move: through `change`, so the game ends for every viewer
    /// and is saved.
    pub(super) fn arm_flag(self: &Arc<Self>, room: &Arc<Room>) {
        let due = room.lock().time_to_flag();
        let mut timer = room.flag_timer.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = timer.take() {
            old.abort();
        }
        let Some(due) = due else {
            return;
        };
        let hub = Arc::clone(self);
        let timed = Arc::clone(room);
        let task = tokio::spawn(async move {
            tokio::time::sleep(due).await;
            if hub.change(&timed, RoomState::flag_fall).is_err() {
                // Woken before the clock ran out (it was credited meanwhile).
                hub.arm_flag(&timed);
            }
        });
        *timer = Some(task.abort_handle());
    }
}

/// Closes expired rooms once a minute, so the lobby lists the rooms people use.
pub async fn expire_rooms_every_minute(hub: Arc<Hub>) {
    let mut shutdown = hub.shutdown.subscribe();
    let mut ticks = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = shutdown.changed() => return,
        }
        let closed = hub.expire(&mut hub.rooms());
        if closed {
            hub.lobby.send_modify(|version| *version += 1);
        }
    }
}
