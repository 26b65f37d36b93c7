//! The named values a setting can take (`algorithm = "alphabeta"`, `color = "256"`, ...).
//! The search algorithm and the notation are the search's and the notation's own enums;
//! the settings that exist only here are defined here (`named_enum!`).

use std::fmt;
use std::str::FromStr;

use xiangqi_core::notation::Notation;
use xiangqi_engine::search::Algorithm;

/// A name that is not one of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} \"{value}\"; allowed: {}", .allowed.join(", "))]
pub struct UnknownValue {
    pub kind: &'static str,
    pub value: String,
    pub allowed: Vec<&'static str>,
}

/// A type whose values a setting names by a fixed spelling: which values a config may
/// name, how each is spelt, and reading one (ASCII case-insensitive, so `AlphaBeta`
/// works).
pub trait ConfigName: Copy + Eq + 'static {
    /// What the value is called in error messages.
    const KIND: &'static str;
    /// The values a config may name, in the order the documentation lists them.
    const CHOICES: &'static [Self];

    /// The config-file spelling.
    fn config_name(self) -> &'static str;

    /// The config-file spelling of every choice.
    fn config_names() -> Vec<&'static str> {
        Self::CHOICES
            .iter()
            .map(|value| value.config_name())
            .collect()
    }

    /// Reads a value as a config file or a settings flag spells it.
    fn from_config(text: &str) -> Result<Self, UnknownValue> {
        Self::CHOICES
            .iter()
            .copied()
            .find(|value| value.config_name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownValue {
                kind: Self::KIND,
                value: text.to_owned(),
                allowed: Self::config_names(),
            })
    }
}

/// Writes a named value as the config file spells it (`config show`).
pub(super) fn serialize_config_name<T: ConfigName, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(value.config_name())
}

impl ConfigName for Algorithm {
    const KIND: &'static str = "algorithm";
    const CHOICES: &'static [Algorithm] = &Algorithm::ALL;

    fn config_name(self) -> &'static str {
        self.as_str()
    }
}

impl ConfigName for Notation {
    const KIND: &'static str = "notation";
    /// Traditional characters are for records and the commands, not a display setting.
    const CHOICES: &'static [Notation] = &[Notation::Chinese, Notation::Wxf, Notation::Iccs];

    fn config_name(self) -> &'static str {
        self.name()
    }
}

/// Defines a settings enum with its config spelling (see `named_values`).
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $kind:literal {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        named_values!($name, $kind { $( $variant => $text, )+ });
    };
}

/// Gives an enum defined here its config spelling, the
/// list of names, parsing (ASCII case-insensitive, so `AlphaBeta` works), `Display`
/// and TOML output.
macro_rules! named_values {
    ($name:ident, $kind:literal { $( $variant:ident => $text:literal, )+ }) => {
        impl $name {
            /// Every value, in the order the documentation lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The config-file spelling of every value.
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            /// What the value is called in error messages.
            pub const KIND: &'static str = $kind;

            /// The config-file spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }

        impl ConfigName for $name {
            const KIND: &'static str = $kind;
            const CHOICES: &'static [$name] = $name::ALL;

            fn config_name(self) -> &'static str {
                self.as_str()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownValue;
            fn from_str(text: &str) -> Result<Self, UnknownValue> {
                $name::from_config(text)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

/// How much of the search the log shows: the engine service's trace detail.
pub use xiangqi_engine::service::TraceLevel;

impl ConfigName for TraceLevel {
    const KIND: &'static str = "trace level";
    const CHOICES: &'static [TraceLevel] = TraceLevel::ALL;

    fn config_name(self) -> &'static str {
        self.as_str()
    }
}

named_enum! {
    /// Which side the engine plays.
    EngineSide, "engine side" {
        Red => "red",
        Black => "black",
        /// Engine against engine, to watch.
        Both => "both",
        /// Two people on one board.
        None => "none",
    }
}

named_enum! {
    /// How pieces are drawn.
    Glyphs, "glyph set" {
        /// Traditional characters 俥傌相仕帥炮兵 / 車馬象士將砲卒.
        Cjk => "cjk",
        /// WXF letters: upper case Red, lower case Black.
        Ascii => "ascii",
        /// CJK pieces laid out for terminals that draw ambiguous-width characters
        /// double wide (box drawing and the like are avoided or padded).
        Wide => "wide",
    }
}

named_enum! {
    /// Colour support: detected, or forced.
    ColorMode, "color mode" {
        /// Detect from `NO_COLOR`, `COLORTERM` and `TERM`.
        Auto => "auto",
        TrueColor => "truecolor",
        Ansi256 => "256",
        Ansi16 => "16",
        Never => "never",
    }
}

/// Where the engine's opening book comes from (`book = "builtin" | "none" | "PATH"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum BookSource {
    /// The book compiled into the program.
    #[default]
    Builtin,
    /// No book: the engine always searches.
    None,
    /// A book file; a relative path is taken from the config file's folder.
    File(String),
}

impl BookSource {
    /// Reads a config value; `None` for an empty string.
    pub fn parse(text: &str) -> Option<BookSource> {
        match text.trim() {
            "" => None,
            t if t.eq_ignore_ascii_case("builtin") => Some(BookSource::Builtin),
            t if t.eq_ignore_ascii_case("none") => Some(BookSource::None),
            _ => Some(BookSource::File(text.to_owned())),
        }
    }

    /// The config-file spelling.
    pub fn as_str(&self) -> &str {
        match self {
            BookSource::Builtin => "builtin",
            BookSource::None => "none",
            BookSource::File(path) => path,
        }
    }

    /// The book file's path, relative paths taken from `config_dir` when there is one.
    pub fn file_path(&self, config_dir: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
        let BookSource::File(path) = self else {
            return None;
        };
        let path = std::path::PathBuf::from(path);
        Some(match config_dir {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path,
        })
    }
}

impl fmt::Display for BookSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for BookSource {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_parse_case_insensitively() {
        for algorithm in Algorithm::ALL {
            assert_eq!(Algorithm::from_config(algorithm.as_str()), Ok(algorithm));
        }
        assert_eq!(
            Algorithm::from_config("AlphaBeta"),
            Ok(Algorithm::AlphaBeta)
        );
        assert_eq!("256".parse::<ColorMode>(), Ok(ColorMode::Ansi256));
        assert_eq!(ColorMode::TrueColor.to_string(), "truecolor");
        assert_eq!(
            Glyphs::NAMES,
            &["cjk", "ascii", "wide"],
            "the names issue 7 asks for"
        );
    }

    #[test]
    fn unknown_names_list_what_is_allowed() {
        let error = Algorithm::from_config("sss*").unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown algorithm \"sss*\"; allowed: minimax, alphabeta, sss, mtsss, mtdf, bstar"
        );
    }
}
