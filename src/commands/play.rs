//! The default command: the terminal UI.

use anyhow::Context;
use xiangqi_tui::tui::{self, Exit, RunOptions};

use crate::cli::GlobalArgs;

pub fn run(global: &GlobalArgs) -> anyhow::Result<()> {
    // A broken configuration stops here, before the terminal is touched.
    let config = crate::commands::config::load(global)?;
    let options = RunOptions {
        autosave_path: RunOptions::default_autosave_path(),
    };
    tracing::info!(profile = ?config.profile, "terminal UI started");
    let exit = tui::run(config, options).context("cannot run the terminal UI")?;
    tracing::info!(?exit, "terminal UI ended");
    let saved = "an unfinished game is saved and offered at the next start";
    match exit {
        Exit::Quit => {}
        Exit::Signal(signal) => eprintln!("xiangqi-tui: stopped by signal {signal}; {saved}"),
        Exit::TerminalLost(why) => eprintln!("xiangqi-tui: lost the terminal ({why}); {saved}"),
    }
    Ok(())
}
