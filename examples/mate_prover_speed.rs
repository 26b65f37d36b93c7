//! The plain mate oracle against the prover with its memo, on the same questions: for
//! each line `FEN<TAB>N` of a file, the shortest win up to N and, for every first move,
//! whether it wins within N (what certifying a puzzle asks). Prints both answers' times
//! and stops if they ever differ.
//!
//! `cargo build --profile test --example mate_prover_speed &&
//!  target/debug/examples/mate_prover_speed tests/data/mates.tsv`

use std::time::Instant;

use xiangqi_core::board::Position;
use xiangqi_engine::engine::mate_oracle;
use xiangqi_engine::engine::mate_prover::MateProver;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: mate_prover_speed FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let positions: Vec<(Position, u32)> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let (fen, n) = line.split_once('\t')?;
            Some((Position::from_fen(fen).ok()?, n.trim().parse().ok()?))
        })
        .collect();
    // Per position: does the side to move win within k (k = 1..N), then for each first
    // move: is the defender lost within N-1 (what certifying a puzzle asks).
    fn answers(
        positions: &[(Position, u32)],
        win_within: &mut dyn FnMut(&mut Position, u32) -> bool,
        lost_within: &mut dyn FnMut(&mut Position, u32) -> bool,
    ) -> Vec<bool> {
        let mut out = Vec::new();
        for (pos, n) in positions {
            let mut pos = pos.clone();
            out.extend((1..=*n).map(|k| win_within(&mut pos, k)));
            for mv in pos.legal_move_list() {
                pos.make_move(mv);
                out.push(lost_within(&mut pos, n - 1));
                pos.unmake_move(mv);
            }
        }
        out
    }
    let started = Instant::now();
    let plain = answers(
        &positions,
        &mut |pos, k| mate_oracle::forced_win_within(pos, k),
        &mut |pos, k| mate_oracle::defender_lost_within(pos, k),
    );
    let plain_time = started.elapsed();
    let started = Instant::now();
    let prover = std::cell::RefCell::new(MateProver::new());
    let fast = answers(
        &positions,
        &mut |pos, k| prover.borrow_mut().forced_win_within(pos, k).unwrap(),
        &mut |pos, k| prover.borrow_mut().defender_lost_within(pos, k).unwrap(),
    );
    let fast_time = started.elapsed();
    let prover = prover.into_inner();
    assert_eq!(plain, fast, "the prover and the oracle differ");
    println!(
        "{} positions, {} answers, all equal: oracle {:.2} s, prover {:.2} s ({} nodes)",
        positions.len(),
        plain.len(),
        plain_time.as_secs_f64(),
        fast_time.as_secs_f64(),
        prover.nodes()
    );
}
