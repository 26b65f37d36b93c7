//! Tests of the remote session: lobby input, room input, what a room refuses.
use xiangqi_app::config::Config;
use xiangqi_app::game::{GameState, RoomKind};
use xiangqi_core::board::Position;

use xiangqi_app::keymap::Place;
use xiangqi_app::popup::Popup;

use super::*;

fn room(my_side: Option<Color>, game: GameState) -> RoomView {
    RoomView {
        name: "k7".into(),
        kind: RoomKind::Human,
        my_side,
        red: "ann".into(),
        black: "bob".into(),
        spectators: 1,
        game,
        ended: None,
        pending: None,
        chat: vec![(0, "ann: hi".into())],
        clock: xiangqi_core::clock::GameClock::new(None, None),
        time: std::sync::Arc::new(xiangqi_core::clock::MonotonicTime::default()),
        rated: true,
        event: None,
    }
}

fn session() -> RemoteSession {
    session_on(&xiangqi_app::jobs::Jobs::new(1, 16, 8).unwrap())
}

/// A session whose work goes to `jobs`.
fn session_on(jobs: &xiangqi_app::jobs::Jobs) -> RemoteSession {
    let config = Config::load(None, None, &Default::default()).unwrap();
    let work = RemoteWork::new(jobs.clone(), "127.0.0.1");
    RemoteSession::new(config, "xterm-256color", 100, 30, work).unwrap()
}

#[test]
fn a_typed_lobby_command_becomes_an_intent() {
    let mut session = session();
    session.show_lobby(Vec::new());
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("new human"), "{frame}");
    assert_eq!(
        session.feed(b"new human k7\r"),
        [Intent::Lobby(LobbyCommand::NewHuman(Some("k7".into())))]
    );
    // A failed command leaves its error above an empty line: the next one starts
    // afresh.
    assert!(session.feed(b"join bad!name\r").is_empty());
    assert_eq!(session.lobby_input().text(), "");
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("join bad!name: bad room name"), "{frame}");
    assert_eq!(
        session.feed(b"rooms\r"),
        [Intent::Lobby(LobbyCommand::Rooms)]
    );
    // `help` lists the commands, locally.
    assert!(session.feed(b"help\r").is_empty());
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("lobby commands"), "{frame}");
    assert!(frame.contains("guest's"), "{frame}");
}

#[test]
fn a_player_moves_only_on_their_turn_and_spectators_never() {
    let mut session = session();
    session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    assert_eq!(
        session.feed("炮二平五\r".as_bytes()),
        [Intent::Play(Move::parse_coords("h2e2").unwrap())]
    );
    // The room has not played it yet: the next move is still Red's as the room says.
    let mut played = GameState::new(Position::startpos());
    played.play(Move::parse_coords("h2e2").unwrap());
    session.show_room(room(Some(Color::Red), played.clone()));
    assert!(session.feed(b"h9g7\r").is_empty());
    assert_eq!(session.app().game.ply(), 1);
    let mut watcher = super::tests::session();
    watcher.show_room(room(None, played));
    assert!(watcher.feed(b"h9g7\r").is_empty());
    assert_eq!(watcher.app().game.ply(), 1);
    assert_eq!(
        watcher.app().notice.as_ref().unwrap().text,
        "spectators watch: they do not move"
    );
}

#[test]
fn resign_needs_a_confirmation_and_room_commands_become_intents() {
    let mut session = session();
    session.show_room(room(
        Some(Color::Black),
        GameState::new(Position::startpos()),
    ));
    assert!(session.feed(b"\x12").is_empty());
    assert!(session.feed(b"n").is_empty());
    assert!(session.feed(b"\x12").is_empty());
    assert_eq!(session.feed(b"y"), [Intent::Resign]);
    assert_eq!(session.feed(b":draw\r"), [Intent::Draw]);
    assert_eq!(session.feed(b":undo\r"), [Intent::Undo]);
    assert_eq!(
        session.feed(b":say good game\r"),
        [Intent::Say("good game".into())]
    );
    assert_eq!(session.feed(b"\x03"), [Intent::Quit]);
    assert!(session.feed(b":load x.pgn\r").is_empty());
    // Chat lines reach the log once each.
    assert_eq!(session.app().log.len(), 1);
    session.show_room(room(
        Some(Color::Black),
        GameState::new(Position::startpos()),
    ));
    assert_eq!(session.app().log.len(), 1);
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("room"), "{frame}");
}

#[test]
fn the_local_programs_engine_and_clock_commands_are_refused_in_a_room() {
    let mut session = session();
    session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    for command in [":time 10+5", ":engine x", ":level 3", ":analyze", ":hint"] {
        assert!(session.feed(format!("{command}\r").as_bytes()).is_empty());
        let name = command[1..].split(' ').next().unwrap();
        assert_eq!(
            session.app().input.error(),
            Some(format!(":{name} is not available in a shared room").as_str())
        );
        session.feed(b"\x1b");
        session.feed(b"\x15");
    }
    // Ctrl-A (analysis) and Ctrl-H (hint) are refused the same way.
    assert!(session.feed(b"\x01").is_empty());
    assert!(!session.app().analysing());
    assert_eq!(session.app().config.settings.time, None);
    assert_eq!(session.app().config.settings.level, 20);
}

#[test]
fn every_key_and_command_a_room_refuses_says_so() {
    use xiangqi_app::commands::COMMANDS;
    use xiangqi_app::keymap::{Pane, bindings, refusal};
    for (_, binding) in bindings().filter(|(_, b)| !b.places.contains(Place::Room)) {
        for bound in binding.binds {
            let mut session = session();
            session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
            match bound.pane {
                Pane::Any | Pane::Input => {}
                Pane::Board => session.app.focus = Focus::Board,
                Pane::Log => session.app.focus = Focus::Log,
                Pane::Explorer => {
                    session.app.focus = Focus::Board;
                    session.app.study.shown = true;
                }
                Pane::Compare => session.app.compare.shown = true,
                // The lobby's own keys are read in the lobby only.
                Pane::Lobby => continue,
            }
            let before = (session.app.focus, session.app.flipped);
            let intents = session.handle(Action::Key(bound.key.event()));
            let name = bound.key.name();
            assert!(intents.is_empty(), "{name}: {intents:?}");
            assert_eq!(
                session
                    .app
                    .notice
                    .as_ref()
                    .map(|notice| notice.text.clone()),
                Some(refusal(&name, Place::Room)),
                "{name} in {:?}",
                bound.pane
            );
            assert!(session.app.popups.is_empty(), "{name}");
            assert_eq!((session.app.focus, session.app.flipped), before, "{name}");
            assert_eq!(session.app.game.ply(), 0, "{name}");
        }
    }
    for spec in COMMANDS
        .iter()
        .filter(|spec| !spec.places.contains(Place::Room))
    {
        let mut session = session();
        session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
        let line = format!(":{} x\r", spec.name);
        assert!(session.feed(line.as_bytes()).is_empty(), "{line}");
        assert_eq!(
            session.app().input.error(),
            Some(format!(":{} is not available in a shared room", spec.name).as_str())
        );
        assert!(session.app.popups.is_empty(), "{line}");
    }
}

#[test]
fn a_room_lists_and_asks_only_what_a_room_allows() {
    let mut session = session();
    session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    // The admins' commands are listed to admins only.
    let known = ":theme :review :ruling :resign :draw :help :undo :leave :say :rematch";
    assert!(session.feed(b":nonsense\r").is_empty());
    let error = format!("unknown command ':nonsense'; commands: {known}");
    assert_eq!(session.app().input.error(), Some(error.as_str()));
    session.feed(b"\x15");
    assert_eq!(session.feed(b"\x1a"), [Intent::Undo]);
    assert!(session.feed(b":say\r").is_empty());
    assert_eq!(session.app().input.error(), Some(":say needs a text"));
    session.feed(b"\x15");
    assert_eq!(session.feed(b":leave\r"), [Intent::Leave]);
    session.feed(b"\x1bOP");
    assert!(matches!(
        session.app.popups.last(),
        Some(Popup::Help { .. })
    ));
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("ask to take back"), "{frame}");
    assert!(!frame.contains("new game"), "{frame}");
}

#[test]
fn the_end_of_a_room_game_shows_the_result_popup_and_r_asks_for_a_rematch() {
    let mut session = session();
    session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    let mut over = GameState::new(Position::startpos());
    over.end(xiangqi_core::board::rules::Outcome::flag_fall(Color::Black));
    let mut ended = room(Some(Color::Red), over);
    ended.ended = Some("Black's flag fell (1-0)".into());
    session.show_room(ended.clone());
    assert!(matches!(
        session.app.popups.last(),
        Some(Popup::GameOver { .. })
    ));
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("Red wins by time"), "{frame}");
    assert!(frame.contains(":rematch"), "{frame}");
    assert_eq!(session.feed(b"r"), [Intent::Rematch]);
    assert!(session.app.popups.is_empty());
    assert_eq!(session.feed(b":rematch\r"), [Intent::Rematch]);
    // The rematch: a new game, the colours swapped.
    session.show_room(room(
        Some(Color::Black),
        GameState::new(Position::startpos()),
    ));
    assert!(session.app.popups.is_empty());
    assert!(session.app().flipped);
}

#[test]
fn a_timed_room_shows_both_clocks_and_asks_for_frames_while_one_runs() {
    use xiangqi_core::clock::{GameClock, ManualTime};
    let mut session = session();
    let time = ManualTime::default();
    let control = Some("1+0".parse().unwrap());
    let mut clock = GameClock::new(control, control);
    let mut view = room(Some(Color::Red), GameState::new(Position::startpos()));
    view.time = std::sync::Arc::new(time.clone());
    view.clock = clock.clone();
    session.show_room(view.clone());
    assert_eq!(
        session.clock_refresh(),
        None,
        "no clock runs before Red's move"
    );
    clock.moved(Color::Red, std::time::Duration::ZERO).unwrap();
    view.clock = clock;
    session.show_room(view);
    time.advance(std::time::Duration::from_millis(2_500));
    // 57.5 s left: the reading changes in half a second.
    assert_eq!(
        session.clock_refresh(),
        Some(std::time::Duration::from_millis(501))
    );
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(frame.contains("R 1:00"), "{frame}");
    assert!(frame.contains(">B 0:57"), "{frame}");
}

#[test]
fn an_admins_command_in_a_room_goes_to_the_server_with_its_argument() {
    let mut session = session();
    session.show_room(room(None, GameState::new(Position::startpos())));
    assert_eq!(
        session.feed(b":ban bob spamming the chat\r"),
        [Intent::Moderate(Moderation::Ban {
            target: "bob".into(),
            reason: "spamming the chat".into()
        })]
    );
    assert_eq!(
        session.feed(b":close r1\r"),
        [Intent::Moderate(Moderation::Close("r1".into()))]
    );
    assert!(session.feed(b":kick\r").is_empty());
    assert_eq!(session.app().input.error(), Some(":kick needs an argument"));
    session.feed(b"\x15");
    assert!(session.feed(b":kick a b\r").is_empty());
    assert_eq!(
        session
            .app()
            .notice
            .as_ref()
            .map(|notice| notice.text.as_str()),
        Some("usage: kick NAME")
    );
    // In the lobby, with or without the colon.
    session.show_lobby(Vec::new());
    assert_eq!(
        session.feed(b"unban 203.0.113.9\r"),
        [Intent::Moderate(Moderation::Unban("203.0.113.9".into()))]
    );
    assert_eq!(
        session.feed(b":kick bob\r"),
        [Intent::Moderate(Moderation::Kick("bob".into()))]
    );
}

#[test]
fn a_new_room_starts_clean_and_a_line_typed_as_the_game_ends_is_sent() {
    let mut session = session();
    session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    // A chat line being typed when the game ends: its Enter sends it, past the popup.
    session.feed(b":say gg");
    let mut over = GameState::new(Position::startpos());
    over.end(xiangqi_core::board::rules::Outcome::flag_fall(Color::Red));
    session.show_room(room(Some(Color::Red), over));
    assert!(matches!(
        session.app.popups.last(),
        Some(Popup::GameOver { .. })
    ));
    assert_eq!(session.feed(b"\r"), [Intent::Say("gg".into())]);
    // The result popup of one room never follows the player into the next.
    let mut session = self::session();
    session.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    let mut over = GameState::new(Position::startpos());
    over.end(xiangqi_core::board::rules::Outcome::flag_fall(Color::Red));
    session.show_room(room(Some(Color::Red), over));
    assert!(!session.app.popups.is_empty());
    session.show_lobby(Vec::new());
    let mut next = room(Some(Color::Black), GameState::new(Position::startpos()));
    next.name = "k9".into();
    session.show_room(next);
    assert!(session.app.popups.is_empty());
}

#[test]
fn review_runs_on_an_archived_game_and_not_in_a_live_room() {
    let mut game = GameState::new(Position::startpos());
    for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        game.play(Move::parse_coords(text).unwrap());
    }
    let mut session = session();
    // A live room: its game is its players' to think about.
    session.show_room(room(Some(Color::Red), game.clone()));
    assert!(session.feed(b":review\r").is_empty());
    assert_eq!(
        session.app().notice.as_ref().map(|n| n.text.as_str()),
        Some(":review is for finished games: open one from the archive (pgn ID)")
    );
    assert!(session.app().review.running.is_none());
    session.feed(b"\x1b");
    session.feed(b"\x15");
    // An archived game (`pgn ID` in the lobby) is shown as a room named `#ID`.
    let mut archived = room(None, game);
    archived.name = "#1".into();
    session.show_room(archived);
    assert!(session.feed(b":review\r").is_empty());
    assert!(
        session.clock_refresh().is_some(),
        "a running review is polled"
    );
    let started = std::time::Instant::now();
    while session.app().review.done.is_none() {
        assert!(
            started.elapsed().as_secs() < 120,
            "the review never finished"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(session.poll_work().unwrap_or_default().is_empty());
        session.render().unwrap();
    }
    let done = session.app().review.done.as_ref().unwrap();
    assert_eq!(done.review.moves.len(), 4);
    assert!(session.app().review.running.is_none());
    // n and N go to the marked moves (or say there is none): never refused, never typed.
    for key in [&b"n"[..], b"N"] {
        session.feed(key);
        let notice = session.app().notice.as_ref().map(|n| n.text.clone());
        assert!(session.app().input.is_empty(), "{notice:?}");
        assert!(
            !notice.as_deref().unwrap_or("").contains("not available"),
            "{notice:?}"
        );
    }
}

// Issue 40: `pgn ID` said "step with the arrow keys", but in the archived game the
// arrows moved nothing and Right was refused as in a shared room.
#[test]
fn the_arrows_step_through_an_archived_game_and_not_a_live_room() {
    let mut game = GameState::new(Position::startpos());
    for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        game.play(Move::parse_coords(text).unwrap());
    }
    let mut session = session();
    let mut archived = room(None, game.clone());
    archived.name = "#1".into();
    session.show_room(archived);
    assert!(session.app().popups.is_empty());
    let mut shown = Vec::new();
    for arrow in [
        &b"\x1b[D"[..],
        b"\x1b[A",
        b"\x1b[D",
        b"\x1b[C",
        b"\x1b[B",
        b"\x1b[B",
    ] {
        assert!(session.feed(arrow).is_empty());
        shown.push(session.app().shown_ply());
    }
    assert_eq!(shown, [3, 2, 1, 2, 3, 4]);
    // From the board pane too.
    session.feed(b"\t");
    assert_eq!(session.app().focus, Focus::Board);
    session.feed(b"\x1b[D");
    assert_eq!(session.app().shown_ply(), 3);
    // In a live room the arrows still move the board cursor.
    let mut live = super::tests::session();
    live.show_room(room(Some(Color::Red), game));
    live.feed(b"\x1b[D");
    assert_eq!(live.app().shown_ply(), 4);
}

/// Polls the session's threads until `done` holds; the intents they gave.
fn poll_until(session: &mut RemoteSession, done: impl Fn(&RemoteSession) -> bool) -> Vec<Intent> {
    let started = std::time::Instant::now();
    let mut intents = Vec::new();
    loop {
        intents.extend(session.poll_work().unwrap_or_default());
        if done(session) && !session.work.busy() {
            intents.extend(session.poll_work().unwrap_or_default());
            return intents;
        }
        assert!(
            started.elapsed().as_secs() < 60,
            "the prover never answered"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn a_puzzle_is_solved_in_a_remote_session_and_its_attempt_goes_to_the_server() {
    let mut session = session();
    // 胡榮華 – 鄭守賢 (1982), a mate in 2: 车二进九 象7退9 炮七进九.
    let intents = session.show_puzzles(None, "037e93e1").unwrap();
    assert!(intents.is_empty());
    assert!(session.room().is_none());
    let screen = session.render().unwrap();
    assert!(String::from_utf8_lossy(&screen).contains("mate in 2"));
    // The stored line: the defence is played at once, no thread needed.
    assert!(session.feed(b"g2g9\r").is_empty());
    let intents = session.feed(b"c2c9\r");
    let intents = [intents, poll_until(&mut session, |_| true)].concat();
    let [Intent::RecordPuzzle(record)] = intents.as_slice() else {
        panic!("one attempt to keep: {intents:?}");
    };
    assert!(record.attempt.solved && record.attempt.rated);
    assert_eq!(record.attempt.puzzle, "037e93e1");
    assert!(record.player.rating > 1500.0);
    // Leaving the trainer goes back to the lobby.
    assert_eq!(session.feed(b"\x18"), [Intent::Lobby(LobbyCommand::Rooms)]);
}

#[test]
fn a_wrong_move_in_a_remote_puzzle_is_refuted_by_the_prover_on_a_thread() {
    let mut session = session();
    session.show_puzzles(None, "037e93e1").unwrap();
    // 车二进一 does not mate in 2: the prover's answer comes from the session's thread.
    assert!(session.feed(b"g2g3\r").is_empty());
    let intents = poll_until(
        &mut session,
        |s| matches!(&s.app().mode, AppMode::Puzzle(mode) if mode.session.status != xiangqi_app::train::Status::YourMove),
    );
    let [Intent::RecordPuzzle(record)] = intents.as_slice() else {
        panic!("the failed attempt is kept: {intents:?}");
    };
    assert!(!record.attempt.solved);
}

#[test]
fn a_room_lists_the_admins_commands_to_admins_only() {
    let typo = |admin: bool| {
        let mut session = session();
        session.set_admin(admin);
        session.show_room(room(None, GameState::new(Position::startpos())));
        assert!(session.feed(b":sayy hi\r").is_empty());
        session.app().input.error().unwrap_or_default().to_owned()
    };
    let guest = typo(false);
    assert!(
        guest.starts_with("unknown command ':sayy' (did you mean ':say'?); commands: "),
        "{guest}"
    );
    for admins in [":kick", ":ban", ":unban", ":close"] {
        assert!(!guest.contains(admins), "{guest}");
    }
    assert!(guest.contains(":leave"), "{guest}");
    // A spectator is not offered what only the players may ask.
    assert!(
        guest.ends_with("commands: :theme :review :ruling :help :leave :say"),
        "{guest}"
    );
    let admin = typo(true);
    assert!(admin.ends_with(":kick :ban :unban :close"), "{admin}");
}

#[test]
fn a_spectator_is_not_asked_for_a_move() {
    let mut session = session();
    session.show_room(room(None, GameState::new(Position::startpos())));
    assert_eq!(
        xiangqi_app::prompt::prompt_hint(session.app()),
        "you are watching: :say TEXT to chat, :leave for the lobby | F1 help"
    );
    let frame = String::from_utf8_lossy(&session.render().unwrap()).into_owned();
    assert!(!frame.contains("type a move"), "{frame}");
    let mut player = super::tests::session();
    player.show_room(room(Some(Color::Red), GameState::new(Position::startpos())));
    assert!(xiangqi_app::prompt::prompt_hint(player.app()).starts_with("type a move"));
}

#[test]
fn take_backs_cancel_the_prover_and_the_session_has_one_job_in_flight() {
    let jobs = xiangqi_app::jobs::Jobs::new(1, 16, 8).unwrap();
    let mut session = session_on(&jobs);
    // A mate in 4 whose wrong move f5a5 takes the prover seconds to refute.
    session.show_puzzles(None, "0103611e").unwrap();
    // A wrong move and Ctrl-Z, again and again: each take-back cancels the judging.
    for _ in 0..20 {
        assert!(session.feed(b"f5a5\r").is_empty());
        session.feed(b"\x1a");
    }
    let counts = jobs.counts();
    // Each take-back cancelled its judging, waiting or running; one job at most ran.
    assert!(counts.peak_running <= 1, "{counts:?}");
    assert_eq!(counts.cancelled, 20, "{counts:?}");
    assert_eq!(counts.waiting, 0, "{counts:?}");
    // The session ends: its last job goes with it, whether it waited or ran.
    drop(session);
    let started = std::time::Instant::now();
    while jobs.counts().running + jobs.counts().waiting > 0 {
        assert!(started.elapsed().as_secs() < 20, "{:?}", jobs.counts());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(jobs.counts().started, jobs.counts().finished);
    jobs.stop();
}

#[test]
fn a_server_review_has_one_thread_and_the_pool_share_whatever_the_play_settings() {
    let mut game = GameState::new(Position::startpos());
    game.play(Move::parse_coords("h2e2").unwrap());
    let request = xiangqi_app::review_link::ReviewRequest {
        id: 7,
        record: game.to_record(),
        limits: xiangqi_engine::review::ReviewLimits {
            limits: xiangqi_engine::engine::Limits::depth(10),
            threads: 2,
            hash_mb: 128,
        },
    };
    let served = super::jobs::server_review(request, 16);
    assert_eq!((served.limits.threads, served.limits.hash_mb), (1, 16));
}
