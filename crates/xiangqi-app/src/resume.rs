//! What the app saves with a game besides its moves, and brings back on resume: who
//! plays which side, the engine and its level, the board's orientation, the clocks and
//! their time left (`game::Setup`, kept in the PGN's tags), with the header `Event`,
//! `Date`, `Red` and `Black`.

use crate::config::{BUILTIN_ENGINE, EngineSide, SideTime};
use crate::game::{GameState, OWN_EVENT, Players, Setup};
use xiangqi_core::board::Color;

use super::app::{App, AppMode};
use super::popup::Popup;
use super::{flow, game_controls};

/// The start of the TUI: the unfinished game `found` in the autosave is the game at
/// once, so no key, quit or signal can lose it; `open` then opens what the command
/// asked for (a puzzle, a drill), which sets the game aside as any visit does. Only
/// when the game itself is shown does a popup say it is back: a question about the
/// game is never asked over a mode that is not the game.
pub fn start_with(app: &mut App, found: Option<GameState>, open: impl FnOnce(&mut App)) {
    let resumed = found.is_some();
    if let Some(game) = found {
        resume(app, game);
    }
    open(app);
    if resumed && matches!(app.mode, AppMode::Play) {
        app.popups.push(Popup::Resume);
    }
}

/// What the game is played with now.
pub fn setup_of(app: &App) -> Setup {
    let settings = &app.config.settings;
    Setup {
        players: Some(game_controls::players(app)),
        level: Some(settings.level),
        engine: Some(settings.engine.clone()),
        bottom: Some(if app.flipped {
            Color::Black
        } else {
            Color::Red
        }),
        ..Setup::default()
    }
    .with_clock(&app.clock, app.now())
}

/// The name a side plays under: "You", or the engine with its level.
fn player_name(app: &App, side: Color) -> String {
    let settings = &app.config.settings;
    match game_controls::players(app) {
        Players::OneKeyboard | Players::TwoPeople => format!("{} player", side.name()),
        Players::Engine(engine) if engine != side => "You".to_owned(),
        _ if settings.engine == BUILTIN_ENGINE => {
            format!("xiangqi-tui level {}", settings.level)
        }
        _ => settings.engine.clone(),
    }
}

/// Today as PGN's `Date` writes it.
fn today() -> String {
    xiangqi_core::record::pgn_date(xiangqi_core::date::unix_now())
}

/// The game as it is saved (the autosave, `:save`): its moves, its setup and header.
pub fn saved_game(app: &App) -> GameState {
    let mut game = app.game.clone();
    game.write_setup(&setup_of(app));
    let names = [player_name(app, Color::Red), player_name(app, Color::Black)];
    game.write_header(OWN_EVENT, [&names[0], &names[1]], &today());
    game
}

/// What a saved game was played with, in a line for the resume question: "you play
/// Black, level 5, 300+3" (what the game does not say is left out).
pub fn describe(game: &GameState) -> String {
    let setup = game.setup();
    let mut parts = Vec::new();
    match setup.players {
        Some(Players::Engine(engine)) => {
            parts.push(format!("you play {}", engine.opponent().name()));
        }
        Some(Players::EngineBoth) => parts.push("engine against engine".to_owned()),
        Some(Players::OneKeyboard | Players::TwoPeople) => parts.push("two players".to_owned()),
        None => {}
    }
    if let Some(level) = setup.level {
        parts.push(format!("level {level}"));
    }
    match setup.controls {
        Some([Some(red), Some(black)]) if red == black => parts.push(red.to_string()),
        Some([red, black]) if red.is_some() || black.is_some() => {
            let text = |control: Option<xiangqi_core::clock::TimeControl>| {
                control.map_or_else(|| "untimed".to_owned(), |control| control.to_string())
            };
            parts.push(format!("Red {}, Black {}", text(red), text(black)));
        }
        _ => {}
    }
    parts.join(", ")
}

/// Plays on the game resumed, with what it was played with: the sides, the engine and
/// its level, the orientation, the clocks with the time left (the side to move's
/// runs). What the game does not say stays as the settings have it.
pub fn resume(app: &mut App, game: GameState) {
    let setup = game.setup();
    let settings = &mut app.config.settings;
    if let Some(players) = setup.players {
        settings.engine_side = game_controls::engine_side_for(players);
    }
    if let Some(level) = setup.level {
        settings.level = level.clamp(
            xiangqi_engine::engine::skill::MIN_LEVEL,
            xiangqi_engine::engine::skill::MAX_LEVEL,
        );
    }
    if let Some(engine) = setup.engine.as_deref()
        && super::engine_choice::engine_names(app)
            .iter()
            .any(|name| name == engine)
    {
        app.config.settings.engine = engine.to_owned();
    }
    if let Some([red, black]) = setup.controls {
        let settings = &mut app.config.settings;
        if red == black {
            settings.time = red;
            settings.time_red = SideTime::Same;
            settings.time_black = SideTime::Same;
        } else {
            let side_time =
                |control: Option<_>| control.map_or(SideTime::Untimed, SideTime::Control);
            settings.time_red = side_time(red);
            settings.time_black = side_time(black);
        }
    }
    // New clocks with the game's controls, then the time it had left.
    flow::start_game(app, game);
    setup.restore_clock(&mut app.clock, &app.game);
    if let Some(bottom) = setup.bottom {
        app.flipped = bottom == Color::Black;
        app.orient_cursor();
    }
    if app.clock.is_timed() && !app.game_over() {
        let now = app.now();
        app.clock.start(app.position().side_to_move(), now);
    }
    // The autosave holds this game: nothing to write.
    flow::mark_saved(app);
    say_resumed(app);
}

/// The notice of a game resumed: who plays it.
pub fn say_resumed(app: &mut App) {
    let you = match app.engine_side() {
        EngineSide::Red => "you play Black",
        EngineSide::Black => "you play Red",
        EngineSide::None => "two players",
        EngineSide::Both => "engine against engine",
    };
    app.notify(format!("resumed the unfinished game: {you}"));
}
