//! What a display name may be, beyond its length: one spelling per name (NFKC), no
//! character that hides or reorders text (Unicode format characters: zero-width
//! spaces and joiners, bidi controls, the soft hyphen), no pile of combining marks,
//! and no name that looks like another one: names are compared by their UTS 39
//! skeleton (`аnn` with a Cyrillic а, `ann`, `Ann` are one name).

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Combining marks one character may carry (a letter with two accents, as some scripts
/// write): more is a pile meant to spill over other text.
const MARKS_PER_CHARACTER: usize = 2;

/// Whether `c` is a format character (general category Cf): it changes how text
/// around it shows (U+200B zero-width space, U+202E right-to-left override, U+00AD
/// soft hyphen) without showing itself.
pub fn is_format(c: char) -> bool {
    c.general_category() == GeneralCategory::Format
}

/// `name` in its one spelling (NFKC: `ｆｕｌｌ` is `full`, `é` one character), or why
/// it cannot be a name.
pub fn normalized(name: &str) -> Result<String, String> {
    let name: String = name.nfkc().collect();
    if let Some(c) = name.chars().find(|&c| is_format(c)) {
        return Err(format!(
            "the name has an invisible character (U+{:04X}): connect as ssh NAME@host \
             with letters, digits and marks that show",
            u32::from(c)
        ));
    }
    // Counted with every character decomposed: `ệ` is e and two marks.
    let mut marks = 0;
    for (index, c) in name.nfd().enumerate() {
        if !is_combining_mark(c) {
            marks = 0;
            continue;
        }
        marks += 1;
        if index == 0 || marks > MARKS_PER_CHARACTER {
            return Err(format!(
                "the name has combining marks standing alone or piled up (U+{:04X}): \
                 connect as ssh NAME@host",
                u32::from(c)
            ));
        }
    }
    Ok(name)
}

/// What an address that pinned `limit` new names within the hour is told.
pub fn new_names_refused(limit: u32, wait: std::time::Duration) -> String {
    format!(
        "{limit} new names were taken from your address within the hour, the most allowed: \
         try again in {}, or sign in with a key used here before",
        crate::rate_window::wait_text(wait)
    )
}

/// The form names are compared in: the UTS 39 skeleton (look-alike characters mapped
/// to one prototype), in lower case.
pub fn skeleton(name: &str) -> String {
    unicode_security::skeleton(name)
        .collect::<String>()
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_one_spelling_and_hidden_characters_are_refused() {
        assert_eq!(normalized("ann").as_deref(), Ok("ann"));
        assert_eq!(normalized("ｆｕｌｌ").as_deref(), Ok("full"));
        // e and a combining acute are é, one character.
        assert_eq!(normalized("e\u{301}va").as_deref(), Ok("\u{e9}va"));
        assert_eq!(normalized("象棋大师").as_deref(), Ok("象棋大师"));
        for hidden in [
            "legit\u{200b}",
            "a\u{202e}nn",
            "so\u{ad}ft",
            "z\u{2066}x",
            "\u{feff}ann",
        ] {
            let refused = normalized(hidden).unwrap_err();
            assert!(
                refused.contains("invisible character (U+"),
                "{hidden:?}: {refused}"
            );
        }
        assert!(normalized("legit\u{200b}").unwrap_err().contains("U+200B"));
        for piled in ["\u{301}ann", "a\u{301}\u{302}\u{303}"] {
            assert!(
                normalized(piled).unwrap_err().contains("combining marks"),
                "{piled:?}"
            );
        }
        // A letter with two marks, as Vietnamese writes: kept.
        assert!(normalized("e\u{323}\u{302}").is_ok());
    }

    #[test]
    fn look_alikes_and_case_have_one_skeleton() {
        // Cyrillic а and о, Greek Α.
        assert_eq!(skeleton("\u{430}nn"), skeleton("ann"));
        assert_eq!(skeleton("b\u{43e}b"), skeleton("bob"));
        assert_eq!(skeleton("\u{391}nn"), skeleton("ann"));
        assert_eq!(skeleton("ANN"), skeleton("ann"));
        assert_ne!(skeleton("ann"), skeleton("anne"));
        assert_ne!(skeleton("象棋"), skeleton("象"));
    }
}
