//! The review's judgement on scripted evaluations (no search), the workers' plumbing with
//! a scripted searcher, and one small review with the engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::engine::{Limits, SearchInfo, Verdict};
use crate::service::{EngineSearcher, Reporter, SearchRequest, Searcher};
use xiangqi_core::board::Move;
use xiangqi_core::notation::Notation;
use xiangqi_core::record::GameRecord;

fn mv(iccs: &str) -> Move {
    Move::parse_coords(iccs).unwrap()
}

fn eval(cp: i32, line: &[&str]) -> Evaluation {
    Evaluation {
        verdict: Verdict::Centipawns(cp),
        line: line.iter().map(|m| mv(m)).collect(),
    }
}

/// A short opening in which scripted scores make Red's second move (车一进一, where the
/// engine wanted 马二进三) a blunder.
fn game() -> GameRecord {
    GameRecord::from_pgn("1. 炮二平五 马8进7 2. 车一进一 车9平8 *").unwrap()
}

fn evaluations() -> Vec<Evaluation> {
    vec![
        eval(30, &["h2e2", "h9g7"]),         // Red to move: plays the best move
        eval(-25, &["b9c7", "h0g2"]),        // Black: 马8进7 not the engine's, loses little
        eval(35, &["h0g2", "i9h9", "i0h0"]), // Red: 车一进一 instead of 马二进三...
        eval(700, &["i9h9"]),                // ...Black is 7 pawns up: a blunder
        eval(-650, &["h0g2"]),               // Red to move after 车9平8
    ]
}

#[test]
fn moves_are_judged_by_the_chance_they_lose() {
    let review = GameReview::new(&game(), &evaluations());
    let classes: Vec<MoveClass> = review.moves.iter().map(|m| m.class).collect();
    assert_eq!(
        classes,
        [
            MoveClass::Best,
            MoveClass::Good,
            MoveClass::Blunder,
            MoveClass::Best
        ]
    );
    let blunder = &review.moves[2];
    assert_eq!(blunder.before, Verdict::Centipawns(35));
    assert_eq!(blunder.after, Verdict::Centipawns(-700));
    let expected = win_percent(Verdict::Centipawns(35)) - win_percent(Verdict::Centipawns(-700));
    assert!((blunder.loss - expected).abs() < 1e-9);
    assert_eq!(blunder.best_move(), Some(mv("h0g2")));
    assert_eq!(blunder.best_line.len(), 3);
    // Black's reply loses 5 points (-25 for Black before, -30 after... from its view).
    assert_eq!(review.moves[0].loss, 0.0);
    assert!(review.moves[1].loss > 0.0 && review.moves[1].loss < INACCURACY_LOSS);
    assert_eq!(review.errors().count(), 1);
    let (red, black) = (review.red_accuracy.unwrap(), review.black_accuracy.unwrap());
    assert!(red < black, "{red} {black}");
    assert!((0.0..=100.0).contains(&red) && (0.0..=100.0).contains(&black));
}

#[test]
fn the_annotated_game_carries_evals_nags_and_the_better_line() {
    let record = game();
    let review = GameReview::new(&record, &evaluations());
    let annotated = review.annotate(&record);
    let pgn = annotated.to_pgn(Notation::Chinese);
    let moves = pgn.split_once("\n\n").unwrap().1;
    assert_eq!(
        moves,
        "1. 炮二平五 {[%eval 0.25]} 1... 马8进7 {[%eval 0.35]}\n\
         2. 车一进一 $4 {[%eval -7.00] Blunder. 马二进三 was best.} \
         (2. 马二进三 车9平8 3. 车一平二) 2... 车9平8 {[%eval -6.50]}\n*\n"
    );
    let back = GameRecord::from_pgn(&pgn).unwrap();
    assert_eq!(back.notes, annotated.notes);
    // A second review replaces the first one's marks instead of adding to them.
    let again = review.annotate(&back);
    assert_eq!(again.notes, annotated.notes);
}

#[test]
fn a_mating_move_wins_everything_and_the_mated_position_is_not_searched() {
    // Red mates at once along the back rank.
    let record =
        GameRecord::from_pgn("[FEN \"3k5/1R7/R8/9/9/9/9/9/9/5K3 w - - 0 1\"]\n1. 车九进二 *")
            .unwrap();
    let limits = ReviewLimits {
        limits: Limits::depth(1),
        threads: 2,
        hash_mb: 1,
    };
    let evaluations = evaluate_positions(
        &positions(&record),
        &limits,
        &|| Box::new(Scripted),
        &mut |_, _| true,
    )
    .unwrap();
    assert_eq!(evaluations[1].verdict, Verdict::Mate(0));
    assert!(evaluations[1].line.is_empty());
    let evaluations = [
        Evaluation {
            verdict: Verdict::Mate(1),
            line: vec![mv("a7a9")],
        },
        evaluations[1].clone(),
    ];
    let review = GameReview::new(&record, &evaluations);
    assert_eq!(review.moves[0].after, Verdict::Mate(0));
    assert_eq!(
        (review.moves[0].loss, review.moves[0].class),
        (0.0, MoveClass::Best)
    );
    assert_eq!(eval_text(Verdict::Mate(-3)), "#-3");
    assert_eq!(eval_text(Verdict::Centipawns(-5)), "-0.05");
    assert_eq!(eval_text(Verdict::Centipawns(1234)), "12.34");
}

/// Scores every position by its ply (Red's view: `ply` centipawns) and plays the first
/// legal move: it checks which result goes where, not a search.
struct Scripted;

impl Searcher for Scripted {
    fn search(&mut self, request: &SearchRequest, report: &mut Reporter<'_>) -> Option<Move> {
        let pos = &request.position;
        let mv = pos.legal_move_list().first().copied();
        let ply = pos.ply() as i32;
        let score = if pos.side_to_move() == xiangqi_core::board::Color::Red {
            ply
        } else {
            -ply
        };
        report.iteration(SearchInfo {
            depth: 1,
            score,
            pv: mv.into_iter().collect(),
            ..SearchInfo::default()
        });
        mv
    }
}

#[test]
fn workers_put_each_evaluation_in_its_place() {
    let record =
        GameRecord::from_pgn("1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 *").unwrap();
    let positions = positions(&record);
    for threads in [1, 2, 3, 8] {
        let limits = ReviewLimits {
            limits: Limits::depth(1),
            threads,
            hash_mb: 1,
        };
        let calls = AtomicUsize::new(0);
        let mut progress = |done: usize, total: usize| {
            assert_eq!(total, 6);
            assert!(done <= total);
            calls.fetch_add(1, Ordering::Relaxed);
            true
        };
        let made = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&made);
        let searcher = move || -> Box<dyn Searcher> {
            counter.fetch_add(1, Ordering::Relaxed);
            Box::new(Scripted)
        };
        let evaluations = evaluate_positions(&positions, &limits, &searcher, &mut progress)
            .unwrap_or_else(|e| panic!("{threads}: {e}"));
        let scores: Vec<Verdict> = evaluations.iter().map(|e| e.verdict).collect();
        let expected = [0, -1, 2, -3, 4, -5].map(Verdict::Centipawns);
        assert_eq!(scores, expected, "{threads} threads");
        assert_eq!(calls.load(Ordering::Relaxed), 6, "progress after each");
        assert_eq!(made.load(Ordering::Relaxed), threads.min(6));
        for (pos, evaluation) in positions.iter().zip(&evaluations) {
            assert_eq!(
                evaluation.best_move(),
                pos.legal_move_list().first().copied()
            );
        }
    }
    // Cancelled from the progress callback.
    let limits = ReviewLimits {
        limits: Limits::depth(1),
        threads: 2,
        hash_mb: 1,
    };
    let cancelled = evaluate_positions(&positions, &limits, &|| Box::new(Scripted), &mut |d, _| {
        d < 3
    });
    assert_eq!(cancelled, Err(ReviewError::Cancelled));
}

#[test]
fn the_engine_sees_a_hanging_chariot() {
    // Red's chariot on a5 can take the undefended black chariot on a9, and does not.
    let record = GameRecord::from_pgn(
        "[FEN \"r2akab2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1\"]\n1. 车九平八 车1平2 *",
    )
    .unwrap();
    let limits = ReviewLimits {
        limits: Limits::depth(3),
        threads: 1,
        hash_mb: 1,
    };
    let searcher = || -> Box<dyn Searcher> { Box::new(EngineSearcher::new(1)) };
    let review = review_game(&record, &limits, &searcher, &mut |_, _| true).unwrap();
    let first = &review.moves[0];
    assert_eq!(first.best_move(), Some(mv("a5a9")));
    assert_eq!(first.class, MoveClass::Blunder);
}
