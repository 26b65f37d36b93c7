//! The lobby of the SSH server, the first screen of a remote session: the rooms with
//! their players, spectators and moves, and a command line for `new engine [ROOM]`,
//! `new human [ROOM]`, `join ROOM`, `watch ROOM` and `rooms` (the same commands an SSH
//! client may give as its command).

use std::sync::atomic::{AtomicUsize, Ordering};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use xiangqi_app::action::{Command, LobbyKey};
use xiangqi_app::keymap::{self, Pane, Place};

use xiangqi_app::game::{
    LOBBY_HELP, LOBBY_USAGE, LobbyCommand, Moderation, RoomKind, RoomSummary, TournamentCommand,
    TournamentView, lobby_help_lines, room_headings, room_line,
};

use super::remote::Intent;
use super::view::text::{fit, tail, wrap};
use unicode_width::UnicodeWidthStr;
use xiangqi_app::action::Action;
use xiangqi_app::app::App;
use xiangqi_app::input::InputLine;

/// The lobby's state in one session.
#[derive(Debug, Default)]
pub struct Lobby {
    pub line: InputLine,
    pub rooms: Vec<RoomSummary>,
    pub selected: usize,
    /// The last message (`true`: an error), shown above the line.
    pub message: Option<(String, bool)>,
    /// `help` shows the commands in place of the room list.
    pub help: bool,
    /// The help's first row shown: it scrolls with Up/Down where the screen is short.
    pub help_scroll: usize,
    /// The help's rows below the last screen drawn (the most `help_scroll` goes to).
    pub help_rows_hidden: AtomicUsize,
    /// A list shown in place of the rooms (`games`, `top`).
    pub page: Option<Page>,
    /// A tournament's screen shown in place of the rooms, and the board chosen on it.
    pub tournament: Option<(TournamentView, usize)>,
    /// The player's adjourned games, one line each, shown under the rooms.
    pub adjourned: Vec<String>,
}

/// A list shown in place of the rooms (`games`, `top`). Up/Down choose among its rows
/// and Enter runs the chosen row's command (an archived game opens to be stepped
/// through); the room list under it is not touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub title: String,
    /// The headings, or what an empty list says.
    pub heading: String,
    /// The rows, each with the command Enter on it runs.
    pub rows: Vec<(String, LobbyCommand)>,
    pub selected: usize,
    /// What Enter on a row does, in a few words (`step through the game`).
    pub opening: &'static str,
}

/// What the lobby shows in place of its list: Up/Down and Enter act on it alone.
enum Shown<'a> {
    Rooms,
    Help,
    Page(&'a Page),
    Tournament(&'a TournamentView, usize),
}

impl Lobby {
    fn shown(&self) -> Shown<'_> {
        match (&self.page, self.help, &self.tournament) {
            (_, true, _) => Shown::Help,
            (Some(page), false, _) => Shown::Page(page),
            (None, false, Some((view, selected))) => Shown::Tournament(view, *selected),
            (None, false, None) => Shown::Rooms,
        }
    }

    /// Shows `view` in place of the rooms; the board chosen stays when it is the same
    /// tournament.
    pub fn set_tournament(&mut self, view: TournamentView) {
        let selected = match &self.tournament {
            Some((old, selected)) if old.name == view.name => {
                (*selected).min(view.boards.len().saturating_sub(1))
            }
            // The viewer's own board first.
            _ => view.boards.iter().position(|b| b.mine).unwrap_or(0),
        };
        self.help = false;
        self.page = None;
        self.tournament = Some((view, selected));
    }

    /// Moves the selection of the list shown by `delta` rows.
    fn select(&mut self, delta: isize) {
        let (selected, len) = match (&mut self.page, self.help, &mut self.tournament) {
            (_, true, _) => {
                // Kept within the help's rows when drawn.
                self.help_scroll = self
                    .help_scroll
                    .min(self.help_rows_hidden.load(Ordering::Relaxed))
                    .saturating_add_signed(delta)
                    .min(self.help_rows_hidden.load(Ordering::Relaxed));
                return;
            }
            (Some(page), false, _) => (&mut page.selected, page.rows.len()),
            (None, false, Some((view, selected))) => (selected, view.boards.len()),
            (None, false, None) => (&mut self.selected, self.rooms.len()),
        };
        *selected = selected
            .saturating_add_signed(delta)
            .min(len.saturating_sub(1));
    }

    pub fn set_rooms(&mut self, rooms: Vec<RoomSummary>) {
        self.rooms = rooms;
        self.selected = self.selected.min(self.rooms.len().saturating_sub(1));
    }

    pub fn handle(&mut self, action: Action) -> Vec<Intent> {
        match action {
            Action::Paste(text) => {
                self.line.insert_str(text.lines().next().unwrap_or(""));
                Vec::new()
            }
            // The lobby's keys are the keymap's (`Place::Lobby`); the rest edit the line.
            Action::Key(key) => {
                match keymap::command(Pane::Lobby, &key, Place::Lobby) {
                    Some(Ok(Command::Lobby(LobbyKey::Up))) => self.select(-1),
                    Some(Ok(Command::Lobby(LobbyKey::Down))) => self.select(1),
                    Some(Ok(Command::Lobby(LobbyKey::Run))) => return self.submit(),
                    Some(Ok(Command::Lobby(LobbyKey::Back))) => {
                        self.line.clear();
                        let over_tournament =
                            !self.help && self.page.is_none() && self.tournament.is_some();
                        self.help = false;
                        self.page = None;
                        if over_tournament {
                            // The session leaves the tournament's screen too.
                            self.tournament = None;
                            return vec![Intent::Lobby(LobbyCommand::Rooms)];
                        }
                    }
                    _ => {
                        self.line.edit_key(&key);
                    }
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Runs the line's command. The line clears whatever happens (a failed command
    /// too: its error stays above the line), so the next command starts afresh.
    fn submit(&mut self) -> Vec<Intent> {
        let text = self.line.text().trim().to_owned();
        // Enter on the list shown: its selected row's command.
        let chosen = match self.shown() {
            _ if !text.is_empty() => None,
            Shown::Help => return Vec::new(),
            Shown::Page(page) => match page.rows.get(page.selected) {
                Some((_, command)) => Some(command.clone()),
                None => return Vec::new(),
            },
            // A board: one's own to play, another to watch.
            Shown::Tournament(view, selected) => {
                let Some(board) = view.boards.get(selected) else {
                    return Vec::new();
                };
                let Some(room) = board.room.clone() else {
                    return Vec::new();
                };
                Some(if board.mine {
                    LobbyCommand::Join(room)
                } else {
                    LobbyCommand::Watch(room)
                })
            }
            // A room: take an open seat, else watch.
            Shown::Rooms => {
                let Some(room) = self.rooms.get(self.selected) else {
                    return Vec::new();
                };
                let open =
                    room.kind == RoomKind::Human && (room.red.is_none() || room.black.is_none());
                Some(if open {
                    LobbyCommand::Join(room.name.clone())
                } else {
                    LobbyCommand::Watch(room.name.clone())
                })
            }
        };
        self.line.clear();
        self.message = None;
        self.help = false;
        self.page = None;
        if let Some(command) = chosen {
            return vec![Intent::Lobby(command)];
        }
        // On a tournament's screen, `say` speaks in its chat.
        if let (Some((view, _)), Some(said)) = (&self.tournament, text.strip_prefix("say ")) {
            return vec![Intent::Lobby(LobbyCommand::Tournament(
                TournamentCommand::Say {
                    name: view.name.clone(),
                    text: said.trim().to_owned(),
                },
            ))];
        }
        if let Some(command) = Moderation::parse_line(&text) {
            return match command {
                Ok(command) => vec![Intent::Moderate(command)],
                Err(usage) => {
                    self.message = Some((format!("{text}: {usage}"), true));
                    Vec::new()
                }
            };
        }
        match LobbyCommand::parse(&text) {
            Ok(LobbyCommand::Help) => {
                self.help = true;
                self.help_scroll = 0;
                Vec::new()
            }
            Ok(command) => vec![Intent::Lobby(command)],
            Err(error) => {
                self.message = Some((format!("{text}: {error}"), true));
                Vec::new()
            }
        }
    }
}

pub fn draw(lobby: &Lobby, app: &App, frame: &mut Frame) {
    let palette = &crate::style::Palette::new(&app.theme);
    let area = frame.area();
    frame.render_widget(Block::new().style(palette.text), area);
    let [list, help, message, input] = Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let shown = lobby.shown();
    let (lines, title) = match shown {
        Shown::Help => (
            help_lines(app, usize::from(list.width.saturating_sub(2))),
            " lobby commands (Esc: the rooms) ".to_owned(),
        ),
        Shown::Page(page) => (
            page_lines(page, app),
            format!(" {} (Esc: the rooms) ", page.title),
        ),
        Shown::Rooms => (room_lines(lobby, app), " xiangqi rooms ".to_owned()),
        Shown::Tournament(view, _) => (
            Vec::new(),
            format!(" tournament {} (Esc: the rooms) ", view.name),
        ),
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(palette.pane_border_focused)
        .title(Span::styled(title, palette.pane_title));
    if let Shown::Tournament(view, selected) = shown {
        let inside = block.inner(list);
        frame.render_widget(block, list);
        crate::remote_tournament::draw(view, selected, palette, inside, frame);
    } else {
        // The help scrolls where it is taller than the pane (its rows are wrapped already).
        let scroll = if lobby.help {
            let shown_rows = usize::from(list.height.saturating_sub(2));
            let hidden = lines.len().saturating_sub(shown_rows);
            lobby.help_rows_hidden.store(hidden, Ordering::Relaxed);
            lobby.help_scroll.min(hidden)
        } else {
            0
        };
        let mut paragraph = Paragraph::new(lines)
            .block(block)
            .style(palette.pane)
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0));
        // The help and the words of an empty room list are text to read whole: they wrap.
        let prose = lobby.help || (matches!(shown, Shown::Rooms) && lobby.rooms.is_empty());
        if prose {
            paragraph = paragraph.wrap(Wrap { trim: false });
        }
        frame.render_widget(paragraph, list);
    }
    // The keys of the list shown, nothing else's, named as the keymap binds them.
    let name = |pane, command| keymap::key_name(pane, command).unwrap_or_default();
    let choose = format!(
        "{}/{}, {}",
        name(Pane::Lobby, Command::Lobby(LobbyKey::Up)),
        name(Pane::Lobby, Command::Lobby(LobbyKey::Down)),
        name(Pane::Lobby, Command::Lobby(LobbyKey::Run)),
    );
    let back = name(Pane::Lobby, Command::Lobby(LobbyKey::Back));
    let keys = match shown {
        Shown::Rooms => format!(" {choose}: join an open seat or watch"),
        Shown::Page(page) if !page.rows.is_empty() => {
            format!(" {choose}: {} | {back}: the rooms", page.opening)
        }
        Shown::Page(_) => format!(" {back}: the rooms"),
        Shown::Help => format!(
            " {}/{}: scroll | {back}: the rooms",
            name(Pane::Lobby, Command::Lobby(LobbyKey::Up)),
            name(Pane::Lobby, Command::Lobby(LobbyKey::Down)),
        ),
        Shown::Tournament(..) => format!(" {choose}: a board | say TEXT: chat"),
    };
    let quit = name(Pane::Any, Command::Quit);
    // Where the whole line does not fit, the list's keys and the way out matter most.
    let width = usize::from(help.width);
    let full = format!("{keys} | help: the commands | {quit} leaves");
    let first = if full.width() <= width {
        full
    } else {
        fit(
            &format!("{keys} | {quit} leaves"),
            width,
            app.glyphs().ellipsis(),
        )
    };
    let help_lines = vec![
        Line::from(first),
        Line::from(" in a room: moves as at home, Ctrl-R resign, :draw, :undo, :say TEXT, :leave"),
    ];
    frame.render_widget(Paragraph::new(help_lines).style(palette.text), help);
    let (text, style) = match &lobby.message {
        Some((text, true)) => (text.clone(), palette.status_alert),
        Some((text, false)) => (text.clone(), palette.status),
        None => match lobby.rooms.len() {
            1 => ("1 room".to_owned(), palette.status),
            rooms => (format!("{rooms} rooms"), palette.status),
        },
    };
    frame.render_widget(Paragraph::new(format!(" {text}")).style(style), message);
    // The end of a long line, so the cursor and the error stay in sight.
    let room = usize::from(input.width).saturating_sub(2);
    let (text, style) = match lobby.line.error() {
        Some(error) => {
            let shown = tail(lobby.line.text(), room.saturating_sub(error.width() + 4));
            (format!("> {shown}  ({error})"), palette.input_error)
        }
        None => (
            format!("> {}", tail(lobby.line.text(), room)),
            palette.input,
        ),
    };
    frame.render_widget(Paragraph::new(text).style(style), input);
}

fn room_lines<'a>(lobby: &Lobby, app: &'a App) -> Vec<Line<'a>> {
    let palette = &crate::style::Palette::new(&app.theme);
    let mut lines = open_room_lines(lobby, app);
    if !lobby.adjourned.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled("adjourned", palette.pane_title)));
        lines.extend(
            lobby
                .adjourned
                .iter()
                .map(|line| Line::from(Span::styled(line.clone(), palette.pane))),
        );
    }
    lines
}

fn open_room_lines<'a>(lobby: &Lobby, app: &'a App) -> Vec<Line<'a>> {
    let palette = &crate::style::Palette::new(&app.theme);
    if lobby.rooms.is_empty() {
        return [
            "no rooms yet: type 'new human' to open one for a friend, 'new engine' to play the engine",
            "or train alone: 'puzzle' for a mate puzzle at your level, 'drill' for the endgame school",
        ]
        .into_iter()
        .map(|text| Line::from(Span::styled(text, palette.log_detail)))
        .collect();
    }
    let mut lines = vec![Line::from(Span::styled(
        room_headings(),
        palette.pane_title,
    ))];
    lines.extend(lobby.rooms.iter().enumerate().map(|(index, room)| {
        let style = if index == lobby.selected {
            palette.pane_highlight
        } else {
            palette.pane
        };
        Line::from(Span::styled(room_line(room), style))
    }));
    lines
}

/// A list under its headings, the chosen row highlighted.
fn page_lines<'a>(page: &'a Page, app: &'a App) -> Vec<Line<'a>> {
    let palette = &crate::style::Palette::new(&app.theme);
    let heading = if page.rows.is_empty() {
        palette.pane
    } else {
        palette.pane_title
    };
    let mut lines = vec![Line::from(Span::styled(page.heading.as_str(), heading))];
    lines.extend(page.rows.iter().enumerate().map(|(index, (text, _))| {
        let style = if index == page.selected {
            palette.pane_highlight
        } else {
            palette.pane
        };
        Line::from(Span::styled(text.as_str(), style))
    }));
    lines
}

/// The lobby's keys (from the keymap), then its commands, in `width` columns: a
/// description too long goes on under itself, the commands' column kept clear.
fn help_lines(app: &App, width: usize) -> Vec<Line<'_>> {
    let column = LOBBY_HELP
        .iter()
        .map(|(command, _)| command.width() + 1)
        .max()
        .unwrap_or(0);
    let keys_column = keymap::bindings()
        .filter(|(_, binding)| binding.places.contains(Place::Lobby))
        .map(|(_, binding)| binding.keys.width() + 1)
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = key_lines()
        .iter()
        .flat_map(|line| wrap(line, width, keys_column, app.glyphs().ellipsis()))
        .map(Line::from)
        .collect();
    lines.push(Line::from(""));
    lines.extend(
        lobby_help_lines()
            .iter()
            .flat_map(|line| {
                // wrap indents from the line's own indentation ("  CONTROL").
                let own = line.len() - line.trim_start().len();
                wrap(line, width, column - own, app.glyphs().ellipsis())
            })
            .map(Line::from),
    );
    lines.push(Line::from(""));
    // Wrapped here too, so that the help's rows are its lines (its scrolling counts them).
    let usage = crate::style::to_tui(&app.theme.log_detail);
    lines.extend(
        wrap(
            &format!("usage: {LOBBY_USAGE}"),
            width,
            "usage: ".len(),
            app.glyphs().ellipsis(),
        )
        .into_iter()
        .map(|row| Line::styled(row, usage)),
    );
    lines
}

/// The keymap's keys of the lobby, each with what it does there, in one column.
fn key_lines() -> Vec<String> {
    let keys: Vec<_> = keymap::bindings()
        .map(|(_, binding)| binding)
        .filter(|binding| binding.places.contains(Place::Lobby))
        .collect();
    let width = keys.iter().map(|binding| binding.keys.width()).max();
    keys.iter()
        .map(|binding| {
            let pad = width.unwrap_or(0) - binding.keys.width();
            let help = binding.help_in(Place::Lobby);
            format!("{}{} {help}", binding.keys, " ".repeat(pad))
        })
        .collect()
}

#[cfg(test)]
#[path = "remote_lobby_tests.rs"]
mod tests;
