//! The arbiter's view on a perpetual chase (the rule book's diagram 33: Red's chariot
//! chases Black's unprotected cannon along the back rank, rule 18): the status line's
//! warning before the losing move, the result popup naming the rule and listing the
//! cycle, `:ruling` during and after the game. Snapshots at 80x24 and 120x40.

use crate::tui_support;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::game::GameState;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{App, Popup, RulingView};
use xiangqi_core::board::rules::{Outcome, WinReason};
use xiangqi_core::board::{Color, MoveKind, Position};

/// Diagram 33 after Red's first chase (h6i6), Black to move: from here Red's own move
/// makes the third occurrence, so Red is warned that it would lose.
fn chase_start() -> Position {
    let mut pos = Position::from_fen("4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w").unwrap();
    pos.make_move(mv("h6i6"));
    pos
}

/// Black's escape and Red's chase, twice round and once more but for the last chase.
const CYCLE: [&str; 7] = ["i0h0", "i6h6", "h0i0", "h6i6", "i0h0", "i6h6", "h0i0"];

fn before_the_last_chase() -> App {
    let mut app = two_player_app();
    app.game = GameState::new(chase_start());
    for m in CYCLE {
        type_line(&mut app, m);
    }
    assert_eq!(played(&app), CYCLE);
    app
}

fn chased_to_the_end() -> App {
    let mut app = before_the_last_chase();
    type_line(&mut app, "h6i6");
    app
}

fn status_line(app: &App, width: u16) -> String {
    let text = screen_text(&render(app, width, 24));
    text.lines().last().unwrap().trim_end().to_owned()
}

/// A 120-column status line: `left`, then the help hint at the right edge.
fn with_help(left: &str) -> String {
    format!("{left:<111} F1 help")
}

#[test]
fn the_chaser_is_warned_before_the_move_that_would_lose() {
    let mut app = two_player_app();
    app.config.settings.notation = xiangqi_app::config::Notation::Iccs;
    app.game = GameState::new(chase_start());
    // Black's escapes are never forbidden: no warning on Black's turns.
    type_line(&mut app, "i0h0");
    assert!(!status_line(&app, 120).contains("repeats"));
    type_line(&mut app, "i6h6");
    type_line(&mut app, "h0i0");
    // Red's chase would bring the start back a second time.
    assert_eq!(
        status_line(&app, 120),
        with_help(
            " Red to move | h6i6 repeats a perpetual chase of the cannon at i0: a third \
             repetition would lose | two players"
        )
    );
    for m in ["h6i6", "i0h0", "i6h6", "h0i0"] {
        type_line(&mut app, m);
    }
    assert_eq!(
        status_line(&app, 120),
        with_help(
            " Red to move | h6i6 repeats a perpetual chase of the cannon at i0: it would lose \
             | two players"
        )
    );
    // At 80 columns, in fewer words.
    assert_eq!(
        status_line(&app, 80),
        " Red to move | h6i6 would lose: perpetual chase of the cannon at i0"
    );
    // Another move warns nothing; the game goes on.
    type_line(&mut app, "e6e7");
    assert!(!app.game_over());
    assert!(!status_line(&app, 120).contains("repeats"));
}

#[test]
fn the_chase_ends_the_game_with_the_arbiters_ruling() {
    let app = chased_to_the_end();
    assert_eq!(
        app.game.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualChase
        })
    );
    let Some(Popup::GameOver {
        ruling: Some(view), ..
    }) = app.popups.last()
    else {
        panic!("the result popup with the ruling: {:?}", app.popups.last());
    };
    assert_eq!(view.ruling.rule.number(), "18");
    assert!(!view.pending);
    let did: Vec<(String, MoveKind, Option<String>)> = view
        .rows
        .iter()
        .map(|row| (row.number.clone(), row.kind, row.target.clone()))
        .collect();
    let row = |n: &str, kind, target: Option<&str>| (n.to_owned(), kind, target.map(str::to_owned));
    assert_eq!(
        did,
        [
            row("3...", MoveKind::Idle, None),
            row("4.", MoveKind::Chase, Some("cannon h0")),
            row("4...", MoveKind::Idle, None),
            row("5.", MoveKind::Chase, Some("cannon i0")),
        ]
    );
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "game over: Black wins by perpetual chase by the opponent (0-1, rule 18)"
    );
    // The saved game says why it ended.
    let pgn = xiangqi_app::pgn_text(&app.game, xiangqi_app::config::Notation::Iccs);
    assert!(
        pgn.contains("[Termination \"perpetual chase (rule 18)\"]"),
        "{pgn}"
    );
}

#[test]
fn ruling_shows_the_cycle_so_far_and_then_the_ruling() {
    let mut app = two_player_app();
    app.game = GameState::new(chase_start());
    type_line(&mut app, ":ruling");
    assert_eq!(
        app.input.error(),
        Some(
            "no repetition to rule on: the position has not occurred twice since the last capture"
        )
    );
    // The error keeps the line; Esc clears it.
    update_key(&mut app, KeyCode::Esc);
    for m in &CYCLE[..3] {
        type_line(&mut app, m);
    }
    // The start is back: what the arbiter would rule if the cycle went on.
    type_line(&mut app, "h6i6");
    type_line(&mut app, ":ruling");
    let Some(Popup::Ruling(view)) = app.popups.last() else {
        panic!("the arbiter's popup: {:?}", app.popups.last());
    };
    assert!(view.pending);
    assert_eq!(view.ruling.offender, Some(Color::Red));
    assert_eq!(
        view.headline(),
        "if the cycle is repeated once more: Black wins by perpetual chase by the opponent \
         (0-1, rule 18)"
    );
    update_key(&mut app, KeyCode::Esc);
    assert!(app.popups.is_empty());

    let mut app = chased_to_the_end();
    update_key(&mut app, KeyCode::Esc);
    type_line(&mut app, ":ruling");
    let Some(Popup::Ruling(view)) = app.popups.last() else {
        panic!("the arbiter's popup: {:?}", app.popups.last());
    };
    assert!(!view.pending);
    assert_eq!(
        view.cycle_title(),
        "The repeated cycle, Red breaking the rule:"
    );
}

fn update_key(app: &mut App, code: KeyCode) {
    xiangqi_app::update(app, key(code));
}

/// The arbiter's popup of a game ended by a ruling, without a board to draw.
fn ended_view() -> RulingView {
    let app = chased_to_the_end();
    match app.popups.last() {
        Some(Popup::GameOver {
            ruling: Some(view), ..
        }) => (**view).clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_cycle_reads_one_line_a_move() {
    assert_eq!(
        ended_view().row_lines(),
        [
            "3...  Black  炮9平8    idle",
            "4.    Red    车一平二  chase  cannon h0",
            "4...  Black  炮8平9    idle",
            "5.    Red    车二平一  chase  cannon i0",
        ]
    );
}

#[test]
fn snapshot_ruling_popup_80x24() {
    let screen = screen_text(&render(&chased_to_the_end(), 80, 24));
    assert!(
        screen.contains("rule 18: a chariot may not chase"),
        "{screen}"
    );
    assert_snapshot!(screen);
}

#[test]
fn snapshot_ruling_popup_120x40() {
    assert_snapshot!(screen_text(&render(&chased_to_the_end(), 120, 40)));
}

#[test]
fn snapshot_warning_80x24() {
    assert_snapshot!(screen_text(&render(&before_the_last_chase(), 80, 24)));
}
