//! Both sides' clocks in a game. Time is passed in (`now`, from a `TimeSource`), so the
//! arithmetic is exact and testable. The side to move's clock runs; a move stops it,
//! adds the increment (and the next period's time at a control) and starts the other.

use std::time::Duration;

use crate::board::Color;

use super::{Clock, TimeControl};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameClock {
    controls: [Option<TimeControl>; 2],
    remaining: [Duration; 2],
    moves_made: [u32; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Duration)>,
    flagged: Option<Color>,
}

impl GameClock {
    /// Clocks for Red and Black (`None`: that side is not timed), not running yet.
    pub fn new(red: Option<TimeControl>, black: Option<TimeControl>) -> GameClock {
        let initial =
            |control: Option<TimeControl>| control.map_or(Duration::ZERO, |c| c.initial());
        GameClock {
            controls: [red, black],
            remaining: [initial(red), initial(black)],
            moves_made: [0, 0],
            running: None,
            flagged: None,
        }
    }

    pub fn control(&self, side: Color) -> Option<TimeControl> {
        self.controls[side.index()]
    }

    /// Whether either side is timed.
    pub fn is_timed(&self) -> bool {
        self.controls.iter().any(Option::is_some)
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// Whose flag fell, once one has.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// Starts `side`'s clock (stopping the other's without an increment).
    pub fn start(&mut self, side: Color, now: Duration) {
        self.stop(now);
        if self.flagged.is_none() {
            self.running = Some((side, now));
        }
    }

    /// Stops the running clock, charging it the time used; no increment.
    pub fn stop(&mut self, now: Duration) {
        if let Some((side, since)) = self.running.take() {
            let used = now.saturating_sub(since);
            let left = &mut self.remaining[side.index()];
            *left = left.saturating_sub(used);
        }
    }

    /// Time left to `side` at `now`; `None` when it is not timed.
    pub fn remaining(&self, side: Color, now: Duration) -> Option<Duration> {
        self.controls[side.index()]?;
        let left = self.remaining[side.index()];
        Some(match self.running {
            Some((running, since)) if running == side => left.saturating_sub(now - since.min(now)),
            _ => left,
        })
    }

    /// The side whose time has run out at `now`, if one has (it is then recorded and
    /// its clock stops).
    pub fn flag(&mut self, now: Duration) -> Option<Color> {
        if self.flagged.is_some() {
            return self.flagged;
        }
        let (side, _) = self.running?;
        if self.remaining(side, now) == Some(Duration::ZERO) {
            self.stop(now);
            self.flagged = Some(side);
        }
        self.flagged
    }

    /// `mover` completed a move at `now`. Its clock is charged, then credited with the
    /// increment (and a new period at a control); the opponent's starts. A move made
    /// with no time left does not count: the flag fell first, and `Err` names the loser.
    /// The first move of a game is free when no clock ran yet.
    pub fn moved(&mut self, mover: Color, now: Duration) -> Result<(), Color> {
        let was_running = self.running() == Some(mover);
        if was_running && let Some(loser) = self.flag(now) {
            return Err(loser);
        }
        self.stop(now);
        let index = mover.index();
        self.moves_made[index] += 1;
        if was_running && let Some(control) = self.controls[index] {
            let left = &mut self.remaining[index];
            match control {
                TimeControl::Fischer { increment, .. } => *left += increment,
                TimeControl::Moves {
                    moves,
                    base,
                    increment,
                } => {
                    *left += increment;
                    if self.moves_made[index].is_multiple_of(moves) {
                        *left += base;
                    }
                }
                TimeControl::PerMove(time) => *left = time,
            }
        }
        self.start(mover.opponent(), now);
        Ok(())
    }

    /// What an engine playing `side` is told about its clock at `now`.
    pub fn engine_clock(&self, side: Color, now: Duration) -> Option<Clock> {
        let control = self.controls[side.index()]?;
        Some(Clock {
            remaining: self.remaining(side, now)?,
            increment: control.increment(),
            moves_to_go: control.moves_to_go(self.moves_made[side.index()]),
        })
    }

    /// The clocks of a game resumed: `side`'s time left and moves made so far as saved
    /// (a side not timed keeps nothing); no clock runs.
    pub fn restore(&mut self, side: Color, remaining: Option<Duration>, moves_made: u32) {
        let index = side.index();
        if self.controls[index].is_some()
            && let Some(remaining) = remaining
        {
            self.remaining[index] = remaining;
        }
        self.moves_made[index] = moves_made;
    }

    /// The clocks with the sides' time controls swapped (a rematch with colours swapped).
    pub fn swapped(&self) -> GameClock {
        GameClock::new(self.controls[1], self.controls[0])
    }
}

/// A clock reading as players read it: `9:58`, `1:02:03`, and tenths under 20 seconds
/// (`0:07.3`), where they decide games.
pub fn format_clock(time: Duration) -> String {
    let tenths = time.as_millis() / 100;
    let seconds = tenths / 10;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else if tenths < 200 {
        format!("{minutes}:{seconds:02}.{}", tenths % 10)
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    fn control(text: &str) -> Option<TimeControl> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn the_side_to_move_is_charged_and_gets_its_increment() {
        let mut clock = GameClock::new(control("1+2"), control("1+2"));
        // Red's first move is free: no clock ran.
        clock.moved(Color::Red, ms(5_000)).unwrap();
        assert_eq!(clock.remaining(Color::Red, ms(5_000)), Some(ms(60_000)));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.remaining(Color::Black, ms(8_000)), Some(ms(57_000)));
        clock.moved(Color::Black, ms(8_000)).unwrap();
        assert_eq!(clock.remaining(Color::Black, ms(100_000)), Some(ms(59_000)));
        assert_eq!(clock.remaining(Color::Red, ms(9_500)), Some(ms(58_500)));
        assert_eq!(
            clock.engine_clock(Color::Red, ms(9_500)),
            Some(Clock {
                remaining: ms(58_500),
                increment: ms(2_000),
                moves_to_go: None
            })
        );
    }

    #[test]
    fn a_flag_falls_at_zero_and_a_late_move_does_not_count() {
        let mut clock = GameClock::new(control("1+0"), None);
        clock.start(Color::Red, ms(0));
        assert_eq!(clock.flag(ms(59_999)), None);
        assert_eq!(clock.moved(Color::Red, ms(60_000)), Err(Color::Red));
        assert_eq!(clock.flagged(), Some(Color::Red));
        assert_eq!(clock.running(), None);
        // Black is not timed: its clock never falls.
        let mut clock = GameClock::new(control("1+0"), None);
        clock.start(Color::Black, ms(0));
        assert_eq!(clock.flag(ms(10_000_000)), None);
        assert_eq!(clock.remaining(Color::Black, ms(1)), None);
    }

    #[test]
    fn periods_add_time_at_each_control_and_per_move_resets() {
        let mut clock = GameClock::new(control("2/1+1"), control("10s/move"));
        clock.start(Color::Red, ms(0));
        clock.moved(Color::Red, ms(10_000)).unwrap();
        assert_eq!(clock.remaining(Color::Red, ms(10_000)), Some(ms(51_000)));
        clock.moved(Color::Black, ms(19_000)).unwrap();
        assert_eq!(clock.remaining(Color::Black, ms(19_000)), Some(ms(10_000)));
        assert_eq!(
            clock
                .engine_clock(Color::Red, ms(19_000))
                .unwrap()
                .moves_to_go,
            Some(1)
        );
        // Red's second move reaches the control: another minute.
        clock.moved(Color::Red, ms(20_000)).unwrap();
        assert_eq!(clock.remaining(Color::Red, ms(20_000)), Some(ms(111_000)));
        assert_eq!(
            clock
                .engine_clock(Color::Red, ms(20_000))
                .unwrap()
                .moves_to_go,
            Some(2)
        );
        assert_eq!(clock.flag(ms(29_999)), None);
        assert_eq!(clock.flag(ms(30_000)), Some(Color::Black));
    }

    #[test]
    fn readings_are_short() {
        assert_eq!(format_clock(ms(598_400)), "9:58");
        assert_eq!(format_clock(ms(3_723_000)), "1:02:03");
        assert_eq!(format_clock(ms(7_390)), "0:07.3");
        assert_eq!(format_clock(ms(0)), "0:00.0");
        assert_eq!(format_clock(ms(20_000)), "0:20");
    }
}
