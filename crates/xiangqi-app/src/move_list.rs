//! The move list's rows (one full move a line) and where its pane and the score graph
//! go, shared by the view and the mouse: a click on a move shows the position after it.

use crate::area::Rect;
use unicode_width::UnicodeWidthStr;

use xiangqi_core::board::Color;
use xiangqi_core::notation::Notation;

use super::app::App;
use super::layout::ScreenLayout;

/// A row of the move list: the move number and the plies of Red's and Black's moves.
pub type MoveRow = (u16, Option<usize>, Option<usize>);

/// Graph rows below the moves when the moves pane is tall (side by side with the log).
const GRAPH_HEIGHT: u16 = 12;
/// The moves pane this tall or more puts the graph below the moves.
const TALL_MOVES: u16 = 30;
/// The narrowest graph drawn beside the moves (its scale takes 3 columns).
const GRAPH_MIN_WIDTH: u16 = 15;
/// "NNN. " before Red's move, and the gap between Red's and Black's.
const NUMBER_WIDTH: usize = 5;
const GAP_WIDTH: usize = 2;

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

/// The review's mark of move `index` (0: the first): `?!`, `?`, `??` or nothing. Red's
/// mark takes the gap before Black's move (one space kept), Black's goes on after it.
pub fn mark(app: &App, index: usize) -> &'static str {
    super::review_link::class_of(app, index).map_or("", |class| class.symbol())
}

/// Columns the review's marks add to a row: Black's `??` after the row.
fn marks_width(app: &App) -> usize {
    if super::review_link::standing(app)
        .iter()
        .any(|m| m.class.is_error())
    {
        2
    } else {
        0
    }
}

/// Whether the score graph is shown: on the analysis board, or once the engine has
/// scored two positions of the game.
pub fn shows_graph(app: &App) -> bool {
    app.analysing() || super::analysis::graph_points(app).len() >= 2
}

/// The widest a move's text can be in the notation shown (Chinese: four characters of
/// two columns each).
fn widest_move(app: &App) -> usize {
    let widest = match app.display_notation() {
        Notation::Chinese | Notation::ChineseTraditional => 8,
        Notation::Wxf | Notation::Iccs => 6,
    };
    column_width(app).max(widest)
}

/// The width of a moves pane (borders included) that shows every move of any game in
/// full: the number, Red's move, the gap, Black's move.
pub fn needed_width(app: &App) -> u16 {
    let columns =
        2 + NUMBER_WIDTH + widest_move(app) + GAP_WIDTH + widest_move(app) + marks_width(app);
    u16::try_from(columns).unwrap_or(u16::MAX)
}

/// The moves pane and the graph's place: under the board where the screen is tall
/// (from the start), else, once there is a graph, beside the moves where the moves keep their full width, else below them
/// where the pane is tall, else none. The graph gives way, never the moves.
pub fn split(app: &App, layout: &ScreenLayout) -> (Rect, Option<Rect>) {
    let area = layout.moves;
    // Under the board the graph's pane stays, empty until there are scores: the
    // screen does not change its shape in the first moves.
    if let Some(below) = layout.below_board.filter(|_| !app.study.shown) {
        return (area, Some(below));
    }
    if !shows_graph(app) {
        return (area, None);
    }
    let moves_width = needed_width(app).max(area.width / 2);
    if area.width >= moves_width + GRAPH_MIN_WIDTH {
        let moves = Rect::new(area.x, area.y, moves_width, area.height);
        let graph = Rect::new(
            area.x + moves_width,
            area.y,
            area.width - moves_width,
            area.height,
        );
        (moves, Some(graph))
    } else if area.height >= TALL_MOVES {
        let moves = Rect::new(area.x, area.y, area.width, area.height - GRAPH_HEIGHT);
        let graph = Rect::new(area.x, moves.bottom(), area.width, GRAPH_HEIGHT);
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
    if !inner.contains(column, row) {
        return None;
    }
    let rows = rows(app);
    let skip = rows.len().saturating_sub(usize::from(inner.height));
    let (_, red, black) = *rows.get(skip + usize::from(row - inner.y))?;
    // "NNN. " then Red's move in its column, two spaces, then Black's.
    let black_from = NUMBER_WIDTH + column_width(app) + GAP_WIDTH;
    let ply = if usize::from(column - inner.x) >= black_from {
        black
    } else {
        red.or(black)
    };
    ply.map(|ply| ply + 1)
}
