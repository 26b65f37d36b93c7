//! `xiangqi-tui replay FILE [--json]`: plays a PGN record (UTF-8, GBK or Big5) and prints
//! the final FEN and the number of moves in plies, or the first move that fails with its
//! number, its text and the reason.

use std::io::Write;

use anyhow::{Result, bail};
use serde_json::json;
use xiangqi_tui::opening::classify;
use xiangqi_tui::record::{GameRecord, MoveFailure, decode, parse_pgn};

use crate::cli::ReplayArgs;

/// Reads and replays the file; the error is a one-line message saying where.
fn load(args: &ReplayArgs) -> Result<(GameRecord, Option<MoveFailure>), String> {
    let path = args.file.display();
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let (text, _) = decode(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let game = parse_pgn(&text).map_err(|e| format!("{path}: {e}"))?;
    game.replay_partial().map_err(|e| format!("{path}: {e}"))
}

/// Prints a JSON error object and exits with status 1, keeping standard error quiet so
/// scripts get exactly one object.
fn json_failure(value: serde_json::Value) -> ! {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
    std::process::exit(1)
}

pub fn run(args: &ReplayArgs) -> Result<()> {
    let (record, failure) = match load(args) {
        Ok(loaded) => loaded,
        Err(message) if args.json => json_failure(json!({ "error": message })),
        Err(message) => bail!(message),
    };
    if let Some(f) = failure {
        if args.json {
            json_failure(json!({
                "error": format!("line {}:{}: {}", f.line, f.column, f.error),
                "move_number": f.ply,
                "text": f.text,
            }));
        }
        bail!("{}: {f}", args.file.display());
    }
    let fen = record.final_position().to_fen();
    let (moves, result) = (record.moves.len(), record.result.as_str());
    let mut out = std::io::stdout().lock();
    let opening = classify(&record.start, &record.moves);
    let written = if args.json {
        writeln!(
            out,
            "{}",
            json!({
                "moves": moves,
                "fen": fen,
                "result": result,
                "ecco": opening.map(|o| o.code.to_string()),
                "opening": opening.map(|o| o.name(false)),
            })
        )
    } else {
        writeln!(out, "fen {fen}\nmoves {moves}\nresult {result}")
    };
    super::finish_output(written)
}
