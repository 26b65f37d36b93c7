//! `xiangqi-tui egtb drill [MATERIAL] [--dir DIR] [--moves N] [--seed S] [--json]`: the
//! endgame school. With MATERIAL the lesson is prepared here (its tables generated
//! first, with progress, if missing and small) and the TUI opens on the drill; without,
//! the lessons are printed: material, verdict, share won, longest win, installed.

use std::io::{self, Write};

use anyhow::Result;
use serde_json::json;
use xiangqi_app::train::lessons::{self, LessonRow, Start, TrainError};
use xiangqi_engine::egtb::Material;

use super::UsageError;
use crate::cli::{DrillArgs, GlobalArgs};

pub fn run(args: &DrillArgs, global: &GlobalArgs) -> Result<()> {
    let dir = super::egtb::tables_dir(args.dir.as_deref())?;
    let Some(name) = &args.material else {
        return list(&lessons::lessons(&dir), args.json);
    };
    let material: Material = name
        .parse()
        .map_err(|e: xiangqi_engine::egtb::EgtbError| UsageError(e.to_string()))?;
    let start = match args.moves {
        Some(moves) => Start::Random {
            moves: Some(moves),
            seed: args.seed,
        },
        None => Start::Longest,
    };
    let lesson =
        lessons::lesson(&dir, material, start, &super::egtb::Bars::new()).map_err(|e| match e {
            TrainError::Tables(other) => anyhow::Error::new(other),
            usage => anyhow::Error::new(UsageError(usage.to_string())),
        })?;
    open(lesson, start, global)
}

#[cfg(feature = "tui")]
fn open(lesson: lessons::Lesson, start: Start, global: &GlobalArgs) -> Result<()> {
    use anyhow::Context;
    use xiangqi_term::{self as tui, Exit, RunOptions};

    let config = crate::commands::config::load(global)?;
    // The game waits behind the drill: it is kept as `play` keeps it.
    let options = RunOptions {
        autosave_path: RunOptions::default_autosave_path(),
        puzzle_path: RunOptions::default_puzzle_path(),
    };
    let exit = tui::run_with(config, options, |app| {
        xiangqi_app::open_drill(app, Box::new(lesson), start);
    })
    .context("cannot run the terminal UI")?;
    match exit {
        Exit::Quit => {}
        Exit::Signal(signal) => eprintln!("xiangqi-tui: stopped by signal {signal}"),
        Exit::TerminalLost(why) => eprintln!("xiangqi-tui: lost the terminal ({why})"),
    }
    Ok(())
}

#[cfg(not(feature = "tui"))]
fn open(_: lessons::Lesson, _: Start, _: &GlobalArgs) -> Result<()> {
    Err(super::left_out("egtb drill MATERIAL", "tui"))
}

fn list(rows: &[LessonRow], as_json: bool) -> Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut text = String::new();
    if !as_json {
        text.push_str("material  verdict      won    longest win   table\n");
    }
    for row in rows {
        let name = row.material.to_string();
        if as_json {
            let value = match &row.summary {
                Some(s) => json!({
                    "material": name,
                    "installed": true,
                    "verdict": s.outlook().name(),
                    "won_percent": (s.won_percent() * 10.0).round() / 10.0,
                    "positions": s.positions,
                    "longest_plies": s.longest,
                    "longest_fen": s.longest_fen,
                }),
                None => json!({
                    "material": name,
                    "installed": false,
                    "made_on_first_use": row.made_on_first_use,
                }),
            };
            text.push_str(&format!("{value}\n"));
        } else {
            match &row.summary {
                Some(s) => text.push_str(&format!(
                    "{name:<9} {:<12} {:>5.1}% {:<13} installed\n",
                    s.outlook().name(),
                    s.won_percent(),
                    s.longest_text()
                )),
                // A small table is made when its lesson starts; a large one first
                // needs `egtb generate`.
                None if row.made_on_first_use => text.push_str(&format!(
                    "{name:<9} {:<12} {:>6} {:<13} made on first use (seconds)\n",
                    "-", "-", "-"
                )),
                None => text.push_str(&format!(
                    "{name:<9} {:<12} {:>6} {:<13} not installed: xiangqi-tui egtb generate {name}\n",
                    "-", "-", "-"
                )),
            }
        }
    }
    super::finish_output(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}
