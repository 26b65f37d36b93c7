//! The default command: the terminal UI.

use anyhow::Context;
use xiangqi_term::{self as tui, Exit, RunOptions};

use crate::cli::GlobalArgs;

pub fn run(global: &GlobalArgs) -> anyhow::Result<()> {
    run_opening(global, None)
}

/// `puzzles play [ID]`: the terminal UI opened on a puzzle.
pub fn puzzle(id: Option<&str>, global: &GlobalArgs) -> anyhow::Result<()> {
    if let Some(id) = id {
        // A wrong id is a usage error before the terminal is touched.
        xiangqi_app::train::find_puzzle(xiangqi_engine::puzzle::builtin(), id).ok_or_else(
            || {
                super::usage(format!(
                    "no puzzle {id} in the built-in set (`xiangqi-tui puzzles` lists them)"
                ))
            },
        )?;
    }
    run_opening(global, Some(id.unwrap_or_default()))
}

/// The terminal UI; with `puzzle`, opened on that puzzle (empty: one picked).
fn run_opening(global: &GlobalArgs, puzzle: Option<&str>) -> anyhow::Result<()> {
    // A broken configuration stops here, before the terminal is touched.
    let config = crate::commands::config::load(global)?;
    let options = RunOptions {
        autosave_path: RunOptions::default_autosave_path(),
        puzzle_path: RunOptions::default_puzzle_path(),
    };
    tracing::info!(profile = ?config.profile, "terminal UI started");
    let exit = match puzzle {
        None => tui::run(config, options),
        Some(id) => tui::run_with(config, options, |app| {
            if let Err(message) = xiangqi_app::open_puzzle(app, id) {
                app.alert(message);
            }
        }),
    }
    .context("cannot run the terminal UI")?;
    tracing::info!(?exit, "terminal UI ended");
    let saved = "an unfinished game is saved and offered at the next start";
    match exit {
        Exit::Quit => {}
        Exit::Signal(signal) => eprintln!("xiangqi-tui: stopped by signal {signal}; {saved}"),
        Exit::TerminalLost(why) => eprintln!("xiangqi-tui: lost the terminal ({why}); {saved}"),
    }
    Ok(())
}
