//! The progress bar of the long commands (`book build`, `book ecco`, `book generate`,
//! `review`): indicatif's, drawn on stderr only when it is a terminal (indicatif hides it
//! otherwise) and not asked to be quiet.

use indicatif::{ProgressDrawTarget, ProgressStyle};

pub(crate) struct ProgressBar {
    bar: indicatif::ProgressBar,
}

impl ProgressBar {
    pub(crate) fn new(quiet: bool) -> ProgressBar {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr_with_hz(10)
        };
        let bar = indicatif::ProgressBar::with_draw_target(None, target);
        if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {pos}/{len} {msg}") {
            bar.set_style(style.progress_chars("#>."));
        }
        ProgressBar { bar }
    }

    pub(crate) fn update(&mut self, done: usize, total: usize, label: &str) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
        if self.bar.message() != label {
            self.bar.set_message(label.to_owned());
        }
    }

    pub(crate) fn finish(&self) {
        self.bar.finish();
    }
}
