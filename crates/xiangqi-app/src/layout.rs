//! Where everything goes on the screen, as a pure function of its size; the view draws
//! into these rectangles and mouse clicks are mapped back through them.

use crate::area::Rect;

use xiangqi_core::board::Square;

/// The smallest screen the TUI draws on (a default SSH terminal).
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// The board drawing: 9 files 4 columns apart (a point is 2 columns wide), 10 ranks
/// with a connecting row between each two, and a row of file numbers above and below.
pub const BOARD_WIDTH: u16 = 34;
pub const BOARD_HEIGHT: u16 = 21;
/// The board pane: the drawing, a blank column each side, the borders.
const BOARD_PANE_WIDTH: u16 = BOARD_WIDTH + 4;
/// The move list's width when it stands beside the log.
const MOVES_SIDE_WIDTH: u16 = 30;
/// The right-hand column needs this much to put moves and log side by side.
const SIDE_BY_SIDE_WIDTH: u16 = 80;
/// The board pane with both borders.
const BOARD_PANE_HEIGHT: u16 = BOARD_HEIGHT + 2;
/// Rows under the board pane that make room for the score graph there.
const GRAPH_BELOW_BOARD: u16 = 10;

/// The screen's regions. `None` from `new` when the terminal is too small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenLayout {
    pub board: Rect,
    /// Whether the board pane has room for its bottom border.
    pub board_bottom_border: bool,
    /// The top-left corner of the board drawing.
    pub board_origin: (u16, u16),
    /// On a tall screen, the bottom of the board's column, under the board pane: the
    /// score graph goes there (the board pane takes it while there is no graph).
    pub below_board: Option<Rect>,
    pub moves: Rect,
    pub log: Rect,
    pub input: Rect,
    pub status: Rect,
}

impl ScreenLayout {
    pub fn new(width: u16, height: u16) -> Option<ScreenLayout> {
        if width < MIN_WIDTH || height < MIN_HEIGHT {
            return None;
        }
        let main_height = height - 2;
        let board = Rect::new(0, 0, BOARD_PANE_WIDTH, main_height);
        let board_bottom_border = main_height >= BOARD_PANE_HEIGHT;
        let inner_height = main_height - 1 - u16::from(board_bottom_border);
        // With room for the graph below, the drawing stays at the top whether the graph
        // is shown or not; else it is centred.
        let below_board = (main_height >= BOARD_PANE_HEIGHT + GRAPH_BELOW_BOARD).then(|| {
            Rect::new(
                0,
                BOARD_PANE_HEIGHT,
                BOARD_PANE_WIDTH,
                main_height - BOARD_PANE_HEIGHT,
            )
        });
        let board_origin = if below_board.is_some() {
            (2, 1)
        } else {
            (2, 1 + (inner_height - BOARD_HEIGHT) / 2)
        };

        let right = Rect::new(BOARD_PANE_WIDTH, 0, width - BOARD_PANE_WIDTH, main_height);
        let (moves, log) = if right.width >= SIDE_BY_SIDE_WIDTH {
            let moves = Rect::new(right.x, 0, MOVES_SIDE_WIDTH, main_height);
            let log = Rect::new(
                right.x + MOVES_SIDE_WIDTH,
                0,
                right.width - MOVES_SIDE_WIDTH,
                main_height,
            );
            (moves, log)
        } else {
            let moves_height = (main_height / 3).clamp(8, 20);
            let moves = Rect::new(right.x, 0, right.width, moves_height);
            let log = Rect::new(
                right.x,
                moves_height,
                right.width,
                main_height - moves_height,
            );
            (moves, log)
        };
        Some(ScreenLayout {
            board,
            board_bottom_border,
            board_origin,
            below_board,
            moves,
            log,
            input: Rect::new(0, height - 2, width, 1),
            status: Rect::new(0, height - 1, width, 1),
        })
    }
}

/// The point of the board at screen row `row` (0 = top) and column `column` (0 = left)
/// of the drawing, as the player sees it.
pub fn square_at_display(row: u8, column: u8, flipped: bool) -> Square {
    if flipped {
        Square::new(8 - column, row)
    } else {
        Square::new(column, 9 - row)
    }
}

/// The board point nearest a mouse click at (`column`, `row`), if it is on the board.
pub fn board_point_at(
    layout: &ScreenLayout,
    flipped: bool,
    column: u16,
    row: u16,
) -> Option<Square> {
    let (left, top) = layout.board_origin;
    let dx = column.checked_sub(left)?;
    let dy = row.checked_sub(top)?;
    // Rows 1..=19 hold the ranks (odd rows) and the lines between them.
    if !(1..=19).contains(&dy) || dx >= BOARD_WIDTH {
        return None;
    }
    let display_row = (dy / 2) as u8;
    let display_column = ((dx + 1) / 4).min(8) as u8;
    Some(square_at_display(display_row, display_column, flipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_from_the_minimum_up_has_a_layout_inside_the_screen() {
        for width in MIN_WIDTH..=200 {
            for height in MIN_HEIGHT..=60 {
                let layout = ScreenLayout::new(width, height).unwrap();
                let screen = Rect::new(0, 0, width, height);
                for rect in [
                    layout.board,
                    layout.moves,
                    layout.log,
                    layout.input,
                    layout.status,
                ] {
                    assert_eq!(screen.intersection(rect), rect, "{width}x{height}");
                }
                let (left, top) = layout.board_origin;
                let drawing = Rect::new(left, top, BOARD_WIDTH, BOARD_HEIGHT);
                assert_eq!(layout.board.intersection(drawing), drawing);
                if let Some(below) = layout.below_board {
                    assert_eq!(layout.board.intersection(below), below);
                    assert!(drawing.bottom() < below.y, "{width}x{height}");
                }
            }
        }
        assert!(ScreenLayout::new(79, 24).is_none());
        assert!(ScreenLayout::new(80, 23).is_none());
    }

    #[test]
    fn clicks_map_to_points_either_way_up() {
        let layout = ScreenLayout::new(80, 24).unwrap();
        let (left, top) = layout.board_origin;
        // Top-left point: a9 with Red at the bottom, i0 when flipped.
        assert_eq!(
            board_point_at(&layout, false, left, top + 1),
            Some(Square::new(0, 9))
        );
        assert_eq!(
            board_point_at(&layout, true, left + 1, top + 1),
            Some(Square::new(8, 0))
        );
        // The right half of a piece on h2 (display column 7, row 7).
        assert_eq!(
            board_point_at(&layout, false, left + 29, top + 15),
            Some(Square::new(7, 2))
        );
        assert_eq!(board_point_at(&layout, false, left, top), None);
        assert_eq!(board_point_at(&layout, false, left + 40, top + 3), None);
    }
}
