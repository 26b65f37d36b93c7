//! The input line and the status line.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::text::{fit, tail};
use crate::config::{EngineSide, Glyphs};
use crate::tui::app::{App, AppMode, Focus};
use crate::tui::engine_events::count;

const PROMPT: &str = "move> ";

pub fn input(app: &App, frame: &mut Frame, area: Rect) {
    let palette = &app.palette;
    let focused = app.focus == Focus::Input && app.popups.is_empty();
    let prompt_style = if focused {
        palette.input.patch(palette.pane_title)
    } else {
        palette.input.patch(palette.log_detail)
    };
    let width = usize::from(area.width);
    let room = width.saturating_sub(PROMPT.len() + 1);
    let text = app.input.text();
    // A long line shows its end, and leaves room for its error.
    let error_room = app
        .input
        .error()
        .map_or(0, |error| (error.width() + 2).min(room / 2));
    let shown = tail(text, room - error_room);
    let mut spans = vec![
        Span::styled(PROMPT, prompt_style),
        Span::styled(shown.to_owned(), palette.input),
    ];
    let ellipsis = app.glyphs().ellipsis();
    if let Some(error) = app.input.error() {
        let left = room.saturating_sub(shown.width() + 2);
        spans.push(Span::styled("  ", palette.input));
        spans.push(Span::styled(
            fit(error, left, ellipsis),
            palette.input_error,
        ));
    } else if text.is_empty() && focused {
        let hint = if app.config.settings.glyphs == Glyphs::Ascii {
            "type a move (C2.5, h2e2) and Enter | F1 help"
        } else {
            "type a move (炮二平五, C2.5, h2e2) and Enter | F1 help"
        };
        spans.push(Span::styled(
            fit(hint, room, ellipsis),
            palette.input.patch(palette.log_detail),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).style(palette.input), area);
    if focused {
        // The terminal's cursor sits where the next character goes.
        let before: String = app.input.text().chars().take(app.input.cursor()).collect();
        let hidden = text.width() - shown.width();
        let column = PROMPT.len() + before.width().saturating_sub(hidden);
        let column = u16::try_from(column).unwrap_or(u16::MAX);
        if column < area.width {
            frame.set_cursor_position(Position::new(area.x + column, area.y));
        }
    }
}

/// Who plays, in a few words.
fn mode_text(app: &App) -> String {
    if let AppMode::Room(room) = &app.mode {
        return room.clone();
    }
    // An external engine is named; the in-process one by its algorithm.
    let algorithm = match app.config.settings.engine.as_str() {
        crate::config::BUILTIN_ENGINE => app.config.settings.algorithm.to_string(),
        name => name.to_owned(),
    };
    match app.engine_side() {
        EngineSide::Black => format!("you: Red vs {algorithm}"),
        EngineSide::Red => format!("you: Black vs {algorithm}"),
        EngineSide::Both => format!("{algorithm} vs {algorithm}"),
        EngineSide::None => "two players".to_owned(),
    }
}

fn engine_text(app: &App) -> Option<String> {
    if let Some(thinking) = &app.engine.thinking {
        let mut text = "thinking".to_owned();
        if let Some(info) = &thinking.info {
            text.push_str(&format!(
                " d{} {} {}n {}n/s",
                info.depth,
                info.verdict().pawns(),
                count(info.nodes),
                count(info.nps)
            ));
        }
        if app.log.step.is_some_and(|step| step.waiting()) {
            text.push_str(" [step]");
        }
        return Some(text);
    }
    if app.engine.paused && app.engine_side() != EngineSide::None {
        return Some("engine waits (Ctrl-G)".to_owned());
    }
    app.engine.last_info.as_ref().map(|info| {
        format!(
            "last: d{} {} {}n",
            info.depth,
            info.verdict().pawns(),
            count(info.nodes)
        )
    })
}

pub fn status(app: &App, frame: &mut Frame, area: Rect) {
    let palette = &app.palette;
    let width = usize::from(area.width);
    let ellipsis = app.glyphs().ellipsis();
    let right = " F1 help ";
    let left_room = width.saturating_sub(right.len());
    let (left, alert) = match &app.notice {
        Some(notice) => (format!(" {}", notice.text), notice.alert),
        None => {
            let position = app.position();
            let mut parts = Vec::new();
            let mut alert = false;
            match app.game.outcome() {
                Some(outcome) => {
                    parts.push(format!("{} ({})", outcome.describe(), outcome.pgn_result()));
                    alert = true;
                }
                None => {
                    let side = position.side_to_move().name();
                    if position.in_check() {
                        parts.push(format!("{side} to move, CHECK"));
                        alert = true;
                    } else {
                        parts.push(format!("{side} to move"));
                    }
                    if let Some(probe) = app.tablebases.as_ref().and_then(|tb| tb.probe(position)) {
                        parts.push(format!("tablebase: {}", probe.describe()));
                    }
                }
            }
            if let Some(browse) = &app.browse {
                parts.insert(0, format!("ply {}/{} shown", browse.ply, app.game.ply()));
            }
            if let Some(hint) = &app.hint {
                parts.push(format!("hint: {}", hint.text));
            }
            parts.push(mode_text(app));
            parts.extend(engine_text(app));
            if app.config.settings.step {
                parts.push("step".to_owned());
            }
            (format!(" {}", parts.join(" | ")), alert)
        }
    };
    // The help hint gives way when the state needs the whole line.
    let right = if left.width() <= left_room { right } else { "" };
    let left_room = width.saturating_sub(right.len());
    let left = fit(&left, left_room, ellipsis);
    let gap = left_room.saturating_sub(left.width());
    let style = if alert {
        palette.status_alert
    } else {
        palette.status
    };
    let line = Line::from(vec![
        Span::styled(left, style),
        Span::styled(" ".repeat(gap), palette.status),
        Span::styled(fit(right, width, ellipsis), palette.status),
    ]);
    frame.render_widget(Paragraph::new(line).style(palette.status), area);
}
