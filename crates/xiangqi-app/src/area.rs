//! A rectangle of screen cells: where the layouts put each pane, and how clicks are mapped
//! back to them. The app's own type, so layouts need no terminal library; the view turns
//! it into ratatui's.

/// Cells `x..x + width` by `y..y + height`, 0-based from the top left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
}

impl Rect {
    pub const fn new(x: u16, y: u16, width: u16, height: u16) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    pub const fn left(self) -> u16 {
        self.x
    }

    /// The first column past the rectangle.
    pub const fn right(self) -> u16 {
        self.x.saturating_add(self.width)
    }

    pub const fn top(self) -> u16 {
        self.y
    }

    /// The first row below the rectangle.
    pub const fn bottom(self) -> u16 {
        self.y.saturating_add(self.height)
    }

    /// The number of cells.
    pub const fn area(self) -> u32 {
        self.width as u32 * self.height as u32
    }

    pub const fn is_empty(self) -> bool {
        self.width == 0 || self.height == 0
    }

    /// Whether the cell at `column`, `row` lies inside.
    pub const fn contains(self, column: u16, row: u16) -> bool {
        column >= self.x && column < self.right() && row >= self.y && row < self.bottom()
    }

    /// The cells both rectangles cover (empty, at the corner where they would meet, when
    /// they do not overlap).
    pub fn intersection(self, other: Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let right = self.right().min(other.right()).max(x);
        let bottom = self.bottom().min(other.bottom()).max(y);
        Rect::new(x, y, right - x, bottom - y)
    }

    /// Whether the two share a cell.
    pub fn intersects(self, other: Rect) -> bool {
        !self.intersection(other).is_empty()
    }

    /// The smallest rectangle covering both.
    pub fn union(self, other: Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        let right = self.right().max(other.right());
        let bottom = self.bottom().max(other.bottom());
        Rect::new(x, y, right - x, bottom - y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contains_is_half_open() {
        let rect = Rect::new(2, 3, 4, 5);
        assert!(rect.contains(2, 3));
        assert!(rect.contains(5, 7));
        assert!(!rect.contains(6, 7));
        assert!(!rect.contains(5, 8));
        assert!(!rect.contains(1, 3));
        assert!(!Rect::new(2, 3, 0, 5).contains(2, 3));
    }

    #[test]
    fn intersection_and_union() {
        let a = Rect::new(0, 0, 10, 10);
        let b = Rect::new(5, 6, 10, 10);
        assert_eq!(a.intersection(b), Rect::new(5, 6, 5, 4));
        assert_eq!(a.union(b), Rect::new(0, 0, 15, 16));
        assert!(a.intersects(b));
        let apart = Rect::new(20, 20, 2, 2);
        assert!(a.intersection(apart).is_empty());
        assert!(!a.intersects(apart));
        assert!(!a.intersects(Rect::new(10, 0, 5, 5)));
        assert_eq!(a.area(), 100);
    }
}
