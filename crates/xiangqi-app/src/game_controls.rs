//! Game controls against the engine: resigning, offering a draw, the clocks' flag fall,
//! the result popup at the end, a new game or a rematch with colours swapped, and the
//! time control chooser.

use crate::config::{EngineSide, SideTime};
use crate::game::{DrawReply, GameState, Players, RuleError, SearchView};
use xiangqi_core::board::Color;
use xiangqi_core::clock::TimeControl;

use super::app::App;
use super::flow::start_game;
use super::popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Discard, Popup};
use super::search_log::LogKind;

/// The time controls the chooser offers, besides "none".
pub const TIME_CHOICES: &[&str] = &[
    "1+0", "3+2", "5+3", "10+5", "15+10", "30+20", "40/90+30", "5m/move",
];

/// Who plays the game, as the rules see it.
pub fn players(app: &App) -> Players {
    match app.engine_side() {
        EngineSide::None => Players::OneKeyboard,
        EngineSide::Red => Players::Engine(Color::Red),
        EngineSide::Black => Players::Engine(Color::Black),
        EngineSide::Both => Players::EngineBoth,
    }
}

/// The engine side setting that makes `players` (the inverse of [`players`]; two
/// people at two keyboards are one keyboard here).
pub fn engine_side_for(players: Players) -> EngineSide {
    match players {
        Players::Engine(Color::Red) => EngineSide::Red,
        Players::Engine(Color::Black) => EngineSide::Black,
        Players::EngineBoth => EngineSide::Both,
        Players::OneKeyboard | Players::TwoPeople => EngineSide::None,
    }
}

/// Who moves the pieces: on the analysis board people move both sides, so undo and
/// redo go one ply at a time there.
pub fn movers(app: &App) -> Players {
    if app.analysing() {
        Players::OneKeyboard
    } else {
        players(app)
    }
}

/// The side the person at the keyboard speaks for now.
fn speaker(app: &App) -> Color {
    players(app).speaker(app.position().side_to_move())
}

/// Says how the game ended: status line, log and the result popup. (Settle stops the
/// search and removes the autosave.)
pub fn game_ended(app: &mut App) {
    let Some(outcome) = app.game.outcome() else {
        return;
    };
    let now = app.now();
    app.clock.stop(now);
    let result = super::ruling_view::game_result_text(&app.game)
        .unwrap_or_else(|| format!("{} ({})", outcome.describe(), outcome.pgn_result()));
    let text = format!("game over: {result}");
    app.log.push(LogKind::Result, text.clone());
    app.notify(text);
    let ruling = super::ruling_view::ended_view(app);
    app.popups.push(Popup::GameOver {
        outcome,
        ruling,
        rematch: true,
    });
}

/// Says why the rules refused, in the local game's words.
fn refused(app: &mut App, error: RuleError, nobody: &str) {
    match error {
        RuleError::GameOver => app.alert("the game is over already"),
        RuleError::NoPerson => app.alert(format!("{error}: {nobody}")),
        other => app.alert(other.to_string()),
    }
}

/// Ctrl-R: asks first.
pub fn ask_resign(app: &mut App) {
    match app.game.may_resign(players(app)) {
        Ok(()) => app.popups.push(Popup::ConfirmResign),
        Err(error) => refused(app, error, "nobody to resign"),
    }
}

/// `:resign`, or the confirmed Ctrl-R: the person at the keyboard resigns (with two
/// people at one keyboard, the side to move).
pub fn resign(app: &mut App) {
    let side = speaker(app);
    match app.game.resign(side, players(app)) {
        Ok(_) => game_ended(app),
        Err(error) => refused(app, error, "nobody to resign"),
    }
}

/// The engine's latest view of the game, for a draw offer: the running search's last
/// iteration, else the last finished search's.
fn engine_view(app: &App) -> Option<SearchView> {
    let info = app
        .engine
        .thinking
        .as_ref()
        .and_then(|thinking| thinking.info.as_ref())
        .or(app.last_search().map(|last| &last.info))?;
    Some(SearchView::from(info))
}

/// `:draw`: offers a draw. The engine answers by the draw rule (`game::draw_offer`);
/// two people at one keyboard agree by typing it.
pub fn offer_draw(app: &mut App) {
    let side = speaker(app);
    let view = engine_view(app);
    match app.game.offer_draw(side, players(app), view) {
        Ok(DrawReply::Accepted(answer)) => {
            app.log.push(
                LogKind::Note,
                format!("draw offer accepted: {}", answer.describe()),
            );
            game_ended(app);
        }
        Ok(DrawReply::Declined(answer)) => {
            let text = format!("draw offer declined: {}", answer.describe());
            app.log.push(LogKind::Note, text.clone());
            app.alert(text);
        }
        Ok(DrawReply::Agreed) => game_ended(app),
        // Only two people apart wait for an answer; nobody here does.
        Ok(DrawReply::Offered) => {}
        Err(error) => refused(app, error, "nobody to offer a draw to"),
    }
}

/// A clock tick: ends the game if the side to move's flag fell.
pub fn on_tick(app: &mut App) {
    let now = app.now();
    if app.game.check_flag(&mut app.clock, now).is_some() {
        game_ended(app);
    }
}

/// Ctrl-N: a new game, asking first when that throws an unfinished game away.
pub fn ask_new_game(app: &mut App) {
    if app.game_unfinished() {
        app.popups.push(Popup::ConfirmDiscard(Discard::NewGame));
    } else {
        new_game(app);
    }
}

/// A new game with the same sides and time controls.
pub fn new_game(app: &mut App) {
    start_game(
        app,
        GameState::new(xiangqi_core::board::Position::startpos()),
    );
}

/// A new game with the colours swapped: the engine takes the person's side, and each
/// side's time control goes with its player.
pub fn rematch(app: &mut App) {
    let settings = &mut app.config.settings;
    settings.engine_side = match settings.engine_side {
        EngineSide::Red => EngineSide::Black,
        EngineSide::Black => EngineSide::Red,
        other => other,
    };
    let (red, black) = (settings.time_red, settings.time_black);
    settings.time_red = black;
    settings.time_black = red;
    new_game(app);
    app.notify("rematch: colours swapped");
}

/// Opens the time control chooser.
pub fn choose_time(app: &mut App) {
    let mut items = vec![ChoiceItem {
        label: "none (no clocks)".to_owned(),
        value: ChoiceValue::Time(None),
    }];
    items.extend(TIME_CHOICES.iter().filter_map(|text| {
        let control: TimeControl = text.parse().ok()?;
        Some(ChoiceItem {
            label: control.to_string(),
            value: ChoiceValue::Time(Some(control)),
        })
    }));
    super::choices::push_choice(
        app,
        ChoicePurpose::Time,
        items,
        ChoiceValue::Time(app.config.settings.time),
    );
}

/// Sets both sides' time control; the clocks start afresh (full time, not running
/// until the next move).
pub fn set_time(app: &mut App, control: Option<TimeControl>) {
    let settings = &mut app.config.settings;
    settings.time = control;
    settings.time_red = SideTime::Same;
    settings.time_black = SideTime::Same;
    app.reset_clock();
    app.notify(match control {
        Some(control) => format!("time control {control} for both sides; clocks reset"),
        None => "no clocks".to_owned(),
    });
}
