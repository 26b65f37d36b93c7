//! The puzzle trainer and the endgame school in a remote session: the player's own
//! screen, no room. The app runs them as at home; the prover and the school's tables
//! work as the session's one job on the server's pool, and a finished puzzle attempt
//! goes to the server to keep (in the store, for a key holder; a guest's rating lives
//! as long as the session).

use xiangqi_app::SchoolUpdate;
use xiangqi_app::game::GameState;
use xiangqi_app::train::PuzzleProfile;
use xiangqi_app::train::lessons::{SchoolAnswer, TrainError};
use xiangqi_core::board::Position;

use super::*;
use xiangqi_app::puzzle_mode;

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
        self.enter_training();
        let effects = puzzle_mode::command_line(&mut self.app, argument)?;
        self.screen = Screen::Train;
        self.needs_clear = true;
        Ok(self.train_effects(effects))
    }

    /// Opens the endgame school on `argument` as `:drill` takes it (nothing: the
    /// lessons; an ending such as `KRK`), with the server's shared tables (small
    /// missing ones are generated there, once whoever asks).
    pub fn show_drill(
        &mut self,
        tables: Arc<SchoolTables>,
        argument: &str,
    ) -> Result<Vec<Intent>, String> {
        self.enter_training();
        self.app.tablebases = Some(tables.tablebases());
        self.school = Some(tables);
        let effects = xiangqi_app::drill_link::command(&mut self.app, argument)?;
        self.screen = Screen::Train;
        self.needs_clear = true;
        Ok(self.train_effects(effects))
    }

    /// A game of one's own behind the trainer, as the local program has one.
    fn enter_training(&mut self) {
        if !matches!(self.screen, Screen::Train) {
            self.leave_training();
            // Nothing of a room comes along: a game of one's own, no clocks.
            self.app.popups.clear();
            self.app.notice = None;
            self.app.mode = AppMode::Play;
            self.app.engine.remote = false;
            self.app.clock = xiangqi_core::clock::GameClock::new(None, None);
            self.app.time = Arc::new(xiangqi_core::clock::MonotonicTime::default());
            xiangqi_app::flow::start_game(&mut self.app, GameState::new(Position::startpos()));
        }
    }

    pub(super) fn train_input(&mut self, action: Action) -> Vec<Intent> {
        let effects = update(&mut self.app, action);
        self.train_effects(effects)
    }

    /// Carries out what the trainer asks: the prover's work and the school's as the
    /// session's job, an attempt to keep; leaving it goes back to the lobby.
    pub(super) fn train_effects(&mut self, effects: Vec<Effect>) -> Vec<Intent> {
        self.work.settle(&self.app);
        let mut intents = Vec::new();
        for effect in effects {
            match effect {
                Effect::Puzzle(request) => {
                    let unanswered = Action::Puzzle(Box::new(request.unanswered()));
                    let tag = WorkTag::Puzzle(request.id());
                    self.start_work(tag, unanswered, move |job, send| {
                        let answer =
                            xiangqi_app::train::run_until_stopped(&request, job.stop_flag());
                        let _ = send.send(Action::Puzzle(Box::new(answer)));
                    });
                }
                Effect::School(school_job) => {
                    let id = school_job.id;
                    let unanswered = Action::School(SchoolUpdate::Done {
                        id,
                        answer: SchoolAnswer::Drill(Err(TrainError::Cancelled)),
                    });
                    let tables = self.school.clone();
                    self.start_work(WorkTag::School(id), unanswered, move |job, send| {
                        let report = |update| {
                            let _ = send.send(Action::School(update));
                        };
                        report(match &tables {
                            Some(tables) => xiangqi_app::drill_link::run_shared(
                                &school_job,
                                tables,
                                job.stop_flag(),
                                &report,
                            ),
                            None => xiangqi_app::drill_link::run(&school_job, &report),
                        });
                    });
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

    /// In the trainer or a drill, or choosing a lesson.
    fn training(&self) -> bool {
        matches!(self.app.mode, AppMode::Puzzle(_) | AppMode::Drill(_))
            || self.app.school.running.is_some()
            || self.app.popups.iter().any(|popup| {
                matches!(
                    popup,
                    Popup::Choice {
                        purpose: xiangqi_app::popup::ChoicePurpose::Lesson,
                        ..
                    }
                )
            })
    }

    /// Closes the trainer if it is open (the server moved the player elsewhere).
    pub(super) fn leave_training(&mut self) {
        // An attempt cut short this way is not kept: the player did not leave it.
        match self.app.mode {
            AppMode::Puzzle(_) => drop(puzzle_mode::leave(&mut self.app)),
            AppMode::Drill(_) => xiangqi_app::drill_link::leave(&mut self.app),
            _ => {}
        }
        self.app.popups.clear();
        // The school's job (a lesson or the list) is nobody's now: cancelled.
        self.app.school.running = None;
        self.work.settle(&self.app);
    }
}
