//! How often one identity (a key, or a guest's address) may do a thing: at most
//! `limit` times in any `span` (rooms opened a minute, names pinned an hour, chat lines
//! a minute). Memory is bounded: past `KEPT` identities, the ones with nothing in the
//! window are forgotten.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Identities remembered before the stale ones are swept.
const KEPT: usize = 4096;

pub struct RateWindow {
    limit: u32,
    span: Duration,
    times: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RateWindow {
    pub fn new(limit: u32, span: Duration) -> RateWindow {
        RateWindow {
            limit,
            span,
            times: Mutex::default(),
        }
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Whether `who` may do it at `now` (nothing counted), or how long until it may.
    pub fn check(&self, who: &str, now: Instant) -> Result<(), Duration> {
        let times = self.times.lock().unwrap_or_else(|p| p.into_inner());
        let Some(seen) = times.get(who) else {
            return Ok(());
        };
        let recent: Vec<&Instant> = seen
            .iter()
            .filter(|at| now.saturating_duration_since(**at) < self.span)
            .collect();
        match recent.first() {
            Some(first) if recent.len() >= self.limit as usize => {
                let wait = self.span - now.saturating_duration_since(**first);
                Err(wait.max(Duration::from_secs(1)))
            }
            _ => Ok(()),
        }
    }

    /// Counts one for `who` at `now`, or says how long until it may: it did the thing
    /// `limit` times within the span already.
    pub fn take(&self, who: &str, now: Instant) -> Result<(), Duration> {
        let mut times = self.times.lock().unwrap_or_else(|p| p.into_inner());
        let recent = |at: &Instant| now.saturating_duration_since(*at) < self.span;
        if times.len() >= KEPT {
            times.retain(|_, seen| seen.iter().any(recent));
        }
        let seen = times.entry(who.to_owned()).or_default();
        while seen.front().is_some_and(|at| !recent(at)) {
            seen.pop_front();
        }
        if seen.len() >= self.limit as usize {
            let first = seen.front().copied().unwrap_or(now);
            let wait = self.span - now.saturating_duration_since(first);
            return Err(wait.max(Duration::from_secs(1)));
        }
        seen.push_back(now);
        Ok(())
    }
}

/// A wait in words: `40 s`, `12 min`.
pub fn wait_text(wait: Duration) -> String {
    let seconds = wait.as_secs().max(1);
    if seconds < 120 {
        format!("{seconds} s")
    } else {
        format!("{} min", seconds.div_ceil(60))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_gets_its_limit_per_span_then_waits() {
        let window = RateWindow::new(2, Duration::from_secs(60));
        let start = Instant::now();
        assert_eq!(window.take("k", start), Ok(()));
        assert_eq!(window.take("k", start + Duration::from_secs(10)), Ok(()));
        assert_eq!(
            window.check("k", start + Duration::from_secs(20)),
            Err(Duration::from_secs(40))
        );
        assert_eq!(
            window.take("k", start + Duration::from_secs(20)),
            Err(Duration::from_secs(40))
        );
        assert_eq!(window.check("other", start), Ok(()));
        // Another identity has its own count.
        assert_eq!(
            window.take("other", start + Duration::from_secs(20)),
            Ok(())
        );
        // A span after the first, one more.
        assert_eq!(window.take("k", start + Duration::from_secs(60)), Ok(()));
        assert!(window.take("k", start + Duration::from_secs(61)).is_err());
        assert_eq!(wait_text(Duration::from_secs(40)), "40 s");
        assert_eq!(wait_text(Duration::from_secs(3000)), "50 min");
    }
}
