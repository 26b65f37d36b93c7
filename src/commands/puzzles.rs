//! `puzzles`: print certified mate puzzles of the built-in set (or of a mined file),
//! filtered by mate length and theme; `puzzles mine` makes a set (`puzzles_mine`).

use std::io::{self, BufWriter, Write};

use anyhow::{Context, Result};

use crate::cli::{GlobalArgs, PuzzlesArgs, PuzzlesCommand};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_engine::puzzle::{self, Puzzle, Theme};

use super::{finish_output, usage};

pub fn run(args: &PuzzlesArgs, global: &GlobalArgs) -> Result<()> {
    match &args.command {
        Some(PuzzlesCommand::Mine(mine)) => return super::puzzles_mine::run(mine, global),
        #[cfg(feature = "tui")]
        Some(PuzzlesCommand::Play(play)) => {
            return super::play::puzzle(play.id.as_deref(), global);
        }
        #[cfg(not(feature = "tui"))]
        Some(PuzzlesCommand::Play(_)) => return Err(super::left_out("puzzles play", "tui")),
        None => {}
    }
    // `--theme` is the global flag: for this command it names a puzzle theme.
    let theme = global
        .theme
        .as_deref()
        .map(|name| {
            name.parse::<Theme>()
                .map_err(|e| usage(format!("--theme: {e}")))
        })
        .transpose()?;
    let loaded;
    let set: &[Puzzle] = match &args.file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("{}: cannot read", path.display()))?;
            loaded = puzzle::parse_puzzles(&text)
                .map_err(|e| usage(format!("{}: {e}", path.display())))?;
            &loaded
        }
        None => puzzle::builtin(),
    };
    let chosen = set
        .iter()
        .filter(|p| args.mate.is_none_or(|n| p.mate_in == n))
        .filter(|p| theme.is_none_or(|t| p.has_theme(t)))
        .take(args.count.unwrap_or(usize::MAX));
    let mut out = BufWriter::new(io::stdout().lock());
    let written = (|| -> io::Result<()> {
        for puzzle in chosen {
            if args.json {
                serde_json::to_writer(&mut out, puzzle)?;
                writeln!(out)?;
            } else {
                write_text(&mut out, puzzle)?;
            }
        }
        out.flush()
    })();
    finish_output(written)
}

/// Id, mate, themes, source, FEN and the solution in Chinese notation, then a blank line.
fn write_text(out: &mut impl Write, puzzle: &Puzzle) -> io::Result<()> {
    let themes: Vec<&str> = puzzle.themes.iter().map(|t| t.name()).collect();
    writeln!(
        out,
        "{}  mate in {}  [{}]",
        puzzle.id,
        puzzle.mate_in,
        themes.join(", ")
    )?;
    writeln!(out, "  {}", puzzle.source.describe())?;
    writeln!(out, "  {}", puzzle.fen)?;
    writeln!(out, "  {}\n", solution_text(puzzle))
}

/// `1. 车二进九 将5进1 2. ...`, numbered by the solver's moves.
pub(crate) fn solution_text(puzzle: &Puzzle) -> String {
    let mut pos = puzzle.position();
    let mut words = Vec::new();
    for (ply, &mv) in puzzle.solution.iter().enumerate() {
        if ply % 2 == 0 {
            words.push(format!("{}.", ply / 2 + 1));
        }
        words.push(format_move(&pos, mv, Notation::Chinese));
        pos.make_move(mv);
    }
    words.join(" ")
}
