//! External UCI/UCCI engines behind the same interface as the built-in one: the
//! searcher routes each request to the engine it names, starting an external one when
//! first needed and again after it failed; its failures are reported as
//! `EngineEvent::Failed`, and the client keeps its game.

use crate::external::ExternalEngine;
use xiangqi_core::board::Move;

use super::reporter::{Reporter, Searcher};
use super::request::{NamedEngine, SearchRequest};

/// The in-process engine, or the external one a request names.
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
        let limits = request.limits();
        let stop = report.stop_flag();
        let result = running.search(&request.position, &limits, stop, &mut |info| {
            report.iteration(info)
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

    fn new_game(&mut self) {
        self.builtin.new_game();
    }

    fn set_hash_mb(&mut self, mb: u32) {
        self.builtin.set_hash_mb(mb);
    }
}
