//! The analysis board's table: the best lines of the position shown, held in place and
//! replaced each iteration (the log keeps only the final lines of each position), each
//! with its score from Red's view and its variation wrapped.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::panes::pane_block;
use super::text::{fit, wrap};
use unicode_width::UnicodeWidthStr;
use xiangqi_app::app::App;
use xiangqi_app::notation_link::format_line;

/// Rows the log keeps below the table at the least (its borders and two lines).
const LOG_ROWS: u16 = 4;

/// The table's text: a line per variation, wrapped to `width`, each in at most
/// `rows_each` rows (the end of a longer variation is cut, marked by the ellipsis).
fn rows(app: &App, width: usize, rows_each: usize) -> Vec<String> {
    let side = app.position().side_to_move();
    let ellipsis = app.glyphs().ellipsis();
    let mut rows = Vec::new();
    for (index, line) in app.analysis.lines.iter().enumerate() {
        let pv = format_line(app.position(), &line.pv, app.display_notation()).join(" ");
        let head = format!("{}. {}", index + 1, line.verdict().shown(side));
        let mut wrapped = wrap(&format!("{head} {pv}"), width, 3, ellipsis);
        if wrapped.len() > rows_each {
            wrapped.truncate(rows_each.max(1));
            if let Some(last) = wrapped.last_mut() {
                let room = width.saturating_sub(ellipsis.width());
                *last = format!("{}{ellipsis}", fit(last, room, ""));
            }
        }
        rows.extend(wrapped);
    }
    if rows.is_empty() {
        let text = if app.engine.thinking.is_some() {
            "thinking…"
        } else {
            "no lines: the game is over here"
        };
        rows.push(text.to_owned());
    }
    rows
}

/// Rows each variation may take in a table `height` rows tall (borders included).
fn rows_each(app: &App, height: u16) -> usize {
    let lines = app.analysis.lines.len().max(1);
    (usize::from(height.saturating_sub(2)) / lines).max(1)
}

/// Splits the log's `area` into the table (as tall as its lines, at most two thirds of
/// the area, so that the log keeps `LOG_ROWS` when it can) and what is left to the log
/// (`None`: too little).
pub fn split(app: &App, area: Rect) -> (Rect, Option<Rect>) {
    let most = (area.height * 2 / 3).min(area.height.saturating_sub(LOG_ROWS));
    let each = rows_each(app, most);
    let wanted = rows(app, usize::from(area.width.saturating_sub(2)), each).len() as u16 + 2;
    if area.height < wanted + LOG_ROWS {
        return (area, None);
    }
    let table = Rect {
        height: wanted,
        ..area
    };
    let log = Rect {
        y: area.y + wanted,
        height: area.height - wanted,
        ..area
    };
    (table, Some(log))
}

pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let title = match app.analysis.depth {
        0 => " Analysis (Red's view) ".to_owned(),
        depth => format!(" Analysis d{depth} (Red's view) "),
    };
    let block = pane_block(app, &title, false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines: Vec<Line> = rows(app, usize::from(inner.width), rows_each(app, area.height))
        .into_iter()
        .map(|row| Line::styled(row, crate::style::to_tui(&app.theme.pane)))
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
