//! `xiangqi-tui perft DEPTH [--fen FEN] [--divide] [--json]`

use std::time::Instant;

use anyhow::Result;
use xiangqi_tui::board::Position;

use crate::cli::PerftArgs;

pub fn run(args: &PerftArgs) -> Result<()> {
    let fen = args.fen.as_deref().unwrap_or(Position::START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("bad FEN: {e}"))?;
    let start = Instant::now();
    let (nodes, divide) = if args.divide {
        let split = pos.perft_divide(args.depth);
        (split.iter().map(|&(_, n)| n).sum(), split)
    } else {
        (pos.perft(args.depth), Vec::new())
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };

    if args.json {
        let mut out = serde_json::json!({
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": (seconds * 1e6).round() / 1e6,
            "nps": nps,
        });
        if args.divide {
            out["divide"] = divide
                .iter()
                .map(|(m, n)| (m.iccs(), serde_json::json!(n)))
                .collect();
        }
        println!("{out}");
    } else {
        for (mv, n) in &divide {
            println!("{mv}: {n}");
        }
        if args.divide {
            println!();
        }
        println!("nodes {nodes}");
        println!("time {seconds:.3} s");
        println!("nps {nps}");
    }
    Ok(())
}
