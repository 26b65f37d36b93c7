//! The game flow: playing a move, taking back, starting and stopping the engine's
//! searches, and the settle step `update` ends with. Handlers change the game and the
//! app's state; `settle` then works out from that state what follows (stop a search
//! left behind, save, let the engine move), so no handler does that bookkeeping itself.

use crate::config::EngineSide;
use crate::game::{GameState, RuleError, TakebackReply};
use xiangqi_core::board::Move;
use xiangqi_core::board::rules::Outcome;
use xiangqi_engine::service::SearchRequest;

use super::action::Effect;
use super::app::{App, AppMode, Thinking};
use super::popup::Popup;
use super::search_log::LogKind;
use super::{analysis, book_link, engine_events, game_controls, notation_link, records};

/// The game as settle compares it: what the autosave and a running search depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameMark {
    ply: usize,
    key: u64,
    outcome: Option<Outcome>,
}

impl GameMark {
    fn of(app: &App) -> GameMark {
        GameMark {
            ply: app.game.ply(),
            key: app.position().key(),
            outcome: app.game.outcome(),
        }
    }
}

/// What decides whether the engine should be looked at again: its side, its mode,
/// whether it is held or busy.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Situation {
    engine_side: EngineSide,
    engine: String,
    analysis: bool,
    /// A drill runs: the game waits.
    drill: bool,
    paused: bool,
    thinking: bool,
}

impl Situation {
    /// Whether a search started in `self` is for nothing in `now`: another side, another
    /// engine, or the mode left.
    fn outdated_by(&self, now: &Situation) -> bool {
        self.engine_side != now.engine_side
            || self.engine != now.engine
            || self.analysis != now.analysis
            || self.drill != now.drill
    }

    fn of(app: &App) -> Situation {
        Situation {
            engine_side: app.engine_side(),
            engine: app.config.settings.engine.clone(),
            analysis: app.analysing(),
            drill: matches!(app.mode, AppMode::Drill(_)),
            paused: app.engine.paused,
            thinking: app.engine.thinking.is_some(),
        }
    }
}

/// What the last settle step left behind.
#[derive(Debug, Clone, Default)]
pub struct Settled {
    /// The game when last settled; `None` for a game just started.
    game: Option<GameMark>,
    /// The game the autosave holds; `None` when unknown (it is written again).
    saved: Option<GameMark>,
    /// The engine's situation when last looked at; `None`: look at the next settle.
    situation: Option<Situation>,
    quitting: bool,
    /// The game clock was stopped because the player cannot move (help or the
    /// analysis board open); it runs again when they close.
    clock_held: bool,
}

impl Settled {
    /// The app as it starts: settled, so nothing is saved or started until something
    /// happens (the driver lets the engine begin with `settle_at_start`).
    pub fn new(app: &App) -> Settled {
        Settled {
            game: Some(GameMark::of(app)),
            saved: Some(GameMark::of(app)),
            situation: Some(Situation::of(app)),
            quitting: false,
            clock_held: false,
        }
    }
}

impl Settled {
    /// The engine is looked at again at the next settle (back from the puzzles).
    pub fn reconsider_engine(&mut self) {
        self.situation = None;
    }
}

/// At start: the engine moves first if it is its turn (once a resumed game is chosen).
pub fn settle_at_start(app: &mut App) -> Vec<Effect> {
    app.settled.situation = None;
    let mut effects = Vec::new();
    settle(app, &mut effects);
    effects
}

/// The end of every update: a search for a position, a side, an engine or a mode that
/// is gone is stopped, a changed game saved, and the engine started if it is its turn
/// (the analysis board restarted on a new position). On quitting: the search stops,
/// the game is saved once more, and `Effect::Quit` comes last.
pub fn settle(app: &mut App, effects: &mut Vec<Effect>) {
    let quitting_now = app.quitting && !app.settled.quitting;
    app.settled.quitting = app.quitting;
    // A book move played by the engine changes the game again: settle until it rests.
    loop {
        let game = GameMark::of(app);
        let game_changed = app.settled.game != Some(game);
        let outdated = app
            .settled
            .situation
            .as_ref()
            .is_some_and(|old| old.outdated_by(&Situation::of(app)));
        if game_changed || outdated || quitting_now {
            effects.extend(stop_search(app));
        }
        if game_changed {
            super::browse::follow_browse(app);
        }
        hold_clock(app);
        if app.settled.saved != Some(game) || quitting_now {
            effects.extend(save_effects(app));
            app.settled.saved = Some(game);
        }
        app.settled.game = Some(game);
        if app.quitting {
            break;
        }
        // The game to play is not chosen while the resume question is open.
        let resuming = matches!(app.popups.last(), Some(Popup::Resume));
        if !resuming {
            let situation = Situation::of(app);
            let mode_changed = app
                .settled
                .situation
                .as_ref()
                .is_none_or(|old| old.analysis != situation.analysis);
            if app.analysing() {
                // A new position on the analysis board is analysed at once.
                if game_changed || mode_changed {
                    effects.extend(analysis::restart(app));
                }
            } else if game_changed || app.settled.situation.as_ref() != Some(&situation) {
                effects.extend(start_engine_if_due(app));
            }
            app.settled.situation = Some(Situation::of(app));
        }
        if app.settled.game == Some(GameMark::of(app)) {
            break;
        }
    }
    effects.extend(super::puzzle_mode::take_effects(app));
    if quitting_now {
        effects.push(Effect::Quit);
    }
}

/// A clock does not run while the player cannot move: help or the resume question
/// open in a local game, or the analysis board entered from a game. A room's clock is
/// shared: it runs on (the help says so).
fn hold_clock(app: &mut App) {
    let waiting = app
        .popups
        .iter()
        .any(|popup| matches!(popup, Popup::Help { .. } | Popup::Resume));
    let hold = match app.mode {
        AppMode::Play => waiting,
        AppMode::Analysis | AppMode::Puzzle(_) | AppMode::Drill(_) => true,
        AppMode::Study(_) | AppMode::Room(_) => false,
    };
    let now = app.now();
    if hold && !app.settled.clock_held && app.clock_ticking() {
        app.clock.stop(now);
        app.settled.clock_held = true;
    } else if !hold && app.settled.clock_held {
        app.settled.clock_held = false;
        if !app.game_over() {
            app.clock.start(app.position().side_to_move(), now);
        }
    }
}

/// The autosave already holds the game shown (it was resumed from it).
pub fn mark_saved(app: &mut App) {
    app.settled.saved = Some(GameMark::of(app));
}

/// Replaces the game, keeping the settings; the board turns to the player's side.
pub fn start_game(app: &mut App, game: GameState) {
    app.game = game;
    app.browse = None;
    app.settled.game = None;
    app.selected = None;
    app.input.clear();
    app.log.clear();
    app.engine.paused = false;
    app.engine.last = None;
    app.hint = None;
    app.orient();
    app.reset_clock();
}

/// Effects that keep the autosave in step with the game: the unfinished game, or
/// nothing to resume when it is over or empty.
fn save_effects(app: &App) -> Vec<Effect> {
    if app.game.ply() == 0 || app.game_over() {
        vec![Effect::RemoveAutosave]
    } else {
        vec![Effect::Autosave(records::autosave_text(
            &super::resume::saved_game(app),
        ))]
    }
}

/// Plays `mv` (legal) on the board; settle saves and lets the engine answer.
pub fn play_move(app: &mut App, mv: Move) {
    let now = app.now();
    // A move made after the flag fell does not count: the game is lost on time.
    if app.game.play_on_clock(mv, &mut app.clock, now).is_err() {
        game_controls::game_ended(app);
        return;
    }
    app.hint = None;
    app.selected = None;
    app.cursor_shown = false;
    if app.game_over() {
        game_controls::game_ended(app);
    }
}

/// Starts a search if the engine is to move and free to.
fn start_engine_if_due(app: &mut App) -> Vec<Effect> {
    let side = app.position().side_to_move();
    if app.engine.thinking.is_some()
        || app.engine.paused
        || app.game_over()
        || !app.engine_plays(side)
    {
        return Vec::new();
    }
    engine_turn(app)
}

/// The engine's move: from the book when it has one (no search), else a search.
fn engine_turn(app: &mut App) -> Vec<Effect> {
    if let Some(mv) = book_link::engine_book_move(app) {
        let text = notation_link::format_move(app.position(), mv, app.display_notation());
        app.log.push(LogKind::Result, format!("book move {text}"));
        play_move(app, mv);
        return Vec::new();
    }
    vec![start_search(app)]
}

/// Starts a search for the side to move.
fn start_search(app: &mut App) -> Effect {
    let id = app.engine.next_id;
    app.engine.next_id += 1;
    let settings = &app.config.settings;
    let side = app.position().side_to_move();
    // On a clock the engine manages its own time; a time per move would only cut it short.
    let clock = app.clock.engine_clock(side, app.now());
    let request = SearchRequest {
        id,
        position: app.position().clone(),
        algorithm: settings.algorithm,
        depth: settings.depth,
        movetime_ms: settings.movetime_ms.filter(|_| clock.is_none()),
        clock,
        nodes: settings.nodes,
        infinite: false,
        hash_mb: settings.hash_mb,
        threads: settings.threads.resolve(),
        trace: app.search_trace_level(),
        step: app.search_steps(),
        notation: app.display_notation(),
        multipv: 1,
        level: settings.level,
        external: super::engine_choice::chosen_external(app),
    };
    app.engine.thinking = Some(Thinking {
        id,
        side,
        info: None,
        play_result: true,
        purpose: analysis::Purpose::Play,
    });
    engine_events::search_started(app, &request);
    Effect::StartSearch(Box::new(request))
}

/// Stops the running search, if any, and forgets it: its late reports are ignored.
pub fn stop_search(app: &mut App) -> Vec<Effect> {
    match app.engine.thinking.take() {
        Some(thinking) => {
            engine_events::search_ended(app);
            vec![Effect::StopSearch(thinking.id)]
        }
        None => Vec::new(),
    }
}

pub fn engine_move_now(app: &mut App) -> Vec<Effect> {
    if !app.engine.available {
        app.alert("this build has no engine");
        return Vec::new();
    }
    if app.game_over() {
        app.alert("the game is over: Ctrl-N starts a new one, Ctrl-Z takes back");
        return Vec::new();
    }
    app.engine.paused = false;
    match &mut app.engine.thinking {
        Some(thinking) if thinking.purpose == analysis::Purpose::Play => {
            // Its best move so far is played when it reports it.
            thinking.play_result = true;
            let id = thinking.id;
            vec![Effect::StopSearch(id)]
        }
        _ => {
            // An analysis (or nothing) is running: the engine now thinks to play.
            let mut effects = stop_search(app);
            effects.extend(engine_turn(app));
            effects
        }
    }
}

pub fn stop_thinking(app: &mut App) -> Vec<Effect> {
    let effects = stop_search(app);
    if !effects.is_empty() || app.engine_side() == EngineSide::Both {
        app.engine.paused = true;
        app.notify("engine stopped: Ctrl-G lets it move");
    }
    effects
}

pub fn undo(app: &mut App) {
    let side = app.position().side_to_move();
    let plies = match app.game.ask_takeback(side, game_controls::movers(app)) {
        Ok(TakebackReply::TookBack(plies)) => plies,
        Err(RuleError::GameOver) => {
            app.alert("the result stands: n or Ctrl-N starts a new game");
            return;
        }
        // Nobody at one keyboard waits for an answer.
        Ok(TakebackReply::Asked) => return,
        Err(error) => {
            app.alert(error.to_string());
            return;
        }
    };
    app.selected = None;
    app.hint = None;
    let now = app.now();
    app.game.follow_clock(&mut app.clock, now);
    if app.engine_side() == EngineSide::Both {
        app.engine.paused = true;
    }
    app.notify(if plies == 1 {
        "took back one move".to_owned()
    } else {
        "took back your move and the reply".to_owned()
    });
}

pub fn redo(app: &mut App) {
    // Against the engine its reply is replayed too, so a person is to move again.
    if let Err(error) = app.game.replay(game_controls::movers(app)) {
        app.alert(error.to_string());
        return;
    }
    app.hint = None;
    if app.engine_side() == EngineSide::Both {
        app.engine.paused = true;
    }
    app.selected = None;
    let now = app.now();
    app.game.follow_clock(&mut app.clock, now);
    if app.game_over() {
        game_controls::game_ended(app);
    }
}

/// On the analysis board: goes to the position after `ply` plies by taking back or
/// playing again the moves in between (the engine analyses the game's position). A
/// game is browsed without changing it instead (`browse`).
pub fn go_to_ply(app: &mut App, ply: usize) {
    if ply == app.game.ply() {
        return;
    }
    while app.game.ply() > ply && app.game.undo().is_some() {}
    while app.game.ply() < ply && app.game.redo().is_some() {}
    app.selected = None;
    app.hint = None;
    if !app.analysing() && app.engine_side() != EngineSide::None {
        // Looking back through the game: the engine waits until told to move.
        app.engine.paused = true;
    }
}

#[cfg(test)]
mod tests {
    use crate::config::theme::ColorEnv;
    use crate::config::{Config, Overrides};

    use super::super::action::{Action, Command};
    use super::super::update::update;
    use super::*;

    fn app_against_engine() -> App {
        let config = Config::load(None, None, &Overrides::default()).expect("defaults");
        let env = ColorEnv {
            no_color: None,
            colorterm: None,
            term: None,
        };
        App::new(config, env, true)
    }

    fn started(effects: &[Effect]) -> Option<&SearchRequest> {
        effects.iter().find_map(|effect| match effect {
            Effect::StartSearch(request) => Some(&**request),
            _ => None,
        })
    }

    /// A hint's search was left running when the player moved: its answer came for the
    /// old position and, while it ran, the engine never started its reply.
    #[test]
    fn a_move_stops_the_hint_search_and_the_engine_answers() {
        let mut app = app_against_engine();
        let effects = update(&mut app, Action::Command(Command::Hint));
        let hint = started(&effects).expect("a hint search").id;
        app.input.set_text("h2e2");
        let effects = update(&mut app, Action::Command(Command::Submit));
        assert_eq!(effects.first(), Some(&Effect::StopSearch(hint)));
        let reply = started(&effects).expect("the engine answers");
        assert_eq!(
            reply.position.side_to_move(),
            xiangqi_core::board::Color::Black
        );
    }

    #[test]
    fn nothing_happens_until_something_changes() {
        let mut app = app_against_engine();
        assert!(update(&mut app, Action::Resize(100, 30)).is_empty());
        assert!(update(&mut app, Action::Tick).is_empty());
    }
}
