//! The parallel search (Lazy SMP, `threads = 2`): whenever it is stopped, by a node
//! limit, a depth limit or the stop flag at any moment, it answers with a legal move and
//! a score in line with the single-thread search's, and it finds the same mates.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use xiangqi_core::board::Position;
use xiangqi_engine::engine::score::{INFINITE, MATE_BOUND};
use xiangqi_engine::engine::{Engine, Limits, SearchResult, Verdict};

/// Openings, middlegames and endgames (the bench's positions and a few more).
const POSITIONS: [&str; 8] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "r2a2br1/4k4/2nab1PPn/7P1/p5p2/P4cP1p/7C1/N1pA5/5C2N/R1BAK1BR1 w - - 23 35",
    "6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79",
    "3aC1b2/2n1a2r1/5k2b/Ccp3Rrp/4pcp2/2B1P1B1P/P1P3PN1/9/5R3/3K1A3 b - - 2 44",
    "rnba1abn1/4k2c1/8r/5P1P1/p1p2P3/P1P5p/1C5pp/9/3CA4/RNBK1ABNR b - - 0 21",
    "3akab2/9/4b4/9/2p6/6R2/9/4B4/4A4/2BAK4 w - - 0 1",
    "4k4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1N2 w - - 0 1",
];

fn engine(threads: usize) -> Engine {
    let mut engine = Engine::new(16);
    engine.set_threads(threads);
    engine
}

fn search(engine: &mut Engine, fen: &str, limits: &Limits, stop: &AtomicBool) -> SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    engine.search(&pos, limits, stop, &mut |_| {})
}

/// A legal move, and a score that is a centipawn value or a mate score, never the
/// search's sentinel values.
fn assert_sane(fen: &str, result: &SearchResult, what: &str) {
    let pos = Position::from_fen(fen).unwrap();
    let best = result
        .best_move
        .unwrap_or_else(|| panic!("{what}: no move in {fen}"));
    assert!(pos.is_legal(best), "{what}: {best} is illegal in {fen}");
    assert!(
        result.score.abs() < INFINITE,
        "{what}: score {} in {fen}",
        result.score
    );
    let mut after = pos.clone();
    for &mv in &result.pv {
        assert!(after.is_legal(mv), "{what}: pv {:?} in {fen}", result.pv);
        after.make_move(mv);
    }
}

#[test]
fn two_threads_agree_with_one_at_a_fixed_depth() {
    let stop = AtomicBool::new(false);
    for fen in POSITIONS {
        let single = search(&mut engine(1), fen, &Limits::depth(8), &stop);
        let parallel = search(&mut engine(2), fen, &Limits::depth(8), &stop);
        assert_sane(fen, &parallel, "depth 8");
        assert_eq!(parallel.depth, 8, "{fen}");
        // Helpers change move ordering through the table, not the value of the position.
        if single.score.abs() < MATE_BOUND {
            assert!(
                (parallel.score - single.score).abs() <= 150,
                "{fen}: one thread {} two threads {}",
                single.score,
                parallel.score
            );
        } else {
            assert_eq!(parallel.verdict(), single.verdict(), "{fen}");
        }
    }
}

#[test]
fn a_node_limit_stops_the_whole_parallel_search() {
    let stop = AtomicBool::new(false);
    for fen in POSITIONS {
        for limit in [1, 2, 50, 1_000, 20_000, 200_000] {
            let result = search(&mut engine(2), fen, &Limits::nodes(limit), &stop);
            assert_sane(fen, &result, &format!("{limit} nodes"));
            // Each thread adds its count to the total, and reads it, every 1024 nodes.
            assert!(
                result.nodes <= limit + 2 * 1024,
                "{fen}: {} nodes for a limit of {limit}",
                result.nodes
            );
        }
    }
}

#[test]
fn a_stop_at_any_moment_still_answers_with_a_legal_move() {
    let mut engine = engine(2);
    for (index, fen) in POSITIONS.iter().enumerate() {
        for delay_us in [0, 50, 300, 2_000, 15_000] {
            let stop = AtomicBool::new(false);
            let result = thread::scope(|scope| {
                scope.spawn(|| {
                    thread::sleep(Duration::from_micros(delay_us));
                    stop.store(true, Ordering::Relaxed);
                });
                search(&mut engine, fen, &Limits::infinite(), &stop)
            });
            assert_sane(fen, &result, &format!("stop after {delay_us} µs"));
        }
        if index % 2 == 1 {
            engine.new_game();
        }
    }
}

#[test]
fn two_threads_find_the_mates_one_thread_finds() {
    let stop = AtomicBool::new(false);
    for (fen, moves) in [
        ("4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1", 1),
        ("4k4/9/9/9/9/9/9/2N6/R8/3K5 w - - 0 1", 2),
        ("3aka3/9/9/R2C5/9/9/9/9/9/5K3 w - - 0 1", 3),
    ] {
        let result = search(&mut engine(2), fen, &Limits::depth(2 * moves + 2), &stop);
        assert_sane(fen, &result, "mate");
        assert_eq!(result.verdict(), Verdict::Mate(moves as i32), "{fen}");
    }
}
