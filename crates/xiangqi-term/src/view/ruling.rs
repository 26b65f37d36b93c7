//! The arbiter's popup: a repetition ruling with its rule and the cycle's moves, at the
//! end of a game the rules ended (inside the result popup) and on `:ruling`.

use ratatui::style::Style;
use ratatui::text::Line;

use super::text::{fit, wrap};
use crate::style::Palette;
use xiangqi_app::RulingView;

/// The popup's width for `view`: its widest line, within `max`.
pub fn width(view: &RulingView, max: u16) -> u16 {
    let widest = view
        .row_lines()
        .iter()
        .chain([view.headline(), view.cycle_title()].iter())
        .map(|line| unicode_width::UnicodeWidthStr::width(line.as_str()))
        .max()
        .unwrap_or(0)
        .max(unicode_width::UnicodeWidthStr::width(view.rule_line().as_str()).min(72));
    (widest as u16 + 4).clamp(44, max)
}

/// The ruling's lines in `width` columns, within `height` rows (the cycle's moves are
/// cut first, saying how many are left out): the result, the rule, the cycle.
pub fn lines(
    view: &RulingView,
    palette: &Palette,
    width: usize,
    height: usize,
    ellipsis: &str,
) -> Vec<Line<'static>> {
    let text = |s: &str, style: Style| Line::styled(fit(s, width, ellipsis), style);
    let mut lines = vec![text(
        &view.headline(),
        palette.popup.patch(palette.pane_title),
    )];
    lines.extend(
        wrap(&view.rule_line(), width, 2, ellipsis)
            .iter()
            .map(|line| text(line, palette.popup)),
    );
    lines.push(Line::styled("", palette.popup));
    lines.push(text(&view.cycle_title(), palette.popup));
    let rows = view.row_lines();
    let room = height.saturating_sub(lines.len());
    let shown = if rows.len() <= room {
        rows.len()
    } else {
        room.saturating_sub(1)
    };
    lines.extend(
        rows.iter()
            .take(shown)
            .map(|row| text(&format!("  {row}"), palette.popup)),
    );
    if shown < rows.len() {
        let more = format!("  ... {} earlier moves not shown", rows.len() - shown);
        lines.push(text(&more, palette.popup.patch(palette.log_detail)));
    }
    lines
}
