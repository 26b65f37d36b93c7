//! Tests of the lobby's commands, rows and names.

use super::*;

#[test]
fn commands_parse_exactly_and_room_names_are_checked() {
    assert_eq!(
        LobbyCommand::parse("new engine"),
        Ok(LobbyCommand::NewEngine(None))
    );
    assert_eq!(
        LobbyCommand::parse(" join  k7 "),
        Ok(LobbyCommand::Join("k7".into()))
    );
    assert_eq!(
        LobbyCommand::parse("watch a-b-c"),
        Ok(LobbyCommand::Watch("a-b-c".into()))
    );
    assert_eq!(LobbyCommand::parse("rooms"), Ok(LobbyCommand::Rooms));
    assert!(
        LobbyCommand::parse("join")
            .unwrap_err()
            .starts_with("usage: ")
    );
    assert!(
        LobbyCommand::parse("join 0123456789abcdefg")
            .unwrap_err()
            .starts_with("bad room name")
    );
    assert!(!valid_room_name("k_7"));
    assert!(valid_room_name("K-7"));
    assert_eq!(LobbyCommand::parse("help"), Ok(LobbyCommand::Help));
    assert_eq!(LobbyCommand::parse("games"), Ok(LobbyCommand::Games(None)));
    assert_eq!(
        LobbyCommand::parse("games ann"),
        Ok(LobbyCommand::Games(Some("ann".into())))
    );
    assert_eq!(LobbyCommand::parse("pgn 12"), Ok(LobbyCommand::Pgn(12)));
    assert_eq!(LobbyCommand::parse("pgn #12"), Ok(LobbyCommand::Pgn(12)));
    assert!(
        LobbyCommand::parse("pgn x")
            .unwrap_err()
            .starts_with("bad game id")
    );
    assert!(LobbyCommand::parse("pgn 0").is_err());
    assert_eq!(LobbyCommand::parse("top"), Ok(LobbyCommand::Top));
    assert_eq!(fit_name("alexander (guest)", 13), "alex~ (guest)");
    assert_eq!(fit_name("ann 1500?", 13), "ann 1500?");
    assert_eq!(fit_name("abcdefghijklmnop", 13), "abcdefghijkl~");
}

#[test]
fn new_rooms_take_a_clock_and_unrated_and_play_takes_a_clock() {
    let control = |text: &str| ClockChoice::Control(text.parse().unwrap());
    assert_eq!(
        LobbyCommand::parse("new human k7"),
        Ok(LobbyCommand::NewHuman(Some("k7".into())))
    );
    assert_eq!(
        LobbyCommand::parse("new human k7 10+5"),
        Ok(LobbyCommand::New(NewRoom {
            kind: RoomKind::Human,
            name: Some("k7".into()),
            clock: control("10+5"),
            rated: true,
        }))
    );
    assert_eq!(
        LobbyCommand::parse("new engine 30s/move unrated"),
        Ok(LobbyCommand::New(NewRoom {
            kind: RoomKind::Engine,
            name: None,
            clock: control("30s/move"),
            rated: false,
        }))
    );
    let untimed = LobbyCommand::parse("new human none").unwrap();
    assert_eq!(untimed.new_room().unwrap().clock, ClockChoice::Untimed);
    assert_eq!(untimed.new_room().unwrap().name, None);
    let plain = LobbyCommand::parse("new engine")
        .unwrap()
        .new_room()
        .unwrap();
    assert_eq!(plain.clock, ClockChoice::ServerDefault);
    assert!(plain.rated);
    assert_eq!(
        LobbyCommand::parse("play 5m/move"),
        Ok(LobbyCommand::Play(control("5m/move")))
    );
    assert_eq!(
        LobbyCommand::parse("play"),
        Ok(LobbyCommand::Play(ClockChoice::ServerDefault))
    );
    assert!(
        LobbyCommand::parse("play 10")
            .unwrap_err()
            .contains("the increment is missing")
    );
    assert!(
        LobbyCommand::parse("new human k7 tenminutes")
            .unwrap_err()
            .contains("is not a time control")
    );
    assert_eq!(
        ClockChoice::Untimed.resolve(Some("1+0".parse().unwrap())),
        None
    );
}

#[test]
fn the_help_fits_80_columns() {
    let lines = lobby_help_lines();
    assert!(lines.iter().all(|line| line.width() <= 80), "{lines:#?}");
    assert_eq!(
        lines[0],
        "new engine [ROOM] [CONTROL] a game against the engine: you play Red"
    );
}

#[test]
fn a_room_line_fits_80_columns_under_its_headings() {
    let mut room = RoomSummary {
        name: "sixteen-letters1".into(),
        kind: RoomKind::Human,
        red: Some("象棋大师象棋大师".into()),
        black: Some("bob".into()),
        spectators: 12,
        plies: 41,
        to_move: Color::Black,
        over: false,
        opening: "C45".parse().ok(),
    };
    assert_eq!(
        room_headings(),
        "ROOM             RED           BLACK         MOVES ECCO WATCH  STATE"
    );
    let line = room_line(&room);
    assert_eq!(
        line,
        "sixteen-letters1 象棋大师象棋~ bob              21 C45     12  Black to move"
    );
    assert!(line.width() <= 79);
    room.over = true;
    assert!(room_line(&room).ends_with("  over"));
    room.over = false;
    room.red = None;
    assert!(room_line(&room).contains(" (open) "));
    assert!(room_line(&room).ends_with("  waiting"));
}

#[test]
fn resume_codes_read_back_whatever_the_case_dash_or_lookalikes() {
    let code = ResumeCode::from_random([0, 1, 31, 32, 200, 255, 17, 99]);
    assert_eq!(code.to_string(), "01Z0-8ZH3");
    assert_eq!(code.as_str(), "01Z08ZH3");
    assert_eq!(
        LobbyCommand::parse("resume o1z0-8zh3"),
        Ok(LobbyCommand::Resume(code.clone()))
    );
    assert_eq!(ResumeCode::parse("OIZ08ZH3"), Ok(code));
    assert!(ResumeCode::parse("01Z0-8ZH").is_err());
    assert!(ResumeCode::parse("01Z0-8ZHU").is_err());
}

#[test]
fn a_misspelt_command_gets_the_one_it_likely_meant() {
    assert_eq!(
        LobbyCommand::parse("romos"),
        Err(format!(
            "unknown command 'romos' (did you mean 'rooms'?); usage: {LOBBY_USAGE}"
        ))
    );
    assert_eq!(
        LobbyCommand::parse("new enigne k7"),
        Err(format!(
            "unknown command 'new enigne' (did you mean 'new engine'?); usage: {LOBBY_USAGE}"
        ))
    );
    assert_eq!(
        LobbyCommand::parse("xyzzy"),
        Err(format!("unknown command 'xyzzy'; usage: {LOBBY_USAGE}"))
    );
    // A known command with the wrong words gets the usage alone.
    assert_eq!(
        LobbyCommand::parse("join a b"),
        Err(format!("usage: {LOBBY_USAGE}"))
    );
}

#[test]
fn tournament_commands_are_lobby_commands() {
    assert_eq!(
        LobbyCommand::parse("tournaments"),
        Ok(LobbyCommand::Tournaments)
    );
    assert_eq!(
        LobbyCommand::parse("tournament join club"),
        Ok(LobbyCommand::Tournament(TournamentCommand::Join(
            "club".into()
        )))
    );
    assert_eq!(
        LobbyCommand::parse("standings club --json"),
        Ok(LobbyCommand::Standings {
            name: "club".into(),
            json: true
        })
    );
    assert!(
        LobbyCommand::parse("tournament")
            .unwrap_err()
            .starts_with("usage: tournament new NAME swiss")
    );
}
