//! Fitting text into columns by display width (CJK characters take two).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// `text` cut to at most `width` columns, ending in `ellipsis` when cut.
pub fn fit(text: &str, width: usize, ellipsis: &str) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let room = width.saturating_sub(ellipsis.width());
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if width >= ellipsis.width() {
        out.push_str(ellipsis);
    }
    out
}

/// `text` in rows of at most `width` columns, broken at spaces where it can be (a
/// word longer than a row is cut); rows after the first start with `indent` spaces
/// more than the text's own indentation.
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(1);
    if text.width() <= width {
        return vec![text.to_owned()];
    }
    let own = text.len() - text.trim_start_matches(' ').len();
    // A continuation indent that leaves less than half the row is dropped.
    let lead = own + indent;
    let lead = if lead * 2 > width { 0 } else { lead };
    let mut rows = Vec::new();
    let mut row = text[..own].to_owned();
    let mut used = own;
    let mut row_start = true;
    for word in text[own..].split(' ') {
        let w = word.width();
        if !row_start && used + 1 + w > width {
            rows.push(std::mem::take(&mut row));
            row = " ".repeat(lead);
            used = lead;
            row_start = true;
        }
        if !row_start {
            row.push(' ');
            used += 1;
        }
        // A word too long for any row is cut across rows.
        for c in word.chars() {
            let cw = c.width().unwrap_or(0);
            if used + cw > width && used > lead {
                rows.push(std::mem::take(&mut row));
                row = " ".repeat(lead);
                used = lead;
            }
            row.push(c);
            used += cw;
        }
        row_start = false;
    }
    rows.push(row);
    rows
}

/// `text` padded with spaces to `width` columns (not cut).
pub fn pad(text: &str, width: usize) -> String {
    let mut out = text.to_owned();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(text.width())));
    out
}

/// The last `width` columns of `text` (what fits when typing past the edge).
pub fn tail(text: &str, width: usize) -> &str {
    let mut used = 0;
    for (at, c) in text.char_indices().rev() {
        used += c.width().unwrap_or(0);
        if used > width {
            return &text[at + c.len_utf8()..];
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_count_columns() {
        assert_eq!(fit("炮二平五", 5, "~"), "炮二~");
        assert_eq!(fit("h2e2", 4, "~"), "h2e2");
        assert_eq!(fit("abc", 0, "~"), "");
        assert_eq!(pad("马8", 5), "马8  ");
        assert_eq!(tail("炮二平五", 4), "平五");
        assert_eq!(tail("炮二平五", 5), "平五");
        assert_eq!(tail("ab", 5), "ab");
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_indents_the_rest() {
        assert_eq!(wrap("short", 10, 2), ["short"]);
        assert_eq!(
            wrap("d5 -0.31 马2进3 马八进七 卒3进1", 16, 2),
            ["d5 -0.31 马2进3", "  马八进七", "  卒3进1"]
        );
        assert_eq!(wrap("  a b c d", 8, 2), ["  a b c", "    d"]);
        assert_eq!(wrap("  a b c d", 5, 2), ["  a b", "c d"]);
        assert_eq!(wrap("abcdefgh", 3, 0), ["abc", "def", "gh"]);
        for row in wrap("炮二平五炮二平五炮二平五", 5, 2) {
            assert!(row.width() <= 5, "{row}");
        }
    }
}
