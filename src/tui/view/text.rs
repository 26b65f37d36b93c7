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

/// `text` wrapped at spaces into lines of at most `width` columns, the lines after the
/// first indented by `indent` spaces; a word wider than a line is cut with `ellipsis`.
pub fn wrap(text: &str, width: usize, indent: usize, ellipsis: &str) -> Vec<String> {
    let indent = indent.min(width / 2);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|word| !word.is_empty()) {
        let lead = if lines.is_empty() { 0 } else { indent };
        let used = lead + line.width();
        if !line.is_empty() && used + 1 + word.width() > width {
            lines.push(std::mem::take(&mut line));
        }
        let lead = if lines.is_empty() { 0 } else { indent };
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        if lead + line.width() > width {
            line = fit(&line, width - lead, ellipsis);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    for line in lines.iter_mut().skip(1) {
        line.insert_str(0, &" ".repeat(indent));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_spaces_and_indents_what_follows() {
        assert_eq!(
            wrap("1. +0.25 炮二平五 马8进7", 12, 3, "~"),
            ["1. +0.25", "   炮二平五", "   马8进7"]
        );
        assert_eq!(wrap("a b c", 5, 2, "~"), ["a b c"]);
        assert_eq!(wrap("", 5, 2, "~"), [""]);
        assert_eq!(wrap("abcdefgh", 4, 0, "~"), ["abc~"]);
        for line in wrap("d12 1. -0.25 车9平8 车一平二 马2进3 炮八平七", 16, 4, "~") {
            assert!(line.width() <= 16, "{line}");
        }
    }

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
