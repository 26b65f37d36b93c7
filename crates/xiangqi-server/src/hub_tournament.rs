//! The rooms of tournament games: opened by the director with both players seated,
//! the tournament's clock and rating, and the board they play.

use super::*;
use crate::tournament::TournamentGame;
use xiangqi_core::clock::TimeControl;

impl Hub {
    /// Opens the room of a tournament game, named `preferred` when that name is free
    /// (else a fresh `rN`): Red and Black seated, their ratings shown. The room limit
    /// applies as to any room. Returns its name.
    pub fn open_tournament_room(
        self: &Arc<Self>,
        preferred: &str,
        seats: [Seat; 2],
        control: TimeControl,
        rated: bool,
        game: TournamentGame,
    ) -> Result<String, String> {
        let ratings = seats.clone().map(|seat| {
            room_record::key_of(&seat.identity)
                .and_then(|key| self.db.player_by_key(&key).ok().flatten())
                .map(|player| player.rating)
        });
        let mut rooms = self.rooms();
        self.expire(&mut rooms);
        if rooms.len() >= self.settings.max_rooms {
            return Err(format!(
                "the server's limit of open rooms ({}) is reached",
                rooms.len()
            ));
        }
        let free = |name: &str| {
            !rooms.contains_key(name)
                && !self.kept_names().contains_key(name)
                && xiangqi_app::game::valid_room_name(name)
        };
        let name = if free(preferred) {
            preferred.to_owned()
        } else {
            loop {
                let number = self.next_room.fetch_add(1, Ordering::Relaxed);
                let name = format!("r{number}");
                if free(&name) {
                    break name;
                }
            }
        };
        let [red, black] = seats;
        let mut state = RoomState::new(&name, RoomKind::Human, black, self.settings.start.clone());
        state.seats[Color::Red.index()] = Some(red);
        state.set_control(Some(control));
        state.rated = rated;
        state.ratings = ratings;
        let label = game.label();
        state.tournament = Some(game);
        let room = Room::new(state);
        // New, so dirty: written by the saver, never here under the map's lock.
        room.edits.store(1, Ordering::Release);
        rooms.insert(name.clone(), Arc::clone(&room));
        drop(rooms);
        self.saver.queue(&room);
        tracing::info!(
            event = "room_opened",
            room = %name,
            kind = "tournament",
            "room {name} opened for {label}"
        );
        self.lobby.send_modify(|version| *version += 1);
        Ok(name)
    }
}
