//! `view`: draws the app. Pure: it reads the state and the frame's size, nothing else.

mod analysis;
mod bars;
mod board;
mod borders;
mod clocks;
mod compare;
mod drill;
mod explorer;
mod graph;
mod opening;
mod panes;
mod popups;
mod puzzle;
mod ruling;
mod study;
pub(crate) use xiangqi_core::text;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

pub use board::BoardView;

use xiangqi_app::app::{App, AppMode, Focus};
use xiangqi_app::layout::{BOARD_HEIGHT, BOARD_WIDTH, ScreenLayout};
use xiangqi_app::study_layout::StudyLayout;
use xiangqi_app::update::legal_targets;

/// The message shown below the minimum size.
pub const TOO_SMALL: &str = "terminal too small: need 80x24";

pub fn view(app: &App, frame: &mut Frame) {
    let area = frame.area();
    frame.render_widget(
        Block::new().style(crate::style::to_tui(&app.theme.text)),
        area,
    );
    let Some(layout) = ScreenLayout::new(area.width, area.height) else {
        too_small(app, frame, area);
        return;
    };
    // A tree study has its own screen: no game there.
    if let AppMode::Study(_) = app.mode
        && let Some(layout) = StudyLayout::new(area.width, area.height)
    {
        study::draw(app, frame, &layout);
        return;
    }
    if let AppMode::Puzzle(mode) = &app.mode {
        draw_board(app, frame, &layout, tui(layout.board));
        // The trainer's pane takes the whole column right of the board.
        let right = layout.moves.union(layout.log);
        puzzle::draw(app, mode, frame, tui(right));
        bars::input(app, frame, tui(layout.input));
        bars::status(app, frame, tui(layout.status));
        popups::draw(app, frame, area);
        return;
    }
    let explorer_area = explorer::area(&layout);
    let (moves, graph) = xiangqi_app::move_list::split(app, &layout);
    if !app.study.shown {
        // The graph under the board takes the bottom of the board's column.
        let board = match graph.filter(|&graph| Some(graph) == layout.below_board) {
            Some(graph) => Rect {
                height: graph.y - layout.board.y,
                ..tui(layout.board)
            },
            None => tui(layout.board),
        };
        draw_board(app, frame, &layout, board);
    }
    // A drill's pane takes the move list's and the log's place: no game, no engine.
    if let AppMode::Drill(mode) = &app.mode {
        let right = layout.moves.union(layout.log);
        drill::draw(app, mode, frame, tui(right));
    } else if !(app.study.shown && explorer_area.contains(tui(layout.moves).as_position())) {
        panes::moves(app, frame, tui(moves));
        if let Some(area) = graph {
            graph::graph(app, frame, tui(area));
        }
    }
    if app.study.shown {
        explorer::draw(app, frame, explorer_area, true);
    }
    let log = if app.analysing() {
        let (table, log) = analysis::split(app, tui(layout.log));
        analysis::draw(app, frame, table);
        log
    } else {
        Some(tui(layout.log))
    };
    if let Some(log) = log.filter(|_| !matches!(app.mode, AppMode::Drill(_))) {
        panes::log(app, frame, log);
    }
    bars::input(app, frame, tui(layout.input));
    bars::status(app, frame, tui(layout.status));
    if app.compare.shown {
        let main = Rect::new(0, 0, area.width, layout.input.y);
        compare::draw(app, frame, main);
    }
    popups::draw(app, frame, area);
}

/// A rectangle of the app's layouts as ratatui's.
pub(crate) fn tui(rect: xiangqi_app::area::Rect) -> Rect {
    Rect::new(rect.x, rect.y, rect.width, rect.height)
}

fn too_small(app: &App, frame: &mut Frame, area: Rect) {
    let text = format!("{TOO_SMALL} (now {}x{})", area.width, area.height);
    let height = 2.min(area.height);
    let y = area.y + area.height.saturating_sub(height) / 2;
    let message = Paragraph::new(text)
        .style(crate::style::to_tui(&app.theme.status_alert))
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true });
    frame.render_widget(message, Rect::new(area.x, y, area.width, height));
}

fn draw_board(app: &App, frame: &mut Frame, layout: &ScreenLayout, area: Rect) {
    let palette = &crate::style::Palette::new(&app.theme);
    let focused = app.focus == Focus::Board && app.popups.is_empty();
    let borders = if layout.board_bottom_border {
        Borders::ALL
    } else {
        Borders::TOP | Borders::LEFT | Borders::RIGHT
    };
    let block = panes::pane_block(app, " Board ", focused).borders(borders);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Block::new().style(palette.board), inner);
    let mut targets = legal_targets(app);
    // A hint shows as its piece selected and its target marked.
    let mut selected = app.selected;
    // (Not on an earlier position shown while browsing: the hint is for the game's.)
    if let Some(hint) = app
        .hint
        .as_ref()
        .filter(|_| selected.is_none() && app.browse.is_none())
    {
        selected = Some(hint.mv.from());
        targets = vec![hint.mv.to()];
    }
    // The puzzle trainer's hint marks the piece only.
    if let AppMode::Puzzle(mode) = &app.mode
        && selected.is_none()
        && let Some(from) = mode.hint()
    {
        selected = Some(from);
    }
    let show_cursor = app.focus == Focus::Board || app.selected.is_some() || app.cursor_shown;
    let board = BoardView {
        position: app.shown_position(),
        flipped: app.flipped,
        glyphs: app.glyphs(),
        palette,
        cursor: show_cursor.then_some(app.cursor),
        selected,
        targets: &targets,
    };
    let (x, y) = layout.board_origin;
    frame.render_widget(board, Rect::new(x, y, BOARD_WIDTH, BOARD_HEIGHT));
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_app::layout::{MIN_HEIGHT, MIN_WIDTH};

    #[test]
    fn the_too_small_message_states_the_minimum() {
        assert_eq!(
            TOO_SMALL,
            format!("terminal too small: need {MIN_WIDTH}x{MIN_HEIGHT}")
        );
    }
}
