//! Preparing typed input: drop spaces, fold full-width ASCII, remember each character's
//! column, and accept the annotations that may follow a complete move (§1.8 step 1).

/// One input character with its 1-based column in the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InputChar {
    pub ch: char,
    pub column: usize,
}

/// The characters of `text` that matter: whitespace (including the full-width space) is
/// dropped and full-width ASCII forms (`１`, `．`, `（`, `＋`) become ASCII.
pub(crate) fn prepare(text: &str) -> Vec<InputChar> {
    text.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| InputChar {
            ch: fold_full_width(c),
            column: i + 1,
        })
        .collect()
}

fn fold_full_width(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// Checks what follows a complete move: check and quality marks (`+ # ! ?`), comments in
/// parentheses (`(吃车)`), and the check call 将 / 将军. Returns the column and a message for
/// the first character that is none of these.
pub(crate) fn check_tail(rest: &[InputChar]) -> Result<(), (usize, String)> {
    let mut i = 0;
    while i < rest.len() {
        let c = rest[i];
        match c.ch {
            '+' | '#' | '!' | '?' => i += 1,
            '将' | '將' => {
                i += 1;
                if rest.get(i).is_some_and(|n| matches!(n.ch, '军' | '軍')) {
                    i += 1;
                }
            }
            '(' => match rest[i..].iter().position(|n| n.ch == ')') {
                Some(close) => i += close + 1,
                None => return Err((c.column, "unclosed '(' after the move".to_string())),
            },
            other => {
                return Err((
                    c.column,
                    format!("unexpected '{other}' after a complete move"),
                ));
            }
        }
    }
    Ok(())
}

/// The column just after the input, for "the move stops too early" errors.
pub(crate) fn end_column(text: &str) -> usize {
    text.chars().count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_keeps_original_columns_and_folds_full_width() {
        let chars = prepare(" 马　８进７");
        let got: Vec<(char, usize)> = chars.iter().map(|c| (c.ch, c.column)).collect();
        assert_eq!(got, vec![('马', 2), ('8', 4), ('进', 5), ('7', 6)]);
    }

    #[test]
    fn tail_accepts_annotations_and_rejects_other_text() {
        assert!(check_tail(&prepare("+!（吃车）将军")).is_ok());
        assert_eq!(check_tail(&prepare("!x")).unwrap_err().0, 2);
        assert_eq!(check_tail(&prepare("(吃")).unwrap_err().0, 1);
    }
}
