//! The wall clock in whole seconds and the day it falls on: what records, the store and
//! the histories stamp, with no date crate for so little.

use std::fmt;

/// Now, in seconds since the Unix epoch (0 on a clock set before 1970).
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// A day of the civil (proleptic Gregorian) calendar, in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: i64,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// The day `unix_seconds` falls on (UTC).
    pub fn from_unix(unix_seconds: u64) -> Date {
        // Howard Hinnant's civil_from_days.
        let days = (unix_seconds / 86_400) as i64 + 719_468;
        let era = days.div_euclid(146_097);
        let day_of_era = days.rem_euclid(146_097);
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
        let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Date { year, month, day }
    }
}

/// ISO 8601: `2026-11-28`.
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_fall_on_the_civil_calendar() {
        assert_eq!(Date::from_unix(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_unix(951_782_400).to_string(), "2000-02-29");
        assert_eq!(Date::from_unix(1_795_000_000).to_string(), "2026-11-18");
        // The last second of a day is still that day.
        assert_eq!(Date::from_unix(86_399).to_string(), "1970-01-01");
        assert_eq!(
            Date::from_unix(4_107_542_400),
            Date {
                year: 2100,
                month: 3,
                day: 1
            }
        );
    }
}
