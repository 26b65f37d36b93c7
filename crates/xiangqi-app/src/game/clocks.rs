//! A game on the clocks (`xiangqi_core::clock`): a move stops the mover's clock and starts the
//! other's, a flag that falls loses the game, and after moves are taken back or played
//! again the side to move's clock runs.

use std::time::Duration;

use xiangqi_core::board::Move;
use xiangqi_core::board::rules::Outcome;
use xiangqi_core::clock::GameClock;

use super::state::GameState;

impl GameState {
    /// Plays `mv` (legal) at `now`: the mover's clock stops with its increment and the
    /// other's starts. A move made after the mover's flag fell does not count: the
    /// game is lost on time instead, and `Err` holds that result.
    pub fn play_on_clock(
        &mut self,
        mv: Move,
        clock: &mut GameClock,
        now: Duration,
    ) -> Result<(), Outcome> {
        let mover = self.position().side_to_move();
        if let Err(loser) = clock.moved(mover, now) {
            let outcome = Outcome::flag_fall(loser);
            self.end(outcome);
            return Err(outcome);
        }
        self.play(mv);
        Ok(())
    }

    /// Ends the game if the side to move's flag has fallen at `now`; the result.
    pub fn check_flag(&mut self, clock: &mut GameClock, now: Duration) -> Option<Outcome> {
        if self.outcome().is_some() {
            return None;
        }
        let outcome = Outcome::flag_fall(clock.flag(now)?);
        self.end(outcome);
        Some(outcome)
    }

    /// After moves are taken back or played again: the side to move's clock runs (no
    /// increment), if the clocks run at all.
    pub fn follow_clock(&self, clock: &mut GameClock, now: Duration) {
        if clock.running().is_some() {
            clock.start(self.position().side_to_move(), now);
        }
    }
}
