//! The rooms the store holds, read back at start (and an adjourned game when its
//! players resume it).

use super::*;
use crate::store::{SavedRoom, UnixTime};

/// What the store holds at start.
#[derive(Default)]
pub(super) struct Restored {
    pub rooms: Vec<RoomState>,
    /// Adjourned games, with since when.
    pub adjourned: Vec<(RoomState, UnixTime)>,
    /// Rooms that cannot be read, and why: their names stay taken.
    pub kept: Vec<(String, String)>,
    pub problems: Vec<String>,
    /// The first free number for `rN` names.
    pub next_number: u64,
}

/// The rooms in progress the store holds, with their chat and their players' ratings.
pub(super) fn restore_rooms(db: &dyn Store) -> Restored {
    let mut restored = Restored {
        next_number: 1,
        ..Restored::default()
    };
    let saved = match db.rooms() {
        Ok(saved) => saved,
        Err(error) => {
            restored.problems.push(format!("the rooms: {error}"));
            return restored;
        }
    };
    for saved in saved {
        let name = saved.name.clone();
        if let Some(number) = name.strip_prefix('r').and_then(|n| n.parse::<u64>().ok()) {
            restored.next_number = restored.next_number.max(number.saturating_add(1));
        }
        match restored_room(db, &saved) {
            Ok(Some(room)) => match saved.adjourned {
                Some(since) => restored.adjourned.push((room, since)),
                None => restored.rooms.push(room),
            },
            Ok(None) => {
                restored.problems.push(format!(
                    "room {name} holds a finished game that was not archived: left in the store"
                ));
                restored.kept.push((
                    name.clone(),
                    format!("room {name} holds an unarchived game"),
                ));
            }
            Err(error) => {
                restored.problems.push(format!("room {name}: {error}"));
                restored.kept.push((
                    name.clone(),
                    format!("room {name} has a saved record the server cannot read"),
                ));
            }
        }
    }
    restored
}

/// A saved room read back, with its last chat lines and its players' ratings as the
/// store has them; `None` for a finished game.
pub(super) fn restored_room(
    db: &dyn Store,
    saved: &SavedRoom,
) -> Result<Option<RoomState>, String> {
    let Some(mut room) = room_record::parse_room(&saved.pgn)? else {
        return Ok(None);
    };
    if let Ok(lines) = db.chat(&saved.name, 50) {
        room.restore_chat(lines.into_iter().map(|line| (line.seq, line.text)));
    }
    for color in Color::BOTH {
        let key = room.seats[color.index()]
            .as_ref()
            .and_then(|seat| room_record::key_of(&seat.identity));
        if let Some(key) = key
            && let Ok(Some(player)) = db.player_by_key(&key)
        {
            room.ratings[color.index()] = Some(player.rating);
        }
    }
    Ok(Some(room))
}
