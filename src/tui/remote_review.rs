//! `:review` in a remote session: only on an archived game (a live room's game is its
//! players' to think about). The review runs on a thread of its own, as the local
//! program runs it; the session collects its reports at each frame.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use super::action::Action;
use super::app::App;
use super::review_link::{self, ReviewRequest, ReviewUpdate};
use super::update::update;

/// How often a session with a review under way looks for its reports.
pub const POLL: Duration = Duration::from_millis(200);

/// The review a session runs, if any.
#[derive(Default)]
pub struct RemoteReview {
    /// In a mutex only so the session (held across the server's awaits) stays `Sync`.
    reports: Option<Mutex<Receiver<ReviewUpdate>>>,
}

impl RemoteReview {
    /// Starts `request` when the game shown is archived; refuses it in a live room.
    pub fn start(&mut self, app: &mut App, request: ReviewRequest, archived: bool) {
        if !archived {
            app.review.running = None;
            app.alert(":review is for finished games: open one from the archive (pgn ID)");
            return;
        }
        let (send, reports) = channel();
        self.reports = Some(Mutex::new(reports));
        let spawned = std::thread::Builder::new()
            .name("remote-review".to_owned())
            .spawn(move || {
                review_link::run(&request, None, &mut |update| send.send(update).is_ok());
            });
        if let Err(error) = spawned {
            self.reports = None;
            app.review.running = None;
            app.alert(format!("cannot start the review: {error}"));
        }
    }

    pub fn running(&self) -> bool {
        self.reports.is_some()
    }

    /// Hands the reports that came in to the app; true when there were any.
    pub fn poll(&mut self, app: &mut App) -> bool {
        let Some(reports) = &mut self.reports else {
            return false;
        };
        let reports = match reports.get_mut() {
            Ok(reports) => reports,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut any = false;
        let mut finished = false;
        loop {
            match reports.try_recv() {
                Ok(report) => {
                    any = true;
                    update(app, Action::Review(report));
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    finished = true;
                    break;
                }
            }
        }
        if finished {
            self.reports = None;
        }
        any
    }
}
