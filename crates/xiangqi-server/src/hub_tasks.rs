//! What the hub runs for its rooms in the background: the engine's search when it is
//! its move, the flag-fall timer of a room with a clock, and the minute's sweep of
//! expired rooms and adjourned games.

use super::*;

/// How long a room's engine waits to ask again when the job pool is full.
const BUSY_RETRY: std::time::Duration = std::time::Duration::from_secs(1);

impl Hub {
    /// Starts the room's engine when it is its move and no search of this position
    /// runs; a search left behind (a move taken back, the game over) is cancelled.
    pub(super) fn engine_if_due(self: &Arc<Self>, room: &Arc<Room>) {
        // Both held until the new search is recorded: two changes at once start one.
        let state = room.lock();
        let due = state.engine_to_move();
        let mut task = room.engine_task.lock().unwrap_or_else(|p| p.into_inner());
        match task.as_ref() {
            Some((at, running)) if due && *at == state.game.ply() && !running.is_finished() => {
                return;
            }
            Some((_, running)) => running.abort(),
            None => {}
        }
        *task = None;
        if !due {
            return;
        }
        let side: Color = state.game.position().side_to_move();
        let clock = state.clock.engine_clock(side, state.now());
        let (position, ply, owner) = (
            state.game.position().clone(),
            state.game.ply(),
            state.opener.clone(),
        );
        let hub = Arc::clone(self);
        let searching = Arc::clone(room);
        let search = tokio::spawn(async move {
            let room = searching;
            let mut request = hub.pool.request(position);
            if clock.is_some() {
                // On a clock the engine manages its own time, as at home: a time per
                // move would only cut it short.
                request.clock = clock;
                request.movetime_ms = None;
            }
            let best = loop {
                room.show_search(|search| {
                    *search = WatchedSearch {
                        request: Some(request.clone()),
                        queued: None,
                        iterations: Vec::new(),
                    }
                });
                let asked = hub
                    .pool
                    .best_move(
                        &owner,
                        request.clone(),
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
                match asked {
                    Ok(best) => break best,
                    // The pool is full: the room says so and asks again in a moment.
                    Err(busy) => {
                        room.show_search(|search| search.queued = Some(busy.ahead + 1));
                        tokio::time::sleep(BUSY_RETRY).await;
                    }
                }
            };
            // This search is over: the next one may start (from `change` below).
            room.engine_task
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take_if(|(at, _)| *at == ply);
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
        *task = Some((ply, search.abort_handle()));
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

/// Once a minute (`sweep_every`): closes expired rooms and adjourns the games whose
/// players are away, so the lobby lists the rooms people use; scores the games
/// adjourned too long; once a day, deletes idle players.
pub async fn expire_rooms_every_minute(hub: Arc<Hub>) {
    let mut shutdown = hub.shutdown.subscribe();
    let mut ticks = tokio::time::interval(hub.settings.sweep_every);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = shutdown.changed() => return,
        }
        let changed = hub.sweep(&mut hub.rooms());
        if changed {
            hub.lobby.send_modify(|version| *version += 1);
        }
        hub.forfeit_due();
    }
}
