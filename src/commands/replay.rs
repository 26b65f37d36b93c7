//! `xiangqi-tui replay FILE [--json]`: plays a PGN record (UTF-8, GBK or Big5) and prints
//! the final FEN and the number of moves in plies, or the first move that fails with its
//! number, its text and the reason. `--json` also counts the comments and variations kept.

use std::io::Write;

use anyhow::{Result, bail};
use serde_json::json;
use xiangqi_tui::record::{Annotation, GameRecord, MoveFailure, decode, parse_pgn};

use crate::cli::ReplayArgs;

/// Reads and replays the file; the error is a one-line message saying where.
fn load(args: &ReplayArgs) -> Result<(GameRecord, Option<MoveFailure>), String> {
    let path = args.file.display();
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let (text, _) = decode(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let game = parse_pgn(&text).map_err(|e| format!("{path}: {e}"))?;
    game.replay_partial().map_err(|e| format!("{path}: {e}"))
}

/// The comments and variations in `notes`, nested ones included.
fn count_notes(notes: &[Annotation]) -> (usize, usize) {
    notes.iter().fold((0, 0), |(comments, variations), note| {
        let (c, v) = note.variations.iter().fold((0, 0), |(c, v), line| {
            let (lc, lv) = count_notes(&line.notes);
            (c + lc + usize::from(line.comment.is_some()), v + lv + 1)
        });
        (
            comments + c + usize::from(note.comment.is_some()),
            variations + v,
        )
    })
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
    let (comments, variations) = count_notes(&record.notes);
    let comments = comments + usize::from(record.comment.is_some());
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        writeln!(
            out,
            "{}",
            json!({ "moves": moves, "fen": fen, "result": result,
                    "comments": comments, "variations": variations })
        )
    } else {
        writeln!(out, "fen {fen}\nmoves {moves}\nresult {result}")
    };
    super::finish_output(written)
}
