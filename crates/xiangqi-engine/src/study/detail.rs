//! One trace event in full, for a detail pane: its trace line taken apart into its
//! parts (an SSS* step's pop, Γ case with its reason, pushes and purges, the whole
//! OPEN list), what the backend knew at the event's node (window, value, bounds),
//! and the rows of that text wrapped to a width.

use unicode_width::UnicodeWidthStr;

use crate::search::GammaCase;

/// The parts of a trace line, one per row before wrapping.
pub fn event_parts(line: &str, facts: Option<(&str, &str)>) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for part in line.split(" ; ") {
        let part = part.trim();
        if let Some(name) = part.strip_prefix("case ") {
            let reason = gamma(name).map(GammaCase::reason);
            parts.push(match reason {
                Some(reason) => format!("case {name}: {reason}"),
                None => part.to_owned(),
            });
        } else if let Some(list) = part.strip_prefix("OPEN =") {
            let entries = list.split_whitespace().count();
            parts.push(format!("OPEN ({entries}):{list}"));
        } else {
            parts.push(part.to_owned());
        }
    }
    if let Some((label, facts)) = facts.filter(|(_, facts)| !facts.is_empty()) {
        parts.push(format!("at {label}: {facts}"));
    }
    parts
}

fn gamma(name: &str) -> Option<GammaCase> {
    use GammaCase as G;
    [G::G1, G::G2, G::G3, G::G4, G::G5, G::G6]
        .into_iter()
        .find(|case| case.name() == name)
}

/// `text` wrapped at spaces to rows of at most `width` columns (a word longer than a
/// row is cut into pieces); the rows after the first are indented by `indent`.
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 1);
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let room = width - if rows.is_empty() { 0 } else { indent };
        let used = row.width();
        let gap = usize::from(used > 0);
        if used + gap + word.width() <= room {
            if gap == 1 {
                row.push(' ');
            }
            row.push_str(word);
            continue;
        }
        if used > 0 {
            rows.push(std::mem::take(&mut row));
        }
        let mut rest = word;
        loop {
            let room = width - if rows.is_empty() { 0 } else { indent };
            if rest.width() <= room {
                break;
            }
            let mut cut = 0;
            let mut columns = 0;
            for (index, c) in rest.char_indices() {
                let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                if columns + w > room {
                    break;
                }
                columns += w;
                cut = index + c.len_utf8();
            }
            if cut == 0 {
                break;
            }
            rows.push(rest[..cut].to_owned());
            rest = &rest[cut..];
        }
        row.push_str(rest);
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    let pad = " ".repeat(indent);
    rows.into_iter()
        .enumerate()
        .map(|(index, row)| {
            if index == 0 || row.is_empty() {
                row
            } else {
                format!("{pad}{row}")
            }
        })
        .collect()
}

/// The event's parts wrapped to `width`, each part's later rows indented.
pub fn event_rows(line: &str, facts: Option<(&str, &str)>, width: usize) -> Vec<String> {
    event_parts(line, facts)
        .iter()
        .flat_map(|part| wrap(part, width, 2))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sss_step_is_taken_apart_and_its_open_list_wrapped_in_full() {
        let line = "step 3: pop b/L/inf ; case G5 ; push e/L/inf ; OPEN = e/L/inf c/L/inf d/L/inf";
        let parts = event_parts(line, None);
        assert_eq!(
            parts,
            [
                "step 3: pop b/L/inf",
                "case G5: live MIN node: first child becomes live",
                "push e/L/inf",
                "OPEN (3): e/L/inf c/L/inf d/L/inf",
            ]
        );
        let rows = event_rows(line, Some(("b", "live h=inf")), 20);
        assert!(rows.iter().all(|row| row.width() <= 20), "{rows:?}");
        let joined = rows.join(" ");
        for entry in ["e/L/inf", "c/L/inf", "d/L/inf", "at b: live h=inf"] {
            assert!(joined.contains(entry), "{entry} in {rows:?}");
        }
    }

    #[test]
    fn long_words_are_cut_and_later_rows_indented() {
        assert_eq!(wrap("abcdefgh ij", 4, 1), ["abcd", " efg", " h", " ij"]);
        assert_eq!(wrap("", 10, 2), [""]);
        assert_eq!(wrap("a b c", 10, 2), ["a b c"]);
    }
}
