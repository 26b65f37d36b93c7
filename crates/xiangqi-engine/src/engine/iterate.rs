//! Iterative deepening with aspiration windows: search depth 1, 2, 3, ... each time
//! around the previous score, widening the window when the score falls outside it. Each
//! iteration seeds the next one's move ordering through the table and the history.

use super::limits::Limits;
use super::multipv::{self, PvLine};
use super::score::{INFINITE, MATE, MAX_PLY, is_mate, mated_in};
use super::search::{SearchInfo, SearchOptions, SearchResult, Searcher, nodes_per_second};

/// Deepest iteration: leaves room below for extensions and quiescence.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 28;
/// First aspiration half-window, in centipawns.
const ASPIRATION_WINDOW: i32 = 20;

/// The reporting thread's search: its result, and `report` after each iteration.
pub(crate) fn iterative_deepening(
    searcher: &mut Searcher,
    multipv: usize,
    limits: &Limits,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let options = searcher.options;
    let root_moves = searcher.pos.legal_move_list();
    let mut result = SearchResult {
        best_move: root_moves.first().copied(),
        ponder: None,
        score: if root_moves.is_empty() {
            mated_in(0)
        } else {
            0
        },
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: searcher.elapsed(),
        pv: root_moves.first().copied().into_iter().collect(),
        lines: Vec::new(),
    };
    if root_moves.is_empty() {
        return result;
    }
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let (soft, _) = limits.time_budget();
    let only_move = root_moves.len() == 1 && limits.clock.is_some() && !limits.infinite;

    let wanted = multipv.clamp(1, root_moves.len());
    // The last completed iteration's lines (MultiPV only).
    let mut lines: Vec<PvLine> = Vec::new();

    for depth in 1..=max_depth {
        searcher.seldepth = 0;
        searcher.root_excluded.clear();
        let mut current: Vec<PvLine> = Vec::with_capacity(wanted);
        for index in 0..wanted {
            let previous = if index == 0 {
                Some(result.score)
            } else {
                lines.get(index).map(|line| line.score)
            };
            let score = aspiration_search(searcher, depth, previous, options);
            // A move that beat the window in an unfinished iteration is still better
            // than the last iteration's choice.
            let root_best = searcher.take_root_best();
            if index == 0
                && let Some((mv, value, pv)) = root_best
            {
                result.best_move = Some(mv);
                result.score = value;
                result.pv = pv;
            }
            if searcher.stopped {
                break;
            }
            let pv = searcher.root_pv();
            if index == 0 {
                result.score = score;
                result.depth = depth;
                if !pv.is_empty() {
                    result.best_move = Some(pv[0]);
                    result.pv = pv.clone();
                }
            }
            let Some(&first) = pv.first() else { break };
            searcher.root_excluded.push(first);
            current.push(PvLine { score, pv });
        }
        if searcher.stopped {
            if wanted > 1 {
                lines = multipv::merge_partial(current, &lines, wanted);
            }
            break;
        }
        result.seldepth = searcher.seldepth as u32;
        if wanted > 1 {
            multipv::sort_lines(&mut current);
            lines = current;
            result.score = lines[0].score;
            result.best_move = lines[0].first_move();
            result.pv = lines[0].pv.clone();
        }
        let score = result.score;
        let time = searcher.elapsed();
        let nodes = searcher.total_nodes();
        report(&SearchInfo {
            depth,
            seldepth: result.seldepth,
            score,
            nodes,
            nps: nodes_per_second(nodes, time),
            time,
            pv: result.pv.clone(),
            hashfull: searcher.tt.hashfull(),
            lines: lines.clone(),
        });

        if limits.infinite {
            continue;
        }
        if only_move {
            break;
        }
        if let Some(soft) = soft
            && time >= soft
        {
            break;
        }
        // A proven mate ends a search bounded by time or by nothing. A requested depth is
        // searched in full: reductions can hide a shorter mate until a deeper iteration.
        if limits.depth.is_none() && is_mate(score) && depth as i32 >= MATE - score.abs() + 2 {
            break;
        }
    }
    result.nodes = searcher.total_nodes();
    result.time = searcher.elapsed();
    result.ponder = result.pv.get(1).copied();
    result.lines = lines;
    result
}

/// One root search at `depth`, in an aspiration window around `previous` (the score of
/// this line in the last iteration), widened until the score falls inside it.
pub(crate) fn aspiration_search(
    searcher: &mut Searcher,
    depth: u32,
    previous: Option<i32>,
    options: SearchOptions,
) -> i32 {
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = match previous {
        Some(prev) if options.aspiration && depth >= 4 && !is_mate(prev) => {
            (prev - delta, prev + delta)
        }
        _ => (-INFINITE, INFINITE),
    };
    loop {
        let value = searcher.search_root(depth as i32, alpha, beta);
        if searcher.stopped {
            return value;
        }
        if value <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (value - delta).max(-INFINITE);
        } else if value >= beta {
            beta = (value + delta).min(INFINITE);
        } else {
            return value;
        }
        delta += delta;
        if delta > 600 {
            alpha = -INFINITE;
            beta = INFINITE;
        }
    }
}
