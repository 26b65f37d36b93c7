//! The `threads` setting: how many threads the engine searches with, a number or "auto"
//! (every core but one, so the interface and the rest of the machine stay responsive).

use serde::{Serialize, Serializer};

use super::error::ConfigProblem;
use super::raw_value::RawValue;

/// The word for "every core but one".
pub const AUTO_THREADS: &str = "auto";
/// Most search threads a config may ask for (the engine's own limit).
pub const MAX_THREADS: u32 = xiangqi_engine::engine::smp::MAX_THREADS as u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threads {
    /// Every core but one, at least one.
    Auto,
    Count(u32),
}

impl Default for Threads {
    /// One thread: searches with a depth or node limit repeat exactly.
    fn default() -> Self {
        Threads::Count(1)
    }
}

impl Threads {
    /// The number of threads to search with on this machine.
    pub fn resolve(self) -> usize {
        match self {
            Threads::Count(count) => count as usize,
            Threads::Auto => std::thread::available_parallelism()
                .map_or(1, |cores| cores.get().saturating_sub(1).max(1)),
        }
    }
}

impl std::str::FromStr for Threads {
    type Err = String;

    /// A flag's value: a count or "auto".
    fn from_str(text: &str) -> Result<Threads, String> {
        let text = text.trim();
        if text == AUTO_THREADS {
            return Ok(Threads::Auto);
        }
        match text.parse::<u32>() {
            Ok(count) if (1..=MAX_THREADS).contains(&count) => Ok(Threads::Count(count)),
            _ => Err(format!(
                "'{text}' is not a thread count: allowed: a count from 1 to {MAX_THREADS} or \"{AUTO_THREADS}\""
            )),
        }
    }
}

impl Serialize for Threads {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Threads::Auto => serializer.serialize_str(AUTO_THREADS),
            Threads::Count(count) => serializer.serialize_u32(*count),
        }
    }
}

/// `threads`: 1..=MAX_THREADS or "auto".
pub(super) fn threads_value(
    shown_key: &str,
    value: RawValue<'_>,
    wrong_type: impl Fn() -> ConfigProblem,
) -> Result<Threads, ConfigProblem> {
    match value {
        RawValue::String(AUTO_THREADS) => Ok(Threads::Auto),
        RawValue::Integer(number) => {
            if (1..=i64::from(MAX_THREADS)).contains(&number) {
                Ok(Threads::Count(number as u32))
            } else {
                Err(ConfigProblem::OutOfRange {
                    key: shown_key.to_owned(),
                    value: number.to_string(),
                    allowed: format!(
                        "{} or \"{AUTO_THREADS}\"",
                        super::error::range_text(1, MAX_THREADS)
                    ),
                })
            }
        }
        _ => Err(wrong_type()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(value: RawValue<'_>) -> Result<Threads, String> {
        threads_value("threads", value, || ConfigProblem::WrongType {
            key: "threads".into(),
            expected: "threads".into(),
            found: value.describe(),
        })
        .map_err(|problem| problem.to_string())
    }

    #[test]
    fn a_count_or_auto_is_accepted_and_anything_else_refused() {
        assert_eq!(parse(RawValue::Integer(4)), Ok(Threads::Count(4)));
        assert_eq!(parse(RawValue::String("auto")), Ok(Threads::Auto));
        assert!(parse(RawValue::Integer(0)).is_err());
        assert!(parse(RawValue::Integer(257)).is_err());
        assert!(parse(RawValue::String("many")).is_err());
        assert!(Threads::Auto.resolve() >= 1);
        assert_eq!(Threads::Count(3).resolve(), 3);
        assert_eq!("2".parse(), Ok(Threads::Count(2)));
        assert_eq!(" auto ".parse(), Ok(Threads::Auto));
        assert!("0".parse::<Threads>().is_err());
        assert!("two".parse::<Threads>().is_err());
    }
}
