//! The move list's rows (one full move a line) and where its pane and the score graph
//! go, shared by the view and the mouse: a click on a move shows the position after it.

use ratatui::layout::Rect;
use unicode_width::UnicodeWidthStr;

use crate::board::Color;

use super::app::App;

/// A row of the move list: the move number and the plies of Red's and Black's moves.
pub type MoveRow = (u16, Option<usize>, Option<usize>);

/// Graph rows below the moves when the moves pane is tall (side by side with the log).
const GRAPH_HEIGHT: u16 = 12;
/// The moves pane this tall or more puts the graph below the moves.
const TALL_MOVES: u16 = 30;
/// A short moves pane this wide or more puts the graph beside the moves.
const WIDE_MOVES: u16 = 40;

pub fn rows(app: &App) -> Vec<MoveRow> {
    let played = app.game.played();
    let start = app.game.start();
    let mut rows = Vec::new();
    let mut number = start.fullmove_number();
    let mut ply = 0;
    if start.side_to_move() == Color::Black && !played.is_empty() {
        rows.push((number, None, Some(0)));
        ply = 1;
        number += 1;
    }
    while ply < played.len() {
        let black = (ply + 1 < played.len()).then_some(ply + 1);
        rows.push((number, Some(ply), black));
        ply += 2;
        number += 1;
    }
    rows
}

/// The width of a move column: the longest move's text, at least 6.
pub fn column_width(app: &App) -> usize {
    let notation = app.display_notation();
    app.game
        .played()
        .iter()
        .map(|mv| mv.text(notation).width())
        .max()
        .unwrap_or(0)
        .max(6)
}

/// Whether the score graph is shown: on the analysis board, or once the engine has
/// scored two positions of the game.
pub fn shows_graph(app: &App) -> bool {
    app.analysing() || super::analysis::graph_points(app).len() >= 2
}

/// The moves pane and the graph's place in `area` (the moves region of the layout):
/// below the moves where the pane is tall, beside them where it is wide, else none.
pub fn split(app: &App, area: Rect) -> (Rect, Option<Rect>) {
    if !shows_graph(app) {
        return (area, None);
    }
    if area.height >= TALL_MOVES {
        let moves = Rect::new(area.x, area.y, area.width, area.height - GRAPH_HEIGHT);
        let graph = Rect::new(area.x, moves.bottom(), area.width, GRAPH_HEIGHT);
        (moves, Some(graph))
    } else if area.width >= WIDE_MOVES {
        let half = area.width / 2;
        let moves = Rect::new(area.x, area.y, half, area.height);
        let graph = Rect::new(area.x + half, area.y, area.width - half, area.height);
        (moves, Some(graph))
    } else {
        (area, None)
    }
}

/// The ply count after the move clicked at (`column`, `row`) in the moves pane `pane`
/// (with its border), if a move is there.
pub fn ply_after_click(app: &App, pane: Rect, column: u16, row: u16) -> Option<usize> {
    let inner = Rect::new(
        pane.x + 1,
        pane.y + 1,
        pane.width.saturating_sub(2),
        pane.height.saturating_sub(2),
    );
    if !inner.contains(ratatui::layout::Position::new(column, row)) {
        return None;
    }
    let rows = rows(app);
    let skip = rows.len().saturating_sub(usize::from(inner.height));
    let (_, red, black) = *rows.get(skip + usize::from(row - inner.y))?;
    // "NNN. " then Red's move in its column, two spaces, then Black's.
    let black_from = 5 + column_width(app) + 2;
    let ply = if usize::from(column - inner.x) >= black_from {
        black
    } else {
        red.or(black)
    };
    ply.map(|ply| ply + 1)
}
