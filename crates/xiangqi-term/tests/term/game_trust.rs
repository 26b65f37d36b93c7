//! A game you can trust (issue 26): a resumed game has its sides, level, engine,
//! orientation and clocks back; throwing an unfinished game away asks first; browsing
//! shows earlier positions without cutting the game; a loaded finished game is a record;
//! the clock stops while help or the analysis board is open.

use crate::tui_support;

use tui_support::*;
use xiangqi_app::config::EngineSide;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{
    Action, App, AppMode, Command, Discard, Effect, Popup, open_drill, open_puzzle, read_game,
    start_with, update,
};
use xiangqi_core::board::Color;
use xiangqi_core::clock::TimeControl;
use xiangqi_engine::service::EngineEvent;

fn engine_plays(app: &mut App, effects: &[Effect], reply: &str) -> Vec<Effect> {
    let id = started_search(effects).expect("the engine thinks");
    update(
        app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv(reply)),
            ponder: None,
        }),
    )
}

fn autosave(effects: &[Effect]) -> Option<&str> {
    effects.iter().rev().find_map(|effect| match effect {
        Effect::Autosave(text) => Some(text.as_str()),
        _ => None,
    })
}

#[test]
fn a_resumed_game_has_its_sides_level_clocks_and_orientation_back() {
    // Black against the engine at level 5, 5+3 on the clocks; three moves played.
    let (mut app, time) = timed_app(|settings| {
        settings.engine_side = EngineSide::Red;
        settings.level = 5;
        settings.time = Some("5+3".parse::<TimeControl>().unwrap());
    });
    let effects = update(&mut app, Action::Command(Command::NewGame));
    engine_plays(&mut app, &effects, "h2e2");
    time.advance(seconds(20));
    let effects = type_line(&mut app, "h9g7");
    time.advance(seconds(4));
    engine_plays(&mut app, &effects, "h0g2");
    time.advance(seconds(10));
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"]);
    let black_left = remaining(&app, Color::Black).unwrap();
    assert_eq!(black_left, seconds(300 - 20 + 3 - 10));
    // Quit on Black's (your) turn.
    let effects = update(&mut app, ctrl('c'));
    let saved = autosave(&effects).expect("saved on quitting").to_owned();
    assert!(saved.contains("[EnginePlays \"red\"]"), "{saved}");
    assert!(saved.contains("[Black \"You\"]"), "{saved}");
    assert!(saved.contains("[Red \"xiangqi-tui level 5\"]"), "{saved}");
    assert!(saved.contains("[Event \"xiangqi-tui game\"]"), "{saved}");
    assert!(saved.contains("[Date \""), "{saved}");

    // The next start has the defaults: Red against the engine, full strength, no clock.
    let (mut app, time) = timed_app(|_| {});
    time.advance(seconds(1000));
    assert_eq!(app.config.settings.engine_side, EngineSide::Black);
    start_with(&mut app, Some(read_game(&saved).unwrap()), |_| {});
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("you play Black, level 5, 5+3"), "{screen}");
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(
        started_search(&effects).is_none(),
        "the engine does not move for you: {effects:?}"
    );
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(app.config.settings.engine_side, EngineSide::Red);
    assert_eq!(app.config.settings.level, 5);
    assert!(app.flipped, "Black at the bottom");
    assert!(app.people_may_move());
    assert_eq!(remaining(&app, Color::Black), Some(black_left));
    assert_eq!(app.clock.running(), Some(Color::Black), "your clock runs");
    time.advance(seconds(5));
    assert_eq!(remaining(&app, Color::Black), Some(black_left - seconds(5)));
    assert!(app.notice.as_ref().unwrap().text.contains("you play Black"));
    // Your move, then the engine (Red) answers, with its clock.
    let effects = type_line(&mut app, "b9c7");
    let request = effects
        .iter()
        .find_map(|effect| match effect {
            Effect::StartSearch(request) => Some(request),
            _ => None,
        })
        .expect("the engine answers");
    assert_eq!(request.position.side_to_move(), Color::Red);
    assert_eq!(request.level, 5);
    assert!(request.clock.is_some());
}

#[test]
fn discarding_an_unfinished_game_asks_first() {
    let mut app = two_player_app();
    type_line(&mut app, "h2e2");
    update(&mut app, ctrl('n'));
    assert!(matches!(
        app.popups.last(),
        Some(Popup::ConfirmDiscard(Discard::NewGame))
    ));
    // Any other key keeps the game.
    assert!(update(&mut app, key(KeyCode::Char('n'))).is_empty());
    assert_eq!(played(&app), ["h2e2"]);
    assert!(app.popups.is_empty());
    // Loading over it asks too; y goes on.
    type_line(&mut app, ":fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1");
    assert!(matches!(
        app.popups.last(),
        Some(Popup::ConfirmDiscard(Discard::Load(_)))
    ));
    assert_eq!(played(&app), ["h2e2"]);
    update(&mut app, key(KeyCode::Char('y')));
    assert!(played(&app).is_empty());
    assert_eq!(
        app.position().to_fen(),
        "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1"
    );
    // Nothing to lose: no question.
    update(&mut app, ctrl('n'));
    assert!(app.popups.is_empty());
    type_line(&mut app, "h2e2");
    update(&mut app, ctrl('n'));
    assert_eq!(
        update(&mut app, key(KeyCode::Char('y'))),
        [Effect::RemoveAutosave]
    );
    assert!(played(&app).is_empty());
}

#[test]
fn browsing_shows_earlier_positions_and_keeps_the_game_whole() {
    let mut app = two_player_app();
    for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        type_line(&mut app, text);
    }
    let whole = played(&app);
    for _ in 0..3 {
        assert!(update(&mut app, key(KeyCode::Char('['))).is_empty());
    }
    assert_eq!(app.shown_ply(), 1);
    assert_eq!(played(&app), whole, "the game stays whole");
    assert_eq!(app.shown_position().key(), app.game.position_at(1).key());
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("ply 1/4 shown"), "{screen}");
    update(&mut app, key(KeyCode::Char(']')));
    assert_eq!(app.shown_ply(), 2);
    update(&mut app, key(KeyCode::Home));
    assert_eq!(app.shown_ply(), 0);
    update(&mut app, key(KeyCode::End));
    assert!(app.browse.is_none());
    assert_eq!(app.shown_position(), app.position());
    // A click in the move list shows the position, nothing is cut.
    update(&mut app, Action::Command(Command::GoToPly(2)));
    assert_eq!(app.shown_ply(), 2);
    assert_eq!(played(&app), whole);
    assert!(!app.game.can_redo());
    // From the board too (Tab to it), with the same keys.
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Char(']')));
    assert_eq!(app.shown_ply(), 3);
    update(&mut app, key(KeyCode::Char('[')));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::BackTab));
    // A move from the earlier position asks whether to cut the game there.
    type_line(&mut app, "b0c2");
    assert!(matches!(
        app.popups.last(),
        Some(Popup::ConfirmDiscard(Discard::Cut { ply: 2, .. }))
    ));
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(played(&app), whole, "declined: nothing cut");
    assert_eq!(app.shown_ply(), 2);
    type_line(&mut app, "b0c2");
    let effects = update(&mut app, key(KeyCode::Char('y')));
    assert!(matches!(effects.as_slice(), [Effect::Autosave(_)]));
    assert_eq!(played(&app), ["h2e2", "h9g7", "b0c2"]);
    assert!(app.browse.is_none());
}

#[test]
fn browsing_back_while_the_engine_thinks_keeps_the_ply_shown() {
    let mut app = app_against_engine();
    let effects = type_line(&mut app, "h2e2");
    update(&mut app, key(KeyCode::Char('[')));
    assert_eq!(app.shown_ply(), 0);
    // The engine's move extends the game; the position shown stays.
    engine_plays(&mut app, &effects, "h9g7");
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert_eq!(app.shown_ply(), 0);
    // In the position shown it is your move (Red): it would cut the game.
    type_line(&mut app, "b0c2");
    assert!(matches!(
        app.popups.last(),
        Some(Popup::ConfirmDiscard(Discard::Cut { ply: 0, .. }))
    ));
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char(']')));
    // Black's move there is the engine's.
    type_line(&mut app, "b9c7");
    assert!(
        app.input.error().unwrap().contains("engine's move"),
        "{:?}",
        app.input.error()
    );
}

#[test]
fn a_loaded_resigned_game_shows_its_result_and_continues_only_when_asked() {
    let mut app = two_player_app();
    let pgn = "[Event \"club\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
               1. h2e2 h9g7 2. h0g2 i9h9 0-1\n";
    type_line(&mut app, &format!(":fen {}", "x")); // a bad FEN is refused, nothing asked
    assert!(app.popups.is_empty());
    app.input.clear();
    update(
        &mut app,
        Action::FileRead {
            path: "club.pgn".into(),
            result: Ok(pgn.as_bytes().to_vec()),
        },
    );
    assert!(app.game_over());
    assert!(
        app.notice
            .as_ref()
            .unwrap()
            .text
            .contains("Black wins by resignation"),
        "{:?}",
        app.notice
    );
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("Black wins by resignation"), "{screen}");
    // A record: no move is played on it.
    type_line(&mut app, "b0c2");
    assert!(app.input.error().unwrap().contains(":continue"));
    app.input.clear();
    update(&mut app, key(KeyCode::Char('[')));
    update(&mut app, key(KeyCode::Char('[')));
    type_line(&mut app, ":continue");
    assert!(!app.game_over());
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    type_line(&mut app, "b0c2");
    assert_eq!(played(&app), ["h2e2", "h9g7", "b0c2"]);
}

#[test]
fn the_clock_stops_while_help_or_the_analysis_board_is_open() {
    let (mut app, time) = timed_app(|settings| {
        settings.engine_side = EngineSide::None;
        settings.time = Some("5+0".parse::<TimeControl>().unwrap());
    });
    type_line(&mut app, "h2e2");
    time.advance(seconds(10));
    assert_eq!(remaining(&app, Color::Black), Some(seconds(290)));
    update(&mut app, Action::Command(Command::Help));
    assert!(!app.clock_ticking());
    time.advance(seconds(60));
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(remaining(&app, Color::Black), Some(seconds(290)));
    assert_eq!(app.clock.running(), Some(Color::Black));
    time.advance(seconds(10));
    assert_eq!(remaining(&app, Color::Black), Some(seconds(280)));
    // The analysis board entered from the game holds the clock too.
    update(&mut app, ctrl('a'));
    time.advance(seconds(100));
    assert_eq!(remaining(&app, Color::Black), Some(seconds(280)));
    update(&mut app, ctrl('a'));
    time.advance(seconds(1));
    assert_eq!(remaining(&app, Color::Black), Some(seconds(279)));
}

/// The unfinished game of the autosave: two people, `h2e2` played.
fn unfinished() -> xiangqi_app::game::GameState {
    let mut saved = xiangqi_app::game::GameState::new(xiangqi_core::board::Position::startpos());
    saved.play(mv("h2e2"));
    saved
}

fn removes_the_autosave(effects: &[Effect]) -> bool {
    effects.contains(&Effect::RemoveAutosave)
}

// Issue 40, 1: `puzzles play ID` and `egtb drill KRK` with an autosave opened the resume
// question over the puzzle: it took the typed moves, and its Esc deleted the game.
#[test]
fn a_puzzle_opened_at_start_has_no_question_over_it_and_the_game_waits_behind() {
    let mut app = two_player_app();
    start_with(&mut app, Some(unfinished()), |app| {
        open_puzzle(app, "037e93e1").unwrap();
    });
    assert!(app.popups.is_empty(), "{:?}", app.popups);
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("Puzzle 037e93e1"), "{screen}");
    assert!(!screen.contains("Unfinished game"), "{screen}");
    // Esc and a typed move go to the puzzle; nothing removes the game.
    assert!(!removes_the_autosave(&update(&mut app, key(KeyCode::Esc))));
    type_line(&mut app, "g2g9");
    let AppMode::Puzzle(puzzle) = &app.mode else {
        panic!("not in the trainer: {:?}", app.mode);
    };
    assert_eq!(
        puzzle.session.ply(),
        2,
        "the move went to the puzzle, and it answered"
    );
    // Quitting from the trainer keeps the game in the autosave.
    let effects = update(&mut app, ctrl('c'));
    let saved = autosave(&effects).expect("saved on quitting");
    assert!(
        saved.contains("h2e2") || saved.contains("炮二平五"),
        "{saved}"
    );
    assert!(!removes_the_autosave(&effects));
}

#[test]
fn leaving_a_puzzle_opened_at_start_gives_the_game_back_without_a_question() {
    let mut app = two_player_app();
    start_with(&mut app, Some(unfinished()), |app| {
        open_puzzle(app, "037e93e1").unwrap();
    });
    let effects = update(&mut app, ctrl('x'));
    assert!(!removes_the_autosave(&effects));
    assert!(matches!(app.mode, AppMode::Play));
    assert!(app.popups.is_empty(), "{:?}", app.popups);
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn a_drill_opened_at_start_has_no_question_over_it() {
    use xiangqi_app::train::lessons::{self, Start};
    use xiangqi_engine::egtb::Silent;
    let dir = tempfile::tempdir().unwrap();
    let krk = lessons::lesson(dir.path(), "KRK".parse().unwrap(), Start::Longest, &Silent);
    let mut app = two_player_app();
    start_with(&mut app, Some(unfinished()), |app| {
        open_drill(app, Box::new(krk.unwrap()), Start::Longest);
    });
    assert!(matches!(app.mode, AppMode::Drill(_)));
    assert!(app.popups.is_empty(), "{:?}", app.popups);
    assert!(!removes_the_autosave(&update(&mut app, key(KeyCode::Esc))));
    assert!(!removes_the_autosave(&update(&mut app, ctrl('x'))));
    assert!(matches!(app.mode, AppMode::Play));
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn no_key_at_the_resume_question_throws_the_game_away_without_ctrl_n_s_question() {
    // Esc plays on, as Enter does.
    let mut app = two_player_app();
    start_with(&mut app, Some(unfinished()), |_| {});
    assert!(matches!(app.popups.last(), Some(Popup::Resume)));
    let screen = screen_text(&render(&app, 80, 24));
    assert!(
        screen.contains("Enter: play on      n: start a new game"),
        "{screen}"
    );
    assert!(!removes_the_autosave(&update(&mut app, key(KeyCode::Esc))));
    assert!(app.popups.is_empty());
    assert_eq!(played(&app), ["h2e2"]);

    // Quitting at the question keeps the game.
    let mut app = two_player_app();
    start_with(&mut app, Some(unfinished()), |_| {});
    let effects = update(&mut app, ctrl('c'));
    assert!(!removes_the_autosave(&effects), "{effects:?}");
    assert!(autosave(&effects).is_some(), "{effects:?}");

    // Other keys do nothing there; `n` asks Ctrl-N's question; only its yes drops.
    let mut app = two_player_app();
    start_with(&mut app, Some(unfinished()), |_| {});
    for c in "h9g7".chars() {
        assert!(update(&mut app, key(KeyCode::Char(c))).is_empty());
    }
    assert!(matches!(app.popups.last(), Some(Popup::Resume)));
    update(&mut app, key(KeyCode::Char('n')));
    assert!(matches!(
        app.popups.last(),
        Some(Popup::ConfirmDiscard(Discard::NewGame))
    ));
    assert!(!removes_the_autosave(&update(&mut app, key(KeyCode::Esc))));
    assert_eq!(played(&app), ["h2e2"]);
    update(&mut app, ctrl('n'));
    assert!(matches!(
        app.popups.last(),
        Some(Popup::ConfirmDiscard(Discard::NewGame))
    ));
    assert!(removes_the_autosave(&update(
        &mut app,
        key(KeyCode::Char('y'))
    )));
    assert!(played(&app).is_empty());
}
