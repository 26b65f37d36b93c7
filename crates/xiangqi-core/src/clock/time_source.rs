//! Where the clocks read the time: the monotonic clock, or a hand-moved one in tests.

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A monotonic time: only differences between two readings mean anything.
pub trait TimeSource: Debug + Send + Sync {
    fn now(&self) -> Duration;
}

/// The process's monotonic clock, counted from when this was made.
#[derive(Debug, Clone, Copy)]
pub struct MonotonicTime {
    origin: Instant,
}

impl Default for MonotonicTime {
    fn default() -> Self {
        MonotonicTime {
            origin: Instant::now(),
        }
    }
}

impl TimeSource for MonotonicTime {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock that moves only when told to; clones share the time.
#[derive(Debug, Clone, Default)]
pub struct ManualTime {
    millis: Arc<AtomicU64>,
}

impl ManualTime {
    pub fn advance(&self, by: Duration) {
        let millis = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.millis.fetch_add(millis, Ordering::SeqCst);
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Duration {
        Duration::from_millis(self.millis.load(Ordering::SeqCst))
    }
}
