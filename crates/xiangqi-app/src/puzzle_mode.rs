//! The puzzle trainer in the app (`:puzzle`): the attempt (`train::PuzzleSession`) on
//! the board, the game kept aside untouched, the prover's work handed to the driver as
//! effects, the ratings updated and the attempt handed over to be kept.
//!
//! The game stays in `app.game` the whole time: the board shows the puzzle's position
//! (`App::shown_position`), moves go to the attempt (`browse::play_shown`), the engine
//! does not play (`App::engine_plays`) and the clocks stand (`flow::hold_clock`).

use crate::game::rating::Rating;
use crate::train::{
    Attempt, PuzzleAnswer, PuzzleFilter, PuzzleProfile, PuzzleSession, Status, find_puzzle, pick,
    rate_attempt,
};
use xiangqi_core::board::{Color, Move, Position, Square};
use xiangqi_engine::puzzle::{Puzzle, Theme, builtin};

use super::action::{Command, Direction, Effect};
use super::app::{App, AppMode, Focus};
use super::aside::Kept;

#[path = "puzzle_tree.rs"]
mod tree;

pub use tree::ProofTreeView;
use tree::{toggle_tree, walk_tree};

/// The player's puzzle data, kept in the app across visits to the trainer (the driver
/// loads it from the store).
#[derive(Debug, Clone)]
pub struct Trainer {
    pub profile: PuzzleProfile,
    /// Attempts opened so far: each numbers its prover requests apart (`open`).
    pub attempts: u64,
    /// The time an attempt is stamped with, in seconds since the epoch (a fixed one in
    /// tests).
    pub clock: fn() -> u64,
}

impl Default for Trainer {
    fn default() -> Trainer {
        Trainer {
            profile: PuzzleProfile::default(),
            attempts: 0,
            clock: unix_now,
        }
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A finished attempt for the store: the history line, the player's rating after it
/// and, if it was rated, the puzzle's.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRecord {
    pub attempt: Attempt,
    pub player: Rating,
    pub puzzle: Option<Rating>,
}

// Ratings are floats, compared as they are (effects are compared in tests).
impl Eq for PuzzleRecord {}

/// How the last finished attempt moved the ratings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChange {
    pub solved: bool,
    pub rated: bool,
    pub player_before: f64,
    pub player_after: f64,
    pub puzzle_after: f64,
}

/// The trainer's state while it is open.
#[derive(Debug, Clone)]
pub struct PuzzleMode {
    pub session: PuzzleSession,
    /// The attempt's position (the board shows it).
    pub position: Position,
    pub filter: PuzzleFilter,
    pub kept: Box<Kept>,
    pub change: Option<RatingChange>,
    pub tree: Option<ProofTreeView>,
    /// The last id of a proof tree request (kept when the tree closes).
    tree_ids: u64,
    /// Effects for the driver, taken at the end of the update (`flow::settle`).
    pub outbox: Vec<Effect>,
    recorded: bool,
}

impl PuzzleMode {
    /// The point to show: the tree's position while it is open, else the attempt's.
    pub fn shown(&self) -> &Position {
        match &self.tree {
            Some(tree) => &tree.level().position,
            None => &self.position,
        }
    }

    /// The piece a hint marks.
    pub fn hint(&self) -> Option<Square> {
        self.tree.is_none().then_some(self.session.hint).flatten()
    }

    /// The attacking side (at the bottom of the board).
    pub fn solver(&self) -> Color {
        self.session.start.side_to_move()
    }
}

fn mode(app: &App) -> Option<&PuzzleMode> {
    match &app.mode {
        AppMode::Puzzle(mode) => Some(mode),
        _ => None,
    }
}

fn mode_mut(app: &mut App) -> Option<&mut PuzzleMode> {
    match &mut app.mode {
        AppMode::Puzzle(mode) => Some(mode),
        _ => None,
    }
}

/// `:puzzle [ID | next | retry | hint | tree | leave | mate N | theme NAME]`.
pub fn command_line(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    let words: Vec<&str> = argument.split_whitespace().collect();
    let in_trainer = mode(app).is_some();
    match words.as_slice() {
        ["leave"] if in_trainer => return Ok(leave(app)),
        ["next"] if in_trainer => return next(app),
        ["retry"] if in_trainer => {
            retry(app);
            return Ok(Vec::new());
        }
        ["hint"] if in_trainer => return Ok(hint(app)),
        ["history"] => {
            show_history(app);
            return Ok(Vec::new());
        }
        ["tree" | "solution"] if in_trainer => return Ok(toggle_tree(app)),
        [word] if word.len() == 8 && word.chars().all(|c| c.is_ascii_hexdigit()) => {
            let puzzle = find_puzzle(builtin(), word)
                .ok_or_else(|| format!("no puzzle {word} in the built-in set"))?;
            let filter = mode(app).map(|m| m.filter).unwrap_or_default();
            return Ok(open(app, puzzle.clone(), filter));
        }
        _ => {}
    }
    let filter = parse_filter(&words)?;
    let puzzle =
        pick(builtin(), &app.trainer.profile, &filter).ok_or("no built-in puzzle matches that")?;
    Ok(open(app, puzzle.clone(), filter))
}

/// How many attempts `:puzzle history` lists.
const HISTORY_SHOWN: usize = 15;

/// `:puzzle history`: the rating and the latest attempts, newest first.
fn show_history(app: &mut App) {
    let profile = &app.trainer.profile;
    let mut text = format!(
        "puzzle rating {} after {} attempt(s)\n",
        profile.rating.label(),
        profile.history.len()
    );
    for attempt in profile.history.iter().rev().take(HISTORY_SHOWN) {
        text.push_str(&format!(
            "\n{}  {}  {}  {:.0}  {}",
            attempt.puzzle,
            if attempt.solved { "solved" } else { "failed" },
            if attempt.rated { "rated  " } else { "unrated" },
            attempt.rating_after,
            utc_date(attempt.at)
        ));
    }
    app.popups.push(super::popup::Popup::Message {
        title: "Puzzle history".to_owned(),
        text,
    });
}

/// `2026-11-28` of seconds since the epoch (UTC; the civil calendar from days).
fn utc_date(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Opens the trainer at start (`puzzles play [ID]`), on `argument` as `:puzzle` takes
/// it. Nothing runs yet at start, so there are no effects to carry out.
pub fn open_puzzle(app: &mut App, argument: &str) -> Result<(), String> {
    command_line(app, argument).map(|_| ())
}

/// `mate N` and `theme NAME`, in any order.
fn parse_filter(words: &[&str]) -> Result<PuzzleFilter, String> {
    let mut filter = PuzzleFilter::default();
    let mut rest = words;
    while let [key, value, tail @ ..] = rest {
        match *key {
            "mate" => {
                let n: u32 = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=9).contains(n))
                    .ok_or_else(|| format!("mate needs a number of moves, not '{value}'"))?;
                filter.mate_in = Some(n);
            }
            "theme" => {
                let theme: Theme = value.parse().map_err(|_| {
                    let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                    format!("no theme '{value}'; themes: {}", names.join(" "))
                })?;
                filter.theme = Some(theme);
            }
            other => return Err(usage(other)),
        }
        rest = tail;
    }
    match rest {
        [] => Ok(filter),
        [word, ..] => Err(usage(word)),
    }
}

fn usage(word: &str) -> String {
    format!(
        "not understood: '{word}'; :puzzle [ID | mate N | theme NAME | history | next | retry \
         | hint | tree | leave]"
    )
}

/// Opens `puzzle`: the game is kept aside (as it is) when the trainer was not open; an
/// attempt left unfinished counts as failed if it was begun.
pub fn open(app: &mut App, puzzle: Puzzle, filter: PuzzleFilter) -> Vec<Effect> {
    let mut effects = Vec::new();
    let kept = match std::mem::take(&mut app.mode) {
        AppMode::Puzzle(mut old) => {
            finish_begun(app, &mut old);
            effects.append(&mut old.outbox);
            old.kept
        }
        previous => {
            // The game's search stops; settle starts it again when the trainer closes.
            effects.extend(super::flow::stop_search(app));
            Box::new(Kept::take(app, previous))
        }
    };
    // Requests of an attempt are numbered from attempts << 32 (the proof tree's from
    // half-way), so a late answer to another attempt's request is dropped.
    app.trainer.attempts += 1;
    let base = app.trainer.attempts << 32;
    let session = PuzzleSession::new(puzzle).with_request_ids_from(base);
    app.flipped = session.start.side_to_move() == Color::Black;
    app.orient_cursor();
    app.selected = None;
    app.hint = None;
    app.focus = Focus::Input;
    app.input.clear();
    let text = format!(
        "puzzle {}: {} to move, mate in {}",
        session.puzzle.id,
        side_name(session.start.side_to_move()),
        session.puzzle.mate_in
    );
    app.mode = AppMode::Puzzle(Box::new(PuzzleMode {
        position: session.position(),
        session,
        filter,
        kept,
        change: None,
        tree: None,
        tree_ids: base + (1 << 31),
        outbox: Vec::new(),
        recorded: false,
    }));
    app.notify(text);
    effects
}

pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Ctrl-X, `:puzzle leave`: back to the game and what the app was doing.
pub fn leave(app: &mut App) -> Vec<Effect> {
    let AppMode::Puzzle(mut old) = std::mem::take(&mut app.mode) else {
        return Vec::new();
    };
    finish_begun(app, &mut old);
    let effects = std::mem::take(&mut old.outbox);
    old.kept.restore(app);
    app.notify("back to the game");
    effects
}

/// An attempt left with moves played (or a hint taken) counts as failed.
fn finish_begun(app: &mut App, mode: &mut PuzzleMode) {
    let session = &mode.session;
    let begun = session.ply() > 0
        || session.status == Status::Waiting
        || session.hint_used
        || session.solution_shown;
    if !mode.recorded && begun {
        record(app, mode, false);
    }
}

/// The keys that mean something else in the trainer (`keymap`'s puzzle help); `None`
/// for a command that does what it always does.
pub fn command(app: &mut App, command: Command) -> Option<Vec<Effect>> {
    let tree_open = mode(app).is_some_and(|m| m.tree.is_some());
    Some(match command {
        Command::Undo => {
            retry(app);
            Vec::new()
        }
        Command::NewGame => next(app).unwrap_or_else(|message| {
            app.alert(message);
            Vec::new()
        }),
        Command::Hint => hint(app),
        Command::PuzzleTree => toggle_tree(app),
        Command::LeaveTraining => leave(app),
        Command::MoveCursor(direction) if tree_open => walk_tree(app, direction),
        // The game's move list is not shown: a click there must not browse it unseen.
        Command::GoToPly(_) | Command::Browse(_) | Command::JumpToMarked(_) => Vec::new(),
        Command::PickOrPut if tree_open => walk_tree(app, Direction::Right),
        _ => return None,
    })
}

/// The next puzzle, with the same filter.
fn next(app: &mut App) -> Result<Vec<Effect>, String> {
    let Some(current) = mode(app) else {
        return Ok(Vec::new());
    };
    let filter = current.filter;
    let id = current.session.puzzle.id.clone();
    // The current one counts as lately attempted only once recorded: skip it anyway.
    let mut profile = app.trainer.profile.clone();
    profile.history.push(Attempt {
        puzzle: id,
        at: 0,
        solved: false,
        rated: false,
        rating_after: profile.rating.rating,
    });
    let puzzle = pick(builtin(), &profile, &filter).ok_or("no other puzzle matches")?;
    Ok(open(app, puzzle.clone(), filter))
}

fn retry(app: &mut App) {
    let Some(mode) = mode_mut(app) else {
        return;
    };
    mode.session.retry();
    mode.tree = None;
    refresh(app);
    app.notify("your move again (the attempt stays as it was scored)");
}

fn hint(app: &mut App) -> Vec<Effect> {
    let Some(mode) = mode_mut(app) else {
        return Vec::new();
    };
    match mode.session.ask_hint() {
        Ok(Some(request)) => {
            app.notify("finding a hint...");
            return vec![Effect::Puzzle(Box::new(request))];
        }
        Ok(None) => app.notify("hint: the marked piece moves"),
        Err(message) => app.alert(message),
    }
    Vec::new()
}

/// A move of the solver, from the input line or the board.
pub fn play(app: &mut App, mv: Move) {
    app.selected = None;
    let Some(mode) = mode_mut(app) else {
        return;
    };
    if mode.tree.is_some() {
        app.alert("the proof tree is open: Ctrl-V closes it");
        return;
    }
    match mode.session.play(mv) {
        Ok(Some(request)) => {
            mode.outbox.push(Effect::Puzzle(Box::new(request)));
            app.notify("the prover judges the move...");
        }
        Ok(None) => {}
        Err(message) => app.alert(message),
    }
    refresh(app);
}

/// The prover's answer.
pub fn apply(app: &mut App, answer: PuzzleAnswer) -> Vec<Effect> {
    let Some(mode) = mode_mut(app) else {
        return Vec::new();
    };
    if let PuzzleAnswer::Node { id, node } = answer {
        if let Some(level) = mode
            .tree
            .as_mut()
            .and_then(|tree| tree.levels.iter_mut().find(|l| l.request == id))
        {
            level.failed = node.is_none();
            level.node = node;
        }
        return Vec::new();
    }
    let hint_asked = matches!(answer, PuzzleAnswer::Hint { .. });
    mode.session.apply(answer);
    let no_hint = hint_asked && mode.session.hint.is_none();
    // The pane says what the answer was; "judging..." is over.
    app.notice = None;
    if no_hint {
        app.alert("no hint: the prover ran out of its budget");
    }
    refresh(app);
    Vec::new()
}

/// After the attempt changed: the position shown, and the ratings once it is over.
fn refresh(app: &mut App) {
    let Some(mode) = mode_mut(app) else {
        return;
    };
    mode.position = mode.session.position();
    let over = matches!(mode.session.status, Status::Solved | Status::Refuted);
    if over
        && !mode.recorded
        && let Some(solved) = mode.session.result()
    {
        let AppMode::Puzzle(mut taken) = std::mem::take(&mut app.mode) else {
            return;
        };
        record(app, &mut taken, solved);
        app.mode = AppMode::Puzzle(taken);
    }
}

/// Rates and keeps the attempt (once per attempt).
fn record(app: &mut App, mode: &mut PuzzleMode, solved: bool) {
    mode.recorded = true;
    let profile = &mut app.trainer.profile;
    let before = profile.rating.rating;
    let puzzle = &mode.session.puzzle;
    let attempt = rate_attempt(profile, puzzle, solved, (app.trainer.clock)());
    let puzzle_rating = profile.puzzle_rating(puzzle);
    mode.change = Some(RatingChange {
        solved,
        rated: attempt.rated,
        player_before: before,
        player_after: profile.rating.rating,
        puzzle_after: puzzle_rating.rating,
    });
    mode.outbox
        .push(Effect::RecordPuzzle(Box::new(PuzzleRecord {
            player: profile.rating,
            puzzle: attempt.rated.then_some(puzzle_rating),
            attempt,
        })));
}

/// Whether the trainer still waits for the answer to prover request `id` (a move
/// judged, a hint, a node of the proof tree): taken back, another puzzle or the
/// trainer left, it does not.
pub fn awaits(app: &App, id: u64) -> bool {
    mode(app).is_some_and(|mode| {
        mode.session.pending() == Some(id)
            || mode.tree.as_ref().is_some_and(|tree| {
                tree.levels
                    .iter()
                    .any(|level| level.request == id && level.node.is_none() && !level.failed)
            })
    })
}

/// The effects the trainer queued during an update (moves are played where no effect
/// can be returned).
pub fn take_effects(app: &mut App) -> Vec<Effect> {
    mode_mut(app).map_or_else(Vec::new, |m| std::mem::take(&mut m.outbox))
}
