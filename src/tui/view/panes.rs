//! The move list and the search log.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use unicode_width::UnicodeWidthStr;

use super::text::{fit, pad};
use crate::service::StepMode;
use crate::tui::app::{App, AppMode, Focus};
use crate::tui::search_log::LogKind;

/// A bordered pane in the theme's pane styles.
pub fn pane_block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    let palette = &app.palette;
    let border = if focused {
        palette.pane_border_focused
    } else {
        palette.pane_border
    };
    Block::bordered()
        .border_set(app.glyphs().border())
        .border_style(palette.pane.patch(border))
        .title(Span::styled(title, palette.pane.patch(palette.pane_title)))
        .style(palette.pane)
}

/// The moves, one full move a line, newest at the bottom.
pub fn moves(app: &App, frame: &mut Frame, area: Rect) {
    let mut block = pane_block(app, " Moves ", false);
    if let Some(clocks) = super::clocks::clock_line(app) {
        block = block.title_top(clocks.right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let notation = app.display_notation();
    let played = app.game.played();
    let rows = crate::tui::move_list::rows(app);
    let height = usize::from(inner.height);
    let skip = rows.len().saturating_sub(height);
    let palette = &app.palette;
    // The move leading to the position shown (the last one unless browsing).
    let last = app.shown_ply().checked_sub(1);
    let ellipsis = app.glyphs().ellipsis();
    let column = crate::tui::move_list::column_width(app);
    let lines: Vec<Line> = rows[skip..]
        .iter()
        .map(|&(number, red, black)| {
            let text = |ply: Option<usize>| match ply {
                Some(ply) => played[ply].text(notation).to_owned(),
                None => "...".to_owned(),
            };
            let style = |ply: Option<usize>| {
                if ply.is_some() && ply == last {
                    palette.pane.patch(palette.pane_highlight)
                } else {
                    palette.pane
                }
            };
            let mut spans = vec![
                Span::styled(format!("{number:>3}. "), palette.pane),
                Span::styled(text(red), style(red)),
            ];
            if let Some(black) = black {
                let red_text = text(red);
                spans.push(Span::styled(
                    pad("", column + 2 - red_text.width().min(column + 2)),
                    palette.pane,
                ));
                spans.push(Span::styled(text(Some(black)), style(Some(black))));
            }
            let line = Line::from(spans);
            if line.width() > usize::from(inner.width) {
                let plain: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                Line::styled(
                    fit(&plain, usize::from(inner.width), ellipsis),
                    palette.pane,
                )
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The title of the log: stepping state and scrolling, when they matter.
fn log_title(app: &App) -> String {
    let mut title = " Search log ".to_owned();
    if let Some(step) = &app.log.step {
        let state = match step.mode() {
            _ if step.waiting() => Some("paused: Space=1 i=iter c=go"),
            StepMode::ToIterationEnd => Some("to iteration end"),
            StepMode::Paused => Some("stepping"),
            StepMode::Free if app.config.settings.step => Some("running"),
            StepMode::Free => None,
        };
        if let Some(state) = state {
            title.push_str(&format!("[{state}] "));
        }
    }
    if app.log.scroll() > 0 {
        title.push_str(&format!("[{} more below, End] ", app.log.scroll()));
    }
    title
}

pub fn log(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Focus::Log && app.popups.is_empty();
    let title = log_title(app);
    let block = pane_block(app, &title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let palette = &app.palette;
    let style_of = |kind: LogKind| -> Style {
        match kind {
            LogKind::Search => palette.pane.patch(palette.pane_title),
            LogKind::Iteration | LogKind::Result => palette.pane,
            LogKind::Trace | LogKind::Note => palette.pane.patch(palette.log_detail),
        }
    };
    let width = usize::from(inner.width);
    let ellipsis = app.glyphs().ellipsis();
    // The line of the node selected in the explorer stands out (absolute positions:
    // lines dropped so far plus the index).
    let height = usize::from(inner.height);
    let first_shown = app
        .log
        .len()
        .saturating_sub(app.log.scroll())
        .saturating_sub(height);
    let first_seq = app.log.dropped() + first_shown as u64;
    let explored = app
        .study
        .shown
        .then(|| app.study.highlighted_seq())
        .flatten();
    let mut lines: Vec<Line> = app
        .log
        .visible(height)
        .enumerate()
        .map(|(i, line)| {
            let mut style = style_of(line.kind);
            if explored == Some(first_seq + i as u64) {
                style = style.patch(palette.selection);
            }
            Line::styled(fit(&line.text, width, ellipsis), style)
        })
        .collect();
    if app.log.is_empty() {
        let hint = if app.engine.available || app.engine.remote {
            "The engine's thinking shows here."
        } else if matches!(app.mode, AppMode::Room(_)) {
            "No engine in this room."
        } else {
            "No engine in this build."
        };
        lines.push(Line::styled(
            fit(hint, width, ellipsis),
            palette.pane.patch(palette.log_detail),
        ));
    }
    // The line a stepping search is held after stands out.
    if app.log.scroll() == 0
        && app.log.step.is_some_and(|step| step.waiting())
        && let Some(last) = lines.last_mut()
    {
        *last = last
            .clone()
            .style(palette.pane.patch(palette.pane_highlight));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
