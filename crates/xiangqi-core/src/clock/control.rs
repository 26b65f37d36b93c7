//! A time control as players write it: `10+5` (minutes + seconds of increment),
//! `40/90+30` (40 moves in 90 minutes, 30 s a move added; after the 40th move another 90
//! minutes, and so on), `5m/move` or `30s/move` (each move in at most that).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Longest time a control may give (a week), so arithmetic never overflows.
const MAX_TIME: Duration = Duration::from_secs(7 * 24 * 3600);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `M+S`: the whole game in `base`, `increment` added after each move.
    Fischer { base: Duration, increment: Duration },
    /// `N/M+S`: `moves` moves in `base`; reaching the control adds `base` again.
    Moves {
        moves: u32,
        base: Duration,
        increment: Duration,
    },
    /// `5m/move`: every move in at most this; nothing carries over.
    PerMove(Duration),
}

/// A time control that does not parse, with what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "\"{text}\" is not a time control: {reason} (write \"10+5\", \"40/90+30\", \"5m/move\" or \"none\")"
)]
pub struct TimeControlError {
    pub text: String,
    pub reason: String,
}

impl TimeControl {
    /// The time a side has at the start.
    pub fn initial(self) -> Duration {
        match self {
            TimeControl::Fischer { base, .. } | TimeControl::Moves { base, .. } => base,
            TimeControl::PerMove(time) => time,
        }
    }

    pub fn increment(self) -> Duration {
        match self {
            TimeControl::Fischer { increment, .. } | TimeControl::Moves { increment, .. } => {
                increment
            }
            TimeControl::PerMove(_) => Duration::ZERO,
        }
    }

    /// Moves left to the next control after `moves_made` moves, when there is one
    /// (a per-move control is a control every move).
    pub fn moves_to_go(self, moves_made: u32) -> Option<u32> {
        match self {
            TimeControl::Fischer { .. } => None,
            TimeControl::Moves { moves, .. } => Some(moves - moves_made % moves),
            TimeControl::PerMove(_) => Some(1),
        }
    }
}

impl TimeControl {
    /// The control as PGN's `TimeControl` tag writes it, in seconds: `600+5`, `40/5400+30`,
    /// `1/300` for a time per move (one move per period, nothing carried over).
    pub fn pgn_tag(self) -> String {
        let seconds = |time: Duration| {
            let millis = time.as_millis();
            if millis.is_multiple_of(1000) {
                (millis / 1000).to_string()
            } else {
                format!("{}", millis as f64 / 1000.0)
            }
        };
        let increment = |time: Duration| {
            if time.is_zero() {
                String::new()
            } else {
                format!("+{}", seconds(time))
            }
        };
        match self {
            TimeControl::Fischer {
                base,
                increment: inc,
            } => {
                format!("{}{}", seconds(base), increment(inc))
            }
            TimeControl::Moves {
                moves,
                base,
                increment: inc,
            } => format!("{moves}/{}{}", seconds(base), increment(inc)),
            TimeControl::PerMove(time) => format!("1/{}", seconds(time)),
        }
    }
}

impl TimeControl {
    /// Reads PGN's `TimeControl` tag as `pgn_tag` writes it (seconds: `600+5`,
    /// `40/5400+30`, `1/300`); `None` for anything else (`-`, `?`, garbage).
    pub fn from_pgn_tag(text: &str) -> Option<TimeControl> {
        let seconds = |text: &str| -> Option<Duration> {
            let value: f64 = text.trim().parse().ok()?;
            (0.0..=MAX_TIME.as_secs_f64())
                .contains(&value)
                .then(|| Duration::from_millis((value * 1000.0).round() as u64))
        };
        let text = text.trim();
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (Some(moves.trim().parse::<u32>().ok()?), rest),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (seconds(base)?, seconds(increment)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return None;
        }
        Some(match moves {
            Some(1) if increment.is_zero() => TimeControl::PerMove(base),
            Some(0) => return None,
            Some(moves) => TimeControl::Moves {
                moves,
                base,
                increment,
            },
            None => TimeControl::Fischer { base, increment },
        })
    }
}

fn error(text: &str, reason: impl Into<String>) -> TimeControlError {
    TimeControlError {
        text: text.to_owned(),
        reason: reason.into(),
    }
}

/// `digits[.digits]` in units of `unit`, exactly, to the millisecond.
fn amount(whole: &str, part: &str, unit: Duration) -> Result<Duration, TimeControlError> {
    let bad = || error(whole, format!("\"{part}\" is not a number"));
    let (integer, fraction) = part.split_once('.').unwrap_or((part, ""));
    if integer.is_empty() && fraction.is_empty()
        || !integer.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let unit_ms = unit.as_millis();
    let integer: u128 = if integer.is_empty() {
        0
    } else {
        integer.parse().map_err(|_| bad())?
    };
    let mut millis = integer.saturating_mul(unit_ms);
    let mut scale = unit_ms;
    for digit in fraction.bytes() {
        if !scale.is_multiple_of(10) {
            return Err(error(
                whole,
                format!("\"{part}\" is finer than a millisecond"),
            ));
        }
        scale /= 10;
        millis += u128::from(digit - b'0') * scale;
    }
    let millis = u64::try_from(millis).map_err(|_| error(whole, "too long"))?;
    let time = Duration::from_millis(millis);
    if time > MAX_TIME {
        return Err(error(whole, "longer than a week"));
    }
    Ok(time)
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let whole = text;
        let text = text.trim();
        let minute = Duration::from_secs(60);
        let second = Duration::from_secs(1);
        if let Some(time) = text.strip_suffix("/move") {
            let time = time.trim();
            let (number, unit) = if let Some(number) = time.strip_suffix('m') {
                (number, minute)
            } else if let Some(number) = time.strip_suffix('s') {
                (number, second)
            } else {
                return Err(error(
                    whole,
                    "a time per move needs a unit, m or s (5m/move)",
                ));
            };
            let time = amount(whole, number.trim(), unit)?;
            if time.is_zero() {
                return Err(error(whole, "the time per move must be more than 0"));
            }
            return Ok(TimeControl::PerMove(time));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&moves| moves > 0)
                    .ok_or_else(|| error(whole, format!("\"{moves}\" is not a number of moves")))?;
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (base, Some(increment)),
            None if moves.is_some() => (rest, None),
            None => return Err(error(whole, "the increment is missing (10+0 for none)")),
        };
        let base = amount(whole, base.trim(), minute)?;
        let increment = match increment {
            Some(increment) => amount(whole, increment.trim(), second)?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(error(whole, "it gives no time at all"));
        }
        Ok(match moves {
            Some(moves) => TimeControl::Moves {
                moves,
                base,
                increment,
            },
            None => TimeControl::Fischer { base, increment },
        })
    }
}

/// `time` in `unit`s, with the fraction written only when there is one.
fn write_amount(f: &mut fmt::Formatter<'_>, time: Duration, unit: Duration) -> fmt::Result {
    let millis = time.as_millis();
    let unit = unit.as_millis();
    write!(f, "{}", millis / unit)?;
    let mut rest = millis % unit;
    if rest == 0 {
        return Ok(());
    }
    f.write_str(".")?;
    let mut scale = unit;
    while rest > 0 {
        scale /= 10;
        write!(f, "{}", rest / scale)?;
        rest %= scale;
    }
    Ok(())
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minute = Duration::from_secs(60);
        let second = Duration::from_secs(1);
        match *self {
            TimeControl::Fischer { base, increment } => {
                write_amount(f, base, minute)?;
                f.write_str("+")?;
                write_amount(f, increment, second)
            }
            TimeControl::Moves {
                moves,
                base,
                increment,
            } => {
                write!(f, "{moves}/")?;
                write_amount(f, base, minute)?;
                if !increment.is_zero() {
                    f.write_str("+")?;
                    write_amount(f, increment, second)?;
                }
                Ok(())
            }
            TimeControl::PerMove(time) if time.as_millis().is_multiple_of(minute.as_millis()) => {
                write_amount(f, time, minute)?;
                f.write_str("m/move")
            }
            TimeControl::PerMove(time) => {
                write_amount(f, time, second)?;
                f.write_str("s/move")
            }
        }
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn the_pgn_tag_reads_back() {
        for text in ["1+0", "3+2", "10+5", "40/90+30", "5m/move", "0.5+1.5"] {
            let control: TimeControl = text.parse().unwrap();
            assert_eq!(
                TimeControl::from_pgn_tag(&control.pgn_tag()),
                Some(control),
                "{text}"
            );
        }
        for bad in ["-", "?", "", "x+1", "0+0", "0/300"] {
            assert_eq!(TimeControl::from_pgn_tag(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_three_forms_parse_and_print_back() {
        let cases = [
            (
                "10+5",
                TimeControl::Fischer {
                    base: ms(600_000),
                    increment: ms(5_000),
                },
            ),
            (
                "1+0",
                TimeControl::Fischer {
                    base: ms(60_000),
                    increment: ms(0),
                },
            ),
            (
                "0.5+0.25",
                TimeControl::Fischer {
                    base: ms(30_000),
                    increment: ms(250),
                },
            ),
            (
                "40/90+30",
                TimeControl::Moves {
                    moves: 40,
                    base: ms(5_400_000),
                    increment: ms(30_000),
                },
            ),
            (
                "40/90",
                TimeControl::Moves {
                    moves: 40,
                    base: ms(5_400_000),
                    increment: ms(0),
                },
            ),
            ("5m/move", TimeControl::PerMove(ms(300_000))),
            ("30s/move", TimeControl::PerMove(ms(30_000))),
            ("1.5s/move", TimeControl::PerMove(ms(1_500))),
        ];
        for (text, control) in cases {
            assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
            assert_eq!(control.to_string(), text);
        }
        assert_eq!(
            " 10 + 5 ".parse::<TimeControl>().unwrap().to_string(),
            "10+5"
        );
        let tag = |text: &str| text.parse::<TimeControl>().unwrap().pgn_tag();
        assert_eq!(tag("10+5"), "600+5");
        assert_eq!(tag("1+0"), "60");
        assert_eq!(tag("40/90+30"), "40/5400+30");
        assert_eq!(tag("5m/move"), "1/300");
        assert_eq!(tag("0.5+0.25"), "30+0.25");
    }

    #[test]
    fn bad_controls_say_why() {
        let reason = |text: &str| text.parse::<TimeControl>().unwrap_err().reason;
        assert_eq!(reason("10"), "the increment is missing (10+0 for none)");
        assert_eq!(reason("ten+5"), "\"ten\" is not a number");
        assert_eq!(reason("0+0"), "it gives no time at all");
        assert_eq!(reason("0/90+30"), "\"0\" is not a number of moves");
        assert_eq!(
            reason("5/move"),
            "a time per move needs a unit, m or s (5m/move)"
        );
        assert_eq!(reason("0s/move"), "the time per move must be more than 0");
        assert_eq!(
            reason("0.0001s/move"),
            "\"0.0001\" is finer than a millisecond"
        );
        assert_eq!(reason("99999999+0"), "longer than a week");
        assert_eq!(
            "x".parse::<TimeControl>().unwrap_err().to_string(),
            "\"x\" is not a time control: the increment is missing (10+0 for none) \
             (write \"10+5\", \"40/90+30\", \"5m/move\" or \"none\")"
        );
    }

    #[test]
    fn moves_to_go_counts_down_to_each_control() {
        let control: TimeControl = "40/90+30".parse().unwrap();
        assert_eq!(control.moves_to_go(0), Some(40));
        assert_eq!(control.moves_to_go(39), Some(1));
        assert_eq!(control.moves_to_go(40), Some(40));
        assert_eq!("10+5".parse::<TimeControl>().unwrap().moves_to_go(3), None);
        assert_eq!(TimeControl::PerMove(ms(1)).moves_to_go(7), Some(1));
    }
}
