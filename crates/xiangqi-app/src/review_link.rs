//! `:review`: the engine's review of the game (src/review) in the background. The app
//! hands the game to the driver as an effect, the driver reviews it on a thread through
//! the engine service, and the progress and the result come back as actions: the status
//! line counts the positions, then the score graph gets the game's scores and marks, the
//! move list the marks (`?!`, `?`, `??`), and `n`/`N` on the board jump between the
//! marked moves. The marks hold for the moves the game still shares with the one
//! reviewed.

use std::sync::Arc;

use xiangqi_core::board::{Move, Position};
use xiangqi_core::record::GameRecord;
use xiangqi_engine::egtb::Tablebases;
use xiangqi_engine::engine::Limits;
use xiangqi_engine::review::{
    DEFAULT_DEPTH, GameReview, MoveClass, MoveReview, ReviewLimits, builtin_searchers, positions,
    review_game,
};

use super::action::Effect;
use super::analysis::GRAPH_CLIP;
use super::app::App;
use super::notation_link::format_line;

/// A review the driver carries out.
#[derive(Debug, Clone)]
pub struct ReviewRequest {
    pub id: u64,
    pub record: GameRecord,
    pub limits: ReviewLimits,
}

/// Two requests are the same review when they have the same id.
impl PartialEq for ReviewRequest {
    fn eq(&self, other: &ReviewRequest) -> bool {
        self.id == other.id
    }
}

impl Eq for ReviewRequest {}

/// What the reviewing thread reports.
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewUpdate {
    Progress { id: u64, done: usize, total: usize },
    Done { id: u64, review: Box<GameReview> },
    Failed { id: u64, message: String },
}

// The review's losses are floats, compared as they are (actions are compared in tests).
impl Eq for ReviewUpdate {}

/// A review under way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    pub id: u64,
    pub done: usize,
    pub total: usize,
}

/// A finished review and the game it was of.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviewed {
    pub start: Position,
    pub moves: Vec<Move>,
    pub review: GameReview,
}

/// The app's reviews: the one running, the last one finished.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReviewState {
    next_id: u64,
    pub running: Option<Running>,
    pub done: Option<Reviewed>,
}

impl ReviewState {
    /// "reviewing 23/81" for the status line.
    pub fn describe(&self) -> Option<String> {
        self.running
            .as_ref()
            .map(|r| format!("reviewing {}/{}", r.done, r.total))
    }
}

/// `:review`: the game as an effect, searched to the review's depth on as many workers
/// as the engine has threads.
pub fn request(app: &mut App) -> Result<Vec<Effect>, String> {
    // A server session has no engine of its own but runs reviews with the built-in one.
    let remote = matches!(app.mode, super::app::AppMode::Room(_));
    if !app.engine.available && !remote {
        return Err("this build has no engine".to_owned());
    }
    if let Some(running) = &app.review.running {
        return Err(format!(
            "a review is running ({}/{} positions): wait for it",
            running.done, running.total
        ));
    }
    let record = app.game.to_record();
    if record.moves.is_empty() {
        return Err("no moves to review yet".to_owned());
    }
    let settings = &app.config.settings;
    let limits = ReviewLimits {
        limits: Limits::depth(DEFAULT_DEPTH),
        threads: settings.threads.resolve(),
        hash_mb: settings.hash_mb,
    };
    app.review.next_id += 1;
    let id = app.review.next_id;
    let total = record.moves.len() + 1;
    app.review.running = Some(Running { id, done: 0, total });
    app.notify(format!(
        "reviewing {total} positions at depth {DEFAULT_DEPTH} on {} thread(s)",
        limits.threads
    ));
    Ok(vec![Effect::Review(Box::new(ReviewRequest {
        id,
        record,
        limits,
    }))])
}

/// The work of the reviewing thread: `send` after each position (false: nobody
/// listens, stop), then the review or why it failed.
pub fn run(
    request: &ReviewRequest,
    tablebases: Option<Arc<Tablebases>>,
    send: &mut dyn FnMut(ReviewUpdate) -> bool,
) {
    let searcher = builtin_searchers(request.limits.hash_mb, tablebases);
    let id = request.id;
    let result = review_game(
        &request.record,
        &request.limits,
        &searcher,
        &mut |done, total| send(ReviewUpdate::Progress { id, done, total }),
    );
    send(match result {
        Ok(review) => ReviewUpdate::Done {
            id,
            review: Box::new(review),
        },
        Err(error) => ReviewUpdate::Failed {
            id,
            message: error.to_string(),
        },
    });
}

/// A report of the reviewing thread; reports of an earlier review are dropped.
pub fn apply(app: &mut App, update: ReviewUpdate) {
    let current = app.review.running.as_ref().map(|r| r.id);
    match update {
        ReviewUpdate::Progress { id, done, total } if Some(id) == current => {
            app.review.running = Some(Running { id, done, total });
        }
        ReviewUpdate::Done { id, review } if Some(id) == current => {
            app.review.running = None;
            let record = app.game.to_record();
            let reviewed = Reviewed {
                start: record.start.clone(),
                moves: record.moves.clone(),
                review: *review,
            };
            keep_scores(app, &record, &reviewed.review);
            let errors = reviewed.review.errors().count();
            let accuracy = |a: Option<f64>| a.map_or_else(|| "-".to_owned(), |a| format!("{a:.1}"));
            let marked = match errors {
                0 => "no move marked ?! ? or ??".to_owned(),
                1 => "1 marked move: n/N on the board jump to it".to_owned(),
                n => format!("{n} marked moves: n/N on the board jump to them"),
            };
            app.notify(format!(
                "review: accuracy Red {} Black {}; {marked}",
                accuracy(reviewed.review.red_accuracy),
                accuracy(reviewed.review.black_accuracy)
            ));
            app.review.done = Some(reviewed);
        }
        ReviewUpdate::Failed { id, message } if Some(id) == current => {
            app.review.running = None;
            app.alert(format!("review failed: {message}"));
        }
        _ => {}
    }
}

/// The score graph shows the review's scores: each position's best play before its
/// move, and the last position's after the last move.
fn keep_scores(app: &mut App, record: &GameRecord, review: &GameReview) {
    let positions = positions(record);
    for (pos, m) in positions.iter().zip(&review.moves) {
        app.analysis.set_score(pos, m.before.clipped(GRAPH_CLIP));
    }
    if let (Some(last), Some(m)) = (positions.last(), review.moves.last()) {
        app.analysis.set_score(last, m.after.clipped(GRAPH_CLIP));
    }
}

/// The review's moves that still stand in the game: the reviewed game's moves as far
/// as the game played the same ones.
pub fn standing(app: &App) -> &[MoveReview] {
    let Some(done) = &app.review.done else {
        return &[];
    };
    if done.start != *app.game.start() {
        return &[];
    }
    let same = app
        .game
        .moves()
        .zip(&done.moves)
        .take_while(|(a, b)| a == *b)
        .count();
    &done.review.moves[..same.min(done.review.moves.len())]
}

/// The class of move `index` (0: the first), when a review still holds for it.
pub fn class_of(app: &App, index: usize) -> Option<MoveClass> {
    standing(app).get(index).map(|m| m.class)
}

/// `n` / `N`: shows the position after the next (or previous) marked move of either
/// side and says what it was.
pub fn jump(app: &mut App, forward: bool) {
    let shown = app.shown_ply();
    let marked: Vec<&MoveReview> = standing(app)
        .iter()
        .filter(|m| m.class.is_error())
        .collect();
    if app.review.done.is_none() {
        // Without a review the key is what it was on the board: the start of a typed
        // move (WXF's N for a horse).
        app.focus = super::app::Focus::Input;
        app.input.insert(if forward { 'n' } else { 'N' });
        return;
    }
    let target = if forward {
        marked.iter().find(|m| m.ply > shown)
    } else {
        marked.iter().rev().find(|m| m.ply < shown)
    };
    let Some(target) = target.map(|m| (*m).clone()) else {
        app.notify(if forward {
            "no marked move after this one"
        } else {
            "no marked move before this one"
        });
        return;
    };
    super::browse::go_to_shown(app, target.ply);
    let text = describe(app, &target);
    app.notify(text);
}

/// "12... 马8进7?? blunder (-45.2%): 马2进3 was best" in the notation shown.
fn describe(app: &App, m: &MoveReview) -> String {
    let notation = app.display_notation();
    let mut before = app.game.start().clone();
    for mv in app.game.moves().take(m.ply - 1) {
        before.make_move(mv);
    }
    let number = before.fullmove_number().max(1);
    let dots = if m.side == xiangqi_core::board::Color::Red {
        "."
    } else {
        "..."
    };
    let played = format_line(&before, &[m.mv], notation).join("");
    let mut text = format!(
        "{number}{dots} {played}{} {} (-{:.1}%)",
        m.class.symbol(),
        m.class,
        m.loss
    );
    if !m.best_line.is_empty() {
        let line = format_line(&before, &m.best_line, notation);
        let shown: Vec<&str> = line.iter().take(4).map(String::as_str).collect();
        text.push_str(&format!(": {} was best ({})", line[0], shown.join(" ")));
    }
    text
}
