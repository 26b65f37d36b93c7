//! Hints: the engine's best move for the side to move, marked on the board and named
//! on the status line, not played. A new position clears it.

use xiangqi_core::board::Move;
use xiangqi_engine::engine::Verdict;

use super::action::Effect;
use super::analysis::{self, Purpose};
use super::app::App;
use super::notation_link::format_move;

/// The move a hint suggests, and its name in the notation shown when it was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub mv: Move,
    pub text: String,
}

/// Ctrl-H and `:hint`.
pub fn request(app: &mut App) -> Vec<Effect> {
    if !app.engine.available {
        app.alert("this build has no engine");
        return Vec::new();
    }
    if app.game_over() {
        app.alert("the game is over: no hint");
        return Vec::new();
    }
    // The analysis board already has the best line: no need to search again.
    if app.analysing() {
        let best = app.analysis.lines.first();
        let best = best.and_then(|line| Some((*line.pv.first()?, line.verdict())));
        match best {
            Some((mv, verdict)) => show(app, mv, Some(verdict)),
            None => app.alert("hint: the analysis has no line yet"),
        }
        return Vec::new();
    }
    if app.engine.thinking.is_some() {
        app.alert("the engine is thinking: a hint when it is your move");
        return Vec::new();
    }
    app.notify("hint: thinking...");
    vec![analysis::start(app, Purpose::Hint, 1)]
}

/// Shows `mv` (legal in the position shown) as the hint, with the search's score of
/// it (for the side to move) when there is one.
pub fn show(app: &mut App, mv: Move, verdict: Option<Verdict>) {
    let text = format_move(app.position(), mv, app.display_notation());
    let side = app.position().side_to_move();
    match verdict {
        Some(verdict) => app.notify(format!("hint: {text} ({})", verdict.shown(side).labelled())),
        None => app.notify(format!("hint: {text}")),
    }
    app.hint = Some(Hint { mv, text });
}
