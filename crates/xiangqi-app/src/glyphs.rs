//! The characters the screen is drawn with, per glyph set.
//!
//! - `Cjk`: traditional piece characters (Red 俥傌相仕帥炮兵, Black 車馬象士將砲卒) on a
//!   box-drawing grid. Assumes the terminal draws box-drawing characters narrow.
//! - `Wide`: the same pieces on a plain ASCII grid. Box drawing, bullets and the like are
//!   "ambiguous width" in Unicode; terminals set to draw them wide would misalign a box
//!   grid, while CJK ideographs and ASCII have the same width everywhere.
//! - `Ascii`: WXF letters (upper case Red, lower case Black) and ASCII only, for
//!   terminals without CJK fonts.

use crate::config::Glyphs;
use xiangqi_core::board::{Color, Kind, Piece};

/// Lines of the board grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridChars {
    pub horizontal: &'static str,
    pub vertical: &'static str,
    pub cross: &'static str,
    /// A point with no line going up (the top edge, Red's or Black's bank of the river).
    pub tee_down: &'static str,
    /// A point with no line going down.
    pub tee_up: &'static str,
    /// The left edge.
    pub tee_right: &'static str,
    /// The right edge.
    pub tee_left: &'static str,
    pub top_left: &'static str,
    pub top_right: &'static str,
    pub bottom_left: &'static str,
    pub bottom_right: &'static str,
    /// Palace diagonal from upper left to lower right.
    pub diagonal_down: &'static str,
    /// Palace diagonal from lower left to upper right.
    pub diagonal_up: &'static str,
}

const BOX_GRID: GridChars = GridChars {
    horizontal: "─",
    vertical: "│",
    cross: "┼",
    tee_down: "┬",
    tee_up: "┴",
    tee_right: "├",
    tee_left: "┤",
    top_left: "┌",
    top_right: "┐",
    bottom_left: "└",
    bottom_right: "┘",
    diagonal_down: "╲",
    diagonal_up: "╱",
};

const ASCII_GRID: GridChars = GridChars {
    horizontal: "-",
    vertical: "|",
    cross: "+",
    tee_down: "+",
    tee_up: "+",
    tee_right: "+",
    tee_left: "+",
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    diagonal_down: "\\",
    diagonal_up: "/",
};

const CHINESE_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const DIGITS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// The characters of one glyph set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GlyphSet {
    pub glyphs: Glyphs,
}

impl GlyphSet {
    pub const fn new(glyphs: Glyphs) -> GlyphSet {
        GlyphSet { glyphs }
    }

    const fn is_ascii(self) -> bool {
        matches!(self.glyphs, Glyphs::Ascii)
    }

    /// Whether the set may use ambiguous-width characters (box drawing, bullets).
    pub const fn box_drawing(self) -> bool {
        matches!(self.glyphs, Glyphs::Cjk)
    }

    /// A piece: one CJK character (two columns) or one WXF letter.
    pub fn piece(self, piece: Piece) -> &'static str {
        let red = piece.color() == Color::Red;
        if self.is_ascii() {
            return match (piece.kind(), red) {
                (Kind::General, true) => "K",
                (Kind::Advisor, true) => "A",
                (Kind::Elephant, true) => "E",
                (Kind::Horse, true) => "H",
                (Kind::Chariot, true) => "R",
                (Kind::Cannon, true) => "C",
                (Kind::Soldier, true) => "P",
                (Kind::General, false) => "k",
                (Kind::Advisor, false) => "a",
                (Kind::Elephant, false) => "e",
                (Kind::Horse, false) => "h",
                (Kind::Chariot, false) => "r",
                (Kind::Cannon, false) => "c",
                (Kind::Soldier, false) => "p",
            };
        }
        match (piece.kind(), red) {
            (Kind::General, true) => "帥",
            (Kind::Advisor, true) => "仕",
            (Kind::Elephant, true) => "相",
            (Kind::Horse, true) => "傌",
            (Kind::Chariot, true) => "俥",
            (Kind::Cannon, true) => "炮",
            (Kind::Soldier, true) => "兵",
            (Kind::General, false) => "將",
            (Kind::Advisor, false) => "士",
            (Kind::Elephant, false) => "象",
            (Kind::Horse, false) => "馬",
            (Kind::Chariot, false) => "車",
            (Kind::Cannon, false) => "砲",
            (Kind::Soldier, false) => "卒",
        }
    }

    pub fn grid(self) -> GridChars {
        if self.box_drawing() {
            BOX_GRID
        } else {
            ASCII_GRID
        }
    }

    /// The mark on an empty point a selected piece may move to.
    pub fn target_mark(self) -> &'static str {
        if self.box_drawing() { "•" } else { "*" }
    }

    /// The river's two inscriptions, left and right.
    pub fn river(self) -> (&'static str, &'static str) {
        if self.is_ascii() {
            ("CHU HE", "HAN JIE")
        } else {
            ("楚 河", "汉 界")
        }
    }

    /// Red's number for file `number` (1..=9, from Red's right).
    pub fn red_file(self, number: u8) -> &'static str {
        let index = usize::from(number.clamp(1, 9) - 1);
        if self.is_ascii() {
            DIGITS[index]
        } else {
            CHINESE_NUMERALS[index]
        }
    }

    /// Black's number for file `number` (1..=9, from Black's right).
    pub fn black_file(self, number: u8) -> &'static str {
        DIGITS[usize::from(number.clamp(1, 9) - 1)]
    }

    /// Marks text cut short.
    pub fn ellipsis(self) -> &'static str {
        if self.box_drawing() { "…" } else { "~" }
    }
}

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthStr;

    use super::*;

    fn all_strings(set: GlyphSet) -> Vec<&'static str> {
        let grid = set.grid();
        let mut out = vec![
            grid.horizontal,
            grid.vertical,
            grid.cross,
            grid.tee_down,
            grid.tee_up,
            grid.tee_right,
            grid.tee_left,
            grid.top_left,
            grid.top_right,
            grid.bottom_left,
            grid.bottom_right,
            grid.diagonal_down,
            grid.diagonal_up,
            set.target_mark(),
            set.river().0,
            set.river().1,
            set.ellipsis(),
        ];
        for number in 1..=9 {
            out.push(set.red_file(number));
            out.push(set.black_file(number));
        }
        for color in Color::BOTH {
            for kind in Kind::ALL {
                out.push(set.piece(Piece::new(color, kind)));
            }
        }
        out
    }

    #[test]
    fn red_and_black_pieces_differ_in_every_set() {
        for glyphs in Glyphs::ALL {
            let set = GlyphSet::new(*glyphs);
            let mut seen = std::collections::HashSet::new();
            for color in Color::BOTH {
                for kind in Kind::ALL {
                    assert!(seen.insert(set.piece(Piece::new(color, kind))), "{glyphs}");
                }
            }
        }
    }

    #[test]
    fn ascii_set_is_ascii_and_wide_set_avoids_ambiguous_widths() {
        for text in all_strings(GlyphSet::new(Glyphs::Ascii)) {
            assert!(text.is_ascii(), "{text}");
        }
        for text in all_strings(GlyphSet::new(Glyphs::Wide)) {
            // Narrow-only and wide-only measures agree: no ambiguous character.
            assert_eq!(text.width(), text.width_cjk(), "{text}");
        }
    }

    #[test]
    fn pieces_are_two_columns_in_cjk_sets_and_one_in_ascii() {
        let red_horse = Piece::new(Color::Red, Kind::Horse);
        assert_eq!(GlyphSet::new(Glyphs::Cjk).piece(red_horse).width(), 2);
        assert_eq!(GlyphSet::new(Glyphs::Wide).piece(red_horse).width(), 2);
        assert_eq!(GlyphSet::new(Glyphs::Ascii).piece(red_horse), "H");
    }
}
