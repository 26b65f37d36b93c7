//! Rooms on disk: one PGN per room in `DATA/rooms/NAME.pgn`, written atomically (by the
//! saver, off the async workers), with tags for the room's kind and seats so a restart
//! restores the unfinished rooms. A file holding a finished game is never written over.

use std::path::{Path, PathBuf};

use crate::atomic_file::write_atomically;
use crate::board::Color;
use crate::clock::GameClock;
use crate::game::{CLOCK_TAGS, GameState, RoomKind, Setup, valid_room_name};
use crate::notation::Notation;
use crate::record::{GameRecord, GameResult};

use super::room::{RoomState, Seat};

const TAG_ROOM: &str = "Room";
const TAG_KIND: &str = "RoomKind";
const TAG_RED: &str = "Red";
const TAG_BLACK: &str = "Black";
const TAG_RED_ID: &str = "RedIdentity";
const TAG_BLACK_ID: &str = "BlackIdentity";
const TAG_TERMINATION: &str = "Termination";
const TAG_RATED: &str = "Rated";

pub fn rooms_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("rooms")
}

pub fn room_path(data_dir: &Path, name: &str) -> PathBuf {
    rooms_dir(data_dir).join(format!("{name}.pgn"))
}

/// The room as PGN (ICCS moves, which read back in any locale), with its clocks: the
/// control and each side's time left now.
pub fn room_pgn(room: &RoomState) -> String {
    let mut timed = room.game.clone();
    if room.clock.is_timed() {
        timed.write_setup(&Setup::default().with_clock(&room.clock, room.now()));
    }
    let mut record: GameRecord = timed.to_record();
    record
        .tags
        .retain(|(name, _)| CLOCK_TAGS.contains(&name.as_str()));
    let mut tag = |name: &str, value: &str| record.tags.push((name.to_owned(), value.to_owned()));
    tag("Event", &format!("xiangqi-tui room {}", room.name));
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    tag("Date", &crate::record::pgn_date(seconds));
    tag(TAG_ROOM, &room.name);
    tag(TAG_KIND, room.kind.name());
    tag(TAG_RATED, if room.rated { "yes" } else { "no" });
    for (color, name_tag, id_tag) in [
        (Color::Red, TAG_RED, TAG_RED_ID),
        (Color::Black, TAG_BLACK, TAG_BLACK_ID),
    ] {
        if room.engine_side == Some(color) {
            tag(name_tag, super::room::ENGINE_NAME);
        } else if let Some(seat) = &room.seats[color.index()] {
            tag(name_tag, &seat.name);
            tag(id_tag, &seat.identity);
        }
    }
    if let Some((text, result)) = room.ended() {
        tag(TAG_TERMINATION, &text);
        record.result = result;
    }
    record.to_pgn(Notation::Iccs)
}

/// Writes room `name`'s file with `text` (atomically: a crash leaves the old or the new
/// one). Blocking: the saver calls it off the async workers.
pub fn write(data_dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    write_atomically(&room_path(data_dir, name), text)
}

/// Removes the file of a room that held no game (it expired before a move).
pub fn remove(data_dir: &Path, name: &str) -> std::io::Result<()> {
    match std::fs::remove_file(room_path(data_dir, name)) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// A room read back from its PGN; `None` for a finished game.
pub fn parse_room(text: &str) -> Result<Option<RoomState>, String> {
    let record = GameRecord::from_pgn(text).map_err(|error| error.to_string())?;
    if record.result != GameResult::Unknown {
        return Ok(None);
    }
    let name = record
        .tag(TAG_ROOM)
        .filter(|name| valid_room_name(name))
        .ok_or("no valid Room tag")?
        .to_owned();
    let kind = match record.tag(TAG_KIND) {
        Some("engine") => RoomKind::Engine,
        _ => RoomKind::Human,
    };
    let game = GameState::from_record(&record)
        .map_err(|illegal| format!("move {} ({}) is illegal", illegal.index + 1, illegal.mv))?;
    if game.position().outcome().is_some() {
        return Ok(None);
    }
    let seat = |name_tag: &str, id_tag: &str| {
        let identity = record.tag(id_tag)?;
        Some(Seat {
            identity: identity.to_owned(),
            name: record.tag(name_tag).unwrap_or("?").to_owned(),
            connected: 0,
        })
    };
    let red = seat(TAG_RED, TAG_RED_ID);
    let black = seat(TAG_BLACK, TAG_BLACK_ID);
    let Some(creator) = red.clone().or_else(|| black.clone()) else {
        return Err("no player in the room".into());
    };
    let mut room = RoomState::new(&name, kind, creator, game.start().clone());
    let setup = game.setup();
    room.game = game;
    if let Some([red, black]) = setup.controls {
        room.clock = GameClock::new(red, black);
        setup.restore_clock(&mut room.clock, &room.game);
        // The clocks go on from the time left when the room was last saved (after
        // its latest change): the time the server was down, and the moments between
        // that save and the stop, are charged to nobody. As at home, no clock runs
        // before Red's first move.
        if room.game.ply() > 0 {
            let now = room.now();
            room.clock.start(room.game.position().side_to_move(), now);
        }
    }
    room.seats = [red, black];
    room.rated = record.tag(TAG_RATED) != Some("no");
    if kind == RoomKind::Engine {
        room.engine_side = Some(if room.seats[0].is_some() {
            Color::Black
        } else {
            Color::Red
        });
    }
    Ok(Some(room))
}

/// What the rooms folder holds at start.
#[derive(Default)]
pub struct Saved {
    /// The unfinished rooms, to restore.
    pub rooms: Vec<RoomState>,
    /// Names whose files must not be written over, and why: a finished game, or a file
    /// that cannot be read (kept for a person to look at).
    pub kept: Vec<(String, String)>,
    /// The files that cannot be read, with the reason.
    pub problems: Vec<String>,
    /// The first free number for `rN` names: past every `rN` file, finished or not.
    pub next_number: u64,
}

/// Everything saved in `data_dir`'s rooms folder.
pub fn load_all(data_dir: &Path) -> Saved {
    let mut saved = Saved {
        next_number: 1,
        ..Saved::default()
    };
    let Ok(entries) = std::fs::read_dir(rooms_dir(data_dir)) else {
        return saved;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    paths.sort();
    for path in paths {
        let Some(name) = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
        else {
            continue;
        };
        if let Some(number) = name.strip_prefix('r').and_then(|n| n.parse::<u64>().ok()) {
            saved.next_number = saved.next_number.max(number.saturating_add(1));
        }
        let read = std::fs::read(&path)
            .map_err(|error| error.to_string())
            .and_then(|bytes| parse_room(&String::from_utf8_lossy(&bytes)));
        match read {
            Ok(Some(room)) => saved.rooms.push(room),
            Ok(None) => saved
                .kept
                .push((name.clone(), format!("room {name} holds a finished game"))),
            Err(error) => {
                saved.problems.push(format!("{}: {error}", path.display()));
                saved.kept.push((
                    name.clone(),
                    format!("room {name} has a saved file the server cannot read"),
                ));
            }
        }
    }
    saved
}

#[cfg(test)]
mod tests {
    use crate::board::{Move, Position};

    use super::*;

    #[test]
    fn an_unfinished_room_reads_back_with_its_seats_and_a_finished_one_does_not() {
        let ann = Seat {
            identity: "SHA256:abc".into(),
            name: "ann".into(),
            connected: 1,
        };
        let mut room = RoomState::new("k7", RoomKind::Human, ann, Position::startpos());
        room.take_seat("guest:bob@127.0.0.1", "bob").unwrap();
        room.play(Color::Red, Move::parse_coords("h2e2").unwrap())
            .unwrap();
        let back = parse_room(&room_pgn(&room)).unwrap().unwrap();
        assert_eq!(back.name, "k7");
        assert_eq!(back.side_of("guest:bob@127.0.0.1"), Some(Color::Red));
        assert_eq!(back.side_of("SHA256:abc"), Some(Color::Black));
        assert_eq!(
            back.game.moves().collect::<Vec<_>>(),
            room.game.moves().collect::<Vec<_>>()
        );
        room.resign(Color::Black).unwrap();
        let text = room_pgn(&room);
        assert!(text.contains("[Result \"1-0\"]"), "{text}");
        assert!(parse_room(&text).unwrap().is_none());
    }

    #[test]
    fn loading_keeps_finished_and_unreadable_names_and_counts_past_every_r_number() {
        let folder = tempfile::tempdir().unwrap();
        let ann = Seat {
            identity: "SHA256:abc".into(),
            name: "ann".into(),
            connected: 0,
        };
        let mut open = RoomState::new("r2", RoomKind::Human, ann.clone(), Position::startpos());
        open.take_seat("id-bob", "bob").unwrap();
        let mut over = RoomState::new("r7", RoomKind::Engine, ann, Position::startpos());
        over.resign(Color::Red).unwrap();
        for room in [&open, &over] {
            write(folder.path(), &room.name, &room_pgn(room)).unwrap();
        }
        write(folder.path(), "k1", "not a game [").unwrap();
        let saved = load_all(folder.path());
        assert_eq!(saved.rooms.len(), 1);
        assert_eq!(saved.rooms[0].name, "r2");
        let kept: Vec<&str> = saved.kept.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(kept, ["k1", "r7"]);
        assert_eq!(saved.problems.len(), 1);
        assert_eq!(saved.next_number, 8);
        assert_eq!(load_all(&folder.path().join("none")).next_number, 1);
    }

    #[test]
    fn a_timed_room_reads_back_with_its_control_and_the_time_left() {
        let time = crate::clock::ManualTime::default();
        let ann = Seat {
            identity: "SHA256:abc".into(),
            name: "ann".into(),
            connected: 1,
        };
        let mut room = RoomState::new("k7", RoomKind::Human, ann, Position::startpos());
        room.time = std::sync::Arc::new(time.clone());
        room.set_control(Some("10+5".parse().unwrap()));
        room.take_seat("id-bob", "bob").unwrap();
        room.play(Color::Red, Move::parse_coords("h2e2").unwrap())
            .unwrap();
        time.advance(std::time::Duration::from_millis(42_500));
        let text = room_pgn(&room);
        assert!(text.contains("[TimeControl \"600+5\"]"), "{text}");
        assert!(text.contains("[BlackTimeLeft \"557.500\"]"), "{text}");
        let back = parse_room(&text).unwrap().unwrap();
        assert_eq!(back.control(), Some("10+5".parse().unwrap()));
        // Black's clock goes on from where it was saved.
        assert_eq!(back.clock.running(), Some(Color::Black));
        // Read at its start (the restored clock runs from its own time source).
        assert_eq!(
            back.clock
                .remaining(Color::Black, std::time::Duration::ZERO),
            Some(std::time::Duration::from_millis(557_500))
        );
        assert_eq!(
            back.clock.remaining(Color::Red, back.now()),
            Some(std::time::Duration::from_secs(600))
        );
    }
}
