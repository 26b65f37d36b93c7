//! Choosing from lists and switching while running: theme, profile, who plays.

use crate::config::EngineSide;

use super::app::App;
use super::popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Popup, mode_items};

/// Opens the "who plays" list at the current mode.
pub fn choose_mode(app: &mut App) {
    let items = mode_items();
    push_choice(
        app,
        ChoicePurpose::Mode,
        items,
        ChoiceValue::Mode(app.config.settings.engine_side),
    );
}

pub fn choose_theme(app: &mut App) {
    let names = app.config.themes.names();
    let selected = names
        .iter()
        .position(|name| *name == app.config.settings.theme)
        .unwrap_or(0);
    let items = names
        .into_iter()
        .map(|name| {
            let description = app
                .config
                .themes
                .get(&name)
                .map(|theme| theme.description.clone())
                .unwrap_or_default();
            ChoiceItem {
                label: format!("{name:<10} {description}"),
                value: ChoiceValue::Theme(name),
            }
        })
        .collect();
    app.popups.push(Popup::Choice {
        purpose: ChoicePurpose::Theme,
        items,
        selected,
    });
}

pub fn choose_profile(app: &mut App) {
    let mut items = vec![ChoiceItem {
        label: "(no profile: the file's top-level settings)".to_owned(),
        value: ChoiceValue::Profile(None),
    }];
    items.extend(
        app.config
            .profile_names()
            .into_iter()
            .map(|name| ChoiceItem {
                label: name.clone(),
                value: ChoiceValue::Profile(Some(name)),
            }),
    );
    push_choice(
        app,
        ChoicePurpose::Profile,
        items,
        ChoiceValue::Profile(app.config.profile.clone()),
    );
}

/// Opens a list popup with the entry for `current` selected (the first when absent).
pub fn push_choice(
    app: &mut App,
    purpose: ChoicePurpose,
    items: Vec<ChoiceItem>,
    current: ChoiceValue,
) {
    let selected = items.iter().position(|item| item.value == current);
    app.popups.push(Popup::Choice {
        purpose,
        items,
        selected: selected.unwrap_or(0),
    });
}

/// Applies a choice from a list popup.
pub fn apply_choice(app: &mut App, value: ChoiceValue) {
    match value {
        ChoiceValue::Theme(name) => {
            set_theme(app, &name);
        }
        ChoiceValue::Profile(name) => set_profile(app, name.as_deref()),
        ChoiceValue::Mode(side) => set_mode(app, side),
        ChoiceValue::Time(control) => super::game_controls::set_time(app, control),
        ChoiceValue::Engine(name) => super::engine_choice::set_engine(app, &name),
        ChoiceValue::Level(level) => set_level(app, level),
        // Carried out by `update` (it starts a request).
        ChoiceValue::Lesson(_) => {}
    }
}

/// Opens the list of strength levels, strongest first, with their approximate Elo.
pub fn choose_level(app: &mut App) {
    use xiangqi_engine::engine::skill::{MAX_LEVEL, MIN_LEVEL, elo_of_level};
    let items: Vec<ChoiceItem> = (MIN_LEVEL..=MAX_LEVEL)
        .rev()
        .map(|level| ChoiceItem {
            label: if level == MAX_LEVEL {
                format!("{level}  full strength")
            } else {
                format!("{level:>2}  about {} Elo", elo_of_level(level))
            },
            value: ChoiceValue::Level(level),
        })
        .collect();
    push_choice(
        app,
        ChoicePurpose::Level,
        items,
        ChoiceValue::Level(app.config.settings.level),
    );
}

/// Sets the engine's strength; it applies from the engine's next search.
pub fn set_level(app: &mut App, level: u8) {
    app.config.settings.level = level;
    app.notify(format!("level {level} (from the engine's next move)"));
}

pub fn set_theme(app: &mut App, name: &str) -> bool {
    if app.config.themes.get(name).is_none() {
        let known = app.config.themes.names().join(", ");
        app.alert(format!("no theme '{name}'; themes: {known}"));
        return false;
    }
    app.config.settings.theme = name.to_owned();
    app.refresh_style();
    if app.theme.name == name {
        app.notify(format!("theme {name}"));
    } else {
        app.notify(format!(
            "theme {name} (shown as {}: no colour)",
            app.theme.name
        ));
    }
    true
}

pub fn set_profile(app: &mut App, name: Option<&str>) {
    let old_side = app.config.settings.engine_side;
    let clocks = |app: &App| {
        let settings = &app.config.settings;
        (settings.time, settings.time_red, settings.time_black)
    };
    let old_clocks = clocks(app);
    if let Err(error) = app.config.switch_profile(name) {
        app.alert(error.to_string());
        return;
    }
    if clocks(app) != old_clocks {
        app.reset_clock();
    }
    app.refresh_style();
    app.notify(match name {
        Some(name) => format!("profile {name}"),
        None => "no profile".to_owned(),
    });
    if app.config.settings.engine_side != old_side {
        let side = app.config.settings.engine_side;
        set_mode(app, side);
    }
}

/// Who plays. Settle stops the search of a side the engine no longer plays and starts
/// the engine if it is now its move.
pub fn set_mode(app: &mut App, side: EngineSide) {
    app.config.settings.engine_side = side;
    app.engine.paused = false;
    app.selected = None;
    app.orient();
    if side != EngineSide::None && !app.engine.available {
        app.alert("this build has no engine: two players");
    }
}
