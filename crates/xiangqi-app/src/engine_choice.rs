//! Choosing the opponent: the in-process engine or an `[engines.NAME]` program. The
//! engine service routes each request to the engine it names (`service::RoutingSearcher`);
//! its failures reach the app as `EngineEvent::Failed` (status line and log), and the
//! game is kept.

use crate::config::BUILTIN_ENGINE;
use xiangqi_engine::service::NamedEngine;

use super::app::App;
use super::popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Popup};

/// The engine names to choose from: the built-in one first, then the config's.
pub fn engine_names(app: &App) -> Vec<String> {
    let mut names = vec![BUILTIN_ENGINE.to_owned()];
    names.extend(app.config.engine_names());
    names
}

/// The external engine the settings choose, if any.
pub fn chosen_external(app: &App) -> Option<NamedEngine> {
    let name = &app.config.settings.engine;
    app.config.engine_spec(name).map(|spec| NamedEngine {
        name: name.clone(),
        spec: spec.clone(),
    })
}

/// Whether the in-process engine plays (it alone reports trace events and steps).
pub fn builtin_chosen(app: &App) -> bool {
    app.config.settings.engine == BUILTIN_ENGINE
}

pub fn choose_engine(app: &mut App) {
    let names = engine_names(app);
    let selected = names
        .iter()
        .position(|name| *name == app.config.settings.engine)
        .unwrap_or(0);
    let items = names
        .into_iter()
        .map(|name| {
            let label = match app.config.engine_spec(&name) {
                Some(spec) => format!("{name:<12} {} ({})", spec.command.display(), spec.protocol),
                None => format!("{name:<12} this program's engine"),
            };
            ChoiceItem {
                label,
                value: ChoiceValue::Engine(name),
            }
        })
        .collect();
    app.popups.push(Popup::Choice {
        purpose: ChoicePurpose::Engine,
        items,
        selected,
    });
}

/// Makes `name` the opponent (it was checked to exist); settle stops the other
/// engine's search and starts this one on its turn.
pub fn set_engine(app: &mut App, name: &str) {
    app.config.settings.engine = name.to_owned();
    app.engine.paused = false;
    app.notify(format!("engine: {name}"));
}
