//! Themes: named styles for every part of the screen, read from TOML files.
//!
//! The built-in themes are the files in `themes/`, compiled in; `*.toml` files in the
//! user's `themes/` config folder add themes or replace built-in ones by name.

mod capability;
mod color;
mod parse;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

pub use capability::{ColorEnv, ColorLevel};
pub use color::{AnsiColor, Color, Rgb, palette_rgb};

use super::error::{ConfigError, ConfigErrors, ConfigProblem};

/// How one part of the screen is drawn. Colours are optional (`None`: the
/// terminal's default); the attributes also work without colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Style {
    pub fg: Option<Color>,
    pub bg: Option<Color>,
    pub bold: bool,
    pub dim: bool,
    pub italic: bool,
    pub underline: bool,
    pub reverse: bool,
}

impl Style {
    /// The style with its colours as the terminal can show them at `level`.
    pub fn degrade(self, level: ColorLevel) -> Style {
        Style {
            fg: self.fg.and_then(|color| color.degrade(level)),
            bg: self.bg.and_then(|color| color.degrade(level)),
            ..self
        }
    }
}

/// Defines `Theme` with one `Style` field per screen part, and the part names
/// (the keys of a theme file) in one list so they cannot drift apart.
macro_rules! theme_parts {
    ($( $(#[doc = $doc:literal])+ $part:ident, )+) => {
        /// A theme: a style for every part of the screen.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Theme {
            /// The file name without `.toml`.
            pub name: String,
            /// One line shown when choosing a theme.
            pub description: String,
            $( $(#[doc = $doc])+ pub $part: Style, )+
        }

        impl Theme {
            /// The keys of a theme file that name screen parts.
            pub const PARTS: &'static [&'static str] = &[$(stringify!($part)),+];

            fn part_mut(&mut self, part: &str) -> Option<&mut Style> {
                match part {
                    $( stringify!($part) => Some(&mut self.$part), )+
                    _ => None,
                }
            }

            /// The style of a part by its key name.
            pub fn part(&self, part: &str) -> Option<&Style> {
                match part {
                    $( stringify!($part) => Some(&self.$part), )+
                    _ => None,
                }
            }

            fn map_styles(&self, mut change: impl FnMut(Style) -> Style) -> Theme {
                Theme {
                    name: self.name.clone(),
                    description: self.description.clone(),
                    $( $part: change(self.$part), )+
                }
            }

            fn blank(name: &str) -> Theme {
                Theme {
                    name: name.to_owned(),
                    description: String::new(),
                    $( $part: Style::default(), )+
                }
            }
        }
    };
}

theme_parts! {
    /// Ordinary text and the screen background.
    text,
    /// The board area: its background, and the colour of empty points.
    board,
    /// The grid lines and palace diagonals.
    grid,
    /// The river text 楚河 汉界.
    river,
    /// File numbers around the board.
    coordinates,
    /// Red's pieces.
    red_piece,
    /// Black's pieces.
    black_piece,
    /// The from and to points of the last move.
    last_move,
    /// A general in check.
    check,
    /// The board cursor.
    cursor,
    /// The piece picked up.
    selection,
    /// The marks on the selected piece's legal targets.
    legal_target,
    /// Pane text and background (move list, search log).
    pane,
    /// Pane borders.
    pane_border,
    /// The border of the pane with focus.
    pane_border_focused,
    /// Pane titles.
    pane_title,
    /// The current line of a pane (the last move, the log line being stepped).
    pane_highlight,
    /// Detail lines of the search log (trace events), less prominent than summaries.
    log_detail,
    /// The move input line.
    input,
    /// An error shown by the input line.
    input_error,
    /// The status line.
    status,
    /// The status line's warnings: check, game over, a refused move.
    status_alert,
    /// Popups: help, choices, prompts.
    popup,
}

/// The name of the theme used whenever the terminal shows no colour.
pub const MONOCHROME_THEME: &str = "mono";

const BUILTIN_THEMES: &[(&str, &str)] = &[
    ("classic", include_str!("../../../themes/classic.toml")),
    ("dark", include_str!("../../../themes/dark.toml")),
    ("light", include_str!("../../../themes/light.toml")),
    ("mono", include_str!("../../../themes/mono.toml")),
];

impl Theme {
    /// The theme as the terminal can show it. At `ColorLevel::None` only the
    /// attributes remain, so prefer `ThemeSet::for_display`, which switches to the
    /// monochrome theme there.
    pub fn degrade(&self, level: ColorLevel) -> Theme {
        self.map_styles(|style| style.degrade(level))
    }
}

/// All themes by name: built-in ones, replaced or extended by the user's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeSet {
    themes: BTreeMap<String, Theme>,
}

impl ThemeSet {
    /// The themes compiled into the program (parsed once).
    pub fn builtin() -> ThemeSet {
        static BUILTIN: OnceLock<ThemeSet> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let themes = BUILTIN_THEMES
                    .iter()
                    .map(|(name, text)| {
                        let path = Path::new("themes").join(format!("{name}.toml"));
                        // A test parses every built-in theme, so this cannot fail at run time.
                        let theme =
                            parse::parse_theme(name, text, &path, None).unwrap_or_else(|errors| {
                                panic!("built-in theme {name} is broken:\n{errors}")
                            });
                        (name.to_string(), theme)
                    })
                    .collect();
                ThemeSet { themes }
            })
            .clone()
    }

    /// The built-in themes plus every `*.toml` in `user_dir` (if it exists). A user
    /// theme replaces a built-in one of the same name. Broken files are reported and
    /// left out (the program must not start with them; see `config::load`).
    pub fn load(user_dir: Option<&Path>) -> (ThemeSet, ConfigErrors) {
        let builtin = ThemeSet::builtin();
        let mut set = builtin.clone();
        let mut errors = ConfigErrors::default();
        let Some(dir) = user_dir else {
            return (set, errors);
        };
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return (set, errors),
            Err(error) => {
                let reason = error.to_string();
                errors.push(ConfigError::in_file(
                    dir,
                    ConfigProblem::Unreadable { reason },
                ));
                return (set, errors);
            }
        };
        let mut paths: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
            .collect();
        paths.sort();
        for path in paths {
            match set.load_file(&path, &builtin) {
                Ok(()) => {}
                Err(file_errors) => errors.extend(file_errors),
            }
        }
        (set, errors)
    }

    fn load_file(&mut self, path: &Path, builtin: &ThemeSet) -> Result<(), ConfigErrors> {
        let name = theme_name(path);
        let text = std::fs::read_to_string(path).map_err(|error| {
            let reason = error.to_string();
            ConfigError::in_file(path, ConfigProblem::Unreadable { reason })
        })?;
        let theme = parse::parse_theme(&name, &text, path, Some(builtin))?;
        self.themes.insert(name, theme);
        Ok(())
    }

    /// Theme names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.themes.keys().cloned().collect()
    }

    pub fn get(&self, name: &str) -> Option<&Theme> {
        self.themes.get(name)
    }

    /// The theme to draw with: `name` degraded to `level`, except that without
    /// colour the monochrome theme is used, since colour themes mark the cursor and
    /// highlights with background colours that would vanish.
    pub fn for_display(&self, name: &str, level: ColorLevel) -> Option<Theme> {
        let name = if level == ColorLevel::None {
            MONOCHROME_THEME
        } else {
            name
        };
        self.get(name).map(|theme| theme.degrade(level))
    }
}

/// A theme's name: its file name without `.toml`.
pub fn theme_name(path: &Path) -> String {
    path.file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_parse_and_include_the_four_required() {
        let set = ThemeSet::builtin();
        assert_eq!(set.names(), ["classic", "dark", "light", "mono"]);
        for name in set.names() {
            assert!(!set.get(&name).unwrap().description.is_empty(), "{name}");
        }
    }

    #[test]
    fn the_monochrome_theme_needs_no_colour() {
        let mono = ThemeSet::builtin().get(MONOCHROME_THEME).unwrap().clone();
        assert_eq!(mono.degrade(ColorLevel::None), mono);
        for part in Theme::PARTS {
            let style = mono.part(part).unwrap();
            assert!(style.fg.is_none_or(|c| c == Color::Default), "{part}");
            assert!(style.bg.is_none_or(|c| c == Color::Default), "{part}");
        }
        // Without colour, red and black and the highlights must still differ.
        assert_ne!(mono.red_piece, mono.black_piece);
        assert_ne!(mono.cursor, mono.board);
        assert_ne!(mono.last_move, mono.board);
        assert_ne!(mono.check, mono.board);
    }

    #[test]
    fn without_colour_any_theme_becomes_monochrome() {
        let set = ThemeSet::builtin();
        let shown = set.for_display("classic", ColorLevel::None).unwrap();
        assert_eq!(shown.name, MONOCHROME_THEME);
        let shown = set.for_display("classic", ColorLevel::Ansi16).unwrap();
        assert_eq!(shown.name, "classic");
        for part in Theme::PARTS {
            let style = shown.part(part).unwrap();
            for color in [style.fg, style.bg].into_iter().flatten() {
                assert!(
                    matches!(color, Color::Ansi(_) | Color::Default),
                    "{part}: {color}"
                );
            }
        }
        assert!(set.for_display("nonesuch", ColorLevel::Ansi16).is_none());
    }

    #[test]
    fn colour_themes_keep_marks_and_pieces_visible_at_every_colour_level() {
        let set = ThemeSet::builtin();
        for name in ["classic", "dark", "light"] {
            for level in [
                ColorLevel::TrueColor,
                ColorLevel::Ansi256,
                ColorLevel::Ansi16,
            ] {
                let theme = set.for_display(name, level).unwrap();
                let board = theme.board.bg;
                assert!(board.is_some(), "{name} sets a board background");
                let marks = [
                    ("last_move", theme.last_move.bg),
                    ("check", theme.check.bg),
                    ("cursor", theme.cursor.bg),
                    ("selection", theme.selection.bg),
                    ("board", board),
                ];
                for (i, (part, color)) in marks.iter().enumerate() {
                    for (other, other_color) in &marks[i + 1..] {
                        assert_ne!(color, other_color, "{name} at {level:?}: {part} vs {other}");
                    }
                }
                let pieces = [theme.red_piece.fg, theme.black_piece.fg, board];
                assert_ne!(pieces[0], pieces[1], "{name} at {level:?}: red vs black");
                assert_ne!(pieces[0], pieces[2], "{name} at {level:?}: red on board");
                assert_ne!(pieces[1], pieces[2], "{name} at {level:?}: black on board");
            }
        }
    }
}
