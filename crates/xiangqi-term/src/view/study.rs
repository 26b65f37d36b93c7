//! The tree study's screen (`xiangqi-tui study FILE.tree`): the explorer, the search
//! log, the selected trace event in full (wrapped), the input line and the study's
//! status line. There is no game here: no board, no move list, no game status.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::panes::pane_block;
use super::text::fit;
use super::{bars, explorer, panes, popups};
use xiangqi_app::app::{App, AppMode};
use xiangqi_app::study_layout::StudyLayout;
use xiangqi_engine::study::detail::{event_rows, wrap};

pub fn draw(app: &App, frame: &mut Frame, layout: &StudyLayout) {
    explorer::draw(app, frame, super::tui(layout.explorer), false);
    panes::log(app, frame, super::tui(layout.log));
    event(app, frame, super::tui(layout.event));
    bars::input(app, frame, super::tui(layout.input));
    status(app, frame, super::tui(layout.status));
    popups::draw(app, frame, frame.area());
}

/// The rows of the selected event wrapped to `width`, at most `height` of them (the
/// last saying how many more there are), and the pane's title.
pub fn event_text(app: &App, width: usize, height: usize) -> (String, Vec<String>) {
    let Some(event) = app.study.detail_event(&app.log) else {
        let text = if app.study.detail.is_some() {
            "This event's line has left the search log (it keeps the newest lines); \
             :trace save has every event."
        } else {
            "No event yet: Space in the log or the explorer steps the search."
        };
        return (" Event ".to_owned(), wrap(text, width, 0));
    };
    let node = event
        .node
        .as_ref()
        .map(|(label, facts)| (label.as_str(), facts.as_str()));
    let mut rows = event_rows(&event.text, node, width);
    if rows.len() > height && height > 0 {
        let more = rows.len() - (height - 1);
        rows.truncate(height - 1);
        rows.push(format!("(+{more} rows: e shows all)"));
    }
    let title = format!(" Event: line {} ", event.number);
    (title, rows)
}

fn event(app: &App, frame: &mut Frame, area: Rect) {
    let probe = pane_block(app, "", false);
    let inner = probe.inner(area);
    let (title, rows) = event_text(app, usize::from(inner.width), usize::from(inner.height));
    let block = pane_block(app, &title, false);
    frame.render_widget(block, area);
    let palette = &crate::style::Palette::new(&app.theme);
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|row| Line::styled(row, palette.pane))
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The study's own status line: what is studied, where the replay is, the keys.
fn status(app: &App, frame: &mut Frame, area: Rect) {
    let palette = &crate::style::Palette::new(&app.theme);
    let width = usize::from(area.width);
    let ellipsis = app.glyphs().ellipsis();
    let (text, alert) = match &app.notice {
        Some(notice) => (format!(" {}", notice.text), notice.alert),
        None => {
            let mut parts = Vec::new();
            if let AppMode::Study(replay) = &app.mode {
                parts.push(format!("tree study: {}", replay.algorithm));
                parts.push(format!(
                    "line {} of {}",
                    app.study.lines(),
                    replay.total_lines
                ));
            }
            if let Some(saving) = &app.study.saving {
                parts.push(saving.describe());
            }
            parts.push("Space step, c to the end, e event".to_owned());
            (format!(" {}", parts.join(" | ")), false)
        }
    };
    let right = " F1 help ";
    let right = if text.width() + right.len() <= width {
        right
    } else {
        ""
    };
    let left = fit(&text, width - right.len(), ellipsis);
    let line = super::bars::status_row(palette, left, alert, right.to_owned(), width);
    frame.render_widget(Paragraph::new(line).style(palette.status), area);
}
