//! Popups, drawn bottom to top over the screen.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use super::text::{fit, pad, tail, wrap};
use xiangqi_app::RulingView;
use xiangqi_app::app::App;
use xiangqi_app::help::help_lines;
use xiangqi_app::popup::Popup;

/// A rectangle of at most `width` x `height`, centred in `area`.
fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

fn frame_popup(app: &App, frame: &mut Frame, rect: Rect, title: &str) -> Rect {
    let palette = &crate::style::Palette::new(&app.theme);
    let block = Block::bordered()
        .border_set(super::borders::border(app.glyphs()))
        .border_style(palette.popup.patch(palette.pane_border_focused))
        .title(Span::styled(
            format!(" {title} "),
            palette.popup.patch(palette.pane_title),
        ))
        .style(palette.popup);
    let inner = block.inner(rect);
    clear(frame, rect);
    frame.render_widget(block, rect);
    inner
}

/// Clears `rect` for something drawn over the screen. A wide character (a piece, the
/// river's inscription) just left of it would cover the left border's column: the
/// terminal draws it two columns wide and ratatui sends nothing for the column it
/// covers, so the border there was lost. It gives way to a space.
pub fn clear(frame: &mut Frame, rect: Rect) {
    frame.render_widget(Clear, rect);
    if rect.x == 0 {
        return;
    }
    let buffer = frame.buffer_mut();
    for y in rect.top()..rect.bottom() {
        if let Some(cell) = buffer.cell_mut((rect.x - 1, y))
            && cell.symbol().width() > 1
        {
            cell.set_symbol(" ");
        }
    }
}

pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    for (index, popup) in app.popups.iter().enumerate() {
        let top = index + 1 == app.popups.len();
        draw_one(app, frame, area, popup, top);
    }
}

/// A list's lines in `rows` rows: the part that holds the selected item (a list longer
/// than the screen scrolls with the selection), numbered from 1 in one column.
fn list_lines<'a>(
    app: &App,
    labels: impl ExactSizeIterator<Item = String>,
    selected: usize,
    width: usize,
    rows: usize,
) -> Vec<Line<'a>> {
    let palette = &crate::style::Palette::new(&app.theme);
    let ellipsis = app.glyphs().ellipsis();
    let count = labels.len();
    let digits = count.to_string().len();
    let rows = rows.max(1);
    let first = selected
        .saturating_sub(rows - 1)
        .min(count.saturating_sub(rows));
    labels
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(index, label)| {
            let text = pad(
                &fit(&format!(" {:>digits$} {label}", index + 1), width, ellipsis),
                width,
            );
            let style = if index == selected {
                palette.popup.patch(palette.pane_highlight)
            } else {
                palette.popup
            };
            Line::styled(text, style)
        })
        .collect()
}

fn draw_one(app: &App, frame: &mut Frame, area: Rect, popup: &Popup, top: bool) {
    let palette = &crate::style::Palette::new(&app.theme);
    let hint_style = palette.popup.patch(palette.log_detail);
    match popup {
        Popup::Help { scroll } => {
            let lines = help_lines(app.place());
            let rect = centred(area, 78, area.height.saturating_sub(2));
            let inner = frame_popup(app, frame, rect, "Keys (Esc closes, Up/Down scroll)");
            let key_width = 20;
            // A description too long for the window goes on under itself, never cut.
            let text_width = usize::from(inner.width)
                .saturating_sub(key_width + 2)
                .max(1);
            let text: Vec<Line> = lines
                .iter()
                .flat_map(|(keys, text)| {
                    if keys.is_empty() {
                        vec![Line::styled(
                            text.clone(),
                            palette.popup.patch(palette.pane_title),
                        )]
                    } else {
                        wrap(text, text_width, 0, app.glyphs().ellipsis())
                            .into_iter()
                            .enumerate()
                            .map(|(at, part)| {
                                let keys = if at == 0 { keys.as_str() } else { "" };
                                Line::from(vec![
                                    Span::styled(
                                        format!("  {}", pad(keys, key_width)),
                                        palette.popup,
                                    ),
                                    Span::styled(part, palette.popup),
                                ])
                            })
                            .collect()
                    }
                })
                .collect();
            let max_scroll = (text.len() as u16).saturating_sub(inner.height);
            let paragraph = Paragraph::new(text).scroll(((*scroll).min(max_scroll), 0));
            frame.render_widget(paragraph, inner);
        }
        Popup::Candidates {
            input,
            candidates,
            selected,
        } => {
            let title = format!("'{input}' could be");
            let height = candidates.len() as u16 + 3;
            let rect = centred(area, 50, height);
            let inner = frame_popup(app, frame, rect, &title);
            let width = usize::from(inner.width);
            let mut lines = list_lines(
                app,
                candidates
                    .iter()
                    .map(|c| format!("{} ({})", c.chinese, c.mv.iccs())),
                *selected,
                width,
                usize::from(inner.height).saturating_sub(1),
            );
            lines.push(Line::styled(
                fit("Enter or 1-9 plays it, Esc goes back", width, "~"),
                hint_style,
            ));
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Popup::Choice {
            purpose,
            items,
            selected,
        } => {
            let height = items.len() as u16 + 3;
            let rect = centred(area, 64, height);
            let inner = frame_popup(app, frame, rect, purpose.title());
            let width = usize::from(inner.width);
            let mut lines = list_lines(
                app,
                items.iter().map(|item| item.label.clone()),
                *selected,
                width,
                usize::from(inner.height).saturating_sub(1),
            );
            lines.push(Line::styled(
                fit("Up/Down, Enter chooses, Esc cancels", width, "~"),
                hint_style,
            ));
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Popup::Resume => {
            let rect = centred(area, 60, 6);
            let inner = frame_popup(app, frame, rect, "Unfinished game");
            let game = &app.game;
            let side = game.position().side_to_move().name();
            let lines = vec![
                Line::styled(
                    // Moves as players count them, not half-moves.
                    format!(
                        "Your unfinished game is back: move {}, {side} to move.",
                        game.ply() / 2 + 1
                    ),
                    palette.popup,
                ),
                Line::styled(xiangqi_app::resume::describe(game), palette.popup),
                Line::styled("Enter: play on      n: start a new game", palette.popup),
            ];
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
        }
        Popup::Prompt { purpose, line } => {
            let rect = centred(area, 72, 4);
            let inner = frame_popup(app, frame, rect, purpose.title());
            let width = usize::from(inner.width).saturating_sub(1);
            let shown = tail(line.text(), width);
            let lines = vec![
                Line::styled(shown.to_owned(), palette.input),
                Line::styled(fit("Enter: ok   Esc: cancel", width, "~"), hint_style),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
            if top {
                let before: String = line.text().chars().take(line.cursor()).collect();
                let hidden = line.text().width() - shown.width();
                let column = before.width().saturating_sub(hidden);
                let column = u16::try_from(column).unwrap_or(u16::MAX);
                if column < inner.width && inner.height > 0 {
                    frame.set_cursor_position(Position::new(inner.x + column, inner.y));
                }
            }
        }
        Popup::ConfirmResign => {
            let rect = centred(area, 44, 5);
            let inner = frame_popup(app, frame, rect, "Resign?");
            let lines = vec![
                Line::styled("Resign this game?", palette.popup),
                Line::styled("", palette.popup),
                Line::styled("y: resign   any other key: play on", hint_style),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Popup::ConfirmDiscard(discard) => {
            let rect = centred(area, 60, 5);
            let inner = frame_popup(app, frame, rect, discard.title());
            let lines = vec![
                Line::styled(discard.question(), palette.popup),
                Line::styled("", palette.popup),
                Line::styled("y: go on   any other key: keep the game", hint_style),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Popup::GameOver {
            ruling: Some(view),
            rematch,
            ..
        } => ruling_popup(
            app,
            frame,
            area,
            view,
            "Game over: the arbiter's ruling",
            game_over_keys(app, *rematch),
        ),
        Popup::Ruling(view) => {
            let title = if view.pending {
                "The arbiter: the cycle so far"
            } else {
                "The arbiter's ruling"
            };
            ruling_popup(app, frame, area, view, title, "Any key closes this.");
        }
        Popup::GameOver {
            outcome, rematch, ..
        } => {
            let rect = centred(area, 64, 6);
            let inner = frame_popup(app, frame, rect, "Game over");
            let width = usize::from(inner.width);
            let lines = vec![
                Line::styled(
                    fit(
                        &format!("{} ({})", outcome.describe(), outcome.pgn_result()),
                        width,
                        "~",
                    ),
                    palette.popup.patch(palette.pane_title),
                ),
                Line::styled("", palette.popup),
                Line::styled(fit(game_over_keys(app, *rematch), width, "~"), hint_style),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Popup::Event { scroll } => {
            let rect = centred(area, 78, area.height.saturating_sub(2));
            let inner = frame_popup(app, frame, rect, "Event (Esc closes, Up/Down scroll)");
            let (title, rows) = super::study::event_text(app, usize::from(inner.width), usize::MAX);
            let mut text = vec![Line::styled(
                title.trim().to_owned(),
                palette.popup.patch(palette.pane_title),
            )];
            text.extend(rows.into_iter().map(|row| Line::styled(row, palette.popup)));
            let max_scroll = (text.len() as u16).saturating_sub(inner.height);
            let paragraph = Paragraph::new(text).scroll(((*scroll).min(max_scroll), 0));
            frame.render_widget(paragraph, inner);
        }
        Popup::Message { title, text } => {
            // One line usually; several for lists (the book moves, Ctrl-B).
            let widest = text.lines().map(|l| l.width()).max().unwrap_or(0);
            let width = (widest as u16 + 4).clamp(30, 76);
            let count = text.lines().count().max(1) as u16;
            let rect = centred(area, width, 5 + count);
            let inner = frame_popup(app, frame, rect, title);
            let mut lines: Vec<Line> = text
                .lines()
                .map(|l| Line::styled(l.to_owned(), palette.popup))
                .collect();
            lines.extend([
                Line::styled("", palette.popup),
                Line::styled("Any key closes this.", hint_style),
            ]);
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
        }
    }
}

/// The arbiter's ruling in a popup titled `title`, with `keys` at the bottom.
fn ruling_popup(
    app: &App,
    frame: &mut Frame,
    area: Rect,
    view: &RulingView,
    title: &str,
    keys: &str,
) {
    let palette = &crate::style::Palette::new(&app.theme);
    let width = super::ruling::width(view, area.width.saturating_sub(4));
    let inner_width = usize::from(width.saturating_sub(2));
    // Borders, and the blank line and the keys below the ruling.
    let room = usize::from(area.height.saturating_sub(2)).saturating_sub(4);
    let ellipsis = app.glyphs().ellipsis();
    let mut lines = super::ruling::lines(view, palette, inner_width, room, ellipsis);
    lines.push(Line::styled("", palette.popup));
    lines.push(Line::styled(
        fit(keys, inner_width, ellipsis),
        palette.popup.patch(palette.log_detail),
    ));
    let rect = centred(area, width, lines.len() as u16 + 2);
    let inner = frame_popup(app, frame, rect, title);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The result popup's keys: at home a new game or a rematch; in a room a rematch (an
/// offer the other player's `:rematch` agrees to), but not in a tournament's.
fn game_over_keys(app: &App, rematch: bool) -> &'static str {
    if app.place() == xiangqi_app::keymap::Place::Room {
        if rematch {
            "r or :rematch: a rematch, colours swapped   Esc: close"
        } else {
            "the tournament pairs the next game   Esc: close"
        }
    } else {
        "n: new game   r: rematch, colours swapped   Esc: close"
    }
}
