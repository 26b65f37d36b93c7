//! Choosing the opponent: the in-process engine or an `[engines.NAME]` program. The
//! worker's searcher routes each request to the engine it names, starting an external
//! one when first needed and again after it failed; its failures go to the app as
//! `EngineEvent::Failed` (status line and log), and the game is kept.

use std::time::Duration;

use crate::board::Move;
use crate::config::BUILTIN_ENGINE;
use crate::engine::Limits;
use crate::external::{EngineInfo, EngineSpec, ExternalEngine, InfoScore};

use super::action::Effect;
use super::app::App;
use super::engine_link::{EngineScore, IterationInfo, Reporter, SearchRequest, Searcher};
use super::popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Popup};
use super::update::{start_engine_if_due, stop_search};

/// An external engine as a request names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedEngine {
    pub name: String,
    pub spec: EngineSpec,
}

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

/// Makes `name` the opponent (it was checked to exist); the engine's turn starts it.
pub fn set_engine(app: &mut App, name: &str) -> Vec<Effect> {
    let mut effects = stop_search(app);
    app.config.settings.engine = name.to_owned();
    app.engine.paused = false;
    app.notify(format!("engine: {name}"));
    effects.extend(start_engine_if_due(app));
    effects
}

/// An external engine's report as the log's iteration line.
fn iteration(info: EngineInfo) -> IterationInfo {
    IterationInfo {
        depth: info.depth,
        score: match info.score {
            InfoScore::Centipawns(cp) => EngineScore::Centipawns(cp),
            InfoScore::Mate(moves) => EngineScore::Mate(moves),
        },
        nodes: info.nodes,
        nodes_per_second: info.nps,
        time_ms: info.time_ms,
        pv: info.pv,
    }
}

/// The worker's searcher: the in-process engine, or the external one a request names.
pub struct RoutingSearcher {
    builtin: Box<dyn Searcher>,
    /// The external engine running, kept between searches.
    external: Option<(String, ExternalEngine)>,
}

impl RoutingSearcher {
    pub fn new(builtin: Box<dyn Searcher>) -> RoutingSearcher {
        RoutingSearcher {
            builtin,
            external: None,
        }
    }

    fn external_search(
        &mut self,
        engine: &NamedEngine,
        request: &SearchRequest,
        report: &mut Reporter<'_>,
    ) -> Option<Move> {
        let reuse = self
            .external
            .as_ref()
            .is_some_and(|(name, running)| *name == engine.name && *running.spec() == engine.spec);
        if !reuse {
            // Dropping the old one quits (or kills) it.
            self.external = None;
            match ExternalEngine::start(&engine.spec) {
                Ok(running) => {
                    let id = running
                        .id_name
                        .clone()
                        .unwrap_or_else(|| "no name given".into());
                    report.note(format!("started engine {} ({id})", engine.name));
                    self.external = Some((engine.name.clone(), running));
                }
                Err(error) => {
                    report.fail(format!("engine {}: {error}", engine.name));
                    return None;
                }
            }
        }
        let (_, running) = self.external.as_mut()?;
        let limits = Limits {
            depth: request.depth,
            nodes: request.nodes,
            movetime: request.movetime_ms.map(Duration::from_millis),
            clock: request.clock,
            ..Limits::default()
        };
        let stop = report.stop_flag();
        let result = running.search(&request.position, &limits, stop, &mut |info| {
            report.iteration(iteration(info))
        });
        match result {
            Ok(mv) => mv,
            Err(error) => {
                // A failed engine is not trusted again: the next search starts it afresh.
                self.external = None;
                report.fail(format!("engine {}: {error}", engine.name));
                None
            }
        }
    }
}

impl Searcher for RoutingSearcher {
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move> {
        match &request.external {
            Some(engine) => self.external_search(engine, request, report),
            None => self.builtin.search(request, report),
        }
    }

    fn traces(&self) -> bool {
        self.builtin.traces()
    }
}
