//! Texel tuning of the evaluation weights (see docs/tuning.md).
//!
//! ```sh
//! cargo run --release --example tune -- --games 2000 --nodes 1500 --threads 2 \
//!     --openings /path/to/openings.txt --write src/eval/weights.rs
//! ```
//!
//! Plays fast self-play games with the engine (fixed nodes per move, so the games do not
//! depend on the machine's load) and/or reads PGN game records, labels every position with
//! its game's result, replaces each by the quiet leaf of its capture line, fits the
//! logistic scale K and then the weights, and writes the fitted weights as Rust source.
//! Every tenth game is held out to check the fit on games it did not see.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Parser;
use xiangqi_core::board::rules::Outcome;
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::record::{GameRecord, GameResult};
use xiangqi_core::rng::SplitMix64 as Rng;
use xiangqi_engine::engine::{Engine, Limits};
use xiangqi_engine::eval::tune::{
    FitOptions, Freedom, Sample, WeightSet, default_freedoms, error, fit, fit_k, quiet_leaf,
    weights_source,
};

#[derive(Parser, Debug)]
#[command(about = "Texel-tune the evaluation weights on self-play games or game records")]
struct Args {
    /// Self-play games to play.
    #[arg(long, default_value_t = 0)]
    games: usize,
    /// Nodes searched per self-play move.
    #[arg(long, default_value_t = 1500)]
    nodes: u64,
    /// Threads playing self-play games (the games are the same for any number).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random opening moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening lines (match.py's format: moves in files a-i, ranks 1-10); game N starts
    /// with line N mod count, then plays random moves.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves after the opening line (0..=this many, chosen per game).
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// PGN files, or directories of them, to read games from (repeatable).
    #[arg(long)]
    pgn: Vec<PathBuf>,
    /// Positions this close to a game's start are not used.
    #[arg(long, default_value_t = 10)]
    skip_plies: usize,
    /// Adam epochs.
    #[arg(long, default_value_t = 600)]
    epochs: usize,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Pull toward the starting weights (see FitOptions::lambda).
    #[arg(long, default_value_t = 1e-7)]
    lambda: f64,
    /// Fit only material, mobility, coordination and safety; keep the piece-square tables.
    #[arg(long)]
    no_pst: bool,
    /// Save the quiet positions (game number, result, FEN per line) to reuse with --load.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Read quiet positions saved with --save (repeatable) instead of making them again.
    #[arg(long)]
    load: Vec<PathBuf>,
    /// Write the fitted weights here (normally src/eval/weights.rs).
    #[arg(long)]
    write: Option<PathBuf>,
}

/// One game's positions (before quieting) and its result from Red's side.
struct Game {
    positions: Vec<Position>,
    result: f32,
}

fn red_score(outcome: Outcome) -> f32 {
    match outcome {
        Outcome::Win {
            winner: Color::Red, ..
        } => 1.0,
        Outcome::Win { .. } => 0.0,
        Outcome::Draw(_) => 0.5,
    }
}

/// Reads match.py's opening lines: ranks there count 1-10, ours 0-9.
fn read_openings(path: &Path) -> Result<Vec<Vec<Move>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let ours = to_zero_based(word)
                .and_then(|w| Move::parse_coords(&w))
                .filter(|&mv| pos.is_legal(mv));
            let Some(mv) = ours else {
                bail!("{}:{}: bad move {word:?}", path.display(), n + 1);
            };
            pos.make_move(mv);
            moves.push(mv);
        }
        lines.push(moves);
    }
    Ok(lines)
}

fn to_zero_based(word: &str) -> Option<String> {
    let bytes = word.as_bytes();
    let from_rank_len = word[1..].find(|c: char| c.is_ascii_alphabetic())?;
    let (from, to) = word.split_at(1 + from_rank_len);
    let rank = |s: &str| s.parse::<u8>().ok().filter(|r| (1..=10).contains(r));
    let (f1, r1) = (bytes[0] as char, rank(&from[1..])?);
    let (f2, r2) = (to.chars().next()?, rank(&to[1..])?);
    Some(format!("{f1}{}{f2}{}", r1 - 1, r2 - 1))
}

/// Plays self-play game `index`: the opening line, random moves, then the engine at a
/// fixed node count for both sides. Long games and clear wins are adjudicated.
fn play(index: usize, args: &Args, openings: &[Vec<Move>], engine: &mut Engine) -> Game {
    let mut rng = Rng::new(args.seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut pos = Position::startpos();
    if !openings.is_empty() {
        for &mv in &openings[index % openings.len()] {
            pos.make_move(mv);
        }
    }
    for _ in 0..rng.below(args.random_plies + 1) {
        let moves = pos.legal_move_list();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    engine.new_game();
    let stop = AtomicBool::new(false);
    let mut positions = Vec::new();
    let mut lopsided = 0;
    let result = loop {
        if let Some(outcome) = pos.outcome() {
            break red_score(outcome);
        }
        if pos.ply() >= 300 {
            break 0.5;
        }
        let found = engine.search(&pos, &Limits::nodes(args.nodes), &stop, &mut |_| {});
        let Some(mv) = found.best_move else {
            break if pos.side_to_move() == Color::Red {
                0.0
            } else {
                1.0
            };
        };
        // Both sides agreeing on a winning score for eight plies: the game is decided.
        lopsided = if found.score.abs() >= 1000 {
            lopsided + 1
        } else {
            0
        };
        if lopsided >= 8 {
            let mover_wins = found.score > 0;
            break if mover_wins == (pos.side_to_move() == Color::Red) {
                1.0
            } else {
                0.0
            };
        }
        if pos.ply() >= args.skip_plies {
            let mut keep = pos.clone();
            keep.clear_history();
            positions.push(keep);
        }
        pos.make_move(mv);
    };
    Game { positions, result }
}

fn self_play(args: &Args, openings: &[Vec<Move>]) -> Vec<Game> {
    let threads = args.threads.max(1);
    let start = Instant::now();
    let mut games: Vec<(usize, Game)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut engine = Engine::new(16);
                    let mut out = Vec::new();
                    for index in (t..args.games).step_by(threads) {
                        out.push((index, play(index, args, openings, &mut engine)));
                        if t == 0 && out.len() % 50 == 0 {
                            eprintln!(
                                "  self-play: about {} of {} games, {:.0} s",
                                out.len() * threads,
                                args.games,
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a self-play thread panicked"))
            .collect()
    });
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().map(|(_, g)| g).collect()
}

fn pgn_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("{}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn read_records(args: &Args) -> Result<Vec<Game>> {
    let mut games = Vec::new();
    let mut skipped = 0;
    for file in pgn_files(&args.pgn)? {
        let record = GameRecord::read_file(&file).with_context(|| format!("{}", file.display()))?;
        let result = match record.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unknown => {
                skipped += 1;
                continue;
            }
        };
        let mut pos = record.start.clone();
        let mut positions = Vec::new();
        for (ply, &mv) in record.moves.iter().enumerate() {
            if ply >= args.skip_plies {
                let mut keep = pos.clone();
                keep.clear_history();
                positions.push(keep);
            }
            pos.make_move(mv);
        }
        games.push(Game { positions, result });
    }
    eprintln!(
        "read {} record games ({skipped} without a result skipped)",
        games.len()
    );
    Ok(games)
}

fn main() -> Result<()> {
    let args = Args::parse();
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let started = Instant::now();
    let mut games = self_play(&args, &openings);
    if args.games > 0 {
        let (mut red, mut draws, mut black) = (0, 0, 0);
        for g in &games {
            match g.result {
                r if r > 0.75 => red += 1,
                r if r < 0.25 => black += 1,
                _ => draws += 1,
            }
        }
        eprintln!(
            "self-play: {} games at {} nodes a move in {:.0} s: Red won {red}, drew {draws}, Black won {black}",
            games.len(),
            args.nodes,
            started.elapsed().as_secs_f64()
        );
    }
    // Where the positions came from, for the weights file and for saved positions.
    let mut sources = Vec::new();
    if !games.is_empty() {
        let opened = match &args.openings {
            Some(path) => format!(
                " from {}",
                path.file_name().unwrap_or_default().to_string_lossy()
            ),
            None => String::new(),
        };
        sources.push(format!(
            "{} self-play games{opened} at {} nodes a move (seed {}, up to {} random plies)",
            games.len(),
            args.nodes,
            args.seed,
            args.random_plies
        ));
    }
    let records = read_records(&args)?;
    if !records.is_empty() {
        sources.push(format!("{} record games", records.len()));
    }
    games.extend(records);
    if games.is_empty() && args.load.is_empty() {
        bail!("no games: give --games N, --pgn PATH or --load FILE");
    }

    // (game number, result, quiet position): games numbered across all sources.
    let mut quiet: Vec<(usize, f32, Position)> = Vec::new();
    let (mut seen, mut noisy) = (0, 0);
    for (index, game) in games.iter().enumerate() {
        for pos in &game.positions {
            seen += 1;
            match quiet_leaf(pos) {
                Some(leaf) => quiet.push((index, game.result, leaf)),
                None => noisy += 1,
            }
        }
    }
    if seen > 0 {
        eprintln!(
            "positions: {seen} from {} games, {noisy} in check dropped",
            games.len()
        );
    }
    let mut offset = games.len();
    for path in &args.load {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
        let mut last = 0;
        for (n, line) in text.lines().enumerate() {
            if let Some(source) = line.strip_prefix("# ") {
                sources.push(source.to_string());
                continue;
            }
            let mut parts = line.splitn(3, ' ');
            let parsed = (|| {
                let game: usize = parts.next()?.parse().ok()?;
                let result: f32 = parts.next()?.parse().ok()?;
                let pos = Position::from_fen(parts.next()?).ok()?;
                Some((game, result, pos))
            })();
            let Some((game, result, pos)) = parsed else {
                bail!("{}:{}: expected GAME RESULT FEN", path.display(), n + 1);
            };
            last = last.max(game + 1);
            quiet.push((offset + game, result, pos));
        }
        eprintln!("loaded {} ({last} games)", path.display());
        offset += last;
    }
    if let Some(path) = &args.save {
        let header: String = sources.iter().map(|s| format!("# {s}\n")).collect();
        let text: String = quiet
            .iter()
            .map(|(game, result, pos)| format!("{game} {result} {}\n", pos.to_fen()))
            .collect();
        let text = header + &text;
        std::fs::write(path, text).with_context(|| format!("{}", path.display()))?;
        eprintln!(
            "saved {} quiet positions to {}",
            quiet.len(),
            path.display()
        );
    }
    let (mut train, mut check) = (Vec::new(), Vec::new());
    for (game, result, pos) in &quiet {
        let sample = Sample::new(pos, *result);
        if game % 10 == 9 {
            check.push(sample);
        } else {
            train.push(sample);
        }
    }
    eprintln!(
        "quiet positions: {} for training, {} held out (every tenth game)",
        train.len(),
        check.len()
    );

    let current = WeightSet::current();
    let start = current.slots();
    let k = fit_k(&train, &start);
    let (train0, check0) = (error(&train, &start, k), error(&check, &start, k));
    eprintln!(
        "K = {k:.6} per centipawn; error with the current weights: training {train0:.6}, held out {check0:.6}"
    );

    let mut freedoms = default_freedoms(&start);
    if args.no_pst {
        let pst = xiangqi_engine::eval::trace::slot::PST;
        for f in &mut freedoms[pst..pst + xiangqi_engine::eval::trace::slot::PST_LEN] {
            *f = Freedom::Fixed;
        }
    }
    let options = FitOptions {
        epochs: args.epochs,
        rate: args.rate,
        lambda: args.lambda,
    };
    let fitted = fit(&train, &start, &freedoms, k, &options, &mut |epoch, e| {
        if epoch % 50 == 0 {
            eprintln!("  epoch {epoch:>4}: training error {e:.6}");
        }
    });
    let tuned = current.with_slots(&fitted);
    let rounded = tuned.slots();
    let (train1, check1) = (error(&train, &rounded, k), error(&check, &rounded, k));
    eprintln!(
        "error with the fitted weights: training {train0:.6} -> {train1:.6}, held out {check0:.6} -> {check1:.6}"
    );
    let names = [
        "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
    ];
    for (k, name) in names.iter().enumerate().skip(1) {
        eprintln!(
            "  {name:<9} {:>4} -> {:>4}",
            current.material[k], tuned.material[k]
        );
    }

    if let Some(path) = &args.write {
        let provenance = format!(
            "Texel fit on {}; {} training positions; K {k:.6}; error {train0:.6} -> {train1:.6} (held out {check0:.6} -> {check1:.6}); {} epochs, rate {}, lambda {:e}{}",
            sources.join(", "),
            train.len(),
            args.epochs,
            args.rate,
            args.lambda,
            if args.no_pst { ", tables kept" } else { "" }
        );
        std::fs::write(path, weights_source(&tuned, &provenance))
            .with_context(|| format!("{}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
