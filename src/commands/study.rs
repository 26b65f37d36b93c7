//! `xiangqi-tui study FILE.tree [--algorithm NAME]`: the TUI with the tree drawn in the
//! board's place (the explorer) and its search replayed one trace line per step.

use anyhow::Context;
use xiangqi_engine::search::Algorithm;
use xiangqi_engine::tree::Tree;
use xiangqi_term::{self as tui, Exit, RunOptions};

use super::usage;
use crate::cli::{GlobalArgs, StudyArgs};

pub fn run(args: &StudyArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let algorithm = global.algorithm.unwrap_or(Algorithm::AlphaBeta);
    let shown = args.file.display();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|error| usage(format!("cannot read {shown}: {error}")))?;
    let tree = Tree::parse(&text).map_err(|error| usage(format!("{shown}:{error}")))?;
    tree.check_algorithm(algorithm)
        .map_err(|error| usage(format!("{shown}:{error}")))?;
    let config = crate::commands::config::load(global)?;
    // A study session plays no game: nothing to keep or resume.
    let options = RunOptions {
        autosave_path: None,
        puzzle_path: None,
    };
    let mut opened = Ok(());
    let exit = tui::run_with(config, options, |app| {
        opened = xiangqi_app::open_tree(app, tree, algorithm);
    })
    .context("cannot run the terminal UI")?;
    opened.map_err(|message| usage(format!("{shown}:{message}")))?;
    match exit {
        Exit::Quit => {}
        Exit::Signal(signal) => eprintln!("xiangqi-tui: stopped by signal {signal}"),
        Exit::TerminalLost(why) => eprintln!("xiangqi-tui: lost the terminal ({why})"),
    }
    Ok(())
}
