//! Keys, mouse and paste turned into commands, by popup and focus.
//!
//! Commands use Ctrl and function keys so they never collide with typed moves (WXF
//! letters are keys too); Ctrl-S/Ctrl-Q are avoided (terminal flow control).

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::board::Square;
use crate::service::StepCommand;

use super::action::{Command, Direction, Effect};
use super::app::{App, Focus};
use super::layout::{ScreenLayout, board_point_at};
use super::popup::{Popup, wrap_selection};
use super::update::{self, run};
use super::{choices, loading};

/// The commands every screen knows (Ctrl and function keys), when no popup is open.
fn global_command(key: &KeyEvent) -> Option<Command> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let command = match key.code {
        KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
            'z' => Command::Undo,
            'y' => Command::Redo,
            'n' => Command::NewGame,
            'f' => Command::Flip,
            'g' => Command::EngineMoveNow,
            't' => Command::StopThinking,
            'o' => Command::Load,
            'e' => Command::Save,
            'p' => Command::ChooseProfile,
            'l' => Command::Redraw,
            'b' => Command::ShowBook,
            'a' => Command::Analyze,
            'h' => Command::Hint,
            'r' => Command::Resign,
            _ => return None,
        },
        KeyCode::F(1) => Command::Help,
        KeyCode::F(2) => Command::Save,
        KeyCode::F(3) => Command::Load,
        KeyCode::F(4) => Command::ChooseMode,
        KeyCode::F(5) => Command::ChooseTheme,
        KeyCode::F(6) => Command::ChooseProfile,
        KeyCode::F(7) => Command::ToggleStep,
        KeyCode::F(8) => Command::Step(StepCommand::One),
        KeyCode::F(9) => Command::CycleGlyphs,
        KeyCode::F(10) => Command::CycleNotation,
        KeyCode::F(11) => Command::CycleTrace,
        KeyCode::F(12) => Command::ToggleExplorer,
        KeyCode::Tab => Command::FocusNext,
        KeyCode::BackTab => Command::FocusPrevious,
        _ => return None,
    };
    Some(command)
}

fn is_quit(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char('c' | 'd' | 'C' | 'D'))
}

pub fn on_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    if is_quit(&key) {
        return run(app, Command::Quit);
    }
    // The notice stays until the next key.
    app.notice = None;
    if !app.popups.is_empty() {
        return popup_key(app, key);
    }
    if app.compare.shown && key.code == KeyCode::Esc {
        app.compare.shown = false;
        return Vec::new();
    }
    // Many terminals send Ctrl-H for Backspace: with text on the line it edits.
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let ctrl_h = ctrl && matches!(key.code, KeyCode::Char('h' | 'H'));
    if ctrl_h && app.focus == Focus::Input && !app.input.is_empty() {
        app.input.backspace();
        return Vec::new();
    }
    // Ctrl-Backspace, as some terminals report Ctrl-H.
    if ctrl && key.code == KeyCode::Backspace && app.input.is_empty() {
        return run(app, Command::Hint);
    }
    if let Some(command) = global_command(&key) {
        return run(app, command);
    }
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return input_control_key(app, key);
    }
    match app.focus {
        Focus::Input => input_key(app, key),
        Focus::Board if app.study.shown => super::explorer::key(app, key),
        Focus::Board => board_key(app, key),
        Focus::Log => log_key(app, key),
    }
}

/// Line-editing Ctrl keys of the input line (they work from any pane).
fn input_control_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        match key.code {
            KeyCode::Char('u') => app.input.delete_to_start(),
            KeyCode::Char('w') => app.input.delete_word(),
            _ => {}
        }
    }
    Vec::new()
}

fn input_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let empty = app.input.is_empty();
    match key.code {
        KeyCode::Char('?') if empty => return run(app, Command::Help),
        KeyCode::Char(c) => app.input.insert(c),
        KeyCode::Backspace => app.input.backspace(),
        KeyCode::Delete => app.input.delete(),
        KeyCode::Enter => return update::submit_input(app),
        KeyCode::Esc => {
            if app.selected.is_some() {
                app.selected = None;
            } else {
                app.input.clear();
            }
        }
        // With text, left and right edit it; otherwise the arrows move the board cursor.
        KeyCode::Left if !empty => app.input.left(),
        KeyCode::Right if !empty => app.input.right(),
        KeyCode::Home => app.input.home(),
        KeyCode::End => app.input.end(),
        KeyCode::Up => move_cursor(app, Direction::Up),
        KeyCode::Down => move_cursor(app, Direction::Down),
        KeyCode::Left => move_cursor(app, Direction::Left),
        KeyCode::Right => move_cursor(app, Direction::Right),
        _ => {}
    }
    Vec::new()
}

fn board_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let direction = match key.code {
        KeyCode::Up | KeyCode::Char('k') => Some(Direction::Up),
        KeyCode::Down | KeyCode::Char('j') => Some(Direction::Down),
        KeyCode::Left | KeyCode::Char('h') => Some(Direction::Left),
        KeyCode::Right | KeyCode::Char('l') => Some(Direction::Right),
        _ => None,
    };
    if let Some(direction) = direction {
        move_cursor(app, direction);
        return Vec::new();
    }
    match key.code {
        KeyCode::Enter | KeyCode::Char(' ') => run(app, Command::PickOrPut),
        KeyCode::Esc => {
            app.selected = None;
            Vec::new()
        }
        KeyCode::Char('?') => run(app, Command::Help),
        // Typing a move from the board goes to the input line.
        KeyCode::Char(c) => {
            app.focus = Focus::Input;
            app.input.insert(c);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn log_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    const PAGE: usize = 10;
    match key.code {
        KeyCode::Char(' ' | 'n') | KeyCode::Enter | KeyCode::Right => {
            return super::explorer::step(app, StepCommand::One);
        }
        KeyCode::Char('i') => return super::explorer::step(app, StepCommand::ToIterationEnd),
        KeyCode::Char('c') => return super::explorer::step(app, StepCommand::Continue),
        KeyCode::Char('p') => return run(app, Command::Step(StepCommand::Pause)),
        KeyCode::Up | KeyCode::Char('k') => app.log.scroll_up(1),
        KeyCode::Down | KeyCode::Char('j') => app.log.scroll_down(1),
        KeyCode::PageUp => app.log.scroll_up(PAGE),
        KeyCode::PageDown => app.log.scroll_down(PAGE),
        KeyCode::Home | KeyCode::Char('g') => app.log.scroll_to_top(),
        KeyCode::End | KeyCode::Char('G') => app.log.follow(),
        KeyCode::Char('?') => return run(app, Command::Help),
        KeyCode::Esc => app.focus = Focus::Input,
        _ => {}
    }
    // The explorer follows the log's bottom line.
    if matches!(
        key.code,
        KeyCode::Up
            | KeyCode::Down
            | KeyCode::PageUp
            | KeyCode::PageDown
            | KeyCode::Home
            | KeyCode::End
            | KeyCode::Char('k' | 'j' | 'g' | 'G')
    ) {
        super::explorer::sync_from_log(app);
    }
    Vec::new()
}

/// Moves the board cursor as the player sees the board (flipped or not).
pub fn move_cursor(app: &mut App, direction: Direction) {
    let (dx, dy): (i32, i32) = match direction {
        Direction::Up => (0, 1),
        Direction::Down => (0, -1),
        Direction::Left => (-1, 0),
        Direction::Right => (1, 0),
    };
    let (dx, dy) = if app.flipped { (-dx, -dy) } else { (dx, dy) };
    let x = i32::from(app.cursor.x()) + dx;
    let y = i32::from(app.cursor.y()) + dy;
    if let Some(square) = Square::try_new(x, y) {
        app.cursor = square;
    }
    app.cursor_shown = true;
}

fn popup_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(popup) = app.popups.pop() else {
        return Vec::new();
    };
    match popup {
        Popup::Help { scroll } => {
            let scroll = match key.code {
                KeyCode::Up | KeyCode::Char('k') => scroll.saturating_sub(1),
                KeyCode::Down | KeyCode::Char('j') => scroll.saturating_add(1),
                KeyCode::PageUp => scroll.saturating_sub(10),
                KeyCode::PageDown => scroll.saturating_add(10),
                _ => return Vec::new(),
            };
            app.popups.push(Popup::Help { scroll });
            Vec::new()
        }
        Popup::Message { .. } => Vec::new(),
        Popup::ConfirmResign => match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => super::game_controls::resign(app),
            _ => {
                app.notify("resignation cancelled");
                Vec::new()
            }
        },
        // Any other key closes it and does what it does (the board stays to study).
        Popup::GameOver { .. } => match key.code {
            KeyCode::Char('n' | 'N') if key.modifiers.is_empty() => {
                super::game_controls::new_game(app)
            }
            KeyCode::Char('r' | 'R') if key.modifiers.is_empty() => {
                super::game_controls::rematch(app)
            }
            KeyCode::Esc | KeyCode::Enter => Vec::new(),
            _ => on_key(app, key),
        },
        Popup::Resume { game } => match key.code {
            KeyCode::Enter => {
                update::start_game(app, *game);
                app.notify("resumed the unfinished game");
                update::start_engine_if_due(app)
            }
            KeyCode::Esc => {
                let mut effects = vec![Effect::RemoveAutosave];
                effects.extend(update::start_engine_if_due(app));
                effects
            }
            _ => {
                app.popups.push(Popup::Resume { game });
                Vec::new()
            }
        },
        Popup::Candidates {
            input,
            candidates,
            selected,
        } => {
            let len = candidates.len();
            let chosen = match key.code {
                KeyCode::Enter => Some(selected),
                KeyCode::Char(c @ '1'..='9') => {
                    Some(c as usize - '1' as usize).filter(|&index| index < len)
                }
                KeyCode::Esc => return Vec::new(),
                _ => None,
            };
            if let Some(index) = chosen {
                return update::play_candidate(app, candidates[index].mv);
            }
            let selected = match key.code {
                KeyCode::Up | KeyCode::Char('k') => wrap_selection(selected, len, -1),
                KeyCode::Down | KeyCode::Char('j') => wrap_selection(selected, len, 1),
                _ => selected,
            };
            app.popups.push(Popup::Candidates {
                input,
                candidates,
                selected,
            });
            Vec::new()
        }
        Popup::Choice {
            purpose,
            items,
            selected,
        } => {
            let len = items.len();
            let chosen = match key.code {
                KeyCode::Enter => Some(selected),
                KeyCode::Char(c @ '1'..='9') => {
                    Some(c as usize - '1' as usize).filter(|&index| index < len)
                }
                KeyCode::Esc => return Vec::new(),
                _ => None,
            };
            if let Some(index) = chosen {
                return choices::apply_choice(app, items[index].value.clone());
            }
            let selected = match key.code {
                KeyCode::Up | KeyCode::Char('k') => wrap_selection(selected, len, -1),
                KeyCode::Down | KeyCode::Char('j') => wrap_selection(selected, len, 1),
                _ => selected,
            };
            app.popups.push(Popup::Choice {
                purpose,
                items,
                selected,
            });
            Vec::new()
        }
        Popup::Prompt { purpose, mut line } => {
            match key.code {
                KeyCode::Enter => {
                    let text = line.text().to_owned();
                    return match purpose {
                        super::popup::PromptPurpose::Load => loading::load_from_prompt(app, &text),
                        super::popup::PromptPurpose::Save => loading::save_to(app, &text),
                    };
                }
                KeyCode::Esc => return Vec::new(),
                KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    line.delete_to_start()
                }
                KeyCode::Char('w') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    line.delete_word()
                }
                KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                    line.insert(c)
                }
                KeyCode::Backspace => line.backspace(),
                KeyCode::Delete => line.delete(),
                KeyCode::Left => line.left(),
                KeyCode::Right => line.right(),
                KeyCode::Home => line.home(),
                KeyCode::End => line.end(),
                _ => {}
            }
            app.popups.push(Popup::Prompt { purpose, line });
            Vec::new()
        }
    }
}

/// Pasted text goes to the prompt or the input line, one line of it.
pub fn on_paste(app: &mut App, text: &str) {
    let line = text.lines().next().unwrap_or("");
    match app.popups.last_mut() {
        Some(Popup::Prompt { line: prompt, .. }) => line.chars().for_each(|c| prompt.insert(c)),
        Some(_) => {}
        None => {
            app.focus = Focus::Input;
            line.chars().for_each(|c| app.input.insert(c));
        }
    }
}

pub fn on_mouse(app: &mut App, mouse: MouseEvent) -> Vec<Effect> {
    if !app.popups.is_empty() {
        return Vec::new();
    }
    let Some(layout) = ScreenLayout::new(app.size.0, app.size.1) else {
        return Vec::new();
    };
    let (column, row) = (mouse.column, mouse.row);
    let inside =
        |rect: ratatui::layout::Rect| rect.contains(ratatui::layout::Position::new(column, row));
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            app.notice = None;
            if let Some(square) = board_point_at(&layout, app.flipped, column, row) {
                app.focus = Focus::Board;
                app.cursor = square;
                return run(app, Command::PickOrPut);
            }
            let (moves, _) = super::move_list::split(app, layout.moves);
            if inside(moves)
                && let Some(ply) = super::move_list::ply_after_click(app, moves, column, row)
            {
                return run(app, Command::GoToPly(ply));
            }
            if inside(layout.log) {
                app.focus = Focus::Log;
            } else if inside(layout.input) {
                app.focus = Focus::Input;
            } else if inside(layout.board) {
                app.focus = Focus::Board;
            }
            Vec::new()
        }
        MouseEventKind::ScrollUp if inside(layout.log) => {
            app.log.scroll_up(3);
            Vec::new()
        }
        MouseEventKind::ScrollDown if inside(layout.log) => {
            app.log.scroll_down(3);
            Vec::new()
        }
        _ => Vec::new(),
    }
}
