//! The app's update logic driven by synthetic keys and clicks, with no terminal: focus,
//! the board cursor, the mouse, popups (help, candidates, prompts, lists), `:` commands,
//! loading and saving, resuming, profiles, resizing.

use crate::tui_support;

use tui_support::*;
use xiangqi_app::config::EngineSide;
use xiangqi_app::key::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use xiangqi_app::{
    Action, App, Command, Effect, Focus, Popup, PromptPurpose, ScreenLayout, start_with, update,
};
use xiangqi_core::board::{Position, Square};

const TWO_CANNONS: &str =
    "6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79";

/// Two players on `TWO_CANNONS`, loaded as a person does (F3, the FEN, Enter).
fn two_cannons() -> App {
    let mut app = two_player_app();
    update(&mut app, Action::Command(Command::Load));
    for c in TWO_CANNONS.chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.game.start().to_fen(), TWO_CANNONS);
    app
}

#[test]
fn an_ambiguous_move_offers_the_candidates() {
    let mut app = two_cannons();
    type_line(&mut app, "炮八平七");
    let Some(Popup::Candidates { candidates, .. }) = app.popups.last() else {
        panic!("no chooser: {:?}", app.popups);
    };
    let shown: Vec<_> = candidates.iter().map(|c| c.chinese.as_str()).collect();
    assert_eq!(shown, ["前炮平七", "后炮平七"]);
    // Down, then Enter: the second candidate.
    update(&mut app, key(KeyCode::Down));
    update(&mut app, key(KeyCode::Enter));
    assert!(app.popups.is_empty());
    assert_eq!(played(&app), ["b5c5"]);
    // Esc leaves the text for editing; a digit chooses directly.
    update(&mut app, ctrl('z'));
    type_line(&mut app, "炮八平七");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.input.text(), "炮八平七");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, key(KeyCode::Char('1')));
    assert_eq!(played(&app), ["b7c7"]);
}

#[test]
fn focus_cycles_and_the_board_cursor_plays_moves() {
    let mut app = two_player_app();
    assert_eq!(app.focus, Focus::Input);
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.focus, Focus::Board);
    // The cursor starts on e3; h2 is three left... from e3: left x3, down x1.
    for code in [
        KeyCode::Char('h'),
        KeyCode::Left,
        KeyCode::Char('h'),
        KeyCode::Char('j'),
    ] {
        update(&mut app, key(code));
    }
    assert_eq!(app.cursor, Square::new(1, 2));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.selected, Some(Square::new(1, 2)));
    for _ in 0..3 {
        update(&mut app, key(KeyCode::Char('l')));
    }
    update(&mut app, key(KeyCode::Char(' ')));
    assert_eq!(played(&app), ["b2e2"]);
    // Typing from the board goes to the input line.
    update(&mut app, key(KeyCode::Char('H')));
    assert_eq!((app.focus, app.input.text()), (Focus::Input, "H"));
    update(&mut app, key(KeyCode::BackTab));
    assert_eq!(app.focus, Focus::Log);
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.focus, Focus::Input);
}

#[test]
fn with_the_board_flipped_the_arrows_follow_the_screen() {
    let mut app = two_player_app();
    update(&mut app, ctrl('f'));
    assert!(app.flipped);
    let start = app.cursor;
    update(&mut app, key(KeyCode::Up));
    assert_eq!(app.cursor, Square::new(start.x(), start.y() - 1));
    update(&mut app, key(KeyCode::Left));
    assert_eq!(app.cursor, Square::new(start.x() + 1, start.y() - 1));
}

#[test]
fn enter_on_an_empty_line_picks_up_and_puts_down_at_the_cursor() {
    let mut app = two_player_app();
    // e3 is a soldier: pick it, move the cursor up, put it down.
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.selected, Some(Square::new(4, 3)));
    update(&mut app, key(KeyCode::Up));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(played(&app), ["e3e4"]);
    // An illegal drop says so and keeps the piece.
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.selected, None, "e4 is Red's now, not Black's to move");
    assert!(app.notice.as_ref().unwrap().alert);
}

#[test]
fn a_click_on_the_board_picks_and_puts() {
    let mut app = two_player_app();
    let layout = ScreenLayout::new(80, 24).unwrap();
    let (left, top) = layout.board_origin;
    let click = |column: u16, row: u16| {
        Action::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    // h2 is display column 7, row 7; e2 column 4.
    update(&mut app, click(left + 28, top + 15));
    assert_eq!(app.selected, Some(Square::new(7, 2)));
    assert_eq!(app.focus, Focus::Board);
    update(&mut app, click(left + 17, top + 15));
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn help_opens_with_f1_or_question_mark_on_an_empty_line() {
    let mut app = two_player_app();
    update(&mut app, key(KeyCode::Char('?')));
    assert!(matches!(app.popups.last(), Some(Popup::Help { .. })));
    update(&mut app, key(KeyCode::Esc));
    assert!(app.popups.is_empty());
    update(&mut app, key(KeyCode::F(1)));
    update(&mut app, key(KeyCode::F(1)));
    assert!(app.popups.is_empty(), "F1 toggles");
    // With text on the line, ? is text (WXF uses no ?, but annotations do).
    update(&mut app, key(KeyCode::Char('C')));
    update(&mut app, key(KeyCode::Char('?')));
    assert_eq!(app.input.text(), "C?");
    assert!(app.popups.is_empty());
    // Ctrl-C quits even from a popup.
    update(&mut app, key(KeyCode::F(1)));
    assert_eq!(
        update(&mut app, ctrl('c')),
        [Effect::RemoveAutosave, Effect::Quit]
    );
}

#[test]
fn load_and_save_go_through_the_driver() {
    let mut app = two_player_app();
    type_line(&mut app, "h2e2");
    update(&mut app, key(KeyCode::F(2)));
    assert!(matches!(
        app.popups.last(),
        Some(Popup::Prompt {
            purpose: PromptPurpose::Save,
            ..
        })
    ));
    update(&mut app, ctrl('u'));
    for c in "/tmp/x.pgn".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    let [Effect::WriteFile { path, contents }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(path.to_str(), Some("/tmp/x.pgn"));
    assert!(contents.contains("1. 炮二平五"), "{contents}");
    // Loading a file: the driver reads it and hands the bytes back.
    update(&mut app, ctrl('o'));
    for c in "game.pgn".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    // Over the unfinished game it asks first; y reads the file.
    assert!(update(&mut app, key(KeyCode::Enter)).is_empty());
    assert!(matches!(app.popups.last(), Some(Popup::ConfirmDiscard(_))));
    let effects = update(&mut app, key(KeyCode::Char('y')));
    assert_eq!(effects, [Effect::ReadFile("game.pgn".into())]);
    update(
        &mut app,
        Action::FileRead {
            path: "game.pgn".into(),
            result: Ok("1. 炮二平五 马８进７ 2. 马二进三 *".as_bytes().to_vec()),
        },
    );
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"]);
    update(
        &mut app,
        Action::FileRead {
            path: "bad.pgn".into(),
            result: Ok(b"1. h2e2 h2e2 *".to_vec()),
        },
    );
    let Some(Popup::Message { text, .. }) = app.popups.last() else {
        panic!("{:?}", app.popups);
    };
    assert!(text.starts_with("bad.pgn: line 1:9: move 2"), "{text}");
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"], "the game is kept");
}

#[test]
fn colon_commands_switch_theme_mode_and_position() {
    let mut app = two_player_app();
    type_line(&mut app, ":theme dark");
    assert_eq!(app.theme.name, "dark");
    assert_eq!(app.input.text(), "");
    type_line(&mut app, ":theme nope");
    assert!(app.input.error().unwrap().contains("no theme 'nope'"));
    update(&mut app, ctrl('u'));
    type_line(&mut app, ":fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1");
    assert_eq!(
        app.position().side_to_move(),
        xiangqi_core::board::Color::Black
    );
    let effects = type_line(&mut app, ":mode both");
    assert!(started_search(&effects).is_some(), "engines start");
    assert_eq!(app.config.settings.engine_side, EngineSide::Both);
    type_line(&mut app, ":profile study");
    assert!(app.input.error().unwrap().contains("no profile 'study'"));
}

#[test]
fn a_theme_chosen_from_the_list_applies_at_once() {
    let mut app = two_player_app();
    update(&mut app, key(KeyCode::F(5)));
    let Some(Popup::Choice {
        items, selected, ..
    }) = app.popups.last()
    else {
        panic!("{:?}", app.popups);
    };
    assert_eq!(
        items[*selected].label.split_whitespace().next(),
        Some("classic")
    );
    update(&mut app, key(KeyCode::Char('4')));
    assert_eq!(app.theme.name, "mono");
    assert!(app.popups.is_empty());
}

#[test]
fn an_unfinished_game_is_offered_at_start() {
    let mut saved = xiangqi_app::game::GameState::new(Position::startpos());
    saved.play(mv("h2e2"));
    // The game is back at once; the engine waits for the popup to close.
    let mut app = app_against_engine();
    start_with(&mut app, Some(saved.clone()), |_| {});
    assert_eq!(played(&app), ["h2e2"]);
    let effects = update(&mut app, key(KeyCode::Enter));
    // It is the engine's move, so it starts thinking.
    assert!(started_search(&effects).is_some());
    assert_eq!(played(&app), ["h2e2"]);

    // Esc plays on too: it never throws the game away (`n` asks first).
    let mut app = app_against_engine();
    start_with(&mut app, Some(saved), |_| {});
    let effects = update(&mut app, key(KeyCode::Esc));
    assert!(started_search(&effects).is_some());
    assert!(!effects.contains(&Effect::RemoveAutosave));
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn a_resize_is_remembered_for_mouse_hits() {
    let mut app = two_player_app();
    update(&mut app, Action::Resize(60, 20));
    assert_eq!(app.size, (60, 20));
    // Red's chariot on a0, where the 80x24 layout draws it.
    let (left, top) = ScreenLayout::new(80, 24).unwrap().board_origin;
    let click = Action::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: left,
        row: top + 19,
        modifiers: KeyModifiers::NONE,
    });
    // Too small: nothing is drawn, so clicks land nowhere.
    assert!(update(&mut app, click.clone()).is_empty());
    assert_eq!(app.selected, None);
    update(&mut app, Action::Resize(80, 24));
    update(&mut app, click);
    assert_eq!(app.selected, Some(Square::new(0, 0)));
}

#[test]
fn profiles_switch_while_running() {
    use xiangqi_app::config::{Config, ConfigLocation, Glyphs, Overrides};
    let path = std::path::Path::new(crate::TOP).join("tests/data/configs/valid/profiles.toml");
    let location = ConfigLocation {
        path,
        explicit: true,
    };
    let config = Config::load(Some(location), None, &Overrides::default()).unwrap();
    let mut app = App::new(config, colour_terminal(), true);
    assert_eq!(app.config.profile.as_deref(), Some("study"));
    assert!(app.config.settings.step);
    type_line(&mut app, ":profile quick");
    assert_eq!(app.config.settings.glyphs, Glyphs::Ascii);
    assert_eq!(app.config.settings.movetime_ms, Some(200));
    assert!(!app.config.settings.step);
    // From the chooser: the first line is "no profile", the file's top level.
    update(&mut app, ctrl('p'));
    let Some(Popup::Choice { items, .. }) = app.popups.last() else {
        panic!("{:?}", app.popups);
    };
    let labels: Vec<_> = items.iter().map(|item| item.label.as_str()).collect();
    assert_eq!(labels[1..], ["quick", "study"]);
    update(&mut app, key(KeyCode::Char('1')));
    assert_eq!(app.config.profile, None);
    assert_eq!(app.config.settings.depth, Some(8));
    assert_eq!(app.theme.name, "light");
}

#[test]
fn the_prompts_example_is_a_move_of_the_side_to_move() {
    use xiangqi_app::prompt::prompt_hint;
    let mut app = two_player_app();
    assert_eq!(
        prompt_hint(&app),
        "type a move (炮二平五, C2.5, h2e2) and Enter | F1 help"
    );
    type_line(&mut app, "h2e2");
    // Black's move, in Black's own numbers.
    assert_eq!(
        prompt_hint(&app),
        "type a move (马8进7, H8+7, h9g7) and Enter | F1 help"
    );
    app.config.settings.glyphs = xiangqi_app::config::Glyphs::Ascii;
    assert_eq!(
        prompt_hint(&app),
        "type a move (H8+7, h9g7) and Enter | F1 help"
    );
    // A position where no opening move is legal: its first quiet move.
    let app = two_cannons();
    let hint = prompt_hint(&app);
    let mv = xiangqi_app::prompt::example_move(&app, app.position()).unwrap();
    assert!(app.position().is_legal(mv), "{hint}");
    assert!(hint.contains(&mv.iccs()), "{hint}");
}
