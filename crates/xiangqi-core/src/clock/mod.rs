//! Time controls and game clocks: `10+5`, `40/90+30`, `5m/move`; both sides' clocks,
//! increments, moves to the next control and flag fall, read from an injectable time
//! source so tests run on a fake clock.

mod control;
mod game_clock;
mod side_clock;
mod time_source;

pub use control::{TimeControl, TimeControlError};
pub use game_clock::{GameClock, format_clock};
pub use side_clock::Clock;
pub use time_source::{ManualTime, MonotonicTime, TimeSource};
