use super::*;

/// The room's chat as a spectator sees it.
fn chat_lines(room: &RoomState) -> Vec<String> {
    room.view(None)
        .chat
        .into_iter()
        .map(|(_, line)| line)
        .collect()
}

fn seat(name: &str) -> Seat {
    Seat {
        identity: format!("id-{name}"),
        name: name.into(),
        connected: 1,
    }
}

fn mv(text: &str) -> Move {
    Move::parse_coords(text).unwrap()
}

#[test]
fn seats_turns_and_agreements() {
    let mut room = RoomState::new("k7", RoomKind::Human, seat("ann"), Position::startpos());
    assert_eq!(room.take_seat("id-bob", "bob"), Ok(Color::Red));
    assert_eq!(room.take_seat("id-ann", "ann"), Ok(Color::Black));
    assert!(room.take_seat("id-cy", "cy").is_err());
    assert_eq!(
        room.play(Color::Black, mv("h9g7")),
        Err("it is your opponent's move".into())
    );
    room.play(Color::Red, mv("h2e2")).unwrap();
    // What waits for an answer is the status line's (the view's), not a notice.
    assert_eq!(room.undo(Color::Red), Ok(""));
    assert_eq!(
        room.view(Some(Color::Red)).pending.as_deref(),
        Some("Red asks to take back (:undo agrees)")
    );
    assert_eq!(room.game.ply(), 1);
    assert_eq!(room.undo(Color::Black), Ok("took back the last move"));
    assert_eq!(room.game.ply(), 0);
    assert_eq!(room.view(Some(Color::Red)).pending, None);
    assert_eq!(room.draw(Color::Red), Ok(""));
    assert!(room.draw(Color::Red).is_err());
    assert_eq!(room.draw(Color::Black), Ok("draw agreed"));
    assert!(room.is_over());
    assert!(room.play(Color::Red, mv("h2e2")).is_err());
    let view = room.view(Some(Color::Red));
    assert_eq!(view.ended.as_deref(), Some("draw agreed (1/2-1/2)"));
    assert!(
        view.chat
            .iter()
            .any(|(_, line)| line == "* Red offers a draw")
    );
}

#[test]
fn the_rooms_engine_answers_a_draw_offer_by_its_latest_search() {
    let mut room = RoomState::new("e", RoomKind::Engine, seat("ann"), Position::startpos());
    room.play(Color::Red, mv("h2e2")).unwrap();
    assert_eq!(
        room.draw(Color::Red),
        Err("draw offer declined: the engine has not searched the position yet".into())
    );
    room.play(Color::Black, mv("h9g7")).unwrap();
    room.engine_view = Some(SearchView {
        depth: 9,
        centipawns: Some(-45),
    });
    assert_eq!(
        room.draw(Color::Red),
        Err("draw offer declined: the engine sees an advantage".into())
    );
    assert!(!room.is_over());
    room.engine_view = Some(SearchView {
        depth: 9,
        centipawns: Some(12),
    });
    assert_eq!(room.draw(Color::Red), Ok("draw agreed"));
    assert_eq!(
        room.ended().unwrap(),
        ("draw agreed (1/2-1/2)".into(), GameResult::Draw)
    );
    let view = room.view(Some(Color::Red));
    assert_eq!(
        view.chat
            .iter()
            .map(|(_, line)| line.as_str())
            .collect::<Vec<_>>(),
        [
            "* Red offers a draw; the engine accepts: the engine's search calls the position level",
            "* draw agreed (1/2-1/2)"
        ]
    );
    assert_eq!(room.undo(Color::Red), Err("the game is over".into()));
}

#[test]
fn a_failing_save_is_told_once_and_shown_until_a_save_succeeds() {
    let mut room = RoomState::new("k7", RoomKind::Human, seat("ann"), Position::startpos());
    assert!(!room.set_saved(Ok(())));
    assert!(room.set_saved(Err("disk full")));
    assert!(!room.set_saved(Err("disk full")));
    assert!(room.set_saved(Err("read-only")));
    room.draw(Color::Black).unwrap();
    let view = room.view(None);
    assert_eq!(
        view.pending.as_deref(),
        Some("NOT SAVED: the server keeps retrying | Black offers a draw (:draw accepts)")
    );
    assert!(room.set_saved(Ok(())));
    assert_eq!(
        room.view(None).pending.as_deref(),
        Some("Black offers a draw (:draw accepts)")
    );
    let chat = chat_lines(&room);
    assert_eq!(
        chat,
        [
            "* this game is NOT being saved (disk full); the server keeps retrying",
            "* Black offers a draw",
            "* the game is saved again"
        ]
    );
}

#[test]
fn resigning_ends_the_game_for_the_other_side() {
    let mut room = RoomState::new("x", RoomKind::Engine, seat("ann"), Position::startpos());
    assert!(room.take_seat("id-bob", "bob").is_err());
    room.resign(Color::Red).unwrap();
    assert_eq!(room.ended().unwrap().1, GameResult::BlackWins);
    assert_eq!(room.summary().black.as_deref(), Some(ENGINE_NAME));
}

fn timed_room(control: &str) -> (RoomState, xiangqi_core::clock::ManualTime) {
    let time = xiangqi_core::clock::ManualTime::default();
    let mut room = RoomState::new("k7", RoomKind::Human, seat("ann"), Position::startpos());
    room.time = Arc::new(time.clone());
    room.set_control(Some(control.parse().unwrap()));
    room.take_seat("id-bob", "bob").unwrap();
    (room, time)
}

#[test]
fn the_clock_starts_with_reds_first_move_and_a_fallen_flag_loses() {
    let (mut room, time) = timed_room("1+0");
    assert_eq!(room.time_to_flag(), None);
    time.advance(Duration::from_secs(30));
    assert_eq!(room.play(Color::Red, mv("h2e2")), Ok(""));
    assert_eq!(room.time_to_flag(), Some(Duration::from_secs(60)));
    time.advance(Duration::from_secs(59));
    assert!(room.flag_fall().is_err());
    assert_eq!(room.time_to_flag(), Some(Duration::from_secs(1)));
    time.advance(Duration::from_secs(1));
    assert_eq!(room.flag_fall(), Ok("the flag fell"));
    assert_eq!(
        room.ended(),
        Some(("Black's flag fell (1-0)".into(), GameResult::RedWins))
    );
    assert_eq!(room.time_to_flag(), None);
    assert!(
        room.view(None)
            .chat
            .iter()
            .any(|(_, line)| line == "* Black's flag fell (1-0)")
    );
}

#[test]
fn a_move_after_the_flag_fell_loses_on_time() {
    let (mut room, time) = timed_room("10s/move");
    room.play(Color::Red, mv("h2e2")).unwrap();
    time.advance(Duration::from_secs(11));
    assert_eq!(
        room.play(Color::Black, mv("h9g7")),
        Ok("your time ran out before the move: the game is lost on time")
    );
    assert_eq!(room.game.ply(), 1);
    assert_eq!(room.ended().unwrap().1, GameResult::RedWins);
}

#[test]
fn a_rematch_needs_both_and_swaps_colours_with_the_same_clocks() {
    let (mut room, _time) = timed_room("3+2");
    assert!(room.rematch(Color::Red).is_err(), "the game is on");
    room.resign(Color::Black).unwrap();
    assert_eq!(room.rematch(Color::Red), Ok(""));
    assert!(room.rematch(Color::Red).is_err(), "offered already");
    assert_eq!(
        room.view(Some(Color::Black)).pending.as_deref(),
        Some("Red offers a rematch (:rematch agrees)")
    );
    assert_eq!(room.rematch(Color::Black), Ok("rematch: colours swapped"));
    assert!(!room.is_over());
    assert_eq!(room.game.ply(), 0);
    assert_eq!(room.side_of("id-ann"), Some(Color::Red));
    assert_eq!(room.side_of("id-bob"), Some(Color::Black));
    assert_eq!(room.control(), Some("3+2".parse().unwrap()));
    assert_eq!(room.clock.running(), None);
    assert_eq!(room.view(None).pending, None);
    let chat = room.view(None).chat;
    assert_eq!(
        chat.last().unwrap().1,
        "* rematch: ann plays Red, bob Black"
    );
}

#[test]
fn arrivals_and_departures_are_told() {
    let mut room = RoomState::new("k7", RoomKind::Human, seat("ann"), Position::startpos());
    room.seats[1].as_mut().unwrap().connected = 0;
    room.arrive(Some(Color::Black), "ann", false);
    room.take_seat("id-bob", "bob").unwrap();
    room.arrive(Some(Color::Red), "bob", false);
    room.arrive(None, "cy", false);
    room.depart(Some(Color::Red), "bob", Departure::Dropped);
    room.arrive(Some(Color::Red), "bob", true);
    room.depart(Some(Color::Red), "bob", Departure::Left);
    room.depart(Some(Color::Black), "ann", Departure::Quietly);
    room.depart(None, "cy", Departure::Left);
    let chat = chat_lines(&room);
    assert_eq!(
        chat,
        [
            "* bob joins as Red",
            "* cy watches",
            "* bob dropped",
            "* bob is back",
            "* bob left"
        ]
    );
    assert_eq!(room.spectators, 0);
}

#[test]
fn a_tournament_game_is_never_adjourned_its_clock_ends_it() {
    let away = |name: &str| Seat {
        connected: 0,
        ..seat(name)
    };
    let mut room = RoomState::new(
        "club-1-1",
        RoomKind::Human,
        away("bob"),
        Position::startpos(),
    );
    room.seats[0] = Some(away("ann"));
    room.play(Color::Red, mv("h2e2")).unwrap();
    let later = Instant::now() + Duration::from_secs(3600);
    assert!(room.adjourn_due(Duration::from_secs(60), later));
    room.tournament = Some(crate::tournament::TournamentGame {
        id: crate::store::BoardId {
            tournament: 1,
            round: 1,
            board: 1,
        },
        event: "club".into(),
    });
    assert!(!room.adjourn_due(Duration::from_secs(60), later));
}
