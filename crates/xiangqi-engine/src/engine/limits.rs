//! What bounds a search: depth, nodes, time per move, a game clock, or nothing (infinite,
//! until stopped). The clock becomes a time budget here.

use std::time::Duration;

/// The clock a search may be given (defined with the game clocks, which make it).
pub use xiangqi_core::clock::Clock;

/// Limits of one search. Several may be set; the first one reached stops the search.
/// With none set the search runs until stopped (or until it has proven a mate).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped, whatever else is set (UCI's `go infinite`).
    pub infinite: bool,
}

/// Time kept back from a fixed time per move for reporting and the reply to reach the
/// other side, so the answer comes in time.
const MOVETIME_RESERVE: Duration = Duration::from_millis(8);
/// Time kept back from the clock for each move's overhead.
const CLOCK_RESERVE: Duration = Duration::from_millis(30);
/// Moves a clock without a control is shared out over (xiangqi games are long).
const CLOCK_HORIZON: u32 = 40;

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// True if only a stop request ends the search (no depth, node or time limit).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none())
    }

    /// The time budget: (soft, hard). No new iteration starts after the soft limit; the
    /// search stops at the hard one.
    pub(crate) fn time_budget(&self) -> (Option<Duration>, Option<Duration>) {
        let mut soft = None;
        let mut hard = None;
        if let Some(t) = self.movetime {
            let t = t
                .saturating_sub(MOVETIME_RESERVE)
                .max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(clock) = self.clock {
            let left = clock.remaining.saturating_sub(CLOCK_RESERVE);
            let (clock_soft, clock_hard) = if clock.moves_to_go == Some(1) {
                // The last move before the control (UCCI GUIs also send a fixed time per
                // move this way): most of it may go to this move.
                (left / 2, left * 9 / 10)
            } else {
                // A share of what is left, so the clock decays geometrically and never
                // reaches the reserve: every move also costs time the search cannot see
                // (process scheduling, pipes), which the reserve and the share absorb.
                let moves = clock
                    .moves_to_go
                    .unwrap_or(CLOCK_HORIZON)
                    .clamp(2, CLOCK_HORIZON);
                let base = (left / moves + clock.increment * 3 / 4)
                    .min(left / 4)
                    .max(Duration::from_millis(1));
                (base * 3 / 5, (base * 5 / 2).min(left / 4).max(base))
            };
            soft = Some(soft.map_or(clock_soft, |s: Duration| s.min(clock_soft)));
            hard = Some(hard.map_or(clock_hard, |h: Duration| h.min(clock_hard)));
        }
        (soft, hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_keeps_a_small_reserve() {
        let (soft, hard) = Limits::movetime(Duration::from_millis(200)).time_budget();
        assert_eq!(hard, Some(Duration::from_millis(192)));
        assert_eq!(soft, hard);
    }

    #[test]
    fn clock_budget_stays_well_inside_the_remaining_time() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(1000),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let (soft, hard) = limits.time_budget();
        assert!(hard.unwrap() <= Duration::from_millis(600));
        // 970 ms shared over 40 moves: about 24 ms a move, up to 2.5 times that.
        assert_eq!(hard, Some(Duration::from_micros(60_625)));
        let last_move = Limits {
            clock: Some(Clock {
                moves_to_go: Some(1),
                ..limits.clock.unwrap()
            }),
            ..Limits::default()
        };
        assert_eq!(last_move.time_budget().1, Some(Duration::from_millis(873)));
        assert!(soft.unwrap() <= hard.unwrap());
        assert!(Limits::default().time_budget() == (None, None));
        assert!(Limits::default().is_unbounded());
        assert!(!Limits::depth(3).is_unbounded());
    }
}
