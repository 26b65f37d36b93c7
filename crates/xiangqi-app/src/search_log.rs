//! The search log pane's state: the lines the engine reported, scrolling, and the
//! step-mode state of the search being shown.

use std::collections::VecDeque;

use xiangqi_engine::service::StepState;

/// Lines kept; older ones are dropped (a traced search can report millions of events).
pub const LOG_CAPACITY: usize = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// A search starts: who thinks, with what.
    Search,
    /// One iteration: depth, score, nodes, speed, principal variation.
    Iteration,
    /// One trace event of the backend.
    Trace,
    /// The move chosen, or why there is none.
    Result,
    /// Anything else the log wants to say (stopped, errors).
    Note,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub kind: LogKind,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchLog {
    lines: VecDeque<LogLine>,
    /// Lines dropped from the front so far.
    dropped: u64,
    /// How many lines the view is scrolled back from the newest (0: follow).
    scroll: usize,
    /// The step-mode state of the search in progress, mirrored from the worker;
    /// `None` when no search runs.
    pub step: Option<StepState>,
}

impl SearchLog {
    pub fn push(&mut self, kind: LogKind, text: String) {
        if self.lines.len() == LOG_CAPACITY {
            self.lines.pop_front();
            self.dropped += 1;
        }
        self.lines.push_back(LogLine { kind, text });
        // A reader scrolled back keeps seeing the same lines.
        if self.scroll > 0 {
            self.scroll = (self.scroll + 1).min(self.lines.len().saturating_sub(1));
        }
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    pub fn lines(&self) -> &VecDeque<LogLine> {
        &self.lines
    }

    pub fn scroll(&self) -> usize {
        self.scroll
    }

    pub fn scroll_up(&mut self, by: usize) {
        self.scroll = (self.scroll + by).min(self.lines.len().saturating_sub(1));
    }

    pub fn scroll_down(&mut self, by: usize) {
        self.scroll = self.scroll.saturating_sub(by);
    }

    /// Back to the oldest line kept.
    pub fn scroll_to_top(&mut self) {
        self.scroll = self.lines.len().saturating_sub(1);
    }

    /// Follow the newest line again.
    pub fn follow(&mut self) {
        self.scroll = 0;
    }

    /// The lines a view `height` rows high shows, oldest first.
    pub fn visible(&self, height: usize) -> impl Iterator<Item = &LogLine> {
        let end = self.lines.len().saturating_sub(self.scroll);
        let start = end.saturating_sub(height);
        self.lines.range(start..end)
    }

    pub fn clear(&mut self) {
        self.lines.clear();
        self.scroll = 0;
        self.dropped = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(lines: impl Iterator<Item = &'a LogLine>) -> Vec<&'a str> {
        lines.map(|line| line.text.as_str()).collect()
    }

    #[test]
    fn the_view_follows_new_lines_unless_scrolled_back() {
        let mut log = SearchLog::default();
        for i in 0..5 {
            log.push(LogKind::Trace, format!("{i}"));
        }
        assert_eq!(texts(log.visible(2)), ["3", "4"]);
        log.scroll_up(2);
        assert_eq!(texts(log.visible(2)), ["1", "2"]);
        log.push(LogKind::Trace, "5".into());
        assert_eq!(
            texts(log.visible(2)),
            ["1", "2"],
            "scrolled back: stays put"
        );
        log.scroll_to_top();
        assert_eq!(texts(log.visible(2)), ["0"]);
        log.follow();
        assert_eq!(texts(log.visible(2)), ["4", "5"]);
        log.scroll_up(100);
        assert_eq!(log.scroll(), 5);
    }

    #[test]
    fn old_lines_are_dropped_at_capacity() {
        let mut log = SearchLog::default();
        for i in 0..LOG_CAPACITY + 3 {
            log.push(LogKind::Trace, format!("{i}"));
        }
        assert_eq!(log.len(), LOG_CAPACITY);
        assert_eq!(log.dropped(), 3);
        assert_eq!(log.lines()[0].text, "3");
    }
}
