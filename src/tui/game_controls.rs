//! Game controls against the engine: resigning, offering a draw, the clocks' flag fall,
//! the result popup at the end, a new game or a rematch with colours swapped, and the
//! time control chooser.

use crate::board::Color;
use crate::board::rules::{DrawReason, Outcome};
use crate::clock::TimeControl;
use crate::config::{EngineSide, SideTime};
use crate::draw_offer::{SearchView, answer_draw_offer};

use super::action::Effect;
use super::app::App;
use super::game::GameState;
use super::popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Popup};
use super::search_log::LogKind;
use super::update::{save_effects, start_engine_if_due, start_game, stop_search};

/// The time controls the chooser offers, besides "none".
pub const TIME_CHOICES: &[&str] = &[
    "1+0", "3+2", "5+3", "10+5", "15+10", "30+20", "40/90+30", "5m/move",
];

/// The side a person plays when one plays the engine; `None` with two people or none.
fn person_side(app: &App) -> Option<Color> {
    match app.engine_side() {
        EngineSide::Red => Some(Color::Black),
        EngineSide::Black => Some(Color::Red),
        EngineSide::Both | EngineSide::None => None,
    }
}

/// Ends the game with `outcome` (given, not on the board): the search stops, the clocks
/// stop, the result popup opens.
pub fn end_game(app: &mut App, outcome: Outcome) -> Vec<Effect> {
    let mut effects = stop_search(app);
    let now = app.now();
    app.clock.stop(now);
    app.game.end(outcome);
    game_ended(app);
    effects.extend(save_effects(app));
    effects
}

/// Says how the game ended: status line, log and the result popup.
pub fn game_ended(app: &mut App) {
    let Some(outcome) = app.game.outcome() else {
        return;
    };
    let now = app.now();
    app.clock.stop(now);
    let text = format!(
        "game over: {} ({})",
        outcome.describe(),
        outcome.pgn_result()
    );
    app.log.push(LogKind::Result, text.clone());
    app.notify(text);
    app.popups.push(Popup::GameOver { outcome });
}

/// Ctrl-R: asks first.
pub fn ask_resign(app: &mut App) {
    match who_resigns(app) {
        Ok(_) => app.popups.push(Popup::ConfirmResign),
        Err(why) => app.alert(why),
    }
}

fn who_resigns(app: &App) -> Result<Color, &'static str> {
    if app.game_over() {
        return Err("the game is over already");
    }
    match app.engine_side() {
        EngineSide::Both => Err("the engine plays both sides: nobody to resign"),
        // Two people at one keyboard: the side to move resigns.
        EngineSide::None => Ok(app.position().side_to_move()),
        _ => person_side(app).ok_or("nobody to resign"),
    }
}

/// `:resign`, or the confirmed Ctrl-R.
pub fn resign(app: &mut App) -> Vec<Effect> {
    match who_resigns(app) {
        Ok(loser) => end_game(app, Outcome::resignation(loser)),
        Err(why) => {
            app.alert(why);
            Vec::new()
        }
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
        .or(app.engine.last_info.as_ref())?;
    Some(SearchView {
        depth: info.depth,
        centipawns: info.verdict().centipawns(),
    })
}

/// `:draw`: offers a draw. The engine answers by `draw_offer`'s rule; two people at
/// one keyboard agree by typing it.
pub fn offer_draw(app: &mut App) -> Vec<Effect> {
    if app.game_over() {
        app.alert("the game is over already");
        return Vec::new();
    }
    match app.engine_side() {
        EngineSide::Both => {
            app.alert("the engine plays both sides: nobody to offer a draw to");
            Vec::new()
        }
        EngineSide::None => end_game(app, Outcome::Draw(DrawReason::Agreement)),
        _ => {
            let answer = answer_draw_offer(app.position(), engine_view(app));
            if answer.accepted() {
                app.log.push(
                    LogKind::Note,
                    format!("draw offer accepted: {}", answer.describe()),
                );
                end_game(app, Outcome::Draw(DrawReason::Agreement))
            } else {
                let text = format!("draw offer declined: {}", answer.describe());
                app.log.push(LogKind::Note, text.clone());
                app.alert(text);
                Vec::new()
            }
        }
    }
}

/// A clock tick: ends the game if the side to move's flag fell.
pub fn on_tick(app: &mut App) -> Vec<Effect> {
    if app.game_over() {
        return Vec::new();
    }
    let now = app.now();
    match app.clock.flag(now) {
        Some(loser) => end_game(app, Outcome::flag_fall(loser)),
        None => Vec::new(),
    }
}

/// A new game with the same sides and time controls.
pub fn new_game(app: &mut App) -> Vec<Effect> {
    let mut effects = stop_search(app);
    start_game(app, GameState::new(crate::board::Position::startpos()));
    effects.push(Effect::RemoveAutosave);
    effects.extend(start_engine_if_due(app));
    effects
}

/// A new game with the colours swapped: the engine takes the person's side, and each
/// side's time control goes with its player.
pub fn rematch(app: &mut App) -> Vec<Effect> {
    let settings = &mut app.config.settings;
    settings.engine_side = match settings.engine_side {
        EngineSide::Red => EngineSide::Black,
        EngineSide::Black => EngineSide::Red,
        other => other,
    };
    let (red, black) = (settings.time_red, settings.time_black);
    settings.time_red = black;
    settings.time_black = red;
    let effects = new_game(app);
    app.notify("rematch: colours swapped");
    effects
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
