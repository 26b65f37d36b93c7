//! How a setting's value is read, one reader per kind of value: what it takes, what it
//! refuses and how an error message says what it must look like. The table of keys
//! (`keys.rs`) names one reader for each key.

use super::error::{ConfigProblem, range_text};
use super::raw_value::RawValue;
use super::settings::{BUILTIN_ENGINE, NO_LIMIT};
use super::suggest::closest;
use super::threads::{AUTO_THREADS, MAX_THREADS, Threads, threads_value};
use super::time::{SideTime, side_time_value, time_value};
use super::values::{BookSource, ConfigName};
use xiangqi_core::clock::TimeControl;

/// Where a value is read: the key as the user wrote it (`profiles.study.depth`), for the
/// message; the theme names that exist; the error for a value of the wrong TOML type.
pub(super) struct Reading<'a> {
    pub(super) key: &'a str,
    pub(super) themes: &'a [String],
    pub(super) wrong_type: &'a dyn Fn() -> ConfigProblem,
}

impl Reading<'_> {
    fn wrong_type<T>(&self) -> Result<T, ConfigProblem> {
        Err((self.wrong_type)())
    }
}

/// Reads a value of type `T` for a key.
pub(super) trait Reader<T> {
    /// `value` checked and converted.
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<T, ConfigProblem>;

    /// What a value must look like, for error messages: "an integer from 1 to 64".
    fn expectation(&self) -> String;
}

/// What `reader` expects of a `T` (the type picks the reader's impl).
pub(super) fn expectation<T>(reader: &impl Reader<T>) -> String {
    reader.expectation()
}

/// One of a type's names (`ConfigName`), with a suggestion for a near miss.
pub(super) struct Named;

impl<T: ConfigName> Reader<T> for Named {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<T, ConfigProblem> {
        let RawValue::String(text) = value else {
            return at.wrong_type();
        };
        T::from_config(text).map_err(|unknown| ConfigProblem::UnknownName {
            key: at.key.to_owned(),
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

    fn expectation(&self) -> String {
        one_of(&T::config_names())
    }
}

/// An integer in `min..=max` (`max` = `u64::MAX`: no upper bound), in `unit` if it has one.
pub(super) struct Integer {
    min: u64,
    max: u64,
    unit: Option<&'static str>,
}

impl Integer {
    pub(super) const fn range(min: u64, max: u64) -> Integer {
        Integer {
            min,
            max,
            unit: None,
        }
    }

    pub(super) const fn positive() -> Integer {
        Integer::range(1, u64::MAX)
    }

    /// The same range, said to be in `unit` ("megabytes").
    pub(super) const fn in_unit(self, unit: &'static str) -> Integer {
        Integer {
            unit: Some(unit),
            ..self
        }
    }

    fn in_range<T: TryFrom<i64>>(&self, shown_key: &str, number: i64) -> Result<T, ConfigProblem> {
        let out_of_range = || ConfigProblem::OutOfRange {
            key: shown_key.to_owned(),
            value: number.to_string(),
            allowed: if self.max == u64::MAX {
                format!("{} or more", self.min)
            } else {
                range_text(self.min, self.max)
            },
        };
        let unsigned = u64::try_from(number).map_err(|_| out_of_range())?;
        if !(self.min..=self.max).contains(&unsigned) {
            return Err(out_of_range());
        }
        T::try_from(number).map_err(|_| out_of_range())
    }

    fn describe(&self) -> String {
        let range = if self.max == u64::MAX && self.min == 1 {
            "a positive integer".to_owned()
        } else {
            format!("an integer {}", range_text(self.min, self.max))
        };
        match self.unit {
            Some(unit) => format!("{range} ({unit})"),
            None => range,
        }
    }
}

impl<T: TryFrom<i64>> Reader<T> for Integer {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<T, ConfigProblem> {
        match value {
            RawValue::Integer(number) => self.in_range(at.key, number),
            _ => at.wrong_type(),
        }
    }

    fn expectation(&self) -> String {
        self.describe()
    }
}

/// A search limit: an integer in range, or "none" for no limit.
pub(super) struct Limit(pub(super) Integer);

impl<T: TryFrom<i64>> Reader<Option<T>> for Limit {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<Option<T>, ConfigProblem> {
        match value {
            RawValue::String(text) if text.eq_ignore_ascii_case(NO_LIMIT) => Ok(None),
            RawValue::Integer(number) => self.0.in_range(at.key, number).map(Some),
            _ => at.wrong_type(),
        }
    }

    fn expectation(&self) -> String {
        format!("{}, or \"{NO_LIMIT}\"", self.0.describe())
    }
}

/// `true` or `false`.
pub(super) struct Boolean;

impl Reader<bool> for Boolean {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<bool, ConfigProblem> {
        match value {
            RawValue::Boolean(flag) => Ok(flag),
            _ => at.wrong_type(),
        }
    }

    fn expectation(&self) -> String {
        "true or false".to_owned()
    }
}

/// A theme that exists (built in, or a file in the themes folder).
pub(super) struct ThemeName;

impl Reader<String> for ThemeName {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<String, ConfigProblem> {
        match value {
            RawValue::String(name) if at.themes.iter().any(|known| known == name) => {
                Ok(name.to_owned())
            }
            RawValue::String(name) => Err(ConfigProblem::UnknownName {
                key: at.key.to_owned(),
                kind: "theme".to_owned(),
                value: name.to_owned(),
                suggestion: closest(name, at.themes.iter().map(String::as_str)).map(str::to_owned),
                allowed: at.themes.to_vec(),
            }),
            _ => at.wrong_type(),
        }
    }

    fn expectation(&self) -> String {
        "a theme name (a string)".to_owned()
    }
}

/// The opponent: `builtin` or a name checked against the `[engines]` tables by the
/// file reader and the flags (a table can come after the key).
pub(super) struct EngineName;

impl Reader<String> for EngineName {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<String, ConfigProblem> {
        match value {
            RawValue::String(name) if !name.trim().is_empty() => Ok(name.trim().to_owned()),
            _ => at.wrong_type(),
        }
    }

    fn expectation(&self) -> String {
        format!("\"{BUILTIN_ENGINE}\" or the name of an [engines.NAME] table")
    }
}

/// Where the opening book comes from: "builtin", "none" or a file's path.
pub(super) struct Book;

impl Reader<BookSource> for Book {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<BookSource, ConfigProblem> {
        match value {
            RawValue::String(text) => BookSource::parse(text).ok_or_else(at.wrong_type),
            _ => at.wrong_type(),
        }
    }

    fn expectation(&self) -> String {
        "a string: \"builtin\", \"none\" or a book file's path".to_owned()
    }
}

/// Search threads: a count or "auto".
pub(super) struct ThreadCount;

impl Reader<Threads> for ThreadCount {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<Threads, ConfigProblem> {
        threads_value(at.key, value, at.wrong_type)
    }

    fn expectation(&self) -> String {
        format!("an integer from 1 to {MAX_THREADS}, or \"{AUTO_THREADS}\"")
    }
}

/// Both sides' clocks: a time control or "none".
pub(super) struct Clock;

impl Reader<Option<TimeControl>> for Clock {
    fn read(
        &self,
        value: RawValue<'_>,
        at: &Reading<'_>,
    ) -> Result<Option<TimeControl>, ConfigProblem> {
        time_value(at.key, value, at.wrong_type)
    }

    fn expectation(&self) -> String {
        format!("a time control (\"10+5\", \"40/90+30\", \"5m/move\") or \"{NO_LIMIT}\"")
    }
}

/// One side's clock: a time control, "none" or "same".
pub(super) struct SideClock;

impl Reader<SideTime> for SideClock {
    fn read(&self, value: RawValue<'_>, at: &Reading<'_>) -> Result<SideTime, ConfigProblem> {
        side_time_value(at.key, value, at.wrong_type)
    }

    fn expectation(&self) -> String {
        format!("a time control (\"10+5\", \"40/90+30\", \"5m/move\"), \"{NO_LIMIT}\" or \"same\"")
    }
}

fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    format!("a string, one of {}", quoted.join(", "))
}
