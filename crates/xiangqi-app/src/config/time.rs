//! The clock settings: `time` for both sides, `time_red`/`time_black` to give one side
//! another control (or none), each a `TimeControl` as players write it.

use serde::{Serialize, Serializer};

use xiangqi_core::board::Color;
use xiangqi_core::clock::TimeControl;

use super::error::ConfigProblem;
use super::raw_value::RawValue;
use super::settings::NO_LIMIT;

/// The word that makes a side's clock follow `time`.
pub const SAME_TIME: &str = "same";

/// What `time_red` or `time_black` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SideTime {
    /// As `time` says.
    #[default]
    Same,
    /// This side plays without a clock.
    Untimed,
    Control(TimeControl),
}

impl Serialize for SideTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            SideTime::Same => serializer.serialize_str(SAME_TIME),
            SideTime::Untimed => serializer.serialize_str(NO_LIMIT),
            SideTime::Control(control) => control.serialize(serializer),
        }
    }
}

impl SideTime {
    /// The control a side plays with, given `time`.
    pub fn resolve(self, time: Option<TimeControl>) -> Option<TimeControl> {
        match self {
            SideTime::Same => time,
            SideTime::Untimed => None,
            SideTime::Control(control) => Some(control),
        }
    }
}

impl super::Settings {
    /// The time control `side` plays with (`None`: no clock).
    pub fn time_control(&self, side: Color) -> Option<TimeControl> {
        match side {
            Color::Red => self.time_red.resolve(self.time),
            Color::Black => self.time_black.resolve(self.time),
        }
    }
}

/// `time`: a control or "none".
pub(super) fn time_value(
    shown_key: &str,
    value: RawValue<'_>,
    wrong_type: impl FnOnce() -> ConfigProblem,
) -> Result<Option<TimeControl>, ConfigProblem> {
    match value {
        RawValue::String(text) if text.trim().eq_ignore_ascii_case(NO_LIMIT) => Ok(None),
        RawValue::String(text) => {
            text.parse()
                .map(Some)
                .map_err(
                    |error: xiangqi_core::clock::TimeControlError| ConfigProblem::Invalid {
                        key: shown_key.to_owned(),
                        value: text.to_owned(),
                        reason: error.reason,
                    },
                )
        }
        _ => Err(wrong_type()),
    }
}

/// `time_red`, `time_black`: a control, "none" or "same".
pub(super) fn side_time_value(
    shown_key: &str,
    value: RawValue<'_>,
    wrong_type: impl FnOnce() -> ConfigProblem,
) -> Result<SideTime, ConfigProblem> {
    match value {
        RawValue::String(text) if text.trim().eq_ignore_ascii_case(SAME_TIME) => Ok(SideTime::Same),
        _ => Ok(match time_value(shown_key, value, wrong_type)? {
            Some(control) => SideTime::Control(control),
            None => SideTime::Untimed,
        }),
    }
}
