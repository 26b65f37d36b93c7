//! The progress bar of the long commands (`book build`, `book generate`, `review`).

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

/// A one-line progress bar on stderr, drawn only on a terminal, at most ten times a second.
pub(crate) struct ProgressBar {
    shown: bool,
    last: Option<Instant>,
}

impl ProgressBar {
    pub(crate) fn new(quiet: bool) -> ProgressBar {
        ProgressBar {
            shown: !quiet && io::stderr().is_terminal(),
            last: None,
        }
    }

    pub(crate) fn update(&mut self, done: usize, total: usize, label: &str) {
        if !self.shown
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100) && done < total)
        {
            return;
        }
        self.last = Some(Instant::now());
        const WIDTH: usize = 30;
        let filled = (done * WIDTH).checked_div(total).unwrap_or(0).min(WIDTH);
        eprint!(
            "\r[{}{}] {done}/{total} {label}\x1b[K",
            "#".repeat(filled),
            ".".repeat(WIDTH - filled)
        );
    }

    pub(crate) fn finish(&self) {
        if self.shown && self.last.is_some() {
            eprintln!();
        }
    }
}
