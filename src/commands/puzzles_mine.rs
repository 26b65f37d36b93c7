//! `puzzles mine`: certified mate puzzles from game records. Candidates are the start
//! position of each exercise (a record without players) and, for each decisive game, the
//! positions of its last plies with the winner to move. Each distinct position (mirror
//! images and the colour flip count as one) is searched by the engine first, cheaply;
//! one it scores as a mate in N (N up to `--max-mate`) goes to the exact prover.

use std::collections::{BTreeMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};

use crate::cli::{GlobalArgs, MineArgs};
use xiangqi_core::board::rules::Outcome as GameOutcome;
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::record::{GameRecord, GameResult};
use xiangqi_engine::book::Book;
use xiangqi_engine::engine::mate_prover::MateProver;
use xiangqi_engine::engine::self_play::{SelfPlayGame, SelfPlayOptions, play_game};
use xiangqi_engine::engine::{Engine, Limits, Verdict};
use xiangqi_engine::puzzle::{self, Puzzle, Rejection, Source, canonical_key, certify};

use super::{threads_flag, usage};

/// The header of a mined set: what it is and whose data it comes from.
const HEADER: &str = "Mate puzzles certified by xiangqi-tui's exact mate prover (`xiangqi-tui puzzles mine`).
Derived from: Yu-Han Tseng and Bo-Nian Chen (2026). Chinese Chess Practical Dataset (CCPD). CC BY 4.0
Columns: ID FEN N SOLUTION(ICCS) THEMES SOURCE... (docs/puzzles.md)";

/// A position to try, with where it comes from.
struct Candidate {
    pos: Position,
    source: Source,
    /// Exercises get a larger engine budget: their mates are often long and quiet.
    exercise: bool,
}

/// What became of one candidate.
enum Outcome {
    /// The engine saw no mate within the limit.
    NoMateSeen,
    Rejected(&'static str),
    Certified(Box<Puzzle>),
}

pub fn run(args: &MineArgs, global: &GlobalArgs) -> Result<()> {
    if !(1..=15).contains(&args.max_mate) {
        return Err(usage("--max-mate: from 1 to 15"));
    }
    let started = Instant::now();
    let threads = threads_flag(global)?;
    let depth = global.depth.unwrap_or(2 * args.max_mate + 2);
    let nodes = global.nodes.unwrap_or(100_000);
    let files = super::book::pgn_files(&args.inputs)?;
    let (mut candidates, read) = collect(&files, args);
    if let Some(games) = args.self_play {
        let before = candidates.len();
        let decided = self_play_candidates(games, args, threads, &mut candidates);
        eprintln!(
            "self-play: {games} games, {decided} decided, {} new candidate positions",
            candidates.len() - before
        );
    }
    eprintln!(
        "{} files, {} distinct records ({} unreadable, {} repeated), {} distinct candidate positions",
        files.len(),
        read.distinct,
        read.unreadable,
        read.repeated,
        candidates.len()
    );
    let outcomes = mine(&candidates, args, threads, depth, nodes);
    let mut puzzles: Vec<Puzzle> = if args.add && args.output.exists() {
        let text = std::fs::read_to_string(&args.output)
            .with_context(|| format!("{}: cannot read", args.output.display()))?;
        puzzle::parse_puzzles(&text)
            .map_err(|e| usage(format!("{}: {e}", args.output.display())))?
    } else {
        Vec::new()
    };
    let before = puzzles.len();
    let mut ids: HashSet<String> = puzzles.iter().map(|p| p.id.clone()).collect();
    let mut unseen = 0;
    let mut rejected: BTreeMap<&str, usize> = BTreeMap::new();
    for outcome in outcomes {
        match outcome {
            Outcome::NoMateSeen => unseen += 1,
            Outcome::Rejected(reason) => *rejected.entry(reason).or_default() += 1,
            Outcome::Certified(puzzle) => {
                if ids.insert(puzzle.id.clone()) {
                    puzzles.push(*puzzle);
                }
            }
        }
    }
    puzzles.sort_by(|a, b| (a.mate_in, &a.id).cmp(&(b.mate_in, &b.id)));
    std::fs::write(&args.output, puzzle::write_puzzles(HEADER, &puzzles))
        .with_context(|| format!("{}: cannot write", args.output.display()))?;
    let certified = puzzles.len() - before;
    println!(
        "candidates {}: no mate seen by the engine {unseen}, certified {certified} (new), rejected {}",
        candidates.len(),
        rejected.values().sum::<usize>()
    );
    for (reason, count) in &rejected {
        println!("  rejected, {reason}: {count}");
    }
    let mut by_mate: BTreeMap<u32, usize> = BTreeMap::new();
    let mut by_theme: BTreeMap<&str, usize> = BTreeMap::new();
    for puzzle in &puzzles {
        *by_mate.entry(puzzle.mate_in).or_default() += 1;
        for theme in &puzzle.themes {
            *by_theme.entry(theme.name()).or_default() += 1;
        }
    }
    println!("{} puzzles in {}", puzzles.len(), args.output.display());
    let list = |map: Vec<String>| map.join(", ");
    println!(
        "  mate in: {}",
        list(by_mate.iter().map(|(n, c)| format!("{n}: {c}")).collect())
    );
    println!(
        "  themes: {}",
        list(by_theme.iter().map(|(t, c)| format!("{t}: {c}")).collect())
    );
    println!("time {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

#[derive(Default)]
struct ReadCounts {
    distinct: usize,
    unreadable: usize,
    repeated: usize,
}

/// The distinct candidates of the distinct records of `files`, in file order.
fn collect(files: &[PathBuf], args: &MineArgs) -> (Vec<Candidate>, ReadCounts) {
    let mut counts = ReadCounts::default();
    let mut games = HashSet::new();
    let mut positions = HashSet::new();
    let mut candidates = Vec::new();
    for path in files {
        let Ok(record) = GameRecord::read_file(path) else {
            counts.unreadable += 1;
            continue;
        };
        let mut hasher = DefaultHasher::new();
        record.start.key().hash(&mut hasher);
        record.moves.hash(&mut hasher);
        if !games.insert(hasher.finish()) {
            counts.repeated += 1;
            continue;
        }
        counts.distinct += 1;
        if counts.distinct <= args.skip {
            continue;
        }
        if args.games.is_some_and(|n| counts.distinct > args.skip + n) {
            break;
        }
        for candidate in candidates_of(&record, args.last_plies) {
            if positions.insert(canonical_key(&candidate.pos)) {
                candidates.push(candidate);
            }
        }
    }
    (candidates, counts)
}

/// An exercise's start position; a decisive game's positions of its last `last_plies`
/// plies with the winner to move (and its start, when it is not the usual one).
fn candidates_of(record: &GameRecord, last_plies: usize) -> Vec<Candidate> {
    let tag = |name: &str| clean(record.tag(name).unwrap_or(""));
    let (red, black) = (tag("Red"), tag("Black"));
    if red.is_empty() && black.is_empty() {
        return vec![Candidate {
            pos: record.start.clone(),
            source: Source::Exercise {
                title: tag("Event"),
            },
            exercise: true,
        }];
    }
    let year = record
        .tag("Date")
        .and_then(|date| date.get(..4))
        .and_then(|y| y.parse::<u16>().ok())
        .filter(|y| (1900..=2100).contains(y));
    let source = Source::Game {
        red,
        black,
        event: tag("Event"),
        year,
    };
    let winner = match record.result {
        GameResult::RedWins => Color::Red,
        GameResult::BlackWins => Color::Black,
        _ => return Vec::new(),
    };
    last_positions(&record.start, &record.moves, winner, last_plies, source)
}

/// The positions of the last `last_plies` plies of a game won by `winner` with the
/// winner to move, and the final one if the winner is to move there.
fn last_positions(
    start: &Position,
    moves: &[Move],
    winner: Color,
    last_plies: usize,
    source: Source,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut pos = start.clone();
    let first = moves.len().saturating_sub(last_plies);
    for (ply, &mv) in moves.iter().enumerate() {
        if ply >= first && pos.side_to_move() == winner {
            out.push(Candidate {
                pos: pos.clone(),
                source: source.clone(),
                exercise: false,
            });
        }
        pos.make_move(mv);
    }
    if pos.side_to_move() == winner && pos.has_legal_move() {
        out.push(Candidate {
            pos,
            source,
            exercise: false,
        });
    }
    for candidate in &mut out {
        candidate.pos.clear_history();
    }
    out
}

/// Plays `games` self-play games on `threads` workers and adds the distinct candidates
/// of the decided ones (in game order); returns how many were decided.
fn self_play_candidates(
    games: u64,
    args: &MineArgs,
    threads: usize,
    candidates: &mut Vec<Candidate>,
) -> usize {
    let book = Book::builtin().ok();
    let options = SelfPlayOptions::default();
    let next = std::sync::atomic::AtomicU64::new(0);
    let played: Mutex<Vec<(u64, SelfPlayGame)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::new(16);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let done = play_game(&mut engine, book, &options, args.seed, game);
                    let mut played = played.lock().expect("no worker panics");
                    played.push((game, done));
                    if played.len().is_multiple_of(50) {
                        eprintln!("self-play: {}/{games} games", played.len());
                    }
                }
            });
        }
    });
    let mut played = played.into_inner().expect("no worker panics");
    played.sort_by_key(|(game, ..)| *game);
    let mut positions: HashSet<u64> = candidates.iter().map(|c| canonical_key(&c.pos)).collect();
    let mut decided = 0;
    for (_, game) in played {
        let Some(GameOutcome::Win { winner, .. }) = game.outcome else {
            continue;
        };
        decided += 1;
        for candidate in last_positions(
            &game.start,
            &game.moves,
            winner,
            args.last_plies,
            Source::SelfPlay,
        ) {
            if positions.insert(canonical_key(&candidate.pos)) {
                candidates.push(candidate);
            }
        }
    }
    decided
}

/// A tag value on one line, without the padding between CJK characters that some
/// records put in two-character names (`呂  欽`).
fn clean(text: &str) -> String {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            let before = out.chars().last();
            let after = chars[i..].iter().find(|c| !c.is_whitespace());
            let wide = |c: Option<&char>| c.is_some_and(|c| !c.is_ascii());
            if wide(before.as_ref()) && wide(after) || out.ends_with(' ') {
                continue;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs the candidates on `threads` workers; outcomes come back in candidate order.
fn mine(
    candidates: &[Candidate],
    args: &MineArgs,
    threads: usize,
    depth: u32,
    nodes: u64,
) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let certified = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::new(8);
                let mut prover = MateProver::with_budget(args.budget);
                let stop = AtomicBool::new(false);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(candidate) = candidates.get(index) else {
                        break;
                    };
                    let outcome = try_candidate(
                        candidate,
                        args.max_mate,
                        depth,
                        nodes,
                        &mut engine,
                        &mut prover,
                        &stop,
                    );
                    if matches!(outcome, Outcome::Certified(_)) {
                        certified.fetch_add(1, Ordering::Relaxed);
                    }
                    results
                        .lock()
                        .expect("no worker panics")
                        .push((index, outcome));
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if finished.is_multiple_of(500) {
                        eprintln!(
                            "{finished}/{} candidates, {} certified",
                            candidates.len(),
                            certified.load(Ordering::Relaxed)
                        );
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no worker panics");
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, outcome)| outcome).collect()
}

fn try_candidate(
    candidate: &Candidate,
    max_mate: u32,
    depth: u32,
    nodes: u64,
    engine: &mut Engine,
    prover: &mut MateProver,
    stop: &AtomicBool,
) -> Outcome {
    let pos = &candidate.pos;
    if !pos.has_legal_move() {
        return Outcome::Rejected(Rejection::GameOver.reason());
    }
    engine.new_game();
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(if candidate.exercise {
            nodes * 10
        } else {
            nodes
        }),
        ..Limits::default()
    };
    let result = engine.search(pos, &limits, stop, &mut |_| {});
    let seen = match result.verdict() {
        Verdict::Mate(n) if n > 0 => n as u32,
        _ => return Outcome::NoMateSeen,
    };
    if seen > max_mate {
        return Outcome::Rejected("longer-than-max");
    }
    // The prover looks for the shortest mate from 1 up; the engine's N bounds the search.
    match certify(pos, seen, prover) {
        Ok(certified) => Outcome::Certified(Box::new(Puzzle::new(
            pos,
            certified,
            candidate.source.clone(),
        ))),
        Err(rejection) => {
            if let Rejection::NoMate { within } = rejection {
                // The engine knows that perpetual check loses; the prover lets the
                // defender check forever, so a mate resting on that rule is not proven.
                eprintln!(
                    "the engine sees a mate in {within} the prover does not prove (a perpetual-check defence?): {}",
                    pos.to_fen()
                );
            }
            Outcome::Rejected(rejection.reason())
        }
    }
}
