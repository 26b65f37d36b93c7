//! `xiangqi-tui egtb generate [MATERIAL...] [--dir DIR] [--threads N]` (solver threads, 2 by default) and
//! `xiangqi-tui egtb probe --fen FEN [--json] [--all] [--dir DIR]`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use xiangqi_core::board::Position;
use xiangqi_engine::egtb::{self, EgtbError, Material, Observer, Probe, Tablebases, Wdl};

use crate::cli::{EgtbCommand, GlobalArgs};

use super::UsageError;

/// Solver threads when `--threads` is not given.
const DEFAULT_SOLVER_THREADS: usize = 2;

pub fn run(command: &EgtbCommand, global: &GlobalArgs) -> Result<()> {
    match command {
        EgtbCommand::Generate { materials, dir } => {
            // The global `--threads` (the engine's) also sets the solver's threads.
            let threads = match global.threads {
                Some(_) => super::threads_flag(global)?,
                None => DEFAULT_SOLVER_THREADS,
            };
            generate(materials, dir.as_deref(), threads)
        }
        EgtbCommand::Probe {
            fen,
            all,
            json,
            dir,
        } => probe(fen, *all, *json, dir.as_deref()),
        EgtbCommand::Drill(args) => super::egtb_drill::run(args, global),
    }
}

pub(crate) fn tables_dir(dir: Option<&Path>) -> Result<PathBuf> {
    match dir {
        Some(d) => Ok(d.to_path_buf()),
        None => egtb::default_dir()
            .ok_or_else(|| anyhow!("no data directory (no home directory known): give --dir DIR")),
    }
}

/// Progress on stderr: a bar per table and a line when it is written.
pub(crate) struct Bars {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    pub(crate) fn new() -> Bars {
        Bars {
            bar: Mutex::new(None),
        }
    }
}

impl Observer for Bars {
    fn skipped(&self, material: &Material) {
        eprintln!("{material}: already complete, kept");
    }

    fn started(&self, material: &Material, positions: u64) {
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} {bar:40} {percent:>3}% {msg}")
                .expect("valid template"),
        );
        bar.set_prefix(material.to_string());
        *self.bar.lock().expect("bar lock") = Some(bar);
    }

    fn progress(&self, done: u64, total: u64) {
        if let Some(bar) = &*self.bar.lock().expect("bar lock") {
            bar.set_length(total);
            bar.set_position(done.min(total));
        }
    }

    fn finished(&self, material: &Material, bytes: u64, time: Duration) {
        if let Some(bar) = self.bar.lock().expect("bar lock").take() {
            bar.finish_and_clear();
        }
        eprintln!(
            "{material}: {} in {:.1} s",
            human_bytes(bytes),
            time.as_secs_f64()
        );
    }
}

fn human_bytes(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.1} KB", bytes as f64 / 1024.0)
    }
}

fn generate(names: &[String], dir: Option<&Path>, threads: usize) -> Result<()> {
    let materials = if names.is_empty() {
        egtb::default_set()
    } else {
        names
            .iter()
            .map(|n| n.parse::<Material>().map_err(|e| UsageError(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?
    };
    let dir = tables_dir(dir)?;
    let start = Instant::now();
    let bars = Bars {
        bar: Mutex::new(None),
    };
    let solved = egtb::generate(&materials, &dir, threads, &bars).map_err(|e| match e {
        EgtbError::TooLarge { .. } => anyhow::Error::new(UsageError(e.to_string())),
        other => anyhow::Error::new(other),
    })?;
    let total: u64 = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    e.path()
                        .extension()
                        .is_some_and(|x| x == egtb::file::EXTENSION)
                })
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    eprintln!(
        "solved {} endings in {:.1} s; {} of tables in {}",
        solved.len(),
        start.elapsed().as_secs_f64(),
        human_bytes(total),
        dir.display()
    );
    Ok(())
}

/// The value of a move for the side playing it, from the verdict on where it leads.
fn for_mover(child: &Probe) -> Probe {
    match (child.wdl, child.plies) {
        (Wdl::Loss, Some(p)) => Probe {
            wdl: Wdl::Win,
            plies: Some(p + 1),
        },
        (Wdl::Win, Some(p)) => Probe {
            wdl: Wdl::Loss,
            plies: Some(p + 1),
        },
        _ => *child,
    }
}

fn probe(fen: &str, all: bool, as_json: bool, dir: Option<&Path>) -> Result<()> {
    let pos = Position::from_fen(fen).map_err(|e| UsageError(format!("bad FEN: {e}")))?;
    let dir_path = tables_dir(dir)?;
    let tables = Tablebases::open(&dir_path);
    let (material, _) = Material::of(&pos);
    let missing = |m: &str| {
        let dir_flag = dir.map_or(String::new(), |d| format!(" --dir {}", d.display()));
        UsageError(format!(
            "no tablebase for {m} in {}: generate it with `xiangqi-tui egtb generate {m}{dir_flag}`",
            dir_path.display()
        ))
    };
    let found = match tables.probe_checked(&pos) {
        Ok(p) => p,
        Err(EgtbError::Missing(m)) => return Err(missing(&m).into()),
        Err(e) => return Err(e.into()),
    };
    let moves = match tables.move_values(&pos) {
        Ok(m) => m,
        Err(EgtbError::Missing(m)) => return Err(missing(&m).into()),
        Err(e) => return Err(e.into()),
    };
    let best = tables.best_move(&pos)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = if as_json {
        let mut value = json!({
            "fen": pos.to_fen(),
            "material": material.to_string(),
            "result": found.wdl.name(),
            "plies": found.plies,
            "best_move": best.map(|m| m.iccs()),
        });
        if all {
            value["moves"] = moves
                .iter()
                .map(|(mv, child)| {
                    let v = for_mover(child);
                    json!({"move": mv.iccs(), "result": v.wdl.name(), "plies": v.plies})
                })
                .collect();
        }
        writeln!(out, "{value}")
    } else {
        let plies = found
            .plies
            .map_or(String::new(), |p| format!(" in {p} plies"));
        let best = best.map_or("none".to_string(), |m| m.iccs());
        let mut text = format!(
            "{material}: {}{plies}; best move {best}\n",
            found.wdl.name()
        );
        if all {
            for (mv, child) in &moves {
                let v = for_mover(child);
                let plies = v.plies.map_or(String::new(), |p| format!(" {p}"));
                text.push_str(&format!("{mv}\t{}{plies}\n", v.wdl.name()));
            }
        }
        out.write_all(text.as_bytes())
    };
    super::finish_output(written.and_then(|()| out.flush()))
}
