//! Keys, mouse and paste turned into commands, by popup and focus. What each key
//! means is in `keymap`; this file decides which pane a key goes to.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::board::Square;

use super::action::{Command, Direction, Effect};
use super::app::{App, Focus};
use super::flow;
use super::keymap::{self, Pane};
use super::layout::{ScreenLayout, board_point_at};
use super::popup::{Popup, wrap_selection};
use super::update::{self, run};
use super::{choices, loading};

pub fn on_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    if keymap::is_quit(&key) {
        return run(app, Command::Quit);
    }
    // The notice stays until the next key.
    app.notice = None;
    if !app.popups.is_empty() {
        return popup_key(app, key);
    }
    match command_for(app, key) {
        Some(command) => run(app, command),
        None => Vec::new(),
    }
}

/// What `key` asks for when no popup is open; keys that only edit the line act at once.
fn command_for(app: &mut App, key: KeyEvent) -> Option<Command> {
    if app.compare.shown
        && let Some(command) = bound(app, Pane::Compare, &key)
    {
        return command;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let with_text = !app.input.is_empty();
    // Many terminals send Ctrl-H for Backspace: with text on the line it edits, and
    // Ctrl-Backspace (the hint's other key) does nothing.
    if ctrl && with_text {
        match key.code {
            KeyCode::Char('h' | 'H') if app.focus == Focus::Input => {
                app.input.backspace();
                return None;
            }
            KeyCode::Backspace => return None,
            _ => {}
        }
    }
    if let Some(command) = bound(app, Pane::Any, &key) {
        return command;
    }
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        // The line's Ctrl-U and Ctrl-W work from any pane.
        if ctrl && matches!(key.code, KeyCode::Char('u' | 'w')) {
            app.input.edit_key(&key);
        }
        return None;
    }
    match app.focus {
        Focus::Input => input_key(app, key),
        Focus::Board if app.study.shown => explorer_key(app, key),
        Focus::Board => board_key(app, key),
        Focus::Log => bound(app, Pane::Log, &key).flatten(),
    }
}

/// The keymap's command for `key` in `pane` where the app is; a key bound but not
/// available here is refused with a notice (`Some(None)`).
fn bound(app: &mut App, pane: Pane, key: &KeyEvent) -> Option<Option<Command>> {
    match keymap::command(pane, key, app.place())? {
        Ok(command) => Some(Some(command)),
        Err(why) => {
            app.alert(why);
            Some(None)
        }
    }
}

fn input_key(app: &mut App, key: KeyEvent) -> Option<Command> {
    // With text on the line, characters are text (`?` too) and Left/Right edit it.
    let edits_text = !app.input.is_empty()
        && matches!(key.code, KeyCode::Char(_) | KeyCode::Left | KeyCode::Right);
    if !edits_text && let Some(command) = bound(app, Pane::Input, &key) {
        return command;
    }
    app.input.edit_key(&key);
    None
}

fn board_key(app: &mut App, key: KeyEvent) -> Option<Command> {
    if let Some(command) = bound(app, Pane::Board, &key) {
        return command;
    }
    // Typing a move from the board goes to the input line.
    if let KeyCode::Char(c) = key.code {
        app.focus = Focus::Input;
        app.input.insert(c);
    }
    None
}

fn explorer_key(app: &mut App, key: KeyEvent) -> Option<Command> {
    // While a `/` search is typed, the keys are its text.
    if app.study.search.is_some() {
        super::explorer::search_key(app, key);
        return None;
    }
    bound(app, Pane::Explorer, &key).flatten()
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
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                super::game_controls::resign(app);
                Vec::new()
            }
            _ => {
                app.notify("resignation cancelled");
                Vec::new()
            }
        },
        // Any other key closes it and does what it does (the board stays to study).
        Popup::GameOver { .. } => match key.code {
            KeyCode::Char('n' | 'N') if key.modifiers.is_empty() => {
                super::game_controls::new_game(app);
                Vec::new()
            }
            KeyCode::Char('r' | 'R') if key.modifiers.is_empty() => {
                super::game_controls::rematch(app);
                Vec::new()
            }
            KeyCode::Esc | KeyCode::Enter => Vec::new(),
            _ => on_key(app, key),
        },
        Popup::Resume { game } => match key.code {
            KeyCode::Enter => {
                flow::start_game(app, *game);
                // The autosave holds this game: nothing to write.
                flow::mark_saved(app);
                app.notify("resumed the unfinished game");
                Vec::new()
            }
            KeyCode::Esc => {
                // The autosave holds the game declined: settle removes it.
                flow::forget_saved(app);
                Vec::new()
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
                choices::apply_choice(app, items[index].value.clone());
                return Vec::new();
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
                _ => {
                    line.edit_key(&key);
                }
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
