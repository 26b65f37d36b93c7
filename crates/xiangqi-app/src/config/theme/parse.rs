//! Reading a theme file, with `FILE:LINE:COL` errors like the config file's.

use std::path::Path;

use toml::Spanned;
use toml::de::DeValue;

use super::{Color, Style, Theme, ThemeSet};
use crate::config::document::{ErrorSink, raw_value};
use crate::config::error::{ConfigErrors, ConfigProblem};
use crate::config::raw_value::RawValue;
use crate::config::suggest::closest;

const DESCRIPTION_KEY: &str = "description";
const EXTENDS_KEY: &str = "extends";
const STYLE_KEYS: &[&str] = &["fg", "bg", "bold", "dim", "italic", "underline", "reverse"];

/// Parse the theme `name` from `text`. `builtin` is what `extends` may name; `None`
/// while the built-in themes themselves are parsed (they must be complete).
pub(super) fn parse_theme(
    name: &str,
    text: &str,
    path: &Path,
    builtin: Option<&ThemeSet>,
) -> Result<Theme, ConfigErrors> {
    let mut reader = Reader {
        sink: ErrorSink::new(text, path),
    };
    let theme = reader.theme(name, builtin);
    let errors = reader.sink.finish();
    match theme {
        Some(theme) if errors.is_empty() => Ok(theme),
        _ => Err(errors),
    }
}

struct Reader<'a> {
    sink: ErrorSink<'a>,
}

impl Reader<'_> {
    fn theme(&mut self, name: &str, builtin: Option<&ThemeSet>) -> Option<Theme> {
        let root = self.sink.parse()?;
        let base = root
            .get(EXTENDS_KEY)
            .and_then(|value| self.base_theme(value, builtin));
        let mut theme = base.unwrap_or_else(|| Theme::blank(name));
        theme.name = name.to_owned();
        // With `extends` (even a wrong one, reported already) parts may be left out.
        let mut missing: Vec<&str> = if root.contains_key(EXTENDS_KEY) {
            Vec::new()
        } else {
            Theme::PARTS.to_vec()
        };

        for (key, value) in &root {
            let key_name = key.get_ref().as_ref();
            match key_name {
                EXTENDS_KEY => {}
                DESCRIPTION_KEY => match value.get_ref() {
                    DeValue::String(text) => theme.description = text.to_string(),
                    other => self.sink.report(
                        value.span(),
                        ConfigProblem::WrongType {
                            key: DESCRIPTION_KEY.to_owned(),
                            expected: "a string".to_owned(),
                            found: raw_value(other).describe(),
                        },
                    ),
                },
                part => match theme.part_mut(part) {
                    Some(style) => {
                        missing.retain(|missing_part| *missing_part != part);
                        if let Some(parsed) = self.style(part, value) {
                            *style = parsed;
                        }
                    }
                    None => {
                        let mut allowed = vec![DESCRIPTION_KEY, EXTENDS_KEY];
                        allowed.extend_from_slice(Theme::PARTS);
                        self.sink.report(
                            key.span(),
                            ConfigProblem::UnknownKey {
                                key: part.to_owned(),
                                suggestion: closest(part, allowed.iter().copied())
                                    .map(str::to_owned),
                                allowed: allowed.iter().map(|key| (*key).to_owned()).collect(),
                            },
                        );
                    }
                },
            }
        }
        if !missing.is_empty() {
            let problem = ConfigProblem::MissingKeys {
                keys: missing.iter().map(|part| (*part).to_owned()).collect(),
                reason: format!(
                    "a theme must style every part, or start from a built-in theme with \
                     `{EXTENDS_KEY} = \"classic\"` (or another built-in name)"
                ),
            };
            self.sink.report_file(problem);
        }
        Some(theme)
    }

    fn base_theme(
        &mut self,
        value: &Spanned<DeValue<'_>>,
        builtin: Option<&ThemeSet>,
    ) -> Option<Theme> {
        let names = builtin.map(ThemeSet::names).unwrap_or_default();
        let problem = match value.get_ref() {
            DeValue::String(base) => match builtin.and_then(|set| set.get(base)) {
                Some(theme) => return Some(theme.clone()),
                None => ConfigProblem::UnknownName {
                    key: EXTENDS_KEY.to_owned(),
                    kind: "built-in theme".to_owned(),
                    value: base.to_string(),
                    suggestion: closest(base, names.iter().map(String::as_str)).map(str::to_owned),
                    allowed: names,
                },
            },
            other => ConfigProblem::WrongType {
                key: EXTENDS_KEY.to_owned(),
                expected: "the name of a built-in theme (a string)".to_owned(),
                found: raw_value(other).describe(),
            },
        };
        self.sink.report(value.span(), problem);
        None
    }

    /// A part is a colour (its foreground) or a table of `fg`, `bg` and attributes.
    fn style(&mut self, part: &str, value: &Spanned<DeValue<'_>>) -> Option<Style> {
        let DeValue::Table(table) = value.get_ref() else {
            let fg = self.color(part, value)?;
            return Some(Style {
                fg: Some(fg),
                ..Style::default()
            });
        };
        let mut style = Style::default();
        let mut valid = true;
        for (key, value) in table {
            let key_name = key.get_ref().as_ref();
            let shown = format!("{part}.{key_name}");
            let flag = match key_name {
                "fg" | "bg" => {
                    let color = self.color(&shown, value);
                    valid &= color.is_some();
                    if key_name == "fg" {
                        style.fg = color;
                    } else {
                        style.bg = color;
                    }
                    continue;
                }
                "bold" => &mut style.bold,
                "dim" => &mut style.dim,
                "italic" => &mut style.italic,
                "underline" => &mut style.underline,
                "reverse" => &mut style.reverse,
                _ => {
                    valid = false;
                    self.sink.report(
                        key.span(),
                        ConfigProblem::UnknownKey {
                            key: shown,
                            suggestion: closest(key_name, STYLE_KEYS.iter().copied())
                                .map(str::to_owned),
                            allowed: STYLE_KEYS.iter().map(|key| (*key).to_owned()).collect(),
                        },
                    );
                    continue;
                }
            };
            match value.get_ref() {
                DeValue::Boolean(on) => *flag = *on,
                other => {
                    valid = false;
                    self.sink.report(
                        value.span(),
                        ConfigProblem::WrongType {
                            key: shown,
                            expected: "true or false".to_owned(),
                            found: raw_value(other).describe(),
                        },
                    );
                }
            }
        }
        valid.then_some(style)
    }

    fn color(&mut self, shown_key: &str, value: &Spanned<DeValue<'_>>) -> Option<Color> {
        let problem = match raw_value(value.get_ref()) {
            RawValue::String(text) => match Color::parse(text) {
                Some(color) => return Some(color),
                None => {
                    let names = Color::names();
                    let mut allowed = vec![
                        "#rrggbb".to_owned(),
                        "a palette index from 0 to 255".to_owned(),
                    ];
                    allowed.extend(names.iter().map(|name| (*name).to_owned()));
                    ConfigProblem::UnknownName {
                        key: shown_key.to_owned(),
                        kind: "colour".to_owned(),
                        value: text.to_owned(),
                        suggestion: closest(text, names.iter().copied()).map(str::to_owned),
                        allowed,
                    }
                }
            },
            RawValue::Integer(index) => match u8::try_from(index) {
                Ok(index) => return Some(Color::from_index(index)),
                Err(_) => ConfigProblem::OutOfRange {
                    key: shown_key.to_owned(),
                    value: index.to_string(),
                    allowed: crate::config::error::range_text(0, 255),
                },
            },
            other => ConfigProblem::WrongType {
                key: shown_key.to_owned(),
                expected:
                    "a colour (\"#rrggbb\", a colour name, or a palette index from 0 to 255) \
                           or a table of fg, bg and attributes"
                        .to_owned(),
                found: other.describe(),
            },
        };
        self.sink.report(value.span(), problem);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::theme::{AnsiColor, Rgb};

    fn parse(text: &str) -> Result<Theme, ConfigErrors> {
        parse_theme(
            "test",
            text,
            Path::new("test.toml"),
            Some(&ThemeSet::builtin()),
        )
    }

    #[test]
    fn a_theme_can_extend_a_built_in_one_and_change_a_few_parts() {
        let theme = parse(
            "extends = \"classic\"\ndescription = \"mine\"\n\
             grid = \"#102030\"\ncursor = { bg = 236, bold = true }\n",
        )
        .unwrap();
        let classic = ThemeSet::builtin().get("classic").unwrap().clone();
        assert_eq!(theme.name, "test");
        assert_eq!(theme.description, "mine");
        assert_eq!(theme.grid.fg, Some(Color::Rgb(Rgb::new(0x10, 0x20, 0x30))));
        assert_eq!(theme.cursor.bg, Some(Color::Indexed(236)));
        assert!(theme.cursor.bold);
        assert_eq!(theme.board, classic.board);
    }

    #[test]
    fn mistakes_are_reported_with_positions() {
        let errors = parse(
            "extends = \"classic\"\ngrid = \"#12345\"\n\
             cursor = { bg = \"blu\", blink = true }\nboard = { bold = \"yes\" }\nriverr = \"red\"\n",
        )
        .unwrap_err();
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 5, "{lines:#?}");
        assert!(lines[0].starts_with("test.toml:2:8: `grid` = \"#12345\" is not a known colour"));
        assert!(lines[1].starts_with(
            "test.toml:3:17: `cursor.bg` = \"blu\" is not a known colour (did you mean `blue`?)"
        ));
        assert!(lines[2].starts_with("test.toml:3:24: unknown key `cursor.blink`"));
        assert_eq!(
            lines[3],
            "test.toml:4:18: `board.bold` must be true or false, found the string \"yes\""
        );
        assert!(
            lines[4].starts_with("test.toml:5:1: unknown key `riverr` (did you mean `river`?)")
        );
    }

    #[test]
    fn a_theme_without_extends_must_be_complete() {
        let errors = parse("description = \"half\"\ngrid = \"red\"\n").unwrap_err();
        assert_eq!(errors.len(), 1);
        let message = errors.to_string();
        assert!(
            message.starts_with("test.toml: missing `text`, `board`, `river`"),
            "{message}"
        );
        assert_eq!(errors.iter().next().unwrap().key(), Some("text"));
    }

    #[test]
    fn extends_must_name_a_built_in_theme() {
        let errors = parse("extends = \"clasic\"\n").unwrap_err();
        assert!(errors.to_string().starts_with(
            "test.toml:1:11: `extends` = \"clasic\" is not a known built-in theme \
             (did you mean `classic`?)"
        ));
    }

    #[test]
    fn a_plain_colour_sets_the_foreground() {
        let theme = parse("extends = \"mono\"\nriver = \"bright_cyan\"\n").unwrap();
        assert_eq!(theme.river.fg, Some(Color::Ansi(AnsiColor::BrightCyan)));
        assert_eq!(theme.river.bg, None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Theme files are user input too: any text parses or gives errors.
        #[test]
        fn any_text_never_panics(text in "\\PC{0,200}") {
            let _ = parse(&text);
        }

        #[test]
        fn edited_built_in_themes_never_panic(at in 0usize..3000, insert in "[\\[\\]{}=\"#.,\\n a-z0-9]{0,6}") {
            let source = include_str!("../../../themes/classic.toml");
            let mut at = at % (source.len() + 1);
            while !source.is_char_boundary(at) {
                at -= 1;
            }
            let _ = parse(&format!("{}{insert}{}", &source[..at], &source[at..]));
        }
    }
}
