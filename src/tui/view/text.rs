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
}
