//! Rooms saved by servers before the store: one PGN per room in `DATA/rooms/`. On the
//! first start with a store they are brought into it (unfinished rooms as rooms in
//! progress, finished games into the archive, unrated), and the folder is renamed to
//! `rooms.imported` so that it is read once and nothing in it is lost.

use std::path::Path;

use crate::store::{Store, unix_now};

use super::room_record;

/// Imports `data_dir/rooms` into `db`; what it did, in lines for the log.
pub fn import_room_files(data_dir: &Path, db: &dyn Store) -> Vec<String> {
    let folder = data_dir.join("rooms");
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    paths.sort();
    let mut told = Vec::new();
    let (mut rooms, mut games) = (0, 0);
    for path in &paths {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => {
                told.push(format!("{}: {error}; left as it is", path.display()));
                continue;
            }
        };
        let imported = match room_record::parse_room(&text) {
            Ok(Some(room)) => db
                .save_room(&room.name, &text, &[], unix_now())
                .map(|()| rooms += 1),
            // A finished game: the archive keeps it as it was written, unrated.
            Ok(None) => match room_record::legacy_finished(&text) {
                Ok(game) => db.archive(&game, None).map(|_| games += 1),
                Err(error) => {
                    told.push(format!("{}: {error}; left as it is", path.display()));
                    continue;
                }
            },
            Err(error) => {
                told.push(format!("{}: {error}; left as it is", path.display()));
                continue;
            }
        };
        if let Err(error) = imported {
            // Nothing is renamed: the next start tries again.
            told.push(format!("cannot import {}: {error}", path.display()));
            return told;
        }
    }
    let moved = data_dir.join("rooms.imported");
    match std::fs::rename(&folder, &moved) {
        Ok(()) => told.push(format!(
            "imported {rooms} rooms in progress and {games} finished games from {} \
             (the folder is now {})",
            folder.display(),
            moved.display()
        )),
        Err(error) => told.push(format!(
            "imported {} but cannot rename it: {error}",
            folder.display()
        )),
    }
    told
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{RoomState, Seat};
    use crate::store::SqliteStore;
    use xiangqi_app::game::RoomKind;
    use xiangqi_core::board::{Color, Position};

    fn room(name: &str) -> RoomState {
        let ann = Seat {
            identity: "SHA256:ann".into(),
            name: "ann".into(),
            connected: 0,
        };
        let mut room = RoomState::new(name, RoomKind::Human, ann, Position::startpos());
        room.take_seat("guest:4F7K9QXM", "bob (guest)").unwrap();
        room
    }

    #[test]
    fn old_room_files_go_into_the_store_once() {
        let data = tempfile::tempdir().unwrap();
        let folder = data.path().join("rooms");
        std::fs::create_dir(&folder).unwrap();
        let open = room("k1");
        let mut over = room("k2");
        over.resign(Color::Red).unwrap();
        for room in [&open, &over] {
            let text = room_record::room_pgn(room);
            std::fs::write(folder.join(format!("{}.pgn", room.name)), text).unwrap();
        }
        std::fs::write(folder.join("k3.pgn"), "not a game [").unwrap();
        let db = SqliteStore::open_in(data.path()).unwrap();

        let told = import_room_files(data.path(), &db);
        assert_eq!(told.len(), 2, "{told:?}");
        assert!(told[0].contains("k3.pgn"), "{told:?}");
        assert!(told[1].starts_with("imported 1 rooms in progress and 1 finished games"));
        let rooms = db.rooms().unwrap();
        assert_eq!(rooms.len(), 1);
        assert_eq!(rooms[0].name, "k1");
        let archived = db.game(1).unwrap().unwrap();
        assert_eq!(archived.game.result, "0-1");
        assert!(!archived.game.rated);
        assert_eq!(archived.game.red.name, "bob (guest)");
        assert_eq!(archived.game.black.key.as_deref(), Some("SHA256:ann"));
        assert!(
            !archived.game.pgn.contains("guest:"),
            "{}",
            archived.game.pgn
        );
        assert!(data.path().join("rooms.imported/k3.pgn").exists());
        // Read once: the folder is gone, a second start imports nothing.
        assert!(import_room_files(data.path(), &db).is_empty());
    }
}
