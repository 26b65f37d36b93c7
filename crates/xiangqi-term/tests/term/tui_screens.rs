//! Whole screens drawn into ratatui's `TestBackend`, snapshotted with insta: 80x24 and
//! 120x40, CJK, ASCII and wide-safe glyphs, with colour and without. Also: no size from
//! 1x1 to 100x40 panics, and a resize below the minimum and back recovers.

use crate::tui_support;

use std::time::Duration;

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tui_support::*;
use xiangqi_app::config::theme::ColorEnv;
use xiangqi_app::config::{ColorMode, EngineSide, Glyphs, Settings};
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Command, update};
use xiangqi_engine::engine::SearchInfo;
use xiangqi_engine::service::EngineEvent;
use xiangqi_term::{TOO_SMALL, view};

fn app(change: impl FnOnce(&mut Settings)) -> App {
    App::new(config_with(change), colour_terminal(), true)
}

/// A game under way against the engine, which is thinking, with a piece picked up.
fn midgame(change: impl FnOnce(&mut Settings)) -> App {
    let mut app = app(change);
    let id = started_search(&type_line(&mut app, "炮二平五")).unwrap();
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    let id = started_search(&type_line(&mut app, "马二进三")).unwrap();
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("i9h9")),
            ponder: None,
        }),
    );
    let id = started_search(&type_line(&mut app, "车一平二")).unwrap();
    let info = SearchInfo {
        depth: 5,
        score: -31,
        nodes: 183_204,
        nps: 1_204_000,
        time: Duration::from_millis(152),
        pv: vec![mv("b9c7"), mv("b0c2"), mv("c6c5")],
        ..SearchInfo::default()
    };
    update(
        &mut app,
        Action::Engine(EngineEvent::Iteration { id, info }),
    );
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("b9c7")),
            ponder: None,
        }),
    );
    // Pick up the cannon on e2 with the cursor: its targets are marked.
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Down));
    update(&mut app, key(KeyCode::Enter));
    app
}

/// A position with Black in check after the last move.
fn check(change: impl FnOnce(&mut Settings)) -> App {
    let mut app = app(|settings| {
        settings.engine_side = EngineSide::None;
        change(settings);
    });
    type_line(&mut app, ":fen 4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    type_line(&mut app, "a1a9");
    assert!(
        app.position().in_check(),
        "{}",
        app.input.error().unwrap_or("")
    );
    app
}

fn screen(app: &App, width: u16, height: u16) -> String {
    screen_with_styles(&render(app, width, height))
}

#[test]
fn first_start_80x24_cjk_colour() {
    assert_snapshot!(screen(&app(|_| {}), 80, 24));
}

#[test]
fn midgame_80x24_cjk_colour() {
    assert_snapshot!(screen(&midgame(|_| {}), 80, 24));
}

#[test]
fn midgame_80x24_cjk_no_colour() {
    assert_snapshot!(screen(&midgame(|s| s.color = ColorMode::Never), 80, 24));
}

#[test]
fn midgame_80x24_ascii_colour() {
    assert_snapshot!(screen(&midgame(|s| s.glyphs = Glyphs::Ascii), 80, 24));
}

#[test]
fn midgame_80x24_ascii_no_colour() {
    let app = midgame(|s| {
        s.glyphs = Glyphs::Ascii;
        s.color = ColorMode::Never;
    });
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn midgame_80x24_wide_safe() {
    let app = midgame(|s| {
        s.glyphs = Glyphs::Wide;
        s.notation = xiangqi_app::config::Notation::Wxf;
    });
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
}

#[test]
fn midgame_120x40_cjk_colour() {
    assert_snapshot!(screen(&midgame(|s| s.theme = "dark".into()), 120, 40));
}

#[test]
fn midgame_120x40_ascii_no_colour() {
    let app = midgame(|s| {
        s.glyphs = Glyphs::Ascii;
        s.color = ColorMode::Never;
        s.notation = xiangqi_app::config::Notation::Iccs;
    });
    assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn check_flipped_80x24_no_colour() {
    let mut app = check(|s| s.color = ColorMode::Never);
    update(&mut app, ctrl('f'));
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn no_colour_from_the_environment_draws_the_monochrome_theme() {
    let no_color = ColorEnv {
        no_color: Some("1".into()),
        colorterm: None,
        term: Some("xterm-256color".into()),
    };
    let from_env = App::new(config_with(|_| {}), no_color, true);
    let forced = app(|s| s.color = ColorMode::Never);
    assert_eq!(from_env.theme.name, "mono");
    assert_eq!(
        screen(&from_env, 80, 24),
        screen(&forced, 80, 24),
        "NO_COLOR and --color never draw the same"
    );
}

#[test]
fn help_overlay_80x24() {
    let mut app = app(|_| {});
    update(&mut app, key(KeyCode::F(1)));
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
    // Scrolled through at 80 columns, a description too long for a row goes on under
    // itself: nothing is cut.
    let mut seen = String::new();
    for _ in 0..80 {
        seen.push_str(&screen_text(&render(&app, 80, 24)));
        update(&mut app, key(KeyCode::Down));
    }
    let rows: Vec<&str> = seen
        .lines()
        .map(|row| row.trim_matches(['│', ' ']))
        .collect();
    for (keys, words) in [
        (
            "n N",
            "after :review: the next / previous ?! ? ?? move (board)",
        ),
        (
            "e",
            "the selected event in full, in a window (also in the log)",
        ),
    ] {
        // The row and the one under it, where both are in the window.
        let whole = rows.windows(2).any(|pair| {
            pair[0].starts_with(keys)
                && format!("{} {}", pair[0], pair[1])
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .ends_with(words)
        });
        assert!(whole, "{keys} {words}");
    }
}

#[test]
fn candidates_popup_80x24() {
    let mut app = app(|s| s.engine_side = EngineSide::None);
    type_line(
        &mut app,
        ":fen 6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79",
    );
    type_line(&mut app, "炮八平七");
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
}

#[test]
fn stepping_search_log_80x24() {
    let mut app = app(|s| s.step = true);
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    for line in [
        "enter root (-inf, +inf)",
        "  enter 马8进7 (-inf, +inf)",
        "    leaf 0",
    ] {
        update(&mut app, key(KeyCode::Char(' ')));
        update(
            &mut app,
            Action::Engine(EngineEvent::Trace {
                id,
                lines: vec![line.into()],
            }),
        );
    }
    let screen = screen_text(&render(&app, 80, 24));
    // The title keeps the view the scores are from; the state shortens instead.
    assert!(
        screen.contains("┏ > Search log (Red's view) [paused] "),
        "{screen}"
    );
    assert_snapshot!(screen);
}

#[test]
fn no_size_from_1x1_to_100x40_panics() {
    let mut states = vec![
        app(|_| {}),
        midgame(|_| {}),
        check(|s| s.glyphs = Glyphs::Ascii),
    ];
    let mut help = midgame(|_| {});
    update(&mut help, key(KeyCode::F(1)));
    states.push(help);
    let mut prompt = app(|s| s.glyphs = Glyphs::Wide);
    update(&mut prompt, Action::Command(Command::Load));
    for c in "a long path that will not fit in a small window.pgn".chars() {
        update(&mut prompt, key(KeyCode::Char(c)));
    }
    states.push(prompt);
    let mut terminal = Terminal::new(TestBackend::new(1, 1)).unwrap();
    for state in &states {
        for width in 1..=100 {
            for height in 1..=40 {
                terminal.backend_mut().resize(width, height);
                terminal.draw(|frame| view(state, frame)).unwrap();
                let text = screen_text(terminal.backend().buffer());
                if width >= 80 && height >= 24 {
                    assert!(text.contains("Board"), "{width}x{height}");
                } else if width >= 60 && height >= 2 {
                    assert!(text.contains(TOO_SMALL), "{width}x{height}:\n{text}");
                }
            }
        }
    }
}

#[test]
fn a_resize_below_the_minimum_and_back_recovers() {
    let mut app = midgame(|_| {});
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| view(&app, frame)).unwrap();
    let before = screen_with_styles(terminal.backend().buffer());
    for (width, height) in [(79, 24), (80, 23), (40, 10)] {
        update(&mut app, Action::Resize(width, height));
        terminal.backend_mut().resize(width, height);
        terminal.draw(|frame| view(&app, frame)).unwrap();
        let text = screen_text(terminal.backend().buffer());
        assert!(text.contains("too small"), "{width}x{height}:\n{text}");
        assert!(!text.contains("Board"));
    }
    update(&mut app, Action::Resize(80, 24));
    terminal.backend_mut().resize(80, 24);
    terminal.draw(|frame| view(&app, frame)).unwrap();
    assert_eq!(screen_with_styles(terminal.backend().buffer()), before);
}

/// The game found at start is back, the popup says so over it (issue 40).
fn resumed() -> App {
    let mut saved = xiangqi_app::game::GameState::new(xiangqi_core::board::Position::startpos());
    saved.play(mv("h2e2"));
    let mut app = app(|s| s.glyphs = Glyphs::Ascii);
    xiangqi_app::start_with(&mut app, Some(saved), |_| {});
    app
}

#[test]
fn resumed_game_80x24_ascii_colour() {
    assert_snapshot!(screen(&resumed(), 80, 24));
}

#[test]
fn resumed_game_120x40_ascii_colour() {
    assert_snapshot!(screen(&resumed(), 120, 40));
}
