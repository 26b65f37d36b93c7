//! What the app does with the engine's reports: the search log, the status, the move.

use xiangqi_core::board::Position;
use xiangqi_engine::engine::{PvLine, SearchInfo};
use xiangqi_engine::service::{EngineEvent, SearchRequest, StepState};

use super::action::Effect;
use super::analysis::{self, Purpose};
use super::app::{App, Focus};
use super::flow::play_move;
use super::hint;
use super::notation_link::format_line;
use super::search_log::LogKind;
use super::update::focus_log_for_step;

/// The log's first line of a search: who thinks, with what, within which limits.
pub fn thinks_line(request: &SearchRequest) -> String {
    let limits = [
        request.depth.map(|depth| format!("depth {depth}")),
        request.movetime_ms.map(|ms| format!("{ms} ms")),
        request.nodes.map(|nodes| format!("{nodes} nodes")),
        request.clock.map(|clock| {
            format!(
                "clock {} +{}s",
                xiangqi_core::clock::format_clock(clock.remaining),
                clock.increment.as_secs_f32()
            )
        }),
    ];
    let limits: Vec<String> = limits.into_iter().flatten().collect();
    let limits = if limits.is_empty() {
        "no limit".to_owned()
    } else {
        limits.join(", ")
    };
    let side = request.position.side_to_move().name();
    format!("{side} thinks: {} ({limits})", request.algorithm)
}

/// Logs the start of a search and sets up step mode for it.
pub fn search_started(app: &mut App, request: &SearchRequest) {
    // Only a traced search has a tree to show: a plain one leaves the last tree in place.
    if request.step || request.trace.traces() {
        super::explorer::search_started(
            app,
            xiangqi_engine::engine::PositionNames::new(&request.position, request.notation),
        );
    }
    app.log.push(LogKind::Search, thinks_line(request));
    let settings = &app.config.settings;
    if !app.engine_traces() && (settings.step || request.trace != settings.trace) {
        app.log.push(
            LogKind::Note,
            "this engine reports one line per iteration: no trace events, no stepping".to_owned(),
        );
    }
    if request.step {
        app.log.step = Some(StepState::paused());
        app.log.push(
            LogKind::Note,
            "step mode: Space one event, i to iteration end, c continue".to_owned(),
        );
        focus_log_for_step(app);
    } else {
        app.log.step = Some(StepState::free());
    }
    app.log.follow();
}

/// Clears what belonged to the search that ended (or was stopped).
pub fn search_ended(app: &mut App) {
    app.log.step = None;
    if let Some(focus) = app.focus_before_step.take() {
        app.focus_back_from_step = app.focus == Focus::Log && focus == Focus::Input;
        app.focus = focus;
    }
}

/// One iteration of a search of `position` as a log line: depth, score, nodes, speed,
/// principal variation.
pub fn iteration_line(app: &App, position: &Position, info: &SearchInfo) -> String {
    let pv = format_line(position, &info.pv, app.display_notation()).join(" ");
    format!(
        "d{:<2} {:>7} {:>7} {:>7}/s {}",
        info.depth,
        info.verdict().shown(position.side_to_move()),
        count(info.nodes),
        count(info.nps),
        pv
    )
}

/// A count in 4 characters or so: 950, 12.3k, 4.56M.
pub fn count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..=999_999_999 => format!("{:.2}M", n as f64 / 1e6),
        _ => format!("{:.2}G", n as f64 / 1e9),
    }
}

pub fn on_engine_event(app: &mut App, event: EngineEvent) -> Vec<Effect> {
    // Reports of a search that was stopped and forgotten are stale.
    let current = app.engine.thinking.as_ref().map(|thinking| thinking.id);
    if current != Some(event.id()) {
        return Vec::new();
    }
    match event {
        EngineEvent::Iteration { info, .. } => {
            let purpose = app.engine.thinking.as_ref().map(|t| t.purpose);
            analysis::record_score(app, &info);
            // The analysis board logs its lines (next event) rather than the summary.
            if purpose != Some(Purpose::Analyse) || app.config.settings.multipv <= 1 {
                let line = iteration_line(app, app.position(), &info);
                app.log.push(LogKind::Iteration, line);
            }
            if purpose == Some(Purpose::Analyse) && app.config.settings.multipv <= 1 {
                let line = PvLine {
                    score: info.score,
                    pv: info.pv.clone(),
                };
                app.analysis.depth = info.depth;
                app.analysis.lines = vec![line];
            }
            if let Some(step) = &mut app.log.step {
                step.iteration_end();
            }
            if let Some(thinking) = &mut app.engine.thinking {
                thinking.info = Some(info);
            }
            Vec::new()
        }
        EngineEvent::Trace { lines, .. } => {
            if let Some(step) = &mut app.log.step {
                step.pass(lines.len() as u64);
            }
            for line in lines {
                app.log.push(LogKind::Trace, line);
                let seq = app.log.dropped() + app.log.len() as u64 - 1;
                app.study.line_logged(seq);
            }
            Vec::new()
        }
        EngineEvent::Explored { events, .. } => {
            super::explorer::on_events(app, events);
            Vec::new()
        }
        EngineEvent::BestMove { mv, .. } => {
            let Some(thinking) = app.engine.thinking.take() else {
                return Vec::new();
            };
            search_ended(app);
            if thinking.purpose != Purpose::Play {
                // Analysis and hints never play; a hint shows its move.
                if thinking.purpose == Purpose::Hint
                    && let Some(mv) = mv.filter(|&mv| app.position().is_legal(mv))
                {
                    let verdict = thinking.info.as_ref().map(SearchInfo::verdict);
                    hint::show(app, mv, verdict);
                }
                return Vec::new();
            }
            // The game has not changed since it started (a change stops the search).
            app.engine.last = thinking
                .info
                .map(|info| super::app::LastSearch::new(info, thinking.side, &app.game));
            match mv {
                Some(mv) if thinking.play_result && app.position().is_legal(mv) => {
                    let text = super::notation_link::format_move(
                        app.position(),
                        mv,
                        app.display_notation(),
                    );
                    app.log.push(LogKind::Result, format!("plays {text}"));
                    play_move(app, mv);
                    Vec::new()
                }
                Some(_) if !thinking.play_result => {
                    app.log.push(LogKind::Note, "stopped".to_owned());
                    Vec::new()
                }
                Some(mv) => {
                    app.log.push(
                        LogKind::Note,
                        format!("engine answered an illegal move {mv}; stopped"),
                    );
                    app.engine.paused = true;
                    Vec::new()
                }
                None => {
                    app.log.push(LogKind::Note, "no legal move".to_owned());
                    Vec::new()
                }
            }
        }
        EngineEvent::Lines { lines, .. } => {
            if app.engine.thinking.as_ref().map(|t| t.purpose) == Some(Purpose::Analyse) {
                analysis::on_lines(app, lines);
            }
            Vec::new()
        }
        EngineEvent::Note { text, .. } => {
            app.log.push(LogKind::Note, text);
            Vec::new()
        }
        EngineEvent::Failed { message, .. } => {
            app.engine.thinking = None;
            search_ended(app);
            app.engine.paused = true;
            app.log
                .push(LogKind::Note, format!("search failed: {message}"));
            // The game is kept; the player retries or picks another engine.
            app.alert(format!(
                "engine error: {message} (game kept: Ctrl-G retries, :engine NAME picks another)"
            ));
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_are_short() {
        assert_eq!(count(950), "950");
        assert_eq!(count(12_345), "12.3k");
        assert_eq!(count(4_560_000), "4.56M");
        assert_eq!(count(7_000_000_000), "7.00G");
    }
}
