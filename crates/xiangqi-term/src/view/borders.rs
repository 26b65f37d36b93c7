//! Pane borders in the glyph set's characters: box drawing, or ASCII for terminals
//! without it.

use ratatui::symbols::border;
use xiangqi_app::glyphs::GlyphSet;

const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// The focused pane's border without box drawing: doubled lines.
const ASCII_FOCUSED_BORDER: border::Set = border::Set {
    top_left: "#",
    top_right: "#",
    bottom_left: "#",
    bottom_right: "#",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "=",
    horizontal_bottom: "=",
};

/// Pane borders.
pub fn border(glyphs: GlyphSet) -> border::Set<'static> {
    if glyphs.box_drawing() {
        border::PLAIN
    } else {
        ASCII_BORDER
    }
}

/// The focused pane's border: heavier than the others, so focus shows without
/// colour.
pub fn focused_border(glyphs: GlyphSet) -> border::Set<'static> {
    if glyphs.box_drawing() {
        border::THICK
    } else {
        ASCII_FOCUSED_BORDER
    }
}

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthStr;
    use xiangqi_app::config::Glyphs;

    use super::*;

    #[test]
    fn ascii_borders_are_ascii_and_wide_ones_avoid_ambiguous_widths() {
        for (glyphs, ascii) in [(Glyphs::Ascii, true), (Glyphs::Wide, false)] {
            let set = GlyphSet::new(glyphs);
            for border in [border(set), focused_border(set)] {
                for text in [border.top_left, border.horizontal_top, border.vertical_left] {
                    if ascii {
                        assert!(text.is_ascii(), "{text}");
                    } else {
                        assert_eq!(text.width(), text.width_cjk(), "{text}");
                    }
                }
            }
        }
    }
}
