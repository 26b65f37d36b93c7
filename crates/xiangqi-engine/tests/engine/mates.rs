//! Mates at their depth: every mate in N (N = 1..3) of tests/data/mates.tsv, which come
//! from real games and include quiet first moves against a side that can still attack,
//! is proven by an exhaustive search independent of the engine and then found by the
//! engine as "mate in N" by depth 2N+2, with a first move that keeps the forced win.

use std::sync::atomic::AtomicBool;

use xiangqi_core::board::Position;
use xiangqi_engine::engine::mate_oracle::{defender_lost_within, shortest_forced_win};
use xiangqi_engine::engine::{Engine, Limits, Verdict};

fn mates() -> Vec<(String, u32)> {
    let text = include_str!("../../../../tests/data/mates.tsv");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (fen, moves) = line.split_once('\t').expect("FEN<TAB>N");
            (
                fen.to_owned(),
                moves.trim().parse().expect("a number of moves"),
            )
        })
        .collect()
}

#[test]
fn every_mate_in_n_is_found_by_depth_2n_plus_2() {
    let mates = mates();
    assert_eq!(mates.len(), 64);
    let stop = AtomicBool::new(false);
    let mut late = Vec::new();
    for (fen, moves) in &mates {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(
            shortest_forced_win(&pos, *moves),
            Some(*moves),
            "the data is wrong: {fen}"
        );
        let mut engine = Engine::new(16);
        let result = engine.search(&pos, &Limits::depth(2 * moves + 2), &stop, &mut |_| {});
        let best = result.best_move.expect("a move");
        let mut after = pos.clone();
        after.make_move(best);
        if result.verdict() != Verdict::Mate(*moves as i32)
            || !defender_lost_within(&mut after, moves - 1)
        {
            late.push(format!("{fen}: {} with {best}", result.verdict()));
        }
    }
    assert!(late.is_empty(), "not found in time:\n{}", late.join("\n"));
}
