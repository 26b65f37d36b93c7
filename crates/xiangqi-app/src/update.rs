//! `update`: one action in, the state changed, effects out. It dispatches: keys and
//! mouse become commands in `keys`, engine reports are handled in `engine_events`, the
//! game flow lives in `flow`, whose settle step ends every update.

use crate::config::{ConfigName, Glyphs, TraceLevel};
use xiangqi_core::board::{Move, Square};
use xiangqi_core::notation::{MoveError, Notation};
use xiangqi_engine::service::StepCommand;

use super::action::{Action, Command, Effect, LogScroll};
use super::app::{App, AppMode, Focus};
use super::keys::Request;
use super::notation_link;
use super::popup::{Answer, Discard, Popup, PromptPurpose};
use super::{
    analysis, book_link, choices, engine_events, flow, game_controls, hint, keys, loading,
};

/// Applies `action` to `app` and returns what the driver must do.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    let mut effects = dispatch(app, action);
    flow::settle(app, &mut effects);
    effects
}

fn dispatch(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Key(key) => match keys::on_key(app, key) {
            Some(Request::Command(command)) => run(app, command),
            Some(Request::Answer(answer)) => carry_out(app, answer),
            None => Vec::new(),
        },
        Action::Mouse(mouse) => match keys::on_mouse(app, mouse) {
            Some(command) => run(app, command),
            None => Vec::new(),
        },
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
            Vec::new()
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
        Action::TraceSave(progress) => {
            super::trace_save::apply(app, progress);
            Vec::new()
        }
        Action::Review(progress) => {
            super::review_link::apply(app, progress);
            Vec::new()
        }
        Action::Puzzle(answer) => super::puzzle_mode::apply(app, *answer),
        Action::School(answer) => {
            super::drill_link::apply(app, answer);
            Vec::new()
        }
        Action::Tick => {
            game_controls::on_tick(app);
            Vec::new()
        }
    }
}

/// Carries out a command.
fn run(app: &mut App, command: Command) -> Vec<Effect> {
    if matches!(app.mode, AppMode::Puzzle(_))
        && let Some(effects) = super::puzzle_mode::command(app, command)
    {
        return effects;
    }
    if let Some(effects) = super::drill_link::on_command(app, command) {
        return effects;
    }
    match command {
        Command::Undo => {
            flow::undo(app);
            Vec::new()
        }
        Command::Redo => {
            flow::redo(app);
            Vec::new()
        }
        Command::NewGame => {
            game_controls::ask_new_game(app);
            Vec::new()
        }
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
        Command::EngineMoveNow => flow::engine_move_now(app),
        Command::StopThinking => flow::stop_thinking(app),
        Command::ShowBook => {
            let popup = book_link::popup(app);
            app.popups.push(popup);
            Vec::new()
        }
        Command::Help => {
            super::help::toggle(app);
            Vec::new()
        }
        Command::Quit => {
            // Settle stops the search, saves and quits.
            app.quitting = true;
            Vec::new()
        }
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
        Command::ShowEvent => {
            if app.study.detail.is_some() {
                app.popups.push(Popup::Event { scroll: 0 });
            } else {
                app.notify("no event to show yet");
            }
            Vec::new()
        }
        Command::Analyze => {
            analysis::toggle(app);
            Vec::new()
        }
        Command::Hint => hint::request(app),
        Command::JumpToMarked(forward) => {
            super::review_link::jump(app, forward);
            Vec::new()
        }
        Command::GoToPly(ply) => {
            super::browse::go_to_shown(app, ply);
            Vec::new()
        }
        Command::Browse(to) => {
            super::browse::browse(app, to);
            Vec::new()
        }
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
        // Bound in the puzzle trainer only, where `puzzle_mode` takes them.
        Command::PuzzleTree | Command::LeaveTraining => Vec::new(),
        // Bound in the server's lobby only, which has no app under it.
        Command::Lobby(_) => Vec::new(),
        // Only a drill has them (`drill_link::on_command`).
        Command::DrillAgain => {
            app.alert("no drill: :drill lists the lessons");
            Vec::new()
        }
    }
}

/// What closing a popup asked for.
fn carry_out(app: &mut App, answer: Answer) -> Vec<Effect> {
    match answer {
        Answer::Resign => game_controls::resign(app),
        Answer::Discard(Discard::NewGame) => game_controls::new_game(app),
        Answer::Discard(Discard::Load(text)) => return loading::load_now(app, &text),
        Answer::Discard(Discard::Cut { ply, mv }) => super::browse::cut_and_play(app, ply, mv),
        Answer::Rematch => game_controls::rematch(app),
        Answer::Candidate(mv) => return play_candidate(app, mv),
        Answer::Choice(super::popup::ChoiceValue::Lesson(material)) => {
            return super::drill_link::choose(app, &material);
        }
        Answer::Choice(value) => choices::apply_choice(app, value),
        Answer::Load(text) => return loading::load_from_prompt(app, &text),
        Answer::Save(path) => return loading::save_to(app, &path),
    }
    Vec::new()
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

/// Why a move typed in a tree study is refused.
pub const STUDY_HAS_NO_GAME: &str =
    "no game in the tree study: Space steps, :trace save PATH saves";

/// Why a person cannot move now, if they cannot. While browsing, the move is made on
/// the position shown (and then asks whether to cut the game there).
fn why_no_move(app: &App) -> Option<&'static str> {
    // The puzzle trainer says itself why a move is not taken.
    if matches!(app.mode, AppMode::Puzzle(_)) {
        return None;
    }
    if let AppMode::Drill(_) = app.mode {
        return super::drill_link::why_no_move(app);
    }
    let browsing = app.browse.is_some();
    if app.game.ended_off_board() || (app.game_over() && browsing) {
        Some("the game is over: :continue plays on from the position shown, Ctrl-N new game")
    } else if app.game_over() {
        Some("the game is over: Ctrl-N starts a new one, Ctrl-Z takes back")
    } else if app
        .engine
        .thinking
        .as_ref()
        .is_some_and(|t| t.purpose == analysis::Purpose::Play)
    {
        Some("the engine is thinking: Ctrl-G makes it move now, Ctrl-T stops it")
    } else if browsing {
        let side = app.shown_position().side_to_move();
        (app.engine_plays(side) && !app.engine.paused)
            .then_some("it is the engine's move in the position shown: End goes back")
    } else if !app.people_may_move() {
        Some("it is the engine's move: Ctrl-G lets it move")
    } else {
        None
    }
}

/// Enter on the input line: a move in any notation, or a `:` command.
fn submit_input(app: &mut App) -> Vec<Effect> {
    let text = app.input.text().trim().to_owned();
    let studying = matches!(app.mode, AppMode::Study(_));
    if text.is_empty() && !studying {
        return pick_or_put(app);
    }
    if let Some(command) = text.strip_prefix(':') {
        return super::commands::run_line(app, command);
    }
    if studying {
        app.input.set_error(STUDY_HAS_NO_GAME.to_owned());
        return Vec::new();
    }
    if let Some(why) = why_no_move(app) {
        app.input.set_error(why.to_owned());
        return Vec::new();
    }
    match notation_link::parse_move(app.shown_position(), &text) {
        Ok(mv) => {
            app.input.clear();
            super::browse::play_shown(app, mv);
            Vec::new()
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
fn play_candidate(app: &mut App, mv: Move) -> Vec<Effect> {
    if why_no_move(app).is_some() || !app.shown_position().is_legal(mv) {
        return Vec::new();
    }
    app.input.clear();
    super::browse::play_shown(app, mv);
    Vec::new()
}

/// Enter on the board: pick up the piece under the cursor, or put the picked one down.
fn pick_or_put(app: &mut App) -> Vec<Effect> {
    let target = app.cursor;
    let position = app.shown_position();
    let piece = position.piece_at(target);
    let own = piece.is_some() && piece.color() == position.side_to_move();
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
            } else if app.shown_position().is_legal(mv) {
                app.input.clear();
                super::browse::play_shown(app, mv);
                Vec::new()
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
    app.shown_position()
        .legal_move_list()
        .into_iter()
        .filter(|mv| mv.from() == from)
        .map(|mv| mv.to())
        .collect()
}

fn step_search(app: &mut App, command: StepCommand) -> Vec<Effect> {
    if matches!(app.mode, AppMode::Study(_)) {
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
