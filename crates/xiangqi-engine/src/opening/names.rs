//! ECCO opening names by code, in simplified and traditional characters, from
//! `names.tsv` (built into the binary; see the file's header for where the names come
//! from). A name is "opening" or "opening#variation".

use std::sync::OnceLock;

use xiangqi_core::notation::Script;

use super::code::Ecco;

static NAMES_TSV: &str = include_str!("names.tsv");

/// The names of one code, as written in the file.
#[derive(Debug)]
struct Names {
    simplified: String,
    traditional: String,
}

fn table() -> &'static [Option<Names>] {
    static TABLE: OnceLock<Vec<Option<Names>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Vec<Option<Names>> = (0..Ecco::COUNT).map(|_| None).collect();
        // The file is ours and checked by a test, so a malformed line is skipped here
        // rather than reported at run time.
        for line in NAMES_TSV.lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split('\t');
            let (Some(code), Some(simplified), Some(traditional)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            if let Ok(code) = code.parse::<Ecco>() {
                table[usize::from(code.index())] = Some(Names {
                    simplified: simplified.to_owned(),
                    traditional: traditional.to_owned(),
                });
            }
        }
        table
    })
}

/// The full name of `code` ("opening#variation" when it has a variation); `None` for a
/// code ECCO leaves unused.
pub fn name(code: Ecco, script: Script) -> Option<&'static str> {
    let names = table()[usize::from(code.index())].as_ref()?;
    Some(match script {
        Script::Simplified => &names.simplified,
        Script::Traditional => &names.traditional,
    })
}

/// Every named code, in order.
pub fn codes() -> impl Iterator<Item = Ecco> {
    (0..Ecco::COUNT)
        .filter_map(Ecco::from_index)
        .filter(|&c| table()[usize::from(c.index())].is_some())
}

/// The opening part of a full name (before '#').
pub fn opening_part(name: &str) -> &str {
    name.split_once('#').map_or(name, |(opening, _)| opening)
}

/// The variation part of a full name (after '#'), if any.
pub fn variation_part(name: &str) -> Option<&str> {
    name.split_once('#').map(|(_, variation)| variation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> Ecco {
        text.parse().unwrap()
    }

    #[test]
    fn every_line_is_read() {
        let lines = NAMES_TSV.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(codes().count(), lines);
        assert_eq!(lines, 260);
        for c in codes() {
            let (s, t) = (
                name(c, Script::Simplified).unwrap(),
                name(c, Script::Traditional).unwrap(),
            );
            assert_eq!(s.chars().count(), t.chars().count(), "{c}");
            assert!(!s.is_empty() && !s.contains('\t'), "{c}");
        }
    }

    #[test]
    fn known_names() {
        assert_eq!(name(code("A00"), Script::Simplified), Some("其他开局"));
        assert_eq!(name(code("A00"), Script::Traditional), Some("其他開局"));
        assert_eq!(name(code("C00"), Script::Simplified), Some("中炮对屏风马"));
        assert_eq!(name(code("C00"), Script::Traditional), Some("中炮對屏風馬"));
        assert_eq!(name(code("A09"), Script::Simplified), None);
        let c02 = name(code("C02"), Script::Simplified).unwrap();
        assert_eq!(opening_part(c02), "中炮七路马对屏风马");
        assert_eq!(variation_part(c02), Some("红左马盘河"));
        assert_eq!(variation_part("中炮局"), None);
    }
}
