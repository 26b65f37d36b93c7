//! The board: an intersection grid with pieces on the points, the river, the palace
//! diagonals, file numbers for both sides, and the marks (last move, check, cursor,
//! selection, legal targets).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use xiangqi_core::board::{Color, Position, Square};

use crate::style::Palette;
use xiangqi_app::glyphs::GlyphSet;
use xiangqi_app::layout::{BOARD_HEIGHT, BOARD_WIDTH, square_at_display};

/// Draws a position; `area` is the top-left corner of the drawing (34x21).
pub struct BoardView<'a> {
    pub position: &'a Position,
    pub flipped: bool,
    pub glyphs: GlyphSet,
    pub palette: &'a Palette,
    pub cursor: Option<Square>,
    pub selected: Option<Square>,
    pub targets: &'a [Square],
}

/// Writes `text` at (x, y) if it starts inside the buffer; clipped at the right edge.
fn put(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style) {
    let area = buf.area;
    if y < area.top() || y >= area.bottom() || x < area.left() || x >= area.right() {
        return;
    }
    buf.set_stringn(x, y, text, usize::from(area.right() - x), style);
}

/// Whether the palace diagonal joins `a` and `b`: neighbours on a diagonal, one of
/// them a palace centre.
fn diagonal_joins(a: Square, b: Square) -> bool {
    let centre = |s: Square| s.x() == 4 && (s.y() == 1 || s.y() == 8);
    a.x().abs_diff(b.x()) == 1 && a.y().abs_diff(b.y()) == 1 && (centre(a) || centre(b))
}

impl BoardView<'_> {
    fn piece_style(&self, color: Color) -> Style {
        let piece = match color {
            Color::Red => self.palette.red_piece,
            Color::Black => self.palette.black_piece,
        };
        self.palette.board.patch(piece)
    }

    /// The empty point's line character at display `row`, `column`.
    fn empty_point(&self, row: u8, column: u8) -> &'static str {
        let grid = self.glyphs.grid();
        match (row, column) {
            (0, 0) => grid.top_left,
            (0, 8) => grid.top_right,
            (9, 0) => grid.bottom_left,
            (9, 8) => grid.bottom_right,
            (_, 0) => grid.tee_right,
            (_, 8) => grid.tee_left,
            // Row 0 and the bank below the river have no line going up.
            (0 | 5, _) => grid.tee_down,
            (9 | 4, _) => grid.tee_up,
            _ => grid.cross,
        }
    }

    /// The style marks give a point, over `base`.
    fn marked(&self, square: Square, base: Style) -> Style {
        let mut style = base;
        let palette = self.palette;
        if let Some(mv) = self.position.last_move()
            && (mv.from() == square || mv.to() == square)
        {
            style = style.patch(palette.last_move);
        }
        if self.position.in_check() && self.position.general(self.position.side_to_move()) == square
        {
            style = style.patch(palette.check);
        }
        if self.selected == Some(square) {
            style = style.patch(palette.selection);
        }
        if self.cursor == Some(square) {
            style = style.patch(palette.cursor);
        }
        style
    }

    fn draw_point(&self, buf: &mut Buffer, x: u16, y: u16, row: u8, column: u8) {
        let square = square_at_display(row, column, self.flipped);
        let piece = self.position.piece_at(square);
        let grid_style = self.palette.board.patch(self.palette.grid);
        let target = self.targets.contains(&square);
        let trailing = if column < 8 {
            self.glyphs.grid().horizontal
        } else {
            " "
        };
        let (glyph, style) = if piece.is_some() {
            let mut style = self.piece_style(piece.color());
            if target {
                // A capture: the piece keeps its glyph, the target style marks it.
                style = style
                    .patch(self.palette.legal_target)
                    .add_modifier(Modifier::UNDERLINED);
            }
            (self.glyphs.piece(piece), style)
        } else if target {
            (
                self.glyphs.target_mark(),
                self.palette.board.patch(self.palette.legal_target),
            )
        } else {
            (self.empty_point(row, column), grid_style)
        };
        let style = self.marked(square, style);
        put(buf, x, y, glyph, style);
        if glyph.width() < 2 {
            // The point's second column continues the line, in the point's marks.
            put(buf, x + 1, y, trailing, self.marked(square, grid_style));
        }
    }

    fn draw_files(&self, buf: &mut Buffer, left: u16, y: u16, side: Color) {
        let style = self.palette.board.patch(self.palette.coordinates);
        for column in 0..9u8 {
            let x = square_at_display(0, column, self.flipped).x();
            let label = match side {
                Color::Red => self.glyphs.red_file(9 - x),
                Color::Black => self.glyphs.black_file(x + 1),
            };
            put(buf, left + 4 * u16::from(column), y, label, style);
        }
    }
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (left, top) = (area.x, area.y);
        if area.width < BOARD_WIDTH || area.height < BOARD_HEIGHT {
            return;
        }
        let grid = self.glyphs.grid();
        let grid_style = self.palette.board.patch(self.palette.grid);
        let (top_side, bottom_side) = if self.flipped {
            (Color::Red, Color::Black)
        } else {
            (Color::Black, Color::Red)
        };
        self.draw_files(buf, left, top, top_side);
        self.draw_files(buf, left, top + BOARD_HEIGHT - 1, bottom_side);
        for row in 0..10u8 {
            let y = top + 1 + 2 * u16::from(row);
            for column in 0..9u8 {
                let x = left + 4 * u16::from(column);
                self.draw_point(buf, x, y, row, column);
                if column < 8 {
                    let line = format!("{0}{0}", grid.horizontal);
                    put(buf, x + 2, y, &line, grid_style);
                }
            }
            if row == 9 {
                break;
            }
            // The row of lines between this rank and the next.
            let y = y + 1;
            let river = row == 4;
            for column in 0..9u8 {
                if river && column != 0 && column != 8 {
                    continue;
                }
                put(
                    buf,
                    left + 4 * u16::from(column),
                    y,
                    grid.vertical,
                    grid_style,
                );
            }
            if river {
                let style = self.palette.board.patch(self.palette.river);
                let (chu, han) = self.glyphs.river();
                let centre = |c: u16| c.saturating_sub(chu.width() as u16 / 2);
                put(buf, left + centre(8), y, chu, style);
                let centre = |c: u16| c.saturating_sub(han.width() as u16 / 2);
                put(buf, left + centre(24), y, han, style);
                continue;
            }
            for column in 0..8u8 {
                let upper_left = square_at_display(row, column, self.flipped);
                let upper_right = square_at_display(row, column + 1, self.flipped);
                let lower_left = square_at_display(row + 1, column, self.flipped);
                let lower_right = square_at_display(row + 1, column + 1, self.flipped);
                let x = left + 4 * u16::from(column) + 2;
                if diagonal_joins(upper_left, lower_right) {
                    put(buf, x, y, grid.diagonal_down, grid_style);
                } else if diagonal_joins(upper_right, lower_left) {
                    put(buf, x, y, grid.diagonal_up, grid_style);
                }
            }
        }
    }
}
