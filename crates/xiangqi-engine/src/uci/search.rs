//! Searches through the engine service: `go` starts one, the service's thread prints
//! its `info` lines and its `bestmove` as they come, so `stop`, `isready` and `quit` are
//! answered while it thinks. `go infinite` and `go ponder` answer only once told to stop.

use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::Session;
use super::command::{Dialect, GoCommand};
use super::output::{Output, bestmove_line, info_lines, say};
use crate::service::{EngineEvent, EventSink, SearchId, SearchRequest};

/// What the session and the service's thread know of the search in progress.
#[derive(Default)]
pub(super) struct Answer {
    state: Mutex<AnswerState>,
    changed: Condvar,
}

#[derive(Default)]
struct AnswerState {
    /// The search whose reports are printed.
    id: SearchId,
    dialect: Dialect,
    /// Only a stop lets it answer (`go infinite`, `go ponder`).
    waits_for_stop: bool,
    told_to_stop: bool,
    /// Set just before `bestmove` is printed: from then on the GUI may send the next
    /// `go`.
    answered: bool,
    /// The answer is out (or the search failed and has none).
    done: bool,
}

impl Answer {
    fn lock(&self) -> MutexGuard<'_, AnswerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin(&self, id: SearchId, dialect: Dialect, waits_for_stop: bool) {
        *self.lock() = AnswerState {
            id,
            dialect,
            waits_for_stop,
            ..AnswerState::default()
        };
    }

    fn answered(&self, id: SearchId) -> bool {
        let state = self.lock();
        state.id != id || state.answered
    }

    fn tell_stop(&self) {
        self.lock().told_to_stop = true;
        self.changed.notify_all();
    }

    /// Waits until search `id` has answered.
    fn wait_done(&self, id: SearchId) {
        let mut state = self.lock();
        while state.id == id && !state.done {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(|poison| poison.into_inner());
        }
    }

    fn finish(&self) {
        let mut state = self.lock();
        state.answered = true;
        state.done = true;
        self.changed.notify_all();
    }

    /// Prints the reports of the search in progress (on the service's thread).
    fn report(&self, out: &Output, event: EngineEvent) {
        let dialect = {
            let state = self.lock();
            if state.id != event.id() {
                return;
            }
            state.dialect
        };
        match event {
            EngineEvent::Iteration { info, .. } => {
                for line in info_lines(&info, dialect) {
                    let _ = say(out, &line);
                }
            }
            EngineEvent::BestMove { mv, ponder, .. } => {
                let mut state = self.lock();
                while state.waits_for_stop && !state.told_to_stop {
                    state = self
                        .changed
                        .wait(state)
                        .unwrap_or_else(|poison| poison.into_inner());
                }
                state.answered = true;
                drop(state);
                let _ = say(out, &bestmove_line(mv, ponder, dialect));
                self.finish();
            }
            // A search that failed (it cannot, short of a bug) has no answer to give.
            EngineEvent::Failed { .. } => self.finish(),
            _ => {}
        }
    }
}

/// The sink that prints a search's reports to `out`.
pub(super) fn printer(answer: &Arc<Answer>, out: &Output) -> EventSink {
    let (answer, out) = (Arc::clone(answer), Arc::clone(out));
    Box::new(move |event| {
        answer.report(&out, event);
        true
    })
}

impl Session {
    pub(super) fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| !self.answer.answered(search.id))
    }

    /// Stops the running search, if any, and waits for its answer.
    pub(super) fn finish_search(&mut self) {
        self.stop_search();
        self.join_search();
    }

    pub(super) fn stop_search(&mut self) {
        if let Some(search) = &self.search {
            self.link.stop(search.id);
            self.answer.tell_stop();
        }
    }

    /// Waits for the running search, if any, to answer.
    pub(super) fn join_search(&mut self) {
        if let Some(search) = self.search.take() {
            self.answer.wait_done(search.id);
        }
    }

    pub(super) fn go(&mut self, go: &GoCommand) -> io::Result<()> {
        if self.searching() {
            return self.info("go ignored: a search is running (send stop first)");
        }
        self.finish_search();
        // A book move is answered at once; pondering and infinite analysis still search.
        if !go.ponder && !go.limits.infinite {
            match self.book.book_move(&self.position) {
                Ok(Some(mv)) => {
                    self.info(&format!("book move {mv}"))?;
                    return say(&self.out, &format!("bestmove {mv}"));
                }
                Ok(None) => {}
                Err(error) => {
                    self.info(&format!("book not used: {error}"))?;
                    self.book.own_book = false;
                }
            }
        }
        let limits = go.limits_for(self.position.side_to_move());
        let waits_for_stop = go.ponder || limits.infinite;
        self.next_id += 1;
        let id = self.next_id;
        self.answer.begin(id, self.dialect, waits_for_stop);
        self.link.start(SearchRequest {
            algorithm: self.algorithm,
            hash_mb: self.hash_mb as u32,
            threads: self.threads,
            multipv: self.multipv,
            level: self.strength.level(),
            ..SearchRequest::new(id, self.position.clone(), &limits)
        });
        self.search = Some(RunningSearch { id, waits_for_stop });
        Ok(())
    }
}

/// The search `go` started.
pub(super) struct RunningSearch {
    pub id: SearchId,
    /// Only a stop ends it (`go infinite`, `go ponder`).
    pub waits_for_stop: bool,
}
