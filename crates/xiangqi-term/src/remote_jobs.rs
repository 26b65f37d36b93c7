//! A remote session's work on the server's job pool: one job at a time (started,
//! replaced, cancelled with its screen), its reports polled into the app, and
//! `:review` of an archived game run with the server's limits.

use std::sync::mpsc::Sender;

use xiangqi_app::action::Action;
use xiangqi_app::jobs::JobContext;
use xiangqi_app::remote_work::WorkTag;
use xiangqi_app::review_link::{ReviewRequest, ReviewUpdate};
use xiangqi_app::update::update;

use super::{Intent, RemoteSession, Screen};

impl RemoteSession {
    /// The session's job is cancelled with the screen it was for (a review of the
    /// archived game left); its late reports find nothing waiting for them.
    pub(super) fn leave_work(&mut self) {
        self.work.cancel();
        self.app.review.running = None;
        self.told_ahead = None;
    }

    /// Hands work to the server's pool in place of the session's job; refused (the
    /// queue is full), the app is given `unanswered` and the refusal is told.
    pub(super) fn start_work(
        &mut self,
        tag: WorkTag,
        unanswered: Action,
        job: impl FnOnce(&JobContext, &Sender<Action>) + Send + 'static,
    ) {
        self.told_ahead = None;
        if let Err((why, unanswered)) = self.work.start(tag, unanswered, job) {
            let _ = update(&mut self.app, *unanswered);
            self.app.alert(why);
        }
    }

    /// Hands the reports of the session's threads to the app and returns what they
    /// ask of the server (an attempt to keep); `None` when none came in. The server
    /// calls it at each turn of its loop, after `clock_refresh`.
    pub fn poll_work(&mut self) -> Option<Vec<Intent>> {
        let ahead = self.work.ahead();
        let reports = self.work.take();
        if ahead != self.told_ahead {
            self.told_ahead = ahead;
            if let Some(ahead) = ahead {
                self.app.notify(format!(
                    "the server is busy: {ahead} jobs ahead of yours, it starts after them"
                ));
                if reports.is_empty() {
                    return Some(Vec::new());
                }
            }
        }
        if reports.is_empty() {
            return None;
        }
        let mut intents = Vec::new();
        for report in reports {
            let effects = update(&mut self.app, report);
            intents.extend(match self.screen {
                Screen::Train => self.train_effects(effects),
                _ => self.after_update(effects),
            });
        }
        Some(intents)
    }

    /// `:review`: on an archived game, as the session's job on the server's pool, with
    /// one thread and the pool's share of the hash (never the play settings); refused
    /// in a live room (its game is its players' to think about).
    pub(super) fn start_review(&mut self, request: ReviewRequest, archived: bool) {
        if !archived {
            self.app.review.running = None;
            self.app
                .alert(":review is for finished games: open one from the archive (pgn ID)");
            return;
        }
        let id = request.id;
        self.note(format!(
            "review on 1 thread, {} MB (the server's engine limits)",
            self.work.hash_mb()
        ));
        let unanswered = Action::Review(ReviewUpdate::Failed {
            id,
            message: "the review did not run".to_owned(),
        });
        self.start_work(WorkTag::Review(id), unanswered, move |job, send| {
            let request = server_review(request, job.hash_mb);
            xiangqi_app::review_link::run(&request, None, &mut |update| {
                // The last report goes out even when stopped: it ends the wait.
                send.send(Action::Review(update)).is_ok() && !job.stopped()
            });
        });
    }
}

/// A review as the server runs it: one thread, `hash_mb` (the pool's share), whatever
/// the play settings say.
pub(super) fn server_review(mut request: ReviewRequest, hash_mb: usize) -> ReviewRequest {
    request.limits.threads = 1;
    request.limits.hash_mb = u32::try_from(hash_mb).unwrap_or(u32::MAX);
    request
}
