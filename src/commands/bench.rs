//! `xiangqi-tui bench [--depth N] [--threads N] [--json]`: fixed positions searched to a
//! fixed depth with alpha-beta on a fresh engine each. With one thread (the default) the
//! node total is a signature of the search: it changes only when the search or the
//! evaluation changes. More threads measure the parallel search's speed.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use xiangqi_core::board::Position;
use xiangqi_engine::engine::{Engine, Limits};

use crate::cli::{BenchArgs, GlobalArgs};

/// Depth searched when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 12;
/// Table size for the bench, fixed so the signature does not depend on `--hash`.
const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames and endgames from real games (notation.md's worked examples)
/// plus a few classic structures.
pub const POSITIONS: [&str; 10] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "r2a2br1/4k4/2nab1PPn/7P1/p5p2/P4cP1p/7C1/N1pA5/5C2N/R1BAK1BR1 w - - 23 35",
    "6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79",
    "3aC1b2/2n1a2r1/5k2b/Ccp3Rrp/4pcp2/2B1P1B1P/P1P3PN1/9/5R3/3K1A3 b - - 2 44",
    "rnba1abn1/4k2c1/8r/5P1P1/p1p2P3/P1P5p/1C5pp/9/3CA4/RNBK1ABNR b - - 0 21",
    "r1bak1br1/9/2na3Pn/6PP1/p5p2/P4cPp1/9/N1p4C1/4AC2N/R1BAK1BR1 w - - 17 32",
    "3akab2/9/4b4/9/2p6/6R2/9/4B4/4A4/2BAK4 w - - 0 1",
    "4k4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1N2 w - - 0 1",
];

pub fn run(args: &BenchArgs, global: &GlobalArgs) -> Result<()> {
    let depth = global.depth.unwrap_or(DEFAULT_DEPTH);
    let threads = super::threads_flag(global)?;
    let json = args.json;
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    let stop = AtomicBool::new(false);
    let mut out = std::io::stdout().lock();
    let mut written = Ok(());
    for (index, fen) in POSITIONS.iter().enumerate() {
        let pos =
            Position::from_fen(fen).map_err(|e| anyhow!("bench position {}: {e}", index + 1))?;
        let mut engine = Engine::new(BENCH_HASH_MB);
        engine.set_threads(threads);
        let start = Instant::now();
        let result = engine.search(&pos, &Limits::depth(depth), &stop, &mut |_| {});
        total_time += start.elapsed();
        total_nodes += result.nodes;
        if !json && written.is_ok() {
            written = writeln!(
                out,
                "position {:>2}/{}: {} score {} nodes {}",
                index + 1,
                POSITIONS.len(),
                result.best_move.map_or("(none)".to_string(), |m| m.iccs()),
                result.verdict(),
                result.nodes
            );
        }
    }
    let micros = total_time.as_micros().max(1);
    let nps = (u128::from(total_nodes) * 1_000_000 / micros) as u64;
    let summary = if json {
        let object = serde_json::json!({
            "depth": depth,
            "threads": threads,
            "positions": POSITIONS.len(),
            "nodes": total_nodes,
            "time_ms": total_time.as_millis() as u64,
            "nps": nps,
        });
        writeln!(out, "{object}")
    } else {
        writeln!(
            out,
            "depth {depth}\nnodes {total_nodes}\ntime {:.3} s\nnps {nps}",
            total_time.as_secs_f64()
        )
    };
    // `bench | head` closes the pipe early: a normal end, not a panic.
    super::finish_output(written.and(summary).and_then(|()| out.flush()))
}
