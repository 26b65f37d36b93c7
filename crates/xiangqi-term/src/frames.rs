//! When to draw the next frame. Typing is drawn at once; what the engine (or a clock
//! tick) changes is held to a frame rate, since a search can report hundreds of times a
//! second and SSH links are slow.

use std::time::{Duration, Instant};

use super::event::Incoming;
use xiangqi_app::action::Action;

/// Shortest time between two frames that nothing typed asked for (at most 20 a second).
pub const FRAME_INTERVAL: Duration = Duration::from_millis(50);

/// Who changed the screen, which decides how soon it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// The player did something (a key, a click, a paste, a resize): draw now.
    Input,
    /// The engine or a clock did: draw at the frame rate.
    Background,
}

impl Urgency {
    pub fn of(incoming: &Incoming) -> Urgency {
        match incoming {
            Incoming::Action(Action::Engine(_) | Action::Tick) => Urgency::Background,
            _ => Urgency::Input,
        }
    }
}

/// What the main loop should do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameDecision {
    DrawNow,
    /// Changes wait for the frame interval: draw at this instant unless input comes first.
    DrawAt(Instant),
    /// Nothing to draw.
    Idle,
}

/// The frame limiter's state: whether the screen is out of date, and how urgently.
#[derive(Debug, Clone, Copy)]
pub struct FrameSchedule {
    interval: Duration,
    last_draw: Option<Instant>,
    dirty: bool,
    urgent: bool,
}

impl FrameSchedule {
    pub fn new(interval: Duration) -> FrameSchedule {
        FrameSchedule {
            interval,
            last_draw: None,
            dirty: true,
            urgent: true,
        }
    }

    /// The state changed for this reason.
    pub fn changed(&mut self, urgency: Urgency) {
        self.dirty = true;
        self.urgent |= urgency == Urgency::Input;
    }

    pub fn decide(&self, now: Instant) -> FrameDecision {
        if !self.dirty {
            return FrameDecision::Idle;
        }
        match self.last_draw {
            _ if self.urgent => FrameDecision::DrawNow,
            None => FrameDecision::DrawNow,
            Some(last) if now >= last + self.interval => FrameDecision::DrawNow,
            Some(last) => FrameDecision::DrawAt(last + self.interval),
        }
    }

    /// A frame was drawn at `now`.
    pub fn drawn(&mut self, now: Instant) {
        self.last_draw = Some(now);
        self.dirty = false;
        self.urgent = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_app::key::{KeyCode, KeyEvent};
    use xiangqi_engine::service::EngineEvent;

    #[test]
    fn a_key_is_drawn_at_once_even_right_after_an_engine_frame() {
        let start = Instant::now();
        let mut frames = FrameSchedule::new(FRAME_INTERVAL);
        assert_eq!(frames.decide(start), FrameDecision::DrawNow);
        frames.drawn(start);
        assert_eq!(frames.decide(start), FrameDecision::Idle);
        // The engine reports 1 ms later: held to the frame rate.
        let soon = start + Duration::from_millis(1);
        frames.changed(Urgency::Background);
        assert_eq!(
            frames.decide(soon),
            FrameDecision::DrawAt(start + FRAME_INTERVAL)
        );
        assert_eq!(
            frames.decide(start + FRAME_INTERVAL),
            FrameDecision::DrawNow
        );
        // A key 2 ms after the last frame is not held.
        frames.changed(Urgency::Input);
        assert_eq!(
            frames.decide(start + Duration::from_millis(2)),
            FrameDecision::DrawNow
        );
        frames.drawn(soon);
        frames.changed(Urgency::Background);
        assert_eq!(
            frames.decide(soon),
            FrameDecision::DrawAt(soon + FRAME_INTERVAL)
        );
    }

    #[test]
    fn input_is_urgent_and_engine_reports_and_ticks_are_not() {
        let key = Incoming::Action(Action::Key(KeyEvent::from(KeyCode::Char('a'))));
        assert_eq!(Urgency::of(&key), Urgency::Input);
        assert_eq!(
            Urgency::of(&Incoming::Action(Action::Resize(80, 24))),
            Urgency::Input
        );
        let report = Incoming::Action(Action::Engine(EngineEvent::Note {
            id: 1,
            text: String::new(),
        }));
        assert_eq!(Urgency::of(&report), Urgency::Background);
        assert_eq!(
            Urgency::of(&Incoming::Action(Action::Tick)),
            Urgency::Background
        );
        assert_eq!(Urgency::of(&Incoming::Signal(15)), Urgency::Input);
    }
}
