//! At which depth does the engine prove a mate? For each line `FEN<TAB>N` of a file
//! (N: the mate to check, in moves), an exhaustive search independent of the engine
//! finds the shortest forced win up to N moves, then the engine searches depth 1, 2, ...
//! until it reports that mate. The target: a mate in N by depth 2N+2.
//!
//! `cargo run --release --example mate_depth -- FILE [--max-depth D]`

use std::sync::atomic::AtomicBool;

use xiangqi_core::board::Position;
use xiangqi_engine::engine::mate_oracle::{defender_lost_within, shortest_forced_win};
use xiangqi_engine::engine::{Engine, Limits, SearchOptions, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: mate_depth FILE [--max-depth D]");
        std::process::exit(2);
    };
    let max_depth = args
        .iter()
        .position(|a| a == "--max-depth")
        .and_then(|i| args.get(i + 1))
        .and_then(|d| d.parse().ok())
        .unwrap_or(16u32);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let mut options = SearchOptions::default();
    for (flag, switch) in [
        ("--no-null", &mut options.null_move as &mut bool),
        ("--no-lmr", &mut options.late_move_reductions),
        ("--no-pruning", &mut options.pruning),
    ] {
        if args.iter().any(|a| a == flag) {
            *switch = false;
        }
    }
    let stop = AtomicBool::new(false);
    let (mut on_time, mut late) = (0, 0);
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let fen = fields.next().unwrap_or("");
        let wanted: u32 = fields
            .next()
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(3);
        let mut pos = match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("line {}: {e}", number + 1);
                continue;
            }
        };
        let Some(shortest) = shortest_forced_win(&pos, wanted) else {
            println!("{fen}\tno mate in {wanted}");
            continue;
        };
        let found = (1..=max_depth).find(|&depth| {
            let mut engine = Engine::new(16);
            engine.options = options;
            let result = engine.search(&pos, &Limits::depth(depth), &stop, &mut |_| {});
            result.verdict() == Verdict::Mate(shortest as i32)
        });
        let target = 2 * shortest + 2;
        let winning: Vec<String> = pos
            .legal_move_list()
            .into_iter()
            .filter(|&mv| {
                pos.make_move(mv);
                let lost = defender_lost_within(&mut pos, shortest - 1);
                pos.unmake_move(mv);
                lost
            })
            .map(|mv| mv.iccs())
            .collect();
        match found {
            Some(depth) if depth <= target => on_time += 1,
            _ => late += 1,
        }
        println!(
            "{fen}\tmate {shortest} ({})\tfound at depth {}\t{}",
            winning.join(" "),
            found.map_or("-".to_owned(), |d| d.to_string()),
            if found.is_some_and(|d| d <= target) {
                "ok"
            } else {
                "LATE"
            }
        );
    }
    println!("by depth 2N+2: {on_time}; later or never: {late}");
}
