//! Fits the review's winning-chance curve `P = 1 / (1 + exp(-k * cp))` on real games: the
//! distinct games of a folder of PGN records (by default CCPD's full games), positions
//! sampled from ply 10 on, each scored by a short search of our engine (side to move's
//! view), labelled with the game's result for the side to move (draw 0.5); `k` by maximum
//! likelihood (`review::fit_scale`). Prints the sample, the fit and a calibration table
//! for docs/review.md.
//!
//! `cargo run --profile test --example fit_win_chance -- [--dir DIR] [--games N]
//!  [--per-game M] [--depth D] [--threads T] [--skip PLIES] [--seed S]`

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use xiangqi_core::board::{Color, Position};
use xiangqi_core::record::{GameRecord, GameResult};
use xiangqi_core::rng::SplitMix64;
use xiangqi_engine::engine::{Limits, Verdict};
use xiangqi_engine::review::{ReviewLimits, evaluate_positions, fit_scale, mean_log_likelihood};
use xiangqi_engine::service::{EngineSearcher, Searcher};

struct Options {
    dir: PathBuf,
    games: usize,
    per_game: usize,
    depth: u32,
    threads: usize,
    skip: usize,
    seed: u64,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let number = |flag: &str, default: u64| {
        value(flag).map_or(default, |v| {
            v.parse().unwrap_or_else(|_| {
                eprintln!("{flag}: '{v}' is not a number");
                std::process::exit(2)
            })
        })
    };
    Options {
        dir: value("--dir").map_or_else(|| PathBuf::from("/work/ccpd/Dataset/對局"), PathBuf::from),
        games: number("--games", 3000) as usize,
        per_game: number("--per-game", 2) as usize,
        depth: number("--depth", 6) as u32,
        threads: number("--threads", 2) as usize,
        skip: number("--skip", 10) as usize,
        seed: number("--seed", 1),
    }
}

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            out.push(path);
        }
    }
}

/// The game's result for `side`: 1, 0.5 or 0.
fn result_for(result: GameResult, side: Color) -> Option<f64> {
    let red = match result {
        GameResult::RedWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
        GameResult::Unknown => return None,
    };
    Some(if side == Color::Red { red } else { 1.0 - red })
}

fn main() {
    let opts = options();
    let mut files = Vec::new();
    pgn_files(&opts.dir, &mut files);
    files.sort();
    let (mut unreadable, mut unfinished, mut short, mut duplicates) = (0, 0, 0, 0);
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    for path in &files {
        let Ok(record) = GameRecord::read_file(path) else {
            unreadable += 1;
            continue;
        };
        if record.result == GameResult::Unknown {
            unfinished += 1;
            continue;
        }
        if record.moves.len() <= opts.skip {
            short += 1;
            continue;
        }
        let key = (
            record.start.to_fen(),
            record.moves.iter().map(|m| m.iccs()).collect::<String>(),
        );
        if !seen.insert(key) {
            duplicates += 1;
            continue;
        }
        games.push(record);
    }
    eprintln!(
        "{} files: {} distinct finished games of more than {} plies \
         ({duplicates} duplicates, {unreadable} unreadable, {unfinished} without a result, \
         {short} shorter)",
        files.len(),
        games.len(),
        opts.skip
    );
    let mut rng = SplitMix64::new(opts.seed);
    // A seeded shuffle, then the first `games`.
    for i in (1..games.len()).rev() {
        games.swap(i, rng.below(i + 1));
    }
    games.truncate(opts.games);
    let (mut results, mut positions) = (Vec::new(), Vec::new());
    let mut tally = [0usize; 3];
    for game in &games {
        match game.result {
            GameResult::RedWins => tally[0] += 1,
            GameResult::Draw => tally[1] += 1,
            _ => tally[2] += 1,
        }
        let span = game.moves.len() - opts.skip;
        let mut plies: Vec<usize> = (0..opts.per_game.min(span))
            .map(|_| opts.skip + rng.below(span))
            .collect();
        plies.sort_unstable();
        plies.dedup();
        for ply in plies {
            let pos: Position = game.position_after(ply);
            let Some(result) = result_for(game.result, pos.side_to_move()) else {
                continue;
            };
            results.push(result);
            positions.push(pos);
        }
    }
    eprintln!(
        "{} games sampled (Red wins {}, draws {}, Black wins {}), {} positions, depth {}",
        games.len(),
        tally[0],
        tally[1],
        tally[2],
        positions.len(),
        opts.depth
    );
    let limits = ReviewLimits {
        limits: Limits::depth(opts.depth),
        threads: opts.threads,
        hash_mb: 16,
    };
    let searcher = || -> Box<dyn Searcher> { Box::new(EngineSearcher::new(16)) };
    let started = std::time::Instant::now();
    let evaluations = evaluate_positions(&positions, &limits, &searcher, &mut |done, total| {
        if done % 500 == 0 || done == total {
            eprintln!("  {done}/{total} positions");
        }
        true
    })
    .unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut samples = Vec::new();
    let mut mates = 0;
    for (evaluation, &result) in evaluations.iter().zip(&results) {
        match evaluation.verdict {
            Verdict::Centipawns(cp) => samples.push((f64::from(cp), result)),
            Verdict::Mate(_) => mates += 1,
        }
    }
    let Some(k) = fit_scale(&samples) else {
        eprintln!("no scored positions");
        std::process::exit(1)
    };
    println!(
        "positions {} (mates left out {mates}), searched in {seconds:.0} s",
        samples.len()
    );
    println!("k = {k:.6} per centipawn");
    println!(
        "mean log-likelihood: {:.4} at k, {:.4} at k = 0 (a coin)",
        mean_log_likelihood(&samples, k),
        mean_log_likelihood(&samples, 0.0)
    );
    println!("calibration (side to move's score, positions, mean result, predicted):");
    let bins = [
        -100_000, -800, -400, -200, -100, -50, 50, 100, 200, 400, 800, 100_000,
    ];
    for pair in bins.windows(2) {
        let (low, high) = (f64::from(pair[0]), f64::from(pair[1]));
        let inside: Vec<&(f64, f64)> = samples
            .iter()
            .filter(|(cp, _)| *cp >= low && *cp < high)
            .collect();
        if inside.is_empty() {
            continue;
        }
        let n = inside.len() as f64;
        let mean = inside.iter().map(|(_, r)| r).sum::<f64>() / n;
        let predicted = inside
            .iter()
            .map(|(cp, _)| 1.0 / (1.0 + (-k * cp).exp()))
            .sum::<f64>()
            / n;
        println!(
            "  [{:>6}, {:>6})  {:>5}  {mean:.3}  {predicted:.3}",
            pair[0],
            pair[1],
            inside.len()
        );
    }
}
