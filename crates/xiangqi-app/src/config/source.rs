//! Turning byte offsets in a source text into the `LINE:COL` users see.

use std::ops::Range;

/// 1-based line and column of a byte offset. Columns count characters, not bytes,
/// so a key after a CJK comment on the same line is still pointed at correctly.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// Start of a span as `LINE:COL`.
pub fn span_start(text: &str, span: &Range<usize>) -> (usize, usize) {
    line_column(text, span.start)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::line_column;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let text = "a = 1\n# 中文\nbc = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 4), (1, 5));
        let bc = text.find("bc").unwrap();
        assert_eq!(line_column(text, bc), (3, 1));
        let after_cjk = text.find('文').unwrap() + '文'.len_utf8();
        assert_eq!(line_column(text, after_cjk), (2, 5));
    }

    #[test]
    fn offsets_past_the_end_or_inside_a_character_are_clamped() {
        let text = "中";
        assert_eq!(line_column(text, 1), (1, 1));
        assert_eq!(line_column(text, 99), (1, 2));
    }
}
