//! `xiangqi-tui perft DEPTH [--fen FEN] [--divide] [--json]`

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use xiangqi_core::board::{Move, Position};

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

    let mut out = std::io::stdout().lock();
    let written = if args.json {
        let mut object = serde_json::json!({
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": (seconds * 1e6).round() / 1e6,
            "nps": nps,
        });
        if args.divide {
            object["divide"] = divide
                .iter()
                .map(|(m, n)| (m.iccs(), serde_json::json!(n)))
                .collect();
        }
        writeln!(out, "{object}")
    } else {
        write_plain(&mut out, &divide, args.divide, nodes, seconds, nps)
    };
    // `perft 6 --divide | head` closes the pipe early: a normal end, not a panic.
    super::finish_output(written.and_then(|()| out.flush()))
}

fn write_plain(
    out: &mut impl Write,
    divide: &[(Move, u64)],
    show_divide: bool,
    nodes: u64,
    seconds: f64,
    nps: u64,
) -> std::io::Result<()> {
    for (mv, n) in divide {
        writeln!(out, "{mv}: {n}")?;
    }
    if show_divide {
        writeln!(out)?;
    }
    writeln!(out, "nodes {nodes}")?;
    writeln!(out, "time {seconds:.3} s")?;
    writeln!(out, "nps {nps}")
}
