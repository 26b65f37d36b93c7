//! The puzzle trainer in a remote session: the player's own screen, no room. The app
//! runs it as at home; the prover works on the session's threads, and a finished
//! attempt goes to the server to keep (in the store, for a key holder; a guest's
//! rating lives as long as the session).

use crate::board::Position;
use crate::game::GameState;
use crate::train::PuzzleProfile;

use super::super::puzzle_mode;
use super::*;

impl RemoteSession {
    /// Opens the trainer on `argument` as `:puzzle` takes it (a puzzle id, `mate N`,
    /// `theme NAME`, or nothing for the next one at the player's level), with the
    /// player's puzzle data (`None`: what the session has, a guest's).
    pub fn show_puzzles(
        &mut self,
        profile: Option<PuzzleProfile>,
        argument: &str,
    ) -> Result<Vec<Intent>, String> {
        if let Some(profile) = profile {
            self.app.trainer.profile = profile;
        }
        if !matches!(self.screen, Screen::Train) {
            self.leave_training();
            // Nothing of a room comes along: a game of one's own, no clocks.
            self.app.popups.clear();
            self.app.notice = None;
            self.app.mode = AppMode::Play;
            self.app.engine.remote = false;
            self.app.clock = crate::clock::GameClock::new(None, None);
            self.app.time = Arc::new(crate::clock::MonotonicTime::default());
            super::super::flow::start_game(&mut self.app, GameState::new(Position::startpos()));
        }
        let effects = puzzle_mode::command_line(&mut self.app, argument)?;
        self.screen = Screen::Train;
        self.needs_clear = true;
        Ok(self.train_effects(effects))
    }

    pub(super) fn train_input(&mut self, action: Action) -> Vec<Intent> {
        let effects = update(&mut self.app, action);
        self.train_effects(effects)
    }

    /// Carries out what the trainer asks: the prover's work on a thread, an attempt to
    /// keep; leaving it goes back to the lobby.
    pub(super) fn train_effects(&mut self, effects: Vec<Effect>) -> Vec<Intent> {
        let mut intents = Vec::new();
        for effect in effects {
            match effect {
                Effect::Puzzle(request) => {
                    let started = self.work.spawn("puzzle prover", move |send| {
                        let answer = crate::train::run(&request);
                        let _ = send.send(Action::Puzzle(Box::new(answer)));
                    });
                    if let Err(why) = started {
                        self.app.alert(why);
                    }
                }
                Effect::RecordPuzzle(record) => intents.push(Intent::RecordPuzzle(record)),
                Effect::ClearScreen => self.needs_clear = true,
                Effect::Quit => intents.push(Intent::Quit),
                // No engine, no files: the trainer needs neither here.
                _ => {}
            }
        }
        self.app.quitting = false;
        if !self.training() {
            intents.push(Intent::Lobby(LobbyCommand::Rooms));
        }
        intents
    }

    fn training(&self) -> bool {
        matches!(self.app.mode, AppMode::Puzzle(_))
    }

    /// Closes the trainer if it is open (the server moved the player elsewhere).
    pub(super) fn leave_training(&mut self) {
        if self.training() {
            // An attempt cut short this way is not kept: the player did not leave it.
            let _ = puzzle_mode::leave(&mut self.app);
        }
    }
}
