//! A session in a room: entering it as a player or a spectator, opening one, a guest's
//! resume code, resuming a seat, and leaving.

use std::sync::Arc;

use xiangqi_app::game::rating::Rating;
use xiangqi_app::game::{ResumeCode, RoomKind};

use super::{MAX_BAD_CODES, Place, Session, addr_text};
use crate::hub::Room;
use crate::log;
use crate::names::guest_identity;
use crate::room::Departure;

impl Session {
    /// Shows `room`, as its player when `identity` has a seat there, else watching.
    /// `returning`: a player coming back to a seat held before (the room is told).
    pub(super) fn enter(&mut self, room: Arc<Room>, watch_only: bool, returning: bool) {
        self.leave_room(Departure::Left);
        let identity = self.start.identity.clone();
        let side = if watch_only {
            None
        } else {
            room.lock().side_of(&identity)
        };
        let name = self.start.name.clone();
        self.hub
            .touch(&room, |state| state.arrive(side, &name, returning));
        self.room_version = room.version.subscribe();
        self.place = Place::Room {
            room: Arc::clone(&room),
            side,
        };
        self.refresh_room();
    }

    /// Enters `room`, where this session now holds a seat (shown with `rating`;
    /// `returning`: held before); a guest is told its code.
    pub(super) fn enter_seated(
        &mut self,
        room: Arc<Room>,
        rating: Option<Rating>,
        returning: bool,
    ) {
        let identity = self.start.identity.clone();
        self.hub.touch(&room, |state| {
            if let Some(color) = state.side_of(&identity) {
                state.ratings[color.index()] = rating;
            }
        });
        self.enter(room, false, returning);
        self.tell_resume_code();
    }

    /// Enters a room this session opened (seated, shown with `rating`); in a human room
    /// its log shows the line the opponent types to join.
    pub(super) fn enter_opened(&mut self, room: Arc<Room>, rating: Option<Rating>) {
        let (name, kind) = {
            let state = room.lock();
            (state.name.clone(), state.kind)
        };
        self.enter_seated(room, rating, false);
        if kind == RoomKind::Human {
            let settings = &self.hub.settings;
            let line = crate::join_line(settings.public_address.as_deref(), settings.listen, &name);
            // The command first, so a narrow log pane keeps it on one line.
            self.ui.note(format!("{line}   (how your opponent joins)"));
        }
    }

    pub(super) fn tell_resume_code(&mut self) {
        if let Some(code) = &self.start.guest_code
            && guest_identity(code) == self.start.identity
        {
            // In the log, where it stays; the code first, so a narrow pane shows it.
            self.ui.note(format!(
                "resume code {code} (this seat from another connection: \
                 ssh -t SERVER resume {code})"
            ));
        }
    }

    /// `resume CODE`: takes the seat the code was given for (an adjourned game's too).
    pub(super) async fn resume(&mut self, code: &ResumeCode) -> Result<(), String> {
        let identity = guest_identity(code);
        if self.hub.seat_of(&identity).is_none()
            && let Some(game) = self.hub.adjourned_of(&identity).first()
        {
            self.start.identity = identity;
            self.start.guest_code = Some(code.clone());
            return self.resume_adjourned(&game.name).await;
        }
        let Some(room) = self.hub.seat_of(&identity) else {
            self.bad_codes += 1;
            if self.bad_codes >= MAX_BAD_CODES {
                log(&format!(
                    "{} closed: {MAX_BAD_CODES} wrong resume codes",
                    addr_text(self.start.addr)
                ));
                self.quit = true;
            }
            return Err(format!("no unfinished game has the resume code {code}"));
        };
        self.start.identity = identity;
        self.start.guest_code = Some(code.clone());
        let name = room.lock().name.clone();
        self.enter(room, false, true);
        self.ui
            .notify(format!("room {name}: resumed your game"), false);
        Ok(())
    }

    pub(super) fn leave_room(&mut self, how: Departure) {
        if let Place::Room { room, side } = std::mem::replace(&mut self.place, Place::Lobby) {
            let name = self.start.name.clone();
            self.hub
                .touch(&room, |state| state.depart(side, &name, how));
        }
    }
}
