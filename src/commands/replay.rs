//! `xiangqi-tui replay FILE [--json]`: plays a game record, PGN (UTF-8, GBK or Big5) or XQF
//! (recognised by its magic bytes), and prints the final FEN and the number of moves in
//! plies, or the first move that fails with its number, its text and the reason (for XQF
//! also its byte offset). `--json` also counts the comments and variations kept. When the
//! repetition rules end the game within the record, both say the arbiter's ruling (and
//! how many moves the record goes on after it).

use std::io::Write;

use anyhow::{Result, bail};
use serde_json::json;
use xiangqi_core::record::xqf::{XqfErrorKind, is_xqf};
use xiangqi_core::record::{
    Annotation, GameRecord, MoveFailure, XqfError, decode, parse_pgn, read_xqf,
};
use xiangqi_engine::opening::classify;

use crate::cli::ReplayArgs;

/// Why a file did not replay to its end.
enum Failure {
    /// Not readable as a record: a one-line message saying where.
    Unreadable(String),
    /// A PGN move that does not play, with its line and column.
    Pgn(MoveFailure),
    /// An XQF move that does not play: the error (which says its byte offset), its ply
    /// and the move.
    Xqf(XqfError, usize, String),
}

/// Reads and replays the file.
fn load(args: &ReplayArgs) -> Result<GameRecord, Failure> {
    let path = args.file.display();
    let unreadable = |e: &dyn std::fmt::Display| Failure::Unreadable(format!("{path}: {e}"));
    let bytes = std::fs::read(&args.file).map_err(|e| unreadable(&e))?;
    if is_xqf(&bytes) {
        return read_xqf(&bytes).map_err(|e| match &e.kind {
            XqfErrorKind::IllegalMove { ply, mv, .. } => {
                let (ply, mv) = (*ply, mv.clone());
                Failure::Xqf(e, ply, mv)
            }
            _ => unreadable(&e),
        });
    }
    let (text, _) = decode(&bytes).map_err(|e| unreadable(&e))?;
    let game = parse_pgn(&text).map_err(|e| unreadable(&e))?;
    match game.replay_partial().map_err(|e| unreadable(&e))? {
        (record, None) => Ok(record),
        (_, Some(failure)) => Err(Failure::Pgn(failure)),
    }
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
    let record = match load(args) {
        Ok(record) => record,
        Err(Failure::Unreadable(message)) if args.json => json_failure(json!({ "error": message })),
        Err(Failure::Unreadable(message)) => bail!(message),
        Err(Failure::Pgn(f)) if args.json => json_failure(json!({
            "error": format!("line {}:{}: {}", f.line, f.column, f.error),
            "move_number": f.ply,
            "text": f.text,
        })),
        Err(Failure::Pgn(f)) => bail!("{}: {f}", args.file.display()),
        Err(Failure::Xqf(e, ply, text)) if args.json => json_failure(json!({
            "error": e.to_string(),
            "move_number": ply,
            "text": text,
            "offset": e.offset,
        })),
        Err(Failure::Xqf(e, ..)) => bail!("{}: {e}", args.file.display()),
    };
    let fen = record.final_position().to_fen();
    let (moves, result) = (record.moves.len(), record.result.as_str());
    let (comments, variations) = count_notes(&record.notes);
    let comments = comments + usize::from(record.comment.is_some());
    let mut out = std::io::stdout().lock();
    let opening = classify(&record.start, &record.moves);
    let ruling = record.start.first_ruling(&record.moves);
    let moves_after_end = ruling.as_ref().map_or(0, |r| moves - r.ply);
    let written = if args.json {
        let ruling = ruling.map(|ruling| {
            let mut value = json!(ruling);
            if moves_after_end > 0 {
                value["moves_after_end"] = json!(moves_after_end);
            }
            value
        });
        writeln!(
            out,
            "{}",
            json!({
                "moves": moves,
                "fen": fen,
                "result": result,
                "comments": comments,
                "variations": variations,
                "ecco": opening.map(|o| o.code.to_string()),
                "opening": opening.map(|o| o.name(false)),
                "ruling": ruling,
            })
        )
    } else {
        let ruling = match ruling {
            Some(ruling) if moves_after_end > 0 => {
                format!("\nruling {ruling}; the record goes on {moves_after_end} moves after it")
            }
            Some(ruling) => format!("\nruling {ruling}"),
            None => String::new(),
        };
        writeln!(out, "fen {fen}\nmoves {moves}\nresult {result}{ruling}")
    };
    super::finish_output(written)
}
