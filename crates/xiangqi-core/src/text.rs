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
/// first indented by `indent` spaces more than the text's own indentation (at most half
/// a line); a word wider than a line is cut with `ellipsis`. Spaces inside a line are
/// kept (aligned columns stay aligned), and a text that fits is one line as it is. With
/// an empty `ellipsis` the first line is always the start of `text`.
pub fn wrap(text: &str, width: usize, indent: usize, ellipsis: &str) -> Vec<String> {
    wrap_words(text, width, indent, Some(ellipsis))
}

/// The same, but a word wider than a line stays whole on its own line (a path, a
/// command to copy).
pub fn wrap_keeping_words(text: &str, width: usize, indent: usize) -> Vec<String> {
    wrap_words(text, width, indent, None)
}

fn wrap_words(text: &str, width: usize, indent: usize, cut: Option<&str>) -> Vec<String> {
    if text.width() <= width {
        return vec![text.to_owned()];
    }
    let own = text.len() - text.trim_start_matches(' ').len();
    let lead = (own + indent).min(width / 2);
    let mut lines = Vec::new();
    let mut line = " ".repeat(own.min(width / 2));
    let mut used = line.len();
    // No word on the line yet.
    let mut fresh = true;
    for word in text[own..].split(' ') {
        let w = word.width();
        if !fresh && used + 1 + w > width {
            lines.push(std::mem::take(&mut line));
            line = " ".repeat(lead);
            used = lead;
            fresh = true;
        }
        if !fresh {
            line.push(' ');
            used += 1;
        }
        if let Some(ellipsis) = cut.filter(|_| used + w > width) {
            let cut = fit(word, width.saturating_sub(used), ellipsis);
            used += cut.width();
            line.push_str(&cut);
        } else {
            line.push_str(word);
            used += w;
        }
        fresh = false;
    }
    lines.push(line);
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

    #[test]
    fn wrapping_keeps_spaces_and_the_texts_own_indentation() {
        assert_eq!(wrap("d5    -0.31  x", 20, 2, "~"), ["d5    -0.31  x"]);
        assert_eq!(
            wrap("d5    -0.31 马2进3 马八进七 卒3进1", 20, 2, "~"),
            ["d5    -0.31 马2进3", "  马八进七 卒3进1"]
        );
        assert_eq!(wrap("  a b c d", 8, 2, "~"), ["  a b c", "    d"]);
        // Cut without an ellipsis, the first line is the text's start.
        let text = "炮二平五炮二平五炮二平五 and more";
        let first = wrap(text, 5, 2, "").swap_remove(0);
        assert!(text.starts_with(&first) && first.width() <= 5, "{first}");
        for row in wrap(text, 5, 2, "~") {
            assert!(row.width() <= 5, "{row}");
        }
    }
}
