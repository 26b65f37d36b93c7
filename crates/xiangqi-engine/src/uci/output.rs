//! What the front end prints: lines to the GUI, shared by the input loop and the
//! service's thread, and the `info` and `bestmove` lines of a search.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use super::command::Dialect;
use crate::engine::{SearchInfo, Verdict};
use xiangqi_core::board::Move;

/// Where lines go: shared by the input loop and the search's reports, flushed per line.
pub(super) type Output = Arc<Mutex<Box<dyn Write + Send>>>;

pub(super) fn say(out: &Output, line: &str) -> io::Result<()> {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(out, "{line}")?;
    out.flush()
}

/// The `info` lines for one completed iteration: one, or with MultiPV in UCI one per
/// line with its rank (`multipv K`).
pub fn info_lines(info: &SearchInfo, dialect: Dialect) -> Vec<String> {
    if info.lines.len() < 2 || dialect == Dialect::Ucci {
        return vec![info_line(info, dialect)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            format!(
                "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
                info.depth,
                info.seldepth,
                index + 1,
                line.verdict(),
                info.nodes,
                info.nps,
                info.hashfull,
                info.time.as_millis(),
                moves_text(&line.pv)
            )
        })
        .collect()
}

/// An `info` line for one completed iteration.
pub fn info_line(info: &SearchInfo, dialect: Dialect) -> String {
    let pv = moves_text(&info.pv);
    let millis = info.time.as_millis();
    match dialect {
        Dialect::Uci => format!(
            "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {} pv {pv}",
            info.depth,
            info.seldepth,
            info.verdict(),
            info.nodes,
            info.nps,
            info.hashfull,
            millis
        ),
        Dialect::Ucci => {
            let score = match info.verdict() {
                Verdict::Centipawns(cp) => cp,
                Verdict::Mate(_) => info.score,
            };
            format!(
                "info depth {} score {score} time {millis} nodes {} pv {pv}",
                info.depth, info.nodes
            )
        }
    }
}

/// The final `bestmove` line (UCI `bestmove (none)` / UCCI `nobestmove` when the side
/// to move has no legal move).
pub fn bestmove_line(mv: Option<Move>, ponder: Option<Move>, dialect: Dialect) -> String {
    match (mv, dialect) {
        (Some(mv), _) => match ponder {
            Some(reply) => format!("bestmove {mv} ponder {reply}"),
            None => format!("bestmove {mv}"),
        },
        (None, Dialect::Uci) => "bestmove (none)".to_string(),
        (None, Dialect::Ucci) => "nobestmove".to_string(),
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(|m| m.iccs()).collect::<Vec<_>>().join(" ")
}
