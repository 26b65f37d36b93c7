//! Shared helpers of the TUI tests: an app on the built-in defaults, synthetic keys, and
//! rendering into ratatui's `TestBackend`.

#![allow(dead_code)] // each test file uses a different part

use std::sync::Arc;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use xiangqi_app::config::theme::ColorEnv;
use xiangqi_app::config::{Config, EngineSide, Overrides, Settings};
use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers};
use xiangqi_app::{Action, App, Effect, update};
use xiangqi_core::board::{Color, Move};
use xiangqi_core::clock::ManualTime;
use xiangqi_term::view;

/// An app on a hand-moved clock, with `change`'s settings.
pub fn timed_app(change: impl FnOnce(&mut Settings)) -> (App, ManualTime) {
    let mut app = App::new(config_with(change), colour_terminal(), true);
    let time = ManualTime::default();
    app.time = Arc::new(time.clone());
    app.reset_clock();
    (app, time)
}

pub fn seconds(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// `side`'s time left now.
pub fn remaining(app: &App, side: Color) -> Option<Duration> {
    app.clock.remaining(side, app.now())
}

/// The built-in configuration (no file, no user themes), changed by `change`.
pub fn config_with(change: impl FnOnce(&mut Settings)) -> Config {
    let mut config = Config::load(None, None, &Overrides::default()).expect("built-in defaults");
    change(&mut config.settings);
    config
}

/// A terminal that shows 256 colours (as `TERM=xterm-256color` over SSH).
pub fn colour_terminal() -> ColorEnv {
    ColorEnv {
        no_color: None,
        colorterm: None,
        term: Some("xterm-256color".into()),
    }
}

/// An app with an engine, playing Red against it (the first-start default).
pub fn app_against_engine() -> App {
    App::new(config_with(|_| {}), colour_terminal(), true)
}

/// An app for two people.
pub fn two_player_app() -> App {
    App::new(
        config_with(|settings| settings.engine_side = EngineSide::None),
        colour_terminal(),
        true,
    )
}

pub fn key(code: KeyCode) -> Action {
    Action::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn ctrl(c: char) -> Action {
    Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Types `text` one key at a time, then Enter; the effects of all the keys.
pub fn type_line(app: &mut App, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(update(app, key(KeyCode::Char(c))));
    }
    effects.extend(update(app, key(KeyCode::Enter)));
    effects
}

pub fn mv(text: &str) -> Move {
    Move::parse_coords(text).expect("a coordinate move")
}

pub fn played(app: &App) -> Vec<String> {
    app.game.moves().map(Move::iccs).collect()
}

/// The search started by these effects, if one was.
pub fn started_search(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|effect| match effect {
        Effect::StartSearch(request) => Some(request.id),
        _ => None,
    })
}

pub fn render(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal.draw(|frame| view(app, frame)).expect("draw");
    terminal.backend().buffer().clone()
}

/// The screen's text, one line per row, without the cells that wide characters cover.
pub fn screen_text(buffer: &Buffer) -> String {
    let mut out = String::new();
    let width = usize::from(buffer.area.width);
    for row in buffer.content.chunks(width.max(1)) {
        let mut skip = 0usize;
        for cell in row {
            if skip == 0 {
                out.push_str(cell.symbol());
            }
            skip = skip
                .max(unicode_width::UnicodeWidthStr::width(cell.symbol()))
                .saturating_sub(1);
        }
        out.push('\n');
    }
    out
}

/// The text followed by every change of style, in reading order (as ratatui's buffer
/// debug output lists them).
pub fn screen_with_styles(buffer: &Buffer) -> String {
    let mut out = screen_text(buffer);
    out.push_str("--- styles (x, y: fg bg modifiers) ---\n");
    let width = usize::from(buffer.area.width);
    let mut last = None;
    for (index, cell) in buffer.content.iter().enumerate() {
        let style = (cell.fg, cell.bg, cell.modifier);
        if last != Some(style) {
            last = Some(style);
            out.push_str(&format!(
                "{}, {}: {:?} {:?} {:?}\n",
                index % width,
                index / width,
                cell.fg,
                cell.bg,
                cell.modifier
            ));
        }
    }
    out
}
