//! The move list and the search log.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use unicode_width::UnicodeWidthStr;

use super::text::{fit, pad, wrap};
use xiangqi_app::app::{App, AppMode, Focus};
use xiangqi_app::search_log::LogKind;
use xiangqi_engine::service::StepMode;

/// A bordered pane in the theme's pane styles. The focused pane shows it by more than
/// colour: a heavier border and a `>` before its title.
pub fn pane_block(app: &App, title: &str, focused: bool) -> Block<'static> {
    let palette = &crate::style::Palette::new(&app.theme);
    let (border, set, title) = if focused {
        (
            palette.pane_border_focused,
            super::borders::focused_border(app.glyphs()),
            format!(" >{title}"),
        )
    } else {
        (
            palette.pane_border,
            super::borders::border(app.glyphs()),
            title.to_owned(),
        )
    };
    Block::bordered()
        .border_set(set)
        .border_style(palette.pane.patch(border))
        .title(Span::styled(title, palette.pane.patch(palette.pane_title)))
        .style(palette.pane)
}

const MOVES_TITLE: &str = " Moves ";
/// Rows after the first of a wrapped log line are indented this much more.
const LOG_INDENT: usize = 4;

/// The moves, one full move a line, newest at the bottom.
pub fn moves(app: &App, frame: &mut Frame, area: Rect) {
    let clocks = super::clocks::clock_line(app);
    let clocks_width = clocks.as_ref().map_or(0, |clocks| clocks.width() + 1);
    // A narrow pane keeps the clocks and drops its name; the opening comes after the
    // name where there is room, in full or as its code.
    let room = usize::from(area.width).saturating_sub(clocks_width + 2);
    let mut title = if room < MOVES_TITLE.len() && clocks.is_some() {
        String::new()
    } else {
        MOVES_TITLE.to_owned()
    };
    if let Some(opening) = super::opening::shown_opening(app).filter(|_| !title.is_empty()) {
        let code = opening.code.to_string();
        let full = super::opening::label(app, opening);
        for text in [full, code] {
            if title.width() + text.width() < room {
                title.push_str(&text);
                title.push(' ');
                break;
            }
        }
    }
    let mut block = pane_block(app, &title, false);
    if let Some(clocks) = clocks {
        block = block.title_top(clocks.right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let notation = app.display_notation();
    let played = app.game.played();
    let rows = xiangqi_app::move_list::rows(app);
    let height = usize::from(inner.height);
    let skip = rows.len().saturating_sub(height);
    let palette = &crate::style::Palette::new(&app.theme);
    // The move leading to the position shown (the last one unless browsing).
    let last = app.shown_ply().checked_sub(1);
    let ellipsis = app.glyphs().ellipsis();
    let column = xiangqi_app::move_list::column_width(app);
    let lines: Vec<Line> = rows[skip..]
        .iter()
        .map(|&(number, red, black)| {
            let text = |ply: Option<usize>| match ply {
                Some(ply) => {
                    let mark = xiangqi_app::move_list::mark(app, ply);
                    format!("{}{mark}", played[ply].text(notation))
                }
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
                // A review's mark after Red's move takes the gap, one space kept.
                spans.push(Span::styled(
                    pad("", (column + 2).saturating_sub(red_text.width()).max(1)),
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

/// The title of the log: its name, the view its scores are from, the stepping state and
/// the scrolling, each shortened as the width asks; the view goes last, as it is what
/// makes the numbers mean anything (a textbook tree's values are its MAX player's, so
/// a tree study names none).
fn log_title(app: &App, width: u16) -> String {
    let tree = matches!(app.mode, AppMode::Study(_));
    let views: &[&str] = if tree {
        &[""]
    } else {
        &["(scores: Red's view) ", "(Red's view) "]
    };
    let state = app.log.step.as_ref().and_then(|step| match step.mode() {
        _ if step.waiting() => Some(("paused: Space=1 i=iter c=go", "paused")),
        StepMode::ToIterationEnd => Some(("to iteration end", "to iter end")),
        StepMode::Paused => Some(("stepping", "stepping")),
        StepMode::Free if app.config.settings.step => Some(("running", "running")),
        StepMode::Free => None,
    });
    let scroll = app.log.scroll();
    let scrolled = |long: bool| match scroll {
        0 => String::new(),
        n if long => format!("[{n} more below, End] "),
        n => format!("[+{n}] "),
    };
    let states = |long: bool| {
        state.map_or_else(String::new, |(full, short)| {
            format!("[{}] ", if long { full } else { short })
        })
    };
    // From the fullest title to the shortest; the first that fits (with its corners).
    let mut candidates = Vec::new();
    for name in [" Search log ", " Log "] {
        for view in views {
            for long in [true, false] {
                candidates.push(format!("{name}{view}{}{}", states(long), scrolled(long)));
            }
        }
    }
    candidates.push(format!(" Log {}{}", states(false), scrolled(false)));
    candidates.push(" Log ".to_owned());
    let room = usize::from(width).saturating_sub(2);
    candidates
        .iter()
        .find(|title| title.width() <= room)
        .unwrap_or(candidates.last().unwrap_or(&String::new()))
        .clone()
}

pub fn log(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Focus::Log && app.popups.is_empty();
    // The focus mark takes 2 columns; a narrow pane shortens its name before its state.
    let mark = if focused { 2 } else { 0 };
    let title = log_title(app, area.width.saturating_sub(mark));
    let block = pane_block(app, &title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let palette = &crate::style::Palette::new(&app.theme);
    let style_of = |kind: LogKind| -> Style {
        match kind {
            LogKind::Search => palette.pane.patch(palette.pane_title),
            LogKind::Iteration | LogKind::Result => palette.pane,
            LogKind::Trace | LogKind::Note => palette.pane.patch(palette.log_detail),
        }
    };
    let width = usize::from(inner.width);
    let ellipsis = app.glyphs().ellipsis();
    let height = usize::from(inner.height);
    // The line of the node selected in the explorer stands out (absolute positions:
    // lines dropped so far plus the index).
    let explored = app
        .study
        .shown
        .then(|| app.study.detail.or_else(|| app.study.highlighted_seq()))
        .flatten();
    // Long lines (a principal variation) wrap; the newest line shown sits at the
    // bottom and older ones fill the pane upwards, the top one cut if need be.
    let end = app.log.len().saturating_sub(app.log.scroll());
    let mut rows: Vec<Line> = Vec::new();
    let mut newest_rows = 0;
    for index in (0..end).rev() {
        if rows.len() >= height {
            break;
        }
        let line = &app.log.lines()[index];
        let mut style = style_of(line.kind);
        if explored == Some(app.log.dropped() + index as u64) {
            style = style.patch(palette.selection);
        }
        // Trace events stay one row each (they are many, and the explorer walks
        // them row by row); the rest wraps.
        let wrapped = if line.kind == LogKind::Trace {
            vec![fit(&line.text, width, ellipsis)]
        } else {
            wrap(&line.text, width, LOG_INDENT, ellipsis)
        };
        let take = wrapped.len().min(height - rows.len());
        if index + 1 == end {
            newest_rows = take;
        }
        rows.extend(
            wrapped
                .into_iter()
                .rev()
                .take(take)
                .map(|row| Line::styled(row, style)),
        );
    }
    rows.reverse();
    let mut lines = rows;
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
    if app.log.scroll() == 0 && app.log.step.is_some_and(|step| step.waiting()) {
        let from = lines.len() - newest_rows;
        for row in &mut lines[from..] {
            *row = row
                .clone()
                .style(palette.pane.patch(palette.pane_highlight));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
