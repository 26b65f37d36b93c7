//! The engine's use of endgame tablebases: exact scores for covered positions inside the
//! search, and at a covered root that is won or lost, the tables' move outright (the
//! fastest mate, the longest defence) with no search at all.

use std::time::Instant;

use super::score::{DRAW, MATE_BOUND, MAX_PLY, mate_in, mated_in};
use super::search::{SearchInfo, SearchResult};
use crate::egtb::{Tablebases, Wdl};
use xiangqi_core::board::Position;

/// Longest principal variation read from the tables at the root.
const MAX_PV: usize = 64;

/// The search score of a covered position `ply` plies below the root, from its side to
/// move: a mate score counted from the root, or a draw. `None` when not covered.
pub(crate) fn score(tb: &Tablebases, pos: &Position, ply: usize) -> Option<i32> {
    let probe = tb.probe(pos)?;
    let distance = ply + probe.plies.unwrap_or(0) as usize;
    // A mate beyond the search's horizon still beats every evaluation.
    let far = MATE_BOUND - 1;
    Some(match probe.wdl {
        Wdl::Draw => DRAW,
        Wdl::Win if distance < MAX_PLY => mate_in(distance),
        Wdl::Win => far,
        Wdl::Loss if distance < MAX_PLY => mated_in(distance),
        Wdl::Loss => -far,
    })
}

/// The result for a root the tables decide (won or lost), with the tables' line as the
/// principal variation; `None` for a draw or an uncovered position (the search decides).
pub(crate) fn root_result(
    tb: &Tablebases,
    pos: &Position,
    report: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult> {
    let start = Instant::now();
    let probe = tb.probe(pos)?;
    if probe.wdl == Wdl::Draw {
        return None;
    }
    let score = score(tb, pos, 0)?;
    let mut line = pos.clone();
    let mut pv = Vec::new();
    while pv.len() < MAX_PV {
        match tb.best_move(&line) {
            Ok(Some(mv)) => {
                pv.push(mv);
                line.make_move(mv);
            }
            _ => break,
        }
    }
    let best_move = pv.first().copied()?;
    let time = start.elapsed();
    let info = SearchInfo {
        depth: 1,
        seldepth: pv.len() as u32,
        score,
        nodes: 1,
        nps: super::search::nodes_per_second(1, time),
        time,
        pv: pv.clone(),
        hashfull: 0,
        lines: Vec::new(),
    };
    report(&info);
    Some(SearchResult {
        best_move: Some(best_move),
        ponder: pv.get(1).copied(),
        score,
        depth: 1,
        seldepth: pv.len() as u32,
        nodes: 1,
        time,
        pv,
        lines: Vec::new(),
    })
}
