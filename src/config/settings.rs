//! The settings, their built-in defaults, one validated setter per key, and the merge.

use serde::{Serialize, Serializer};

use super::error::ConfigProblem;
use super::suggest::closest;
use super::threads::{AUTO_THREADS, MAX_THREADS, Threads, threads_value};
use super::time::{SideTime, side_time_value, time_value};
use super::values::{
    BookSource, ColorMode, ConfigName, EngineSide, Glyphs, TraceLevel, serialize_config_name,
};
use crate::clock::TimeControl;
use crate::notation::Notation;
use crate::search::Algorithm;

/// The engine name that means the in-process engine.
pub const BUILTIN_ENGINE: &str = "builtin";

/// Deepest search depth a config may ask for, in plies.
pub const MAX_DEPTH: u32 = 64;
/// Largest transposition table a config may ask for, in megabytes.
pub const MAX_HASH_MB: u32 = 65_536;
/// The word that switches a search limit off (`depth = "none"`).
pub const NO_LIMIT: &str = "none";
/// Strength levels: 1 (weakest) to 20 (full strength).
pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 20;
/// Most engine lines the analysis board may show.
pub const MAX_MULTIPV: u8 = 10;

/// The effective settings: every key has a value.
///
/// The field order is the order `config show` prints them in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settings {
    #[serde(serialize_with = "serialize_config_name")]
    pub algorithm: Algorithm,
    /// Depth limit in plies (`None`: no depth limit).
    #[serde(serialize_with = "serialize_limit")]
    pub depth: Option<u32>,
    /// Time per move in milliseconds (`None`: no time limit).
    #[serde(serialize_with = "serialize_limit")]
    pub movetime_ms: Option<u64>,
    /// Node limit per search (`None`: no node limit).
    #[serde(serialize_with = "serialize_limit")]
    pub nodes: Option<u64>,
    pub hash_mb: u32,
    /// Search threads of the in-process engine.
    pub threads: Threads,
    pub trace: TraceLevel,
    /// Step mode on when a search starts.
    pub step: bool,
    pub engine_side: EngineSide,
    /// A theme name known to the `ThemeSet`.
    pub theme: String,
    pub glyphs: Glyphs,
    #[serde(serialize_with = "serialize_config_name")]
    pub notation: Notation,
    pub color: ColorMode,
    /// The opening book the engine plays from in the TUI.
    pub book: BookSource,
    /// How often a less-played book move is chosen, 0 (never) to 100 (as often as played).
    pub book_variety: u8,
    /// The engine's strength level, 1..=20 (20: full strength).
    pub level: u8,
    /// Lines the analysis board shows, 1..=10.
    pub multipv: u8,
    /// Both sides' time control (`None`: no clocks).
    #[serde(serialize_with = "serialize_limit")]
    pub time: Option<TimeControl>,
    pub time_red: SideTime,
    pub time_black: SideTime,
    /// The opponent: `builtin`, or the name of an `[engines.NAME]` table.
    pub engine: String,
    /// Most nodes the search-tree explorer keeps (the search itself goes on past them).
    pub explorer_nodes: u32,
}

/// The largest node cap the explorer takes: its memory stays bounded whatever the config says.
pub const EXPLORER_NODES_MAX: u32 = 10_000_000;

impl Default for Settings {
    /// A good first run: you play Red at the bottom against alpha-beta answering in
    /// about a second, with a one-line-per-iteration search log.
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::AlphaBeta,
            depth: None,
            movetime_ms: Some(1000),
            nodes: None,
            hash_mb: 64,
            threads: Threads::default(),
            trace: TraceLevel::Summary,
            step: false,
            engine_side: EngineSide::Black,
            theme: "classic".to_owned(),
            glyphs: Glyphs::Cjk,
            notation: Notation::Chinese,
            color: ColorMode::Auto,
            book: BookSource::Builtin,
            book_variety: 20,
            level: MAX_LEVEL,
            multipv: 3,
            time: None,
            time_red: SideTime::Same,
            time_black: SideTime::Same,
            engine: BUILTIN_ENGINE.to_owned(),
            explorer_nodes: crate::study::DEFAULT_NODE_CAP as u32,
        }
    }
}

fn serialize_limit<T: Serialize, S: Serializer>(
    limit: &Option<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match limit {
        Some(value) => value.serialize(serializer),
        None => serializer.serialize_str(NO_LIMIT),
    }
}

/// The keys a settings table (top level or `[profiles.NAME]`) may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingKey {
    Algorithm,
    Depth,
    MovetimeMs,
    Nodes,
    HashMb,
    Threads,
    Trace,
    Step,
    EngineSide,
    Theme,
    Glyphs,
    Notation,
    Color,
    Book,
    BookVariety,
    Level,
    Multipv,
    Time,
    TimeRed,
    TimeBlack,
    Engine,
    ExplorerNodes,
}

impl SettingKey {
    pub const ALL: &'static [SettingKey] = &[
        SettingKey::Algorithm,
        SettingKey::Depth,
        SettingKey::MovetimeMs,
        SettingKey::Nodes,
        SettingKey::HashMb,
        SettingKey::Threads,
        SettingKey::Trace,
        SettingKey::Step,
        SettingKey::EngineSide,
        SettingKey::Theme,
        SettingKey::Glyphs,
        SettingKey::Notation,
        SettingKey::Color,
        SettingKey::Book,
        SettingKey::BookVariety,
        SettingKey::Level,
        SettingKey::Multipv,
        SettingKey::Time,
        SettingKey::TimeRed,
        SettingKey::TimeBlack,
        SettingKey::Engine,
        SettingKey::ExplorerNodes,
    ];

    /// The key as written in a config file.
    pub const fn name(self) -> &'static str {
        match self {
            SettingKey::Algorithm => "algorithm",
            SettingKey::Depth => "depth",
            SettingKey::MovetimeMs => "movetime_ms",
            SettingKey::Nodes => "nodes",
            SettingKey::HashMb => "hash_mb",
            SettingKey::Threads => "threads",
            SettingKey::Trace => "trace",
            SettingKey::Step => "step",
            SettingKey::EngineSide => "engine_side",
            SettingKey::Theme => "theme",
            SettingKey::Glyphs => "glyphs",
            SettingKey::Notation => "notation",
            SettingKey::Color => "color",
            SettingKey::Book => "book",
            SettingKey::BookVariety => "book_variety",
            SettingKey::Level => "level",
            SettingKey::Multipv => "multipv",
            SettingKey::Time => "time",
            SettingKey::TimeRed => "time_red",
            SettingKey::TimeBlack => "time_black",
            SettingKey::Engine => "engine",
            SettingKey::ExplorerNodes => "explorer_nodes",
        }
    }

    pub fn from_name(name: &str) -> Option<SettingKey> {
        SettingKey::ALL
            .iter()
            .copied()
            .find(|key| key.name() == name)
    }

    /// What a value of this key must look like, for error messages.
    pub fn expectation(self) -> String {
        match self {
            SettingKey::Algorithm => one_of(&Algorithm::config_names()),
            SettingKey::Depth => format!("an integer from 1 to {MAX_DEPTH}, or \"{NO_LIMIT}\""),
            SettingKey::MovetimeMs => {
                format!("a positive integer (milliseconds), or \"{NO_LIMIT}\"")
            }
            SettingKey::Nodes => format!("a positive integer, or \"{NO_LIMIT}\""),
            SettingKey::HashMb => format!("an integer from 1 to {MAX_HASH_MB} (megabytes)"),
            SettingKey::Threads => {
                format!("an integer from 1 to {MAX_THREADS}, or \"{AUTO_THREADS}\"")
            }
            SettingKey::Trace => one_of(&TraceLevel::config_names()),
            SettingKey::Step => "true or false".to_owned(),
            SettingKey::EngineSide => one_of(&EngineSide::config_names()),
            SettingKey::Theme => "a theme name (a string)".to_owned(),
            SettingKey::Glyphs => one_of(&Glyphs::config_names()),
            SettingKey::Notation => one_of(&Notation::config_names()),
            SettingKey::Color => one_of(&ColorMode::config_names()),
            SettingKey::Book => "a string: \"builtin\", \"none\" or a book file's path".to_owned(),
            SettingKey::BookVariety => "an integer from 0 to 100".to_owned(),
            SettingKey::Level => format!("an integer from {MIN_LEVEL} to {MAX_LEVEL}"),
            SettingKey::Multipv => format!("an integer from 1 to {MAX_MULTIPV}"),
            SettingKey::Time => {
                format!("a time control (\"10+5\", \"40/90+30\", \"5m/move\") or \"{NO_LIMIT}\"")
            }
            SettingKey::TimeRed | SettingKey::TimeBlack => format!(
                "a time control (\"10+5\", \"40/90+30\", \"5m/move\"), \"{NO_LIMIT}\" or \"same\""
            ),
            SettingKey::Engine => {
                format!("\"{BUILTIN_ENGINE}\" or the name of an [engines.NAME] table")
            }
            SettingKey::ExplorerNodes => {
                format!("an integer from 1 to {}", EXPLORER_NODES_MAX)
            }
        }
    }
}

fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    format!("a string, one of {}", quoted.join(", "))
}

/// A value as written in a config file or on the command line, before validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RawValue<'a> {
    String(&'a str),
    Integer(i64),
    Boolean(bool),
    /// Any other TOML type, described for the error message ("a float", "an array").
    Other(&'static str),
}

impl RawValue<'_> {
    /// The value as an error message quotes it: `the string "fast"`, `a float`.
    pub fn describe(&self) -> String {
        match self {
            RawValue::String(text) => format!("the string \"{text}\""),
            RawValue::Integer(number) => format!("the integer {number}"),
            RawValue::Boolean(flag) => format!("the boolean {flag}"),
            RawValue::Other(description) => (*description).to_owned(),
        }
    }
}

/// Settings given by one source (the file's top level, a profile, the flags).
/// `None` leaves the value of the layer below; for the limits `Some(None)` is an
/// explicit "no limit".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsLayer {
    pub algorithm: Option<Algorithm>,
    pub depth: Option<Option<u32>>,
    pub movetime_ms: Option<Option<u64>>,
    pub nodes: Option<Option<u64>>,
    pub hash_mb: Option<u32>,
    pub threads: Option<Threads>,
    pub trace: Option<TraceLevel>,
    pub step: Option<bool>,
    pub engine_side: Option<EngineSide>,
    pub theme: Option<String>,
    pub glyphs: Option<Glyphs>,
    pub notation: Option<Notation>,
    pub color: Option<ColorMode>,
    pub book: Option<BookSource>,
    pub book_variety: Option<u8>,
    pub level: Option<u8>,
    pub multipv: Option<u8>,
    pub time: Option<Option<TimeControl>>,
    pub time_red: Option<SideTime>,
    pub time_black: Option<SideTime>,
    /// Checked against the `[engines]` tables by the file reader and the flags.
    pub engine: Option<String>,
    pub explorer_nodes: Option<u32>,
}

impl SettingsLayer {
    /// Validate `value` for `key` and store it. `shown_key` is the key as the user
    /// wrote it (`profiles.study.depth`), for the message; `themes` are the theme
    /// names that exist.
    pub fn set(
        &mut self,
        key: SettingKey,
        shown_key: &str,
        value: RawValue<'_>,
        themes: &[String],
    ) -> Result<(), ConfigProblem> {
        let wrong_type = || ConfigProblem::WrongType {
            key: shown_key.to_owned(),
            expected: key.expectation(),
            found: value.describe(),
        };
        match key {
            SettingKey::Algorithm => self.algorithm = Some(named(shown_key, value, wrong_type)?),
            SettingKey::Trace => self.trace = Some(named(shown_key, value, wrong_type)?),
            SettingKey::EngineSide => self.engine_side = Some(named(shown_key, value, wrong_type)?),
            SettingKey::Glyphs => self.glyphs = Some(named(shown_key, value, wrong_type)?),
            SettingKey::Notation => self.notation = Some(named(shown_key, value, wrong_type)?),
            SettingKey::Color => self.color = Some(named(shown_key, value, wrong_type)?),
            SettingKey::Depth => {
                self.depth = Some(limit(shown_key, value, 1, MAX_DEPTH.into(), wrong_type)?)
            }
            SettingKey::MovetimeMs => {
                self.movetime_ms = Some(limit(shown_key, value, 1, u64::MAX, wrong_type)?)
            }
            SettingKey::Nodes => {
                self.nodes = Some(limit(shown_key, value, 1, u64::MAX, wrong_type)?)
            }
            SettingKey::HashMb => match value {
                RawValue::Integer(number) => {
                    self.hash_mb = Some(in_range(shown_key, number, 1, MAX_HASH_MB.into())?)
                }
                _ => return Err(wrong_type()),
            },
            SettingKey::Threads => {
                self.threads = Some(threads_value(shown_key, value, wrong_type)?)
            }
            SettingKey::Book => match value {
                RawValue::String(text) => match BookSource::parse(text) {
                    Some(source) => self.book = Some(source),
                    None => return Err(wrong_type()),
                },
                _ => return Err(wrong_type()),
            },
            SettingKey::BookVariety => match value {
                RawValue::Integer(number) => {
                    self.book_variety = Some(in_range(shown_key, number, 0, 100)?)
                }
                _ => return Err(wrong_type()),
            },
            SettingKey::Level => match value {
                RawValue::Integer(number) => {
                    self.level = Some(in_range(
                        shown_key,
                        number,
                        MIN_LEVEL.into(),
                        MAX_LEVEL.into(),
                    )?)
                }
                _ => return Err(wrong_type()),
            },
            SettingKey::ExplorerNodes => match value {
                RawValue::Integer(number) => {
                    self.explorer_nodes =
                        Some(in_range(shown_key, number, 1, EXPLORER_NODES_MAX.into())?)
                }
                _ => return Err(wrong_type()),
            },
            SettingKey::Multipv => match value {
                RawValue::Integer(number) => {
                    self.multipv = Some(in_range(shown_key, number, 1, MAX_MULTIPV.into())?)
                }
                _ => return Err(wrong_type()),
            },
            SettingKey::Step => match value {
                RawValue::Boolean(flag) => self.step = Some(flag),
                _ => return Err(wrong_type()),
            },
            SettingKey::Time => self.time = Some(time_value(shown_key, value, wrong_type)?),
            SettingKey::TimeRed => {
                self.time_red = Some(side_time_value(shown_key, value, wrong_type)?)
            }
            SettingKey::TimeBlack => {
                self.time_black = Some(side_time_value(shown_key, value, wrong_type)?)
            }
            SettingKey::Engine => match value {
                RawValue::String(name) if !name.trim().is_empty() => {
                    self.engine = Some(name.trim().to_owned())
                }
                _ => return Err(wrong_type()),
            },
            SettingKey::Theme => match value {
                RawValue::String(name) if themes.iter().any(|known| known == name) => {
                    self.theme = Some(name.to_owned())
                }
                RawValue::String(name) => {
                    return Err(ConfigProblem::UnknownName {
                        key: shown_key.to_owned(),
                        kind: "theme".to_owned(),
                        value: name.to_owned(),
                        suggestion: closest(name, themes.iter().map(String::as_str))
                            .map(str::to_owned),
                        allowed: themes.to_vec(),
                    });
                }
                _ => return Err(wrong_type()),
            },
        }
        Ok(())
    }

    /// Overwrite the fields this layer sets.
    pub fn apply_to(&self, settings: &mut Settings) {
        fn put<T: Clone>(target: &mut T, value: &Option<T>) {
            if let Some(value) = value {
                *target = value.clone();
            }
        }
        put(&mut settings.algorithm, &self.algorithm);
        put(&mut settings.depth, &self.depth);
        put(&mut settings.movetime_ms, &self.movetime_ms);
        put(&mut settings.nodes, &self.nodes);
        put(&mut settings.hash_mb, &self.hash_mb);
        put(&mut settings.threads, &self.threads);
        put(&mut settings.trace, &self.trace);
        put(&mut settings.step, &self.step);
        put(&mut settings.engine_side, &self.engine_side);
        put(&mut settings.theme, &self.theme);
        put(&mut settings.glyphs, &self.glyphs);
        put(&mut settings.notation, &self.notation);
        put(&mut settings.color, &self.color);
        put(&mut settings.book, &self.book);
        put(&mut settings.book_variety, &self.book_variety);
        put(&mut settings.level, &self.level);
        put(&mut settings.multipv, &self.multipv);
        put(&mut settings.time, &self.time);
        put(&mut settings.time_red, &self.time_red);
        put(&mut settings.time_black, &self.time_black);
        put(&mut settings.engine, &self.engine);
        put(&mut settings.explorer_nodes, &self.explorer_nodes);
    }
}

/// The one place precedence is decided:
/// built-in defaults < config file < chosen profile < command-line flags.
pub fn merge(
    file: &SettingsLayer,
    profile: Option<&SettingsLayer>,
    flags: &SettingsLayer,
) -> Settings {
    let mut settings = Settings::default();
    for layer in [Some(file), profile, Some(flags)].into_iter().flatten() {
        layer.apply_to(&mut settings);
    }
    settings
}

fn named<T: ConfigName>(
    shown_key: &str,
    value: RawValue<'_>,
    wrong_type: impl FnOnce() -> ConfigProblem,
) -> Result<T, ConfigProblem> {
    let RawValue::String(text) = value else {
        return Err(wrong_type());
    };
    T::from_config(text)
        .map_err(|unknown| ConfigProblem::UnknownName {
            key: shown_key.to_owned(),
            kind: unknown.kind.to_owned(),
            value: unknown.value,
            suggestion: closest(text, unknown.allowed.iter().copied()).map(str::to_owned),
            allowed: unknown
                .allowed
                .iter()
                .map(|name| (*name).to_owned())
                .collect(),
        })
}

fn limit<T: TryFrom<i64>>(
    shown_key: &str,
    value: RawValue<'_>,
    min: u64,
    max: u64,
    wrong_type: impl FnOnce() -> ConfigProblem,
) -> Result<Option<T>, ConfigProblem> {
    match value {
        RawValue::String(text) if text.eq_ignore_ascii_case(NO_LIMIT) => Ok(None),
        RawValue::Integer(number) => in_range(shown_key, number, min, max).map(Some),
        _ => Err(wrong_type()),
    }
}

fn in_range<T: TryFrom<i64>>(
    shown_key: &str,
    number: i64,
    min: u64,
    max: u64,
) -> Result<T, ConfigProblem> {
    let out_of_range = || ConfigProblem::OutOfRange {
        key: shown_key.to_owned(),
        value: number.to_string(),
        allowed: if max == u64::MAX {
            format!("{min} or more")
        } else {
            format!("{min}..={max}")
        },
    };
    let unsigned = u64::try_from(number).map_err(|_| out_of_range())?;
    if !(min..=max).contains(&unsigned) {
        return Err(out_of_range());
    }
    T::try_from(number).map_err(|_| out_of_range())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn themes() -> Vec<String> {
        ["classic", "dark", "light", "mono"]
            .map(str::to_owned)
            .to_vec()
    }

    fn set(key: SettingKey, value: RawValue<'_>) -> Result<SettingsLayer, ConfigProblem> {
        let mut layer = SettingsLayer::default();
        layer.set(key, key.name(), value, &themes())?;
        Ok(layer)
    }

    #[test]
    fn defaults_make_a_quick_first_game() {
        let settings = Settings::default();
        assert_eq!(settings.algorithm, Algorithm::AlphaBeta);
        assert_eq!(settings.movetime_ms, Some(1000));
        assert_eq!(settings.depth, None);
        assert_eq!(settings.engine_side, EngineSide::Black);
        assert_eq!(settings.trace, TraceLevel::Summary);
        assert_eq!(settings.theme, "classic");
    }

    #[test]
    fn limits_take_numbers_in_range_or_none() {
        assert_eq!(
            set(SettingKey::Depth, RawValue::Integer(64)).unwrap().depth,
            Some(Some(64))
        );
        assert_eq!(
            set(SettingKey::Depth, RawValue::String("none"))
                .unwrap()
                .depth,
            Some(None)
        );
        assert_eq!(
            set(SettingKey::Depth, RawValue::Integer(65))
                .unwrap_err()
                .to_string(),
            "`depth` = 65 is out of range: allowed 1..=64"
        );
        assert_eq!(
            set(SettingKey::MovetimeMs, RawValue::Integer(0))
                .unwrap_err()
                .to_string(),
            "`movetime_ms` = 0 is out of range: allowed 1 or more"
        );
        assert_eq!(
            set(SettingKey::Nodes, RawValue::Integer(-5))
                .unwrap_err()
                .to_string(),
            "`nodes` = -5 is out of range: allowed 1 or more"
        );
        assert_eq!(
            set(SettingKey::HashMb, RawValue::String("none"))
                .unwrap_err()
                .to_string(),
            "`hash_mb` must be an integer from 1 to 65536 (megabytes), found the string \"none\""
        );
    }

    #[test]
    fn names_are_checked_with_a_suggestion() {
        assert_eq!(
            set(SettingKey::Algorithm, RawValue::String("alphabeat"))
                .unwrap_err()
                .to_string(),
            "`algorithm` = \"alphabeat\" is not a known algorithm (did you mean `alphabeta`?); \
             allowed: minimax, alphabeta, sss, mtsss, mtdf, bstar"
        );
        assert_eq!(
            set(SettingKey::Theme, RawValue::String("drak"))
                .unwrap_err()
                .to_string(),
            "`theme` = \"drak\" is not a known theme (did you mean `dark`?); \
             allowed: classic, dark, light, mono"
        );
        assert_eq!(
            set(SettingKey::Color, RawValue::Integer(256))
                .unwrap_err()
                .to_string(),
            "`color` must be a string, one of \"auto\", \"truecolor\", \"256\", \"16\", \"never\", \
             found the integer 256"
        );
        assert_eq!(
            set(SettingKey::Step, RawValue::String("yes"))
                .unwrap_err()
                .to_string(),
            "`step` must be true or false, found the string \"yes\""
        );
    }

    #[test]
    fn book_keys_take_a_source_and_a_percentage() {
        assert_eq!(
            set(SettingKey::Book, RawValue::String("none"))
                .unwrap()
                .book,
            Some(BookSource::None)
        );
        assert_eq!(
            set(SettingKey::Book, RawValue::String("books/my.xqb"))
                .unwrap()
                .book,
            Some(BookSource::File("books/my.xqb".into()))
        );
        assert_eq!(
            set(SettingKey::Book, RawValue::String(" "))
                .unwrap_err()
                .to_string(),
            "`book` must be a string: \"builtin\", \"none\" or a book file's path, found the \
             string \" \""
        );
        assert_eq!(
            set(SettingKey::BookVariety, RawValue::Integer(101))
                .unwrap_err()
                .to_string(),
            "`book_variety` = 101 is out of range: allowed 0..=100"
        );
        assert_eq!(
            set(SettingKey::BookVariety, RawValue::Integer(0))
                .unwrap()
                .book_variety,
            Some(0)
        );
    }

    #[test]
    fn merge_applies_layers_in_order() {
        let file = SettingsLayer {
            depth: Some(Some(6)),
            theme: Some("dark".into()),
            ..SettingsLayer::default()
        };
        let profile = SettingsLayer {
            depth: Some(Some(4)),
            movetime_ms: Some(None),
            ..SettingsLayer::default()
        };
        let flags = SettingsLayer {
            depth: Some(Some(2)),
            ..SettingsLayer::default()
        };
        let merged = merge(&file, Some(&profile), &flags);
        assert_eq!(merged.depth, Some(2));
        assert_eq!(merged.movetime_ms, None);
        assert_eq!(merged.theme, "dark");
        assert_eq!(merged.hash_mb, 64);
        assert_eq!(merge(&file, None, &SettingsLayer::default()).depth, Some(6));
    }
}
