//! Keys, mouse and paste turned into commands, by popup and focus. What each key
//! means is in `keymap`; this file decides which pane a key goes to. Nothing here
//! plays or saves: what a key asks for goes back to `update` as a `Request`.

use crate::key::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use xiangqi_core::board::Square;

use super::action::{Command, Direction, RoomAsk};
use super::app::{App, Focus};
use super::keymap::{self, Pane};
use super::layout::{ScreenLayout, board_point_at};
use super::popup::{Answer, Popup, PromptPurpose, wrap_selection};

/// What a key asks `update` to carry out.
#[derive(Debug)]
pub enum Request {
    /// A command of the keymap.
    Command(Command),
    /// The answer to the popup the key closed.
    Answer(Answer),
}

pub fn on_key(app: &mut App, key: KeyEvent) -> Option<Request> {
    if keymap::is_quit(&key) {
        return Some(Request::Command(Command::Quit));
    }
    // The notice stays until the next key.
    app.notice = None;
    if !app.popups.is_empty() {
        return popup_key(app, key);
    }
    let back_from_step = std::mem::take(&mut app.focus_back_from_step);
    if back_from_step && app.focus == Focus::Input && app.input.is_empty() && is_step_key(&key) {
        // Meant for the search that just ended, not for the move line.
        app.focus_back_from_step = true;
        app.notify("the search is over: keys go to the move line again (Tab: the log)");
        return None;
    }
    command_for(app, key).map(Request::Command)
}

/// A printable key that steps a search in the log.
fn is_step_key(key: &KeyEvent) -> bool {
    matches!(key.code, KeyCode::Char(_))
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        && matches!(
            keymap::find(Pane::Log, key),
            Some((_, bound)) if matches!(bound.command, Command::Step(_))
        )
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
        Focus::Log => log_key(app, key),
    }
}

/// The log's own keys act; other characters are not typed anywhere, and say so.
fn log_key(app: &mut App, key: KeyEvent) -> Option<Command> {
    if let Some(command) = bound(app, Pane::Log, &key) {
        return command;
    }
    if let KeyCode::Char(c) = key.code {
        app.alert(format!(
            "'{c}' is not a search-log key (F1 lists them); Esc goes back to the move line"
        ));
    }
    None
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
    // With text on the line, characters are text (`?`, `[` too) and Left/Right,
    // Home/End edit it.
    let edits_text = !app.input.is_empty()
        && matches!(
            key.code,
            KeyCode::Char(_) | KeyCode::Left | KeyCode::Right | KeyCode::Home | KeyCode::End
        );
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

/// A click or the wheel on the tree study's screen: a click focuses its pane, the
/// wheel scrolls the log (there is no board to click on).
fn study_mouse(app: &mut App, mouse: MouseEvent) -> Option<Command> {
    let layout = super::study_layout::StudyLayout::new(app.size.0, app.size.1)?;
    let at = (mouse.column, mouse.row);
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            app.notice = None;
            if layout.log.contains(at.0, at.1) {
                app.focus = Focus::Log;
            } else if layout.input.contains(at.0, at.1) {
                app.focus = Focus::Input;
            } else if layout.explorer.contains(at.0, at.1) {
                app.focus = Focus::Board;
            }
            None
        }
        MouseEventKind::ScrollUp if layout.log.contains(at.0, at.1) => {
            Some(Command::ScrollLog(super::action::LogScroll::Up(3)))
        }
        MouseEventKind::ScrollDown if layout.log.contains(at.0, at.1) => {
            Some(Command::ScrollLog(super::action::LogScroll::Down(3)))
        }
        _ => None,
    }
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

/// A scrolling popup's new scroll for `key`; `None`: any other key, which closes it.
fn scrolled(scroll: u16, key: &KeyEvent) -> Option<u16> {
    Some(match key.code {
        KeyCode::Up | KeyCode::Char('k') => scroll.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => scroll.saturating_add(1),
        KeyCode::PageUp => scroll.saturating_sub(10),
        KeyCode::PageDown => scroll.saturating_add(10),
        _ => return None,
    })
}

/// A key over the top popup: it closes it with an answer, or changes it.
fn popup_key(app: &mut App, key: KeyEvent) -> Option<Request> {
    let answer = |answer| Some(Request::Answer(answer));
    let popup = app.popups.pop()?;
    match popup {
        Popup::Help { scroll } => {
            app.popups.push(Popup::Help {
                scroll: scrolled(scroll, &key)?,
            });
            None
        }
        Popup::Event { scroll } => {
            app.popups.push(Popup::Event {
                scroll: scrolled(scroll, &key)?,
            });
            None
        }
        Popup::Message { .. } | Popup::Ruling(_) => None,
        Popup::ConfirmResign => match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => answer(Answer::Resign),
            _ => {
                app.notify("resignation cancelled");
                None
            }
        },
        Popup::ConfirmDiscard(discard) => match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => answer(Answer::Discard(discard)),
            _ => {
                app.notify("the game is kept");
                None
            }
        },
        // Any other key closes it and does what it does (the board stays to study).
        // In a room the game is the room's: `r` asks it for a rematch.
        // A line being typed when the game ended (the opponent's move or flag ended it)
        // is sent by its Enter, not lost to the popup.
        Popup::GameOver { rematch, .. } if app.place() == keymap::Place::Room => match key.code {
            KeyCode::Char('r' | 'R')
                if rematch && key.modifiers.is_empty() && app.input.is_empty() =>
            {
                Some(Request::Command(Command::AskRoom(RoomAsk::Rematch)))
            }
            KeyCode::Enter if !app.input.is_empty() => on_key(app, key),
            KeyCode::Esc | KeyCode::Enter => None,
            _ => on_key(app, key),
        },
        Popup::GameOver { .. } => match key.code {
            KeyCode::Char('n' | 'N') if key.modifiers.is_empty() => {
                Some(Request::Command(Command::NewGame))
            }
            KeyCode::Char('r' | 'R') if key.modifiers.is_empty() => answer(Answer::Rematch),
            KeyCode::Esc | KeyCode::Enter => None,
            _ => on_key(app, key),
        },
        // The game is already back; only Ctrl-N's question may throw it away.
        Popup::Resume => match key.code {
            KeyCode::Enter | KeyCode::Esc => {
                super::resume::say_resumed(app);
                None
            }
            KeyCode::Char('n' | 'N') if key.modifiers.is_empty() => {
                Some(Request::Command(Command::NewGame))
            }
            _ if matches!(
                keymap::command(Pane::Any, &key, app.place()),
                Some(Ok(Command::NewGame))
            ) =>
            {
                Some(Request::Command(Command::NewGame))
            }
            _ => {
                app.popups.push(Popup::Resume);
                None
            }
        },
        Popup::Candidates {
            input,
            candidates,
            selected,
        } => match list_key(&key, selected, candidates.len()) {
            ListKey::Closed => None,
            ListKey::Chosen(index) => answer(Answer::Candidate(candidates[index].mv)),
            ListKey::Selected(selected) => {
                app.popups.push(Popup::Candidates {
                    input,
                    candidates,
                    selected,
                });
                None
            }
        },
        Popup::Choice {
            purpose,
            items,
            selected,
        } => match list_key(&key, selected, items.len()) {
            ListKey::Closed => None,
            ListKey::Chosen(index) => answer(Answer::Choice(items[index].value.clone())),
            ListKey::Selected(selected) => {
                app.popups.push(Popup::Choice {
                    purpose,
                    items,
                    selected,
                });
                None
            }
        },
        Popup::Prompt { purpose, mut line } => {
            match key.code {
                KeyCode::Enter => {
                    let text = line.text().to_owned();
                    return answer(match purpose {
                        PromptPurpose::Load => Answer::Load(text),
                        PromptPurpose::Save => Answer::Save(text),
                    });
                }
                KeyCode::Esc => return None,
                _ => {
                    line.edit_key(&key);
                }
            }
            app.popups.push(Popup::Prompt { purpose, line });
            None
        }
    }
}

/// Pasted text goes to the prompt or the input line, one line of it.
pub fn on_paste(app: &mut App, text: &str) {
    let line = text.lines().next().unwrap_or("");
    match app.popups.last_mut() {
        Some(Popup::Prompt { line: prompt, .. }) => prompt.insert_str(line),
        Some(_) => {}
        None => {
            app.focus = Focus::Input;
            app.input.insert_str(line);
        }
    }
}

/// A click or a scroll; a click on the board or the move list is a command.
pub fn on_mouse(app: &mut App, mouse: MouseEvent) -> Option<Command> {
    if !app.popups.is_empty() {
        return None;
    }
    if let super::app::AppMode::Study(_) = app.mode {
        return study_mouse(app, mouse);
    }
    let layout = ScreenLayout::new(app.size.0, app.size.1)?;
    let (column, row) = (mouse.column, mouse.row);
    let inside = |rect: crate::area::Rect| rect.contains(column, row);
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            app.notice = None;
            if let Some(square) = board_point_at(&layout, app.flipped, column, row) {
                app.focus = Focus::Board;
                app.cursor = square;
                return Some(Command::PickOrPut);
            }
            let (moves, _) = super::move_list::split(app, &layout);
            if inside(moves)
                && let Some(ply) = super::move_list::ply_after_click(app, moves, column, row)
            {
                return Some(Command::GoToPly(ply));
            }
            if inside(layout.log) {
                app.focus = Focus::Log;
            } else if inside(layout.input) {
                app.focus = Focus::Input;
            } else if inside(layout.board) {
                app.focus = Focus::Board;
            }
            None
        }
        MouseEventKind::ScrollUp if inside(layout.log) => {
            app.log.scroll_up(3);
            None
        }
        MouseEventKind::ScrollDown if inside(layout.log) => {
            app.log.scroll_down(3);
            None
        }
        _ => None,
    }
}

/// What a key does to a list popup of `len` rows with row `selected` chosen.
#[derive(Debug, PartialEq, Eq)]
enum ListKey {
    /// Esc: the popup closes without an answer.
    Closed,
    /// Enter on the chosen row, or a row's digit: the answer.
    Chosen(usize),
    /// The row chosen now (Up/k and Down/j move it round the list; other keys keep it).
    Selected(usize),
}

fn list_key(key: &KeyEvent, selected: usize, len: usize) -> ListKey {
    match key.code {
        KeyCode::Esc => ListKey::Closed,
        KeyCode::Enter => ListKey::Chosen(selected),
        KeyCode::Char(c @ '1'..='9') if (c as usize - '1' as usize) < len => {
            ListKey::Chosen(c as usize - '1' as usize)
        }
        KeyCode::Up | KeyCode::Char('k') => ListKey::Selected(wrap_selection(selected, len, -1)),
        KeyCode::Down | KeyCode::Char('j') => ListKey::Selected(wrap_selection(selected, len, 1)),
        _ => ListKey::Selected(selected),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(code: KeyCode, selected: usize, len: usize) -> ListKey {
        list_key(&KeyEvent::from(code), selected, len)
    }

    #[test]
    fn a_list_popup_answers_enter_and_the_digits_of_its_rows_only() {
        assert_eq!(list(KeyCode::Enter, 2, 3), ListKey::Chosen(2));
        assert_eq!(list(KeyCode::Char('1'), 2, 3), ListKey::Chosen(0));
        assert_eq!(list(KeyCode::Char('3'), 0, 3), ListKey::Chosen(2));
        // A digit past the last row keeps the selection, as any other key.
        assert_eq!(list(KeyCode::Char('4'), 1, 3), ListKey::Selected(1));
        assert_eq!(list(KeyCode::Char('x'), 1, 3), ListKey::Selected(1));
        assert_eq!(list(KeyCode::Esc, 1, 3), ListKey::Closed);
    }

    #[test]
    fn up_and_down_move_round_a_list_popup() {
        assert_eq!(list(KeyCode::Up, 0, 3), ListKey::Selected(2));
        assert_eq!(list(KeyCode::Char('k'), 2, 3), ListKey::Selected(1));
        assert_eq!(list(KeyCode::Down, 2, 3), ListKey::Selected(0));
        assert_eq!(list(KeyCode::Char('j'), 0, 3), ListKey::Selected(1));
    }
}
