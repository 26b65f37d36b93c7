//! Reading what an engine says: `info` lines (depth, score, nodes, PV) and `bestmove`.

use std::time::Duration;

use crate::engine::{SearchInfo, Verdict};
use xiangqi_core::board::{Move, Position};

/// Parses an `info` line (UCI `score cp N` / `score mate N`, UCCI `score N`) into the
/// engine's own iteration report, the PV kept as far as it is legal from `position`.
/// `None` for lines without depth, score or PV (`currmove`, `string`, ...).
pub fn parse_info(line: &str, position: &Position) -> Option<SearchInfo> {
    let mut words = line.split_whitespace();
    if words.next()? != "info" {
        return None;
    }
    let (mut depth, mut score, mut nodes, mut nps, mut time_ms) = (None, None, 0, 0, 0);
    let (mut seldepth, mut hashfull) = (0, 0);
    let mut pv_words: Vec<&str> = Vec::new();
    while let Some(word) = words.next() {
        match word {
            "depth" => depth = words.next()?.parse().ok(),
            "nodes" => nodes = words.next()?.parse().unwrap_or(0),
            "nps" => nps = words.next()?.parse().unwrap_or(0),
            "time" => time_ms = words.next()?.parse().unwrap_or(0),
            "seldepth" => seldepth = words.next()?.parse().unwrap_or(0),
            "hashfull" => hashfull = words.next()?.parse().unwrap_or(0),
            "score" => {
                let kind = words.next()?;
                score = match kind {
                    "cp" => words.next()?.parse().ok().map(Verdict::Centipawns),
                    "mate" => words.next()?.parse().ok().map(Verdict::Mate),
                    number => number.parse().ok().map(Verdict::Centipawns),
                };
            }
            "pv" => {
                pv_words = words.by_ref().collect();
            }
            // Words these lines carry that take one value.
            "multipv" | "tbhits" | "currmovenumber" => {
                words.next();
            }
            "string" | "currmove" => return None,
            _ => {}
        }
    }
    let pv = legal_prefix(position, &pv_words);
    if pv.is_empty() {
        return None;
    }
    Some(SearchInfo {
        depth: depth?,
        seldepth,
        score: score?.to_score(),
        nodes,
        nps,
        time: Duration::from_millis(time_ms),
        pv,
        hashfull,
        lines: Vec::new(),
    })
}

/// The moves of `words` that parse and are legal one after another from `position`.
fn legal_prefix(position: &Position, words: &[&str]) -> Vec<Move> {
    let mut board = position.clone();
    let mut moves = Vec::new();
    for word in words {
        match Move::parse_coords(word) {
            Some(mv) if board.is_legal(mv) => {
                board.make_move(mv);
                moves.push(mv);
            }
            _ => break,
        }
    }
    moves
}

/// What a `bestmove` line says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BestMove {
    Move(Move),
    /// `bestmove (none)`, UCCI `nobestmove`: no legal move.
    NoMove,
    /// Words that are not a move.
    Unreadable(String),
}

/// Parses `bestmove X [ponder Y]` or `nobestmove`; `None` for other lines.
pub fn parse_bestmove(line: &str) -> Option<BestMove> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "nobestmove" => Some(BestMove::NoMove),
        "bestmove" => Some(match words.next() {
            None | Some("(none)") | Some("0000") => BestMove::NoMove,
            Some(word) => match Move::parse_coords(word) {
                Some(mv) => BestMove::Move(mv),
                None => BestMove::Unreadable(word.to_owned()),
            },
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_of_both_dialects_read() {
        let start = Position::startpos();
        let info = parse_info(
            "info depth 7 seldepth 9 score cp -23 nodes 4567 nps 90000 hashfull 3 time 51 pv h2e2 h9g7 zz",
            &start,
        )
        .unwrap();
        assert_eq!((info.depth, info.seldepth, info.hashfull), (7, 9, 3));
        assert_eq!(info.verdict(), Verdict::Centipawns(-23));
        assert_eq!(
            (info.nodes, info.nps, info.time),
            (4567, 90000, Duration::from_millis(51))
        );
        assert_eq!(
            info.pv.len(),
            2,
            "the PV stops at the first word that is no move"
        );
        let ucci = parse_info("info depth 3 score 15 time 2 nodes 99 pv b0c2", &start).unwrap();
        assert_eq!(ucci.verdict(), Verdict::Centipawns(15));
        let mate = parse_info("info depth 5 score mate -3 pv h2e2", &start).unwrap();
        assert_eq!(mate.verdict(), Verdict::Mate(-3));
        assert_eq!(
            parse_info("info currmove h2e2 currmovenumber 1", &start),
            None
        );
        assert_eq!(parse_info("info string hello", &start), None);
        assert_eq!(parse_info("info depth 3 score cp 1 pv a0a5", &start), None);
    }

    #[test]
    fn bestmove_lines_read() {
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h9g7"),
            Some(BestMove::Move(Move::parse_coords("h2e2").unwrap()))
        );
        assert_eq!(parse_bestmove("bestmove (none)"), Some(BestMove::NoMove));
        assert_eq!(parse_bestmove("nobestmove"), Some(BestMove::NoMove));
        assert_eq!(
            parse_bestmove("bestmove xyz"),
            Some(BestMove::Unreadable("xyz".into()))
        );
        assert_eq!(parse_bestmove("readyok"), None);
    }
}
