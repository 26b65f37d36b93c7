//! The analysis board: the engine thinks without limit on the position shown, with the
//! configured number of lines (`multipv`), shown in a steady table that each iteration
//! replaces; the log keeps the final lines of each position analysed.
//! Any change of position (a move, undo, redo, a click in the move list) restarts it
//! there. Every search's final score is kept per position for the score graph.

use std::collections::HashMap;

use crate::config::TraceLevel;
use xiangqi_core::board::{Move, Position};

use super::action::Effect;
use super::app::{App, AppMode, Thinking};
use super::flow::stop_search;
use super::notation_link::format_line;
use super::search_log::LogKind;
use xiangqi_engine::engine::{PvLine, SearchInfo};
use xiangqi_engine::service::{SearchRequest, StepState};

/// What a search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Purpose {
    /// The engine's move in the game.
    #[default]
    Play,
    /// The analysis board: runs until stopped, never plays.
    Analyse,
    /// A hint: the best move is shown, not played.
    Hint,
}

/// Largest score the graph shows, in centipawns; mates and big advantages are clipped.
pub const GRAPH_CLIP: i32 = 1000;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Analysis {
    /// The latest lines for the position shown, best first, with their depth.
    pub lines: Vec<PvLine>,
    pub depth: u32,
    /// The position `lines` are of.
    pub position: Option<Position>,
    /// The engine's latest score of each position seen (by position key), from Red's
    /// view in centipawns, clipped to `GRAPH_CLIP`.
    scores: HashMap<u64, i32>,
}

impl Analysis {
    pub fn score_of(&self, pos: &Position) -> Option<i32> {
        self.scores.get(&pos.key()).copied()
    }

    /// Keeps a score of `pos` from elsewhere (a review), Red's view in centipawns.
    pub fn set_score(&mut self, pos: &Position, red: i32) {
        self.scores
            .insert(pos.key(), red.clamp(-GRAPH_CLIP, GRAPH_CLIP));
    }
}

/// Keeps the score of a finished iteration for the position it searched.
pub fn record_score(app: &mut App, info: &SearchInfo) {
    let pos = app.position();
    let (key, side) = (pos.key(), pos.side_to_move());
    let red = info.verdict().red_view(side).clipped(GRAPH_CLIP);
    app.analysis.scores.insert(key, red);
}

/// The game's scores from the start to the position shown: (ply, Red's centipawns)
/// for each position the engine has scored.
pub fn graph_points(app: &App) -> Vec<(usize, i32)> {
    let mut pos = app.game.start().clone();
    let mut points = Vec::new();
    let moves: Vec<Move> = app.game.moves().collect();
    for ply in 0..=moves.len() {
        if let Some(score) = app.analysis.score_of(&pos) {
            points.push((ply, score));
        }
        if let Some(&mv) = moves.get(ply) {
            pos.make_move(mv);
        }
    }
    points
}

/// `:analyze` and its key: the analysis board on or off. Settle then starts the
/// analysis, or the engine's move if it is its turn, after stopping the search of the
/// mode left.
pub fn toggle(app: &mut App) {
    if !app.engine.available {
        app.alert("this build has no engine");
        return;
    }
    // From a tree study too: the analysis board takes its place.
    app.mode = if app.analysing() {
        AppMode::Play
    } else {
        AppMode::Analysis
    };
    log_final_lines(app);
    app.hint = None;
    if app.analysing() {
        app.notify(format!(
            "analysis board: {} lines; Ctrl-A or :analyze to leave",
            app.config.settings.multipv
        ));
    } else {
        // Back to the game: the engine takes its side again when it is its move.
        app.engine.paused = false;
        app.notify("analysis board off");
    }
}

/// Starts analysing the position shown, stopping any search running.
pub fn restart(app: &mut App) -> Vec<Effect> {
    let mut effects = stop_search(app);
    log_final_lines(app);
    if app.position().outcome().is_some() {
        app.log
            .push(LogKind::Note, "analysis: the game is over here".to_owned());
        return effects;
    }
    let multipv = usize::from(app.config.settings.multipv);
    effects.push(start(app, Purpose::Analyse, multipv));
    effects
}

/// Starts a search of `purpose` on the position shown at full strength: no limit
/// for analysis, the configured limits for a hint.
pub fn start(app: &mut App, purpose: Purpose, multipv: usize) -> Effect {
    let id = app.engine.next_id;
    app.engine.next_id += 1;
    let settings = &app.config.settings;
    let analyse = purpose == Purpose::Analyse;
    let request = SearchRequest {
        id,
        position: app.position().clone(),
        // Analysis and hints come from the strong engine (or the chosen external one),
        // whatever algorithm plays the game.
        algorithm: xiangqi_engine::search::Algorithm::AlphaBeta,
        depth: if analyse { None } else { settings.depth },
        movetime_ms: if analyse { None } else { settings.movetime_ms },
        nodes: if analyse { None } else { settings.nodes },
        infinite: false,
        hash_mb: settings.hash_mb,
        threads: settings.threads.resolve(),
        trace: TraceLevel::Summary,
        step: false,
        notation: app.display_notation(),
        multipv,
        level: xiangqi_engine::engine::skill::MAX_LEVEL,
        // Analysis is untimed; a chosen external engine analyses too.
        clock: None,
        external: super::engine_choice::chosen_external(app),
    };
    app.engine.thinking = Some(Thinking {
        id,
        side: app.position().side_to_move(),
        info: None,
        play_result: false,
        purpose,
    });
    let side = app.position().side_to_move().name();
    let header = match purpose {
        Purpose::Analyse => {
            format!("analysis: {side} to move, {multipv} lines")
        }
        _ => format!("hint for {side}"),
    };
    app.log.push(LogKind::Search, header);
    app.log.step = Some(StepState::free());
    app.log.follow();
    Effect::StartSearch(Box::new(request))
}

/// The lines of an analysis iteration, for the table.
pub fn on_lines(app: &mut App, lines: Vec<PvLine>) {
    let depth = app
        .engine
        .thinking
        .as_ref()
        .and_then(|t| t.info.as_ref())
        .map_or(0, |info| info.depth);
    app.analysis.depth = depth;
    app.analysis.lines = lines;
    app.analysis.position = Some(app.position().clone());
}

/// The table's lines leave it (the position changes, the board closes): the log keeps
/// them, as the record of what the analysis found there.
fn log_final_lines(app: &mut App) {
    let lines = std::mem::take(&mut app.analysis.lines);
    if let Some(position) = app.analysis.position.take() {
        for (index, line) in lines.iter().enumerate() {
            let text = line_text(app, &position, app.analysis.depth, index, line);
            app.log.push(LogKind::Iteration, text);
        }
    }
    app.analysis.depth = 0;
}

/// An analysis line of `position` for the log: depth, rank, score, variation in the
/// chosen notation.
fn line_text(app: &App, position: &Position, depth: u32, index: usize, line: &PvLine) -> String {
    let pv = format_line(position, &line.pv, app.display_notation()).join(" ");
    format!(
        "d{depth:<2} {}. {:>7} {pv}",
        index + 1,
        line.verdict().shown(position.side_to_move())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::Color;
    use xiangqi_engine::engine::Verdict;

    #[test]
    fn scores_turn_to_reds_view_and_are_clipped() {
        let red_view = |score: Verdict, side| score.red_view(side).clipped(GRAPH_CLIP);
        assert_eq!(red_view(Verdict::Centipawns(35), Color::Red), 35);
        assert_eq!(red_view(Verdict::Centipawns(35), Color::Black), -35);
        assert_eq!(red_view(Verdict::Centipawns(5000), Color::Red), GRAPH_CLIP);
        assert_eq!(red_view(Verdict::Mate(3), Color::Black), -GRAPH_CLIP);
        assert_eq!(red_view(Verdict::Mate(-2), Color::Black), GRAPH_CLIP);
    }
}
