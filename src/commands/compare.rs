//! `xiangqi-tui compare [--fen FEN | --tree FILE] [--depth N] [--algorithms a,b,...]
//! [--json]`: every backend on one problem, one row each, then the classic results
//! checked (see `study::compare`). Bad input is one line and exit status 2.

use anyhow::Result;
use xiangqi_core::board::Position;
use xiangqi_engine::search::Algorithm;
use xiangqi_engine::study::{Problem, compare};
use xiangqi_engine::tree::Tree;

use super::usage;
use crate::cli::{CompareArgs, GlobalArgs};

pub fn run(args: &CompareArgs, global: &GlobalArgs) -> Result<()> {
    let algorithms = chosen(&args.algorithms);
    if global.depth == Some(0) {
        return Err(usage("--depth: depth must be at least 1"));
    }
    let tree;
    let pos;
    let problem = match &args.tree {
        Some(path) => {
            let shown = path.display();
            let text = std::fs::read_to_string(path)
                .map_err(|error| usage(format!("cannot read {shown}: {error}")))?;
            tree = Tree::parse(&text).map_err(|error| usage(format!("{shown}:{error}")))?;
            Problem::Tree(&tree)
        }
        None => {
            let fen = args.fen.as_deref().unwrap_or(Position::START_FEN);
            pos = Position::from_fen(fen).map_err(|error| usage(format!("--fen: {error}")))?;
            Problem::Position(&pos)
        }
    };
    let json = args.json;
    let comparison = compare(problem, global.depth, &algorithms, &mut |row| {
        if !json {
            eprintln!("{} done in {:.3} s", row.algorithm, row.seconds);
        }
    })
    .map_err(|error| usage(error.to_string()))?;
    if json {
        println!("{}", comparison.to_json());
    } else {
        for line in comparison.lines() {
            println!("{line}");
        }
    }
    Ok(())
}

/// The `--algorithms` list, each once; every backend when empty.
fn chosen(given: &[Algorithm]) -> Vec<Algorithm> {
    if given.is_empty() {
        return Algorithm::ALL.to_vec();
    }
    let mut algorithms = Vec::new();
    for &algorithm in given {
        if !algorithms.contains(&algorithm) {
            algorithms.push(algorithm);
        }
    }
    algorithms
}
