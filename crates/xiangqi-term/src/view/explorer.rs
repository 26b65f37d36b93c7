//! The search-tree explorer, drawn in the board's place (with the move list's
//! place too when that stands beside it): one row per node, indented, with
//! what the backend knew there.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::panes::pane_block;
use super::text::fit;
use xiangqi_app::app::{App, Focus};
use xiangqi_app::config::Glyphs;
use xiangqi_app::layout::ScreenLayout;

/// Where the explorer goes: the board's pane, widened over the move list when
/// the move list stands beside the board at full height.
pub fn area(layout: &ScreenLayout) -> Rect {
    if layout.moves.y == layout.board.y && layout.moves.height == layout.board.height {
        super::tui(layout.board.union(layout.moves))
    } else {
        super::tui(layout.board)
    }
}

/// The explorer pane; with `detail`, its lower part shows the selected trace event in
/// full (the tree study has a pane of its own for it).
pub fn draw(app: &App, frame: &mut Frame, area: Rect, detail: bool) {
    let study = &app.study;
    let explorer = &study.explorer;
    let focused = app.focus == Focus::Board && app.popups.is_empty();
    let title = if explorer.iterations() > 1 {
        format!(
            " Explorer: iteration {} of {} ([ ]) ",
            explorer.shown_iteration() + 1,
            explorer.iterations()
        )
    } else {
        " Explorer ".to_owned()
    };
    let block = pane_block(app, &title, focused);
    let mut inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    if detail && study.detail.is_some() && inner.height >= 9 {
        // The event takes what it needs, from a third to two thirds of the pane.
        let width = usize::from(inner.width);
        let (_, all) = super::study::event_text(app, width, usize::MAX);
        let wanted = u16::try_from(all.len() + 1).unwrap_or(u16::MAX);
        let height = wanted.clamp(inner.height / 3, inner.height * 2 / 3);
        inner.height -= height;
        let below = Rect::new(inner.x, inner.y + inner.height, inner.width, height);
        let (title, rows) = super::study::event_text(app, width, usize::from(height) - 1);
        let palette = &crate::style::Palette::new(&app.theme);
        let dash = if app.config.settings.glyphs == Glyphs::Ascii {
            "-"
        } else {
            "─"
        };
        let rule = dash.repeat(usize::from(below.width).saturating_sub(title.width()) / 2);
        let mut lines = vec![Line::styled(
            fit(
                &format!("{rule}{title}{rule}"),
                usize::from(below.width),
                "",
            ),
            palette.pane.patch(palette.log_detail),
        )];
        lines.extend(rows.into_iter().map(|row| Line::styled(row, palette.pane)));
        frame.render_widget(Paragraph::new(lines), below);
    }
    let palette = &crate::style::Palette::new(&app.theme);
    let width = usize::from(inner.width);
    let ellipsis = app.glyphs().ellipsis();
    let ascii = app.config.settings.glyphs == Glyphs::Ascii;
    let mut lines = Vec::new();
    let summary = if explorer.tree().is_empty() {
        "No search yet: a traced or stepping search fills this tree.".to_owned()
    } else {
        explorer.summary()
    };
    lines.push(Line::styled(
        fit(&summary, width, ellipsis),
        palette.pane.patch(palette.log_detail),
    ));
    let footer = match &study.search {
        Some(text) => format!("/{text}"),
        None => "arrows walk, Enter opens, p PV, x cut, / find".to_owned(),
    };
    let rows = explorer.rows();
    let room = usize::from(inner.height).saturating_sub(2);
    let selected = explorer.selected();
    let at = rows
        .iter()
        .position(|row| Some(row.node) == selected)
        .unwrap_or(0);
    // The selection stays in view, a third of the way down when it can.
    let start = at
        .saturating_sub(room / 3)
        .min(rows.len().saturating_sub(room));
    for row in rows.iter().skip(start).take(room) {
        let marker = match (row.has_children, row.open, ascii) {
            (true, true, false) => "▾",
            (true, false, false) => "▸",
            (true, true, true) => "-",
            (true, false, true) => "+",
            (false, _, _) => " ",
        };
        let cut = if row.cut { " x" } else { "" };
        let text = format!(
            "{}{marker} {}{cut}  {}",
            "  ".repeat(row.depth as usize),
            row.label,
            row.facts
        );
        let mut style = palette.pane;
        if row.on_pv {
            style = style.add_modifier(Modifier::BOLD);
        }
        if Some(row.node) == selected {
            style = style.patch(palette.pane_highlight);
        }
        lines.push(Line::styled(fit(&text, width, ellipsis), style));
    }
    let used = lines.len();
    for _ in used..usize::from(inner.height).saturating_sub(1) {
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled(
        fit(&footer, width, ellipsis),
        palette.pane.patch(palette.log_detail),
    ));
    frame.render_widget(Paragraph::new(lines), inner);
}
