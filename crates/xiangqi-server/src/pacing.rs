//! How often a session may cost the server work: input bytes per second (a token
//! bucket) and at most one frame per frame interval, however many keys, resizes, room
//! or lobby changes arrive in between (they are coalesced into the next frame).

use std::time::Duration;

use tokio::time::Instant;

/// The shortest time between two frames of one session (30 frames a second).
pub const FRAME_INTERVAL: Duration = Duration::from_millis(33);
/// What a window change costs against the input rate, in bytes: about what the
/// client sends for one, so a resize storm is bounded like a typing flood.
pub const RESIZE_COST: usize = 32;

/// Input allowed per second (bytes) and the burst above it.
pub struct RateLimit {
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub fn new(per_second: u32) -> RateLimit {
        RateLimit {
            per_second: f64::from(per_second),
            tokens: f64::from(per_second) * 2.0,
            last: Instant::now(),
        }
    }

    /// How many of `len` bytes may be handled now.
    pub fn allow(&mut self, len: usize) -> usize {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.per_second * 2.0);
        self.last = now;
        let allowed = (self.tokens.floor() as usize).min(len);
        self.tokens -= allowed as f64;
        allowed
    }

    /// Whether `cost` can be paid in full now (and pays it).
    pub fn pay(&mut self, cost: usize) -> bool {
        let allowed = self.allow(cost);
        if allowed < cost {
            // Give back a partial payment: all or nothing.
            self.tokens += allowed as f64;
            return false;
        }
        true
    }
}

/// What changed since the last frame, and when the next frame may be drawn.
#[derive(Debug)]
pub struct FramePacer {
    last_frame: Option<Instant>,
    /// The screen must be drawn again (input handled, a message shown).
    pub redraw: bool,
    /// The room changed: read it again before the frame.
    pub room_changed: bool,
    /// The lobby changed: read the room list again before the frame.
    pub lobby_changed: bool,
    /// The latest window size asked for, not applied yet.
    pub resize: Option<(u16, u16)>,
}

impl FramePacer {
    pub fn new() -> FramePacer {
        FramePacer {
            last_frame: None,
            redraw: true,
            room_changed: false,
            lobby_changed: false,
            resize: None,
        }
    }

    pub fn pending(&self) -> bool {
        self.redraw || self.room_changed || self.lobby_changed || self.resize.is_some()
    }

    /// When the next frame may be drawn (now, if none was drawn for an interval).
    pub fn next_frame(&self) -> Instant {
        self.last_frame
            .map_or_else(Instant::now, |last| last + FRAME_INTERVAL)
    }

    /// A frame is being drawn: everything pending goes into it.
    pub fn drawn(&mut self) {
        self.last_frame = Some(Instant::now());
        self.redraw = false;
        self.room_changed = false;
        self.lobby_changed = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_burst_is_allowed_then_the_rate_holds() {
        let mut rate = RateLimit::new(100);
        assert_eq!(rate.allow(150), 150);
        assert_eq!(rate.allow(100), 50);
        assert!(!rate.pay(RESIZE_COST));
        tokio::time::advance(Duration::from_millis(500)).await;
        assert!(rate.pay(RESIZE_COST));
        assert_eq!(rate.allow(100), 50 - RESIZE_COST);
    }

    #[tokio::test(start_paused = true)]
    async fn frames_are_at_least_an_interval_apart() {
        let mut pacer = FramePacer::new();
        assert!(pacer.pending());
        assert!(pacer.next_frame() <= Instant::now());
        pacer.drawn();
        assert!(!pacer.pending());
        pacer.resize = Some((80, 24));
        pacer.lobby_changed = true;
        assert!(pacer.pending());
        assert_eq!(pacer.next_frame(), Instant::now() + FRAME_INTERVAL);
    }
}
