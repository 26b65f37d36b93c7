//! `book generate`: an opening book from the engine's own analysis (here in the engine,
//! above the book, because it needs the engine). From the start position, each position
//! is searched move by move at a fixed depth, and the best few moves (within a margin of
//! the best) are stored and expanded, ply by ply, to a fixed depth of the book. One engine, one thread, fixed depth and a fixed traversal order: the same
//! options always give the same file.
//!
//! A generated entry has no games behind it, so its numbers are defined from the search:
//! `count` is a weight from the ranking (`width` for the best move, one less for each
//! rank below), and every one of those counts goes to one result by the score after the
//! move: a win for the mover above `+RESULT_MARGIN` centipawns, a loss below
//! `-RESULT_MARGIN`, else a draw.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use super::score::MATE;
use super::{Engine, Limits, Verdict};
use crate::book::{BookBuilder, BookKey, Stats};
use xiangqi_core::board::{Color, Move, Position};

/// Scores within this many centipawns of zero count as draws.
pub const RESULT_MARGIN: i32 = 50;
/// Moves kept after the shallow pass for the full-depth one.
const PREFILTER: usize = 8;
/// Hash size for generation: fixed, as the table's size changes what a search finds.
const HASH_MB: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Plies of the book: positions up to this many moves from the start are expanded.
    pub plies: u32,
    /// Search depth of the root position (each move's reply is searched one less).
    pub depth: u32,
    /// Most moves kept per position.
    pub width: usize,
    /// Moves scoring within this many centipawns of the best are kept.
    pub margin: i32,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            plies: 8,
            depth: 6,
            width: 3,
            margin: 25,
        }
    }
}

/// A move and its score for the side that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    pub score: i32,
}

/// Progress: positions searched so far, positions known so far, and the current ply.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, u32);

/// The ranking's score of a verdict: centipawns, a mate at the engine's `MATE` less its
/// moves (not plies, unlike `Verdict::to_score`: the margin counts a mate a move
/// nearer as one point, as the books generated so far were ranked).
fn centipawns(verdict: Verdict) -> i32 {
    match verdict {
        Verdict::Centipawns(cp) => cp,
        Verdict::Mate(moves) if moves > 0 => MATE - moves,
        Verdict::Mate(moves) => -MATE - moves,
    }
}

/// The moves of `pos` ranked by the engine, best first (ties by ICCS): every move
/// searched shallow, the best `PREFILTER` of them again at `depth - 1` after the move.
pub fn rank_moves(engine: &mut Engine, pos: &Position, depth: u32) -> Vec<RankedMove> {
    let stop = AtomicBool::new(false);
    let score_at = |engine: &mut Engine, mv: Move, depth: u32| {
        let mut child = pos.clone();
        child.make_move(mv);
        let result = engine.search(&child, &Limits::depth(depth.max(1)), &stop, &mut |_| {});
        if result.best_move.is_none() {
            // No reply: the mover has mated (or stalemated) the other side.
            return MATE;
        }
        -centipawns(result.verdict())
    };
    let sort = |moves: &mut Vec<RankedMove>| {
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(a.mv.iccs().cmp(&b.mv.iccs())))
    };
    let shallow_depth = depth.saturating_sub(3).max(1);
    let mut ranked: Vec<RankedMove> = pos
        .legal_move_list()
        .into_iter()
        .map(|mv| RankedMove {
            mv,
            score: score_at(engine, mv, shallow_depth),
        })
        .collect();
    sort(&mut ranked);
    ranked.truncate(PREFILTER);
    if depth > shallow_depth + 1 {
        for m in &mut ranked {
            m.score = score_at(engine, m.mv, depth - 1);
        }
        sort(&mut ranked);
    }
    ranked
}

/// The moves kept from a ranking: within `margin` of the best, at most `width`.
pub fn kept(ranked: &[RankedMove], width: usize, margin: i32) -> &[RankedMove] {
    let Some(best) = ranked.first() else {
        return ranked;
    };
    let n = ranked
        .iter()
        .take(width.max(1))
        .take_while(|m| m.score >= best.score.saturating_sub(margin))
        .count();
    &ranked[..n]
}

/// The statistics stored for the move ranked `rank` (0: best) scoring `score` for `side`.
pub fn generated_stats(rank: usize, width: usize, score: i32, side: Color) -> Stats {
    let count = (width.max(1) - rank.min(width.max(1) - 1)) as u32;
    let mut stats = Stats {
        count,
        ..Stats::default()
    };
    let mover_wins = score > RESULT_MARGIN;
    let mover_loses = score < -RESULT_MARGIN;
    match (side, mover_wins, mover_loses) {
        (_, false, false) => stats.draws = count,
        (Color::Red, true, _) | (Color::Black, _, true) => stats.red_wins = count,
        _ => stats.black_wins = count,
    }
    stats
}

/// Generates the book: a builder holding the entries, and the number of positions
/// searched.
pub fn generate(options: &GenerateOptions, progress: Progress<'_>) -> (BookBuilder, usize) {
    let mut engine = Engine::new(HASH_MB);
    let mut builder = BookBuilder::new(Some(options.plies as usize));
    builder.source = crate::book::Source::Engine;
    let mut seen: HashSet<u64> = HashSet::new();
    let start = Position::startpos();
    seen.insert(BookKey::of(&start).key);
    let mut frontier = vec![start];
    let mut searched = 0;
    let mut known = 1;
    for ply in 0..options.plies {
        let mut next = Vec::new();
        for pos in &frontier {
            let key = BookKey::of(pos);
            let ranked = rank_moves(&mut engine, pos, options.depth);
            for (rank, m) in kept(&ranked, options.width, options.margin)
                .iter()
                .enumerate()
            {
                let stats = generated_stats(rank, options.width, m.score, pos.side_to_move());
                builder.add(key, m.mv, stats);
                let mut child = pos.clone();
                child.make_move(m.mv);
                child.clear_history();
                if ply + 1 < options.plies && seen.insert(BookKey::of(&child).key) {
                    next.push(child);
                    known += 1;
                }
            }
            searched += 1;
            progress(searched, known, ply);
        }
        frontier = next;
    }
    builder.games = searched;
    (builder, searched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_follow_the_score_sign_for_the_mover() {
        let red_good = generated_stats(0, 3, 120, Color::Red);
        assert_eq!((red_good.count, red_good.red_wins), (3, 3));
        let black_good = generated_stats(1, 3, 120, Color::Black);
        assert_eq!((black_good.count, black_good.black_wins), (2, 2));
        let black_bad = generated_stats(2, 3, -80, Color::Black);
        assert_eq!((black_bad.count, black_bad.red_wins), (1, 1));
        assert_eq!(generated_stats(0, 3, 10, Color::Red).draws, 3);
    }

    #[test]
    fn kept_moves_stay_within_the_margin_and_width() {
        let mv = Move::parse_coords("h2e2").unwrap();
        let ranked: Vec<RankedMove> = [40, 30, 20, 5]
            .map(|score| RankedMove { mv, score })
            .to_vec();
        assert_eq!(kept(&ranked, 3, 15).len(), 2);
        assert_eq!(kept(&ranked, 2, 100).len(), 2);
        assert_eq!(kept(&ranked, 5, 100).len(), 4);
        assert!(kept(&[], 3, 10).is_empty());
    }

    #[test]
    fn a_tiny_generation_is_reproducible() {
        let options = GenerateOptions {
            plies: 2,
            depth: 2,
            width: 2,
            margin: 30,
        };
        let (a, searched) = generate(&options, &mut |_, _, _| {});
        let (b, _) = generate(&options, &mut |_, _, _| {});
        assert_eq!(a.to_bytes(1), b.to_bytes(1));
        assert!(searched >= 2);
        assert!(a.len() >= 2);
    }
}
