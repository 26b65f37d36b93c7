//! A room as a record: the PGN of a room in progress as the store keeps it (with tags
//! for the room's kind, seats and identities, so a restart restores it), and the PGN and
//! row of a finished game as the archive keeps it (names only: a guest's resume code
//! never leaves the room's own record).

use crate::store::{FinishedGame, Side, UnixTime};
use xiangqi_app::game::rating;
use xiangqi_app::game::{
    CLOCK_TAGS, GameState, Pending, RoomKind, Setup, side_of_tag, side_tag, valid_room_name,
};
use xiangqi_core::board::Color;
use xiangqi_core::clock::GameClock;
use xiangqi_core::notation::Notation;
use xiangqi_core::record::{GameRecord, GameResult};

use super::room::{ENGINE_NAME, RoomState, Seat};

const TAG_ROOM: &str = "Room";
const TAG_KIND: &str = "RoomKind";
const TAG_RED: &str = "Red";
const TAG_BLACK: &str = "Black";
const TAG_RED_ID: &str = "RedIdentity";
const TAG_BLACK_ID: &str = "BlackIdentity";
const TAG_TERMINATION: &str = "Termination";
const TAG_RATED: &str = "Rated";
const TAG_STARTED: &str = "RoomStarted";
/// The side whose draw offer waits for an answer (`red`, `black`).
const TAG_DRAW_OFFER: &str = "DrawOffer";
/// The side whose request to take back waits for an answer.
const TAG_TAKEBACK: &str = "TakebackAsked";
/// A tournament game's tournament (name and id), round and board.
const TAG_TOURNAMENT: &str = "Tournament";
const TAG_TOURNAMENT_ID: &str = "TournamentId";
const TAG_TOURNAMENT_ROUND: &str = "TournamentRound";
const TAG_TOURNAMENT_BOARD: &str = "TournamentBoard";

/// The identity of a seat as the archive and ratings know it: a key, or nobody.
pub fn key_of(identity: &str) -> Option<String> {
    identity.starts_with("SHA256:").then(|| identity.to_owned())
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
    tag(
        "Date",
        &xiangqi_core::record::pgn_date(room.started.max(0) as u64),
    );
    tag(TAG_ROOM, &room.name);
    tag(TAG_KIND, room.kind.name());
    tag(TAG_RATED, if room.rated { "yes" } else { "no" });
    tag(TAG_STARTED, &room.started.to_string());
    for (color, name_tag, id_tag) in [
        (Color::Red, TAG_RED, TAG_RED_ID),
        (Color::Black, TAG_BLACK, TAG_BLACK_ID),
    ] {
        if room.engine_side == Some(color) {
            tag(name_tag, ENGINE_NAME);
        } else if let Some(seat) = &room.seats[color.index()] {
            tag(name_tag, &seat.name);
            tag(id_tag, &seat.identity);
        }
    }
    // What waits for an answer is state like the moves: a restart keeps it.
    let pending = room.game.pending();
    if let Some(side) = pending.draw_offer {
        tag(TAG_DRAW_OFFER, side_tag(side));
    }
    if let Some(side) = pending.takeback {
        tag(TAG_TAKEBACK, side_tag(side));
    }
    if let Some(game) = &room.tournament {
        tag(TAG_TOURNAMENT, &game.event);
        tag(TAG_TOURNAMENT_ID, &game.id.tournament.to_string());
        tag(TAG_TOURNAMENT_ROUND, &game.id.round.to_string());
        tag(TAG_TOURNAMENT_BOARD, &game.id.board.to_string());
    }
    if let Some((text, result)) = room.ended() {
        tag(TAG_TERMINATION, &text);
        record.result = result;
    }
    record.to_pgn(Notation::Iccs)
}

/// The name a side of the room's game is archived under.
fn side(room: &RoomState, color: Color) -> Side {
    if room.engine_side == Some(color) {
        return Side {
            name: ENGINE_NAME.to_owned(),
            key: None,
        };
    }
    match &room.seats[color.index()] {
        Some(seat) => Side {
            name: seat.name.clone(),
            key: key_of(&seat.identity),
        },
        None => Side {
            name: "?".to_owned(),
            key: None,
        },
    }
}

/// The finished game of `room` as the archive keeps it, ended at `ended`; `None` while
/// the game is on.
pub fn finished_game(room: &RoomState, ended: UnixTime) -> Option<FinishedGame> {
    let outcome = room.game.outcome()?;
    let red = side(room, Color::Red);
    let black = side(room, Color::Black);
    let both_keyed = red.key.is_some() && black.key.is_some();
    let rated = rating::counts(room.rated, both_keyed, Some(outcome), room.game.ply());
    let time_control = room
        .control()
        .map_or_else(|| "none".to_owned(), |control| control.pgn_tag());
    let mut record: GameRecord = room.game.to_record();
    record.tags.clear();
    let mut tag = |name: &str, value: &str| record.tags.push((name.to_owned(), value.to_owned()));
    match &room.tournament {
        // A tournament's games carry its name and their round ("-": an arena has none).
        Some(game) => {
            tag("Event", &game.event);
            tag("Round", &game.round_tag());
        }
        None => tag("Event", "xiangqi-tui"),
    }
    tag("Site", &format!("room {}", room.name));
    tag(
        "Date",
        &xiangqi_core::record::pgn_date(room.started.max(0) as u64),
    );
    tag("Red", &red.name);
    tag("Black", &black.name);
    tag("Termination", &room.game.termination()?);
    tag("TimeControl", &time_control);
    tag("Rated", if rated { "yes" } else { "no" });
    xiangqi_engine::opening::tag_record(&mut record);
    Some(FinishedGame {
        pgn: record.to_pgn(Notation::Iccs),
        red,
        black,
        result: outcome.pgn_result().to_owned(),
        termination: room.game.ending()?,
        time_control,
        rated,
        started: room.started,
        ended,
        tournament: room.tournament.as_ref().map(|game| game.id),
    })
}

/// A finished game from a room file of a server before the store, as the archive
/// keeps it: unrated, with names only.
pub fn legacy_finished(text: &str) -> Result<FinishedGame, String> {
    let mut record = GameRecord::from_pgn(text).map_err(|error| error.to_string())?;
    let game = GameState::from_record(&record)
        .map_err(|illegal| format!("move {} ({}) is illegal", illegal.index + 1, illegal.mv))?;
    let outcome = game.outcome().ok_or("the game is not finished")?;
    let side = |name_tag: &str, id_tag: &str| Side {
        name: record.tag(name_tag).unwrap_or("?").to_owned(),
        key: record.tag(id_tag).and_then(key_of),
    };
    let (red, black) = (side(TAG_RED, TAG_RED_ID), side(TAG_BLACK, TAG_BLACK_ID));
    record
        .tags
        .retain(|(name, _)| name != TAG_RED_ID && name != TAG_BLACK_ID);
    let now = crate::store::unix_now();
    Ok(FinishedGame {
        pgn: record.to_pgn(Notation::Iccs),
        red,
        black,
        result: outcome.pgn_result().to_owned(),
        termination: game.ending().ok_or("the game is not finished")?,
        time_control: "none".to_owned(),
        rated: false,
        started: now,
        ended: now,
        tournament: None,
    })
}

/// The tournament game a room's record names, if any.
fn tournament_game(record: &GameRecord) -> Option<crate::tournament::TournamentGame> {
    let number = |name: &str| record.tag(name)?.parse::<u32>().ok();
    Some(crate::tournament::TournamentGame {
        id: crate::store::BoardId {
            tournament: record.tag(TAG_TOURNAMENT_ID)?.parse().ok()?,
            round: number(TAG_TOURNAMENT_ROUND)?,
            board: number(TAG_TOURNAMENT_BOARD)?,
        },
        event: record.tag(TAG_TOURNAMENT)?.to_owned(),
    })
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
    let pending_side = |name: &str| record.tag(name).and_then(side_of_tag);
    room.game.restore_pending(Pending {
        draw_offer: pending_side(TAG_DRAW_OFFER),
        takeback: pending_side(TAG_TAKEBACK),
    });
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
    room.tournament = tournament_game(&record);
    if let Some(started) = record.tag(TAG_STARTED).and_then(|t| t.parse().ok()) {
        room.started = started;
    }
    if kind == RoomKind::Engine {
        room.engine_side = Some(if room.seats[0].is_some() {
            Color::Black
        } else {
            Color::Red
        });
    }
    Ok(Some(room))
}

#[cfg(test)]
mod tests {
    use xiangqi_core::board::{Move, Position};

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
    fn an_offer_waiting_for_its_answer_reads_back() {
        let ann = Seat {
            identity: "SHA256:abc".into(),
            name: "ann".into(),
            connected: 1,
        };
        let mut room = RoomState::new("k7", RoomKind::Human, ann, Position::startpos());
        room.take_seat("id-bob", "bob").unwrap();
        room.play(Color::Red, Move::parse_coords("h2e2").unwrap())
            .unwrap();
        room.draw(Color::Black).unwrap();
        room.undo(Color::Red).unwrap();
        let text = room_pgn(&room);
        assert!(text.contains("[DrawOffer \"black\"]"), "{text}");
        assert!(text.contains("[TakebackAsked \"red\"]"), "{text}");
        let back = parse_room(&text).unwrap().unwrap();
        assert_eq!(back.game.pending(), room.game.pending());
        // Answered, it is gone from the record.
        room.play(Color::Black, Move::parse_coords("h9g7").unwrap())
            .unwrap();
        let text = room_pgn(&room);
        assert!(
            !text.contains("DrawOffer") && !text.contains("Takeback"),
            "{text}"
        );
    }

    #[test]
    fn a_tournament_room_reads_back_with_its_board_and_archives_with_its_round() {
        let seat = |id: &str, name: &str| Seat {
            identity: id.into(),
            name: name.into(),
            connected: 0,
        };
        let mut room = RoomState::new(
            "club-2-1",
            RoomKind::Human,
            seat("SHA256:bob", "bob"),
            Position::startpos(),
        );
        room.seats[0] = Some(seat("SHA256:ann", "ann"));
        room.set_control(Some("5+3".parse().unwrap()));
        let game = crate::tournament::TournamentGame {
            id: crate::store::BoardId {
                tournament: 3,
                round: 2,
                board: 1,
            },
            event: "club".into(),
        };
        room.tournament = Some(game.clone());
        // Before any move, as after a pairing.
        let back = parse_room(&room_pgn(&room)).unwrap().unwrap();
        assert_eq!(back.tournament, Some(game.clone()));
        assert_eq!(back.side_of("SHA256:ann"), Some(Color::Red));
        room.resign(Color::Red).unwrap();
        let archived = finished_game(&room, 0).unwrap();
        assert_eq!(archived.tournament, Some(game.id));
        assert!(
            archived
                .pgn
                .contains("[Event \"club\"]\n[Round \"2\"]\n[Site \"room club-2-1\"]"),
            "{}",
            archived.pgn
        );
    }

    #[test]
    fn a_timed_room_reads_back_with_its_control_and_the_time_left() {
        let time = xiangqi_core::clock::ManualTime::default();
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
        room.resign(Color::Black).unwrap();
        let archived = finished_game(&room, 0).unwrap();
        assert_eq!(archived.time_control, "600+5");
        assert!(
            archived.pgn.contains("[TimeControl \"600+5\"]"),
            "{}",
            archived.pgn
        );
    }
}
