//! Settings given by one source, one validated setter per key.

use super::error::ConfigProblem;
use super::raw_value::RawValue;
use super::setting_key::SettingKey;
use super::settings::{
    EXPLORER_NODES_MAX, MAX_DEPTH, MAX_HASH_MB, MAX_LEVEL, MAX_MULTIPV, MIN_LEVEL, NO_LIMIT,
    Settings,
};
use super::suggest::closest;
use super::threads::{Threads, threads_value};
use super::time::{SideTime, side_time_value, time_value};
use super::values::{BookSource, ColorMode, ConfigName, EngineSide, Glyphs, TraceLevel};
use xiangqi_core::clock::TimeControl;
use xiangqi_core::notation::Notation;
use xiangqi_engine::search::Algorithm;

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

fn named<T: ConfigName>(
    shown_key: &str,
    value: RawValue<'_>,
    wrong_type: impl FnOnce() -> ConfigProblem,
) -> Result<T, ConfigProblem> {
    let RawValue::String(text) = value else {
        return Err(wrong_type());
    };
    T::from_config(text).map_err(|unknown| ConfigProblem::UnknownName {
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
            super::error::range_text(min, max)
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
            "`depth` = 65 is out of range: it must be from 1 to 64"
        );
        assert_eq!(
            set(SettingKey::MovetimeMs, RawValue::Integer(0))
                .unwrap_err()
                .to_string(),
            "`movetime_ms` = 0 is out of range: it must be 1 or more"
        );
        assert_eq!(
            set(SettingKey::Nodes, RawValue::Integer(-5))
                .unwrap_err()
                .to_string(),
            "`nodes` = -5 is out of range: it must be 1 or more"
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
            "`book_variety` = 101 is out of range: it must be from 0 to 100"
        );
        assert_eq!(
            set(SettingKey::BookVariety, RawValue::Integer(0))
                .unwrap()
                .book_variety,
            Some(0)
        );
    }
}
