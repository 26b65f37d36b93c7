//! Both clocks, on the move list's top border: `R 9:58 >B 10:00`, the running one
//! marked and highlighted, a side without a clock shown as `-`.

use ratatui::text::{Line, Span};

use xiangqi_app::app::App;
use xiangqi_core::board::Color;
use xiangqi_core::clock::format_clock;

/// Time under which a running clock is drawn as an alert.
const LOW_TIME_MS: u128 = 10_000;

/// The clocks as a title line; `None` in an untimed game.
pub fn clock_line(app: &App) -> Option<Line<'static>> {
    if !app.clock.is_timed() {
        return None;
    }
    let now = app.now();
    let palette = &crate::style::Palette::new(&app.theme);
    let base = palette.pane.patch(palette.pane_title);
    let mut spans = vec![Span::styled(" ", base)];
    for side in Color::BOTH {
        let running = app.clock.running() == Some(side);
        let flagged = app.clock.flagged() == Some(side);
        let letter = match side {
            Color::Red => 'R',
            Color::Black => 'B',
        };
        let reading = match app.clock.remaining(side, now) {
            Some(left) => format_clock(left),
            None => "-".to_owned(),
        };
        let marker = if running { '>' } else { ' ' };
        let low = app
            .clock
            .remaining(side, now)
            .is_some_and(|left| left.as_millis() < LOW_TIME_MS);
        let style = if flagged || (running && low) {
            palette.status_alert
        } else if running {
            palette.status
        } else {
            base
        };
        spans.push(Span::styled(format!("{marker}{letter} {reading}"), style));
        spans.push(Span::styled(" ", base));
    }
    Some(Line::from(spans))
}
