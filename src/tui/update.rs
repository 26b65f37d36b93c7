//! `update`: one action in, the state changed, effects out. Game commands live here;
//! keys and mouse are turned into commands in `keys`, engine reports handled in `engine`.

use crate::board::{Move, Square};
use crate::config::{ConfigName, EngineSide, Glyphs, TraceLevel};
use crate::game::{GameState, RuleError, TakebackReply};
use crate::notation::Notation;
use crate::service::{SearchRequest, StepCommand};

use super::action::{Action, Command, Effect, LogScroll};
use super::app::{App, Focus, Thinking};
use super::notation_link;
use super::popup::{Popup, PromptPurpose};
use super::records;
use super::search_log::LogKind;
use super::{analysis, book_link, choices, engine_events, game_controls, hint, keys, loading};
use crate::notation::MoveError;

/// Applies `action` to `app` and returns what the driver must do.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Key(key) => keys::on_key(app, key),
        Action::Mouse(mouse) => keys::on_mouse(app, mouse),
        Action::Paste(text) => {
            keys::on_paste(app, &text);
            Vec::new()
        }
        Action::Resize(width, height) => {
            app.size = (width, height);
            Vec::new()
        }
        Action::Engine(event) => engine_events::on_engine_event(app, event),
        Action::FileRead { path, result } => {
            loading::on_file_read(app, &path, result);
            let mut effects = save_effects(app);
            effects.extend(start_engine_if_due(app));
            effects
        }
        Action::FileWritten { path, result } => {
            match result {
                Ok(()) => app.notify(format!("saved {}", path.display())),
                Err(message) => app.alert(format!("cannot save {}: {message}", path.display())),
            }
            Vec::new()
        }
        Action::Command(command) => run(app, command),
        Action::Compare(progress) => {
            app.compare.apply(progress);
            Vec::new()
        }
        Action::Tick => game_controls::on_tick(app),
    }
}

/// Carries out a command.
pub fn run(app: &mut App, command: Command) -> Vec<Effect> {
    match command {
        Command::Undo => undo(app),
        Command::Redo => redo(app),
        Command::NewGame => game_controls::new_game(app),
        Command::Resign => {
            game_controls::ask_resign(app);
            Vec::new()
        }
        Command::ChooseTime => {
            game_controls::choose_time(app);
            Vec::new()
        }
        Command::Flip => {
            app.flipped = !app.flipped;
            Vec::new()
        }
        Command::EngineMoveNow => engine_move_now(app),
        Command::StopThinking => stop_thinking(app),
        Command::ShowBook => {
            let popup = book_link::popup(app);
            app.popups.push(popup);
            Vec::new()
        }
        Command::Help => {
            super::help::toggle(app);
            Vec::new()
        }
        Command::Quit => quit(app),
        Command::FocusNext => {
            app.focus = app.focus.next();
            Vec::new()
        }
        Command::FocusPrevious => {
            app.focus = app.focus.previous();
            Vec::new()
        }
        Command::MoveCursor(direction) => {
            keys::move_cursor(app, direction);
            Vec::new()
        }
        Command::PickOrPut => pick_or_put(app),
        Command::Step(step) => step_search(app, step),
        Command::ToggleStep => toggle_step(app),
        Command::Load => {
            app.popups.push(prompt(PromptPurpose::Load, ""));
            Vec::new()
        }
        Command::Save => {
            app.popups.push(prompt(PromptPurpose::Save, "game.pgn"));
            Vec::new()
        }
        Command::ChooseTheme => {
            choices::choose_theme(app);
            Vec::new()
        }
        Command::ChooseProfile => {
            choices::choose_profile(app);
            Vec::new()
        }
        Command::ChooseMode => {
            choices::choose_mode(app);
            Vec::new()
        }
        Command::CycleGlyphs => {
            let value = next_of(Glyphs::ALL, app.config.settings.glyphs);
            app.config.settings.glyphs = value;
            app.notify(format!("glyphs: {}", value));
            Vec::new()
        }
        Command::CycleNotation => {
            let value = next_of(Notation::CHOICES, app.config.settings.notation);
            app.config.settings.notation = value;
            app.notify(format!("notation: {}", value));
            Vec::new()
        }
        Command::CycleTrace => {
            let value = next_of(TraceLevel::ALL, app.config.settings.trace);
            app.config.settings.trace = value;
            app.notify(format!("search log: {} (from the next search)", value));
            Vec::new()
        }
        Command::Redraw => vec![Effect::ClearScreen],
        Command::ToggleExplorer => super::explorer::toggle(app),
        Command::Analyze => analysis::toggle(app),
        Command::Hint => hint::request(app),
        Command::GoToPly(ply) => go_to_ply(app, ply),
        Command::Submit => submit_input(app),
        Command::DropOrClear => {
            if app.selected.is_some() {
                app.selected = None;
            } else {
                app.input.clear();
            }
            Vec::new()
        }
        Command::DropPiece => {
            app.selected = None;
            Vec::new()
        }
        Command::FocusInput => {
            app.focus = Focus::Input;
            Vec::new()
        }
        Command::ScrollLog(scroll) => {
            match scroll {
                LogScroll::Up(lines) => app.log.scroll_up(lines),
                LogScroll::Down(lines) => app.log.scroll_down(lines),
                LogScroll::Oldest => app.log.scroll_to_top(),
                LogScroll::Newest => app.log.follow(),
            }
            // The explorer follows the log's bottom line.
            super::explorer::sync_from_log(app);
            Vec::new()
        }
        Command::Explore(to) => {
            super::explorer::walk(app, to);
            Vec::new()
        }
        Command::CloseCompare => {
            app.compare.shown = false;
            Vec::new()
        }
        Command::AskRoom(ask) => vec![Effect::AskRoom {
            ask,
            text: String::new(),
        }],
    }
}

fn next_of<T: Copy + PartialEq>(all: &[T], current: T) -> T {
    let at = all.iter().position(|value| *value == current).unwrap_or(0);
    all[(at + 1) % all.len()]
}

fn prompt(purpose: PromptPurpose, text: &str) -> Popup {
    let mut line = super::input::InputLine::default();
    line.set_text(text);
    Popup::Prompt { purpose, line }
}

/// Replaces the game, keeping the settings; the board turns to the player's side.
pub fn start_game(app: &mut App, game: GameState) {
    app.game = game;
    app.selected = None;
    app.input.clear();
    app.log.clear();
    app.engine.paused = false;
    app.engine.last_info = None;
    app.hint = None;
    app.orient();
    app.reset_clock();
}

/// Effects that keep the autosave in step with the game: the unfinished game, or
/// nothing to resume when it is over or empty.
pub fn save_effects(app: &App) -> Vec<Effect> {
    if app.game.ply() == 0 || app.game_over() {
        vec![Effect::RemoveAutosave]
    } else {
        vec![Effect::Autosave(records::autosave_text(&app.game))]
    }
}

/// Plays `mv` (legal) on the board, then lets the engine answer if it is its turn.
pub fn play_move(app: &mut App, mv: Move) -> Vec<Effect> {
    let now = app.now();
    // A move made after the flag fell does not count: the game is lost on time.
    if app.game.play_on_clock(mv, &mut app.clock, now).is_err() {
        return game_controls::ended_off_board(app);
    }
    app.hint = None;
    app.selected = None;
    app.cursor_shown = false;
    if app.game_over() {
        game_controls::game_ended(app);
    }
    let mut effects = save_effects(app);
    effects.extend(start_engine_if_due(app));
    effects
}

/// Starts a search if the engine is to move and free to.
pub fn start_engine_if_due(app: &mut App) -> Vec<Effect> {
    // A new position on the analysis board is analysed at once.
    if app.analysis.active {
        return analysis::restart(app);
    }
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
        return play_move(app, mv);
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
    let side = app.position().side_to_move();
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

fn engine_move_now(app: &mut App) -> Vec<Effect> {
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

fn stop_thinking(app: &mut App) -> Vec<Effect> {
    let effects = stop_search(app);
    if !effects.is_empty() || app.engine_side() == EngineSide::Both {
        app.engine.paused = true;
        app.notify("engine stopped: Ctrl-G lets it move");
    }
    effects
}

fn undo(app: &mut App) -> Vec<Effect> {
    let side = app.position().side_to_move();
    let asked = app.game.ask_takeback(side, game_controls::movers(app));
    if asked == Err(RuleError::GameOver) {
        app.alert("the result stands: n or Ctrl-N starts a new game");
        return Vec::new();
    }
    let mut effects = stop_search(app);
    let plies = match asked {
        Ok(TakebackReply::TookBack(plies)) => plies,
        // Nobody at one keyboard waits for an answer.
        Ok(TakebackReply::Asked) => return effects,
        Err(error) => {
            app.alert(error.to_string());
            return effects;
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
    effects.extend(save_effects(app));
    effects.extend(start_engine_if_due(app));
    effects
}

fn redo(app: &mut App) -> Vec<Effect> {
    // Against the engine its reply is replayed too, so a person is to move again.
    if let Err(error) = app.game.replay(game_controls::movers(app)) {
        app.alert(error.to_string());
        return Vec::new();
    }
    let mut effects = stop_search(app);
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
    effects.extend(save_effects(app));
    effects.extend(start_engine_if_due(app));
    effects
}

/// Shows the position after `ply` plies (a click in the move list), by taking back or
/// playing again the moves in between.
fn go_to_ply(app: &mut App, ply: usize) -> Vec<Effect> {
    if ply == app.game.ply() {
        return Vec::new();
    }
    let mut effects = stop_search(app);
    while app.game.ply() > ply && app.game.undo().is_some() {}
    while app.game.ply() < ply && app.game.redo().is_some() {}
    app.selected = None;
    app.hint = None;
    if !app.analysis.active && app.engine_side() != EngineSide::None {
        // Looking back through the game: the engine waits until told to move.
        app.engine.paused = true;
    }
    effects.extend(save_effects(app));
    effects.extend(start_engine_if_due(app));
    effects
}

fn quit(app: &mut App) -> Vec<Effect> {
    let mut effects = stop_search(app);
    effects.extend(save_effects(app));
    effects.push(Effect::Quit);
    app.quitting = true;
    effects
}

/// Why a person cannot move now, if they cannot.
fn why_no_move(app: &App) -> Option<&'static str> {
    if app.game.ended_off_board() {
        Some("the game is over: Ctrl-N starts a new one")
    } else if app.game_over() {
        Some("the game is over: Ctrl-N starts a new one, Ctrl-Z takes back")
    } else if app
        .engine
        .thinking
        .as_ref()
        .is_some_and(|t| t.purpose == analysis::Purpose::Play)
    {
        Some("the engine is thinking: Ctrl-G makes it move now, Ctrl-T stops it")
    } else if !app.people_may_move() {
        Some("it is the engine's move: Ctrl-G lets it move")
    } else {
        None
    }
}

/// Enter on the input line: a move in any notation, or a `:` command.
pub fn submit_input(app: &mut App) -> Vec<Effect> {
    let text = app.input.text().trim().to_owned();
    if text.is_empty() {
        return pick_or_put(app);
    }
    if let Some(command) = text.strip_prefix(':') {
        return super::commands::run_line(app, command);
    }
    if let Some(why) = why_no_move(app) {
        app.input.set_error(why.to_owned());
        return Vec::new();
    }
    match notation_link::parse_move(app.position(), &text) {
        Ok(mv) => {
            app.input.clear();
            play_move(app, mv)
        }
        Err(error @ MoveError::Ambiguous { .. }) => {
            app.input.set_error(error.to_string());
            if let MoveError::Ambiguous { candidates, .. } = error {
                app.popups.push(Popup::Candidates {
                    input: text,
                    candidates,
                    selected: 0,
                });
            }
            Vec::new()
        }
        Err(error) => {
            app.input.set_error(error.to_string());
            Vec::new()
        }
    }
}

/// Plays a move chosen from the candidates of an ambiguous input.
pub fn play_candidate(app: &mut App, mv: Move) -> Vec<Effect> {
    if why_no_move(app).is_some() || !app.position().is_legal(mv) {
        return Vec::new();
    }
    app.input.clear();
    play_move(app, mv)
}

/// Enter on the board: pick up the piece under the cursor, or put the picked one down.
pub fn pick_or_put(app: &mut App) -> Vec<Effect> {
    let target = app.cursor;
    let piece = app.position().piece_at(target);
    let own = piece.is_some() && piece.color() == app.position().side_to_move();
    match app.selected {
        Some(from) if from == target => {
            app.selected = None;
            Vec::new()
        }
        Some(_) if own => {
            app.selected = Some(target);
            Vec::new()
        }
        Some(from) => {
            let mv = Move::new(from, target);
            if let Some(why) = why_no_move(app) {
                app.alert(why);
                Vec::new()
            } else if app.position().is_legal(mv) {
                app.input.clear();
                play_move(app, mv)
            } else {
                app.alert(format!("{} cannot go there", mv.iccs()));
                Vec::new()
            }
        }
        None if own => {
            match why_no_move(app) {
                Some(why) => app.alert(why),
                None => app.selected = Some(target),
            }
            Vec::new()
        }
        None => {
            app.alert("no piece of the side to move there");
            Vec::new()
        }
    }
}

/// The points the selected piece may move to.
pub fn legal_targets(app: &App) -> Vec<Square> {
    let Some(from) = app.selected else {
        return Vec::new();
    };
    app.position()
        .legal_move_list()
        .into_iter()
        .filter(|mv| mv.from() == from)
        .map(|mv| mv.to())
        .collect()
}

fn step_search(app: &mut App, command: StepCommand) -> Vec<Effect> {
    if app.study.replay.is_some() {
        super::explorer::replay_step(app, command);
        return Vec::new();
    }
    match (&app.engine.thinking, &mut app.log.step) {
        (Some(thinking), Some(step)) => {
            step.command(command);
            vec![Effect::Step {
                id: thinking.id,
                command,
            }]
        }
        _ => {
            app.alert("no search is running");
            Vec::new()
        }
    }
}

fn toggle_step(app: &mut App) -> Vec<Effect> {
    let on = !app.config.settings.step;
    app.config.settings.step = on;
    app.notify(if on { "step mode on" } else { "step mode off" });
    if app.engine.thinking.is_some() {
        let command = if on {
            StepCommand::Pause
        } else {
            StepCommand::Continue
        };
        return step_search(app, command);
    }
    Vec::new()
}

/// Whether `focus` should get the keys now that a stepping search waits for them.
pub fn focus_log_for_step(app: &mut App) {
    if app.focus != Focus::Log {
        app.focus_before_step = Some(app.focus);
        app.focus = Focus::Log;
    }
}
