//! MultiPV: N distinct legal lines, sorted by score, each a legal variation; one line
//! is the plain search; strength level 20 is the plain search. Also through the binary:
//! the UCI `MultiPV` option and its `info ... multipv K ...` lines.

use crate::uci_support;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::{Engine, Limits, SearchInfo, SearchResult, Skill};

const MIDDLEGAME: &str =
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3";

fn search(fen: &str, multipv: usize, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(16);
    engine.multipv = multipv;
    let mut infos = Vec::new();
    let result = engine.search(&pos, &limits, &AtomicBool::new(false), &mut |info| {
        infos.push(info.clone())
    });
    (result, infos)
}

fn assert_legal_line(fen: &str, pv: &[Move]) {
    let mut pos = Position::from_fen(fen).unwrap();
    assert!(!pv.is_empty());
    for &mv in pv {
        assert!(pos.is_legal(mv), "{mv} illegal in {}", pos.to_fen());
        pos.make_move(mv);
    }
}

#[test]
fn multipv_gives_distinct_legal_lines_sorted_by_score() {
    for (fen, n) in [(Position::START_FEN, 3), (MIDDLEGAME, 5), (MIDDLEGAME, 10)] {
        let (result, infos) = search(fen, n, Limits::depth(6));
        assert_eq!(result.lines.len(), n, "{fen}");
        let firsts: Vec<Move> = result.lines.iter().map(|l| l.pv[0]).collect();
        let mut unique = firsts.clone();
        unique.sort_by_key(|m| m.iccs());
        unique.dedup();
        assert_eq!(unique.len(), n, "repeated first moves: {firsts:?}");
        for pair in result.lines.windows(2) {
            assert!(pair[0].score >= pair[1].score, "{:?}", result.lines);
        }
        for line in &result.lines {
            assert_legal_line(fen, &line.pv);
        }
        assert_eq!(result.best_move, Some(firsts[0]));
        assert_eq!(result.score, result.lines[0].score);
        // Every completed iteration reported all its lines.
        assert_eq!(infos.len(), 6);
        assert!(infos.iter().all(|info| info.lines.len() == n));
    }
}

#[test]
fn multipv_is_capped_by_the_legal_moves() {
    // Black's general has two moves; the search reports two lines, not five.
    let fen = "3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1";
    let legal = Position::from_fen(fen).unwrap().legal_move_list().len();
    assert_eq!(legal, 2);
    let (result, _) = search(fen, 5, Limits::depth(3));
    assert_eq!(result.lines.len(), legal);
}

#[test]
fn one_line_is_the_plain_search_and_level_20_is_full_strength() {
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let run = |engine: &mut Engine| {
        let mut infos = Vec::new();
        let result = engine.search(&pos, &Limits::depth(7), &AtomicBool::new(false), &mut |i| {
            infos.push(i.clone())
        });
        (result, infos)
    };
    let (plain, plain_infos) = run(&mut Engine::new(16));
    let mut one = Engine::new(16);
    one.multipv = 1;
    one.skill = Skill::new(20, 99);
    let (same, same_infos) = run(&mut one);
    assert_eq!(plain.best_move, same.best_move);
    assert_eq!(plain.score, same.score);
    assert_eq!(plain.pv, same.pv);
    assert_eq!(plain.nodes, same.nodes);
    assert!(same.lines.is_empty());
    let depths_nodes = |infos: &[SearchInfo]| -> Vec<(u32, u64)> {
        infos.iter().map(|i| (i.depth, i.nodes)).collect()
    };
    assert_eq!(depths_nodes(&plain_infos), depths_nodes(&same_infos));
}

#[test]
fn uci_multipv_lines_through_the_binary() {
    let mut engine = uci_support::Engine::start();
    engine.send(b"uci");
    let hello = engine.expect("uciok", Duration::from_secs(10));
    for option in ["MultiPV", "Skill Level", "UCI_LimitStrength", "UCI_Elo"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option} missing: {hello:?}"
        );
    }
    engine.send(b"setoption name MultiPV value 3");
    engine.send(b"setoption name MultiPV value 11");
    engine.send(b"setoption name Skill Level value 0");
    engine.send(b"isready");
    let lines = engine.expect("readyok", Duration::from_secs(10));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count(),
        2,
        "out-of-range values are refused: {lines:?}"
    );
    engine.send(format!("position fen {MIDDLEGAME}").as_bytes());
    engine.send(b"go depth 5");
    let lines = engine.expect("bestmove", Duration::from_secs(20));
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    assert_eq!(last_depth.len(), 3, "{lines:?}");
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    for (k, line) in last_depth.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |key: &str| words.iter().position(|w| *w == key).unwrap() + 1;
        assert_eq!(words[at("multipv")], (k + 1).to_string(), "{line}");
        assert_eq!(words[at("score")], "cp", "{line}");
        scores.push(words[at("score") + 1].parse::<i32>().unwrap());
        let first = Move::parse_coords(words[at("pv")]).unwrap();
        assert!(pos.is_legal(first));
        firsts.push(first);
    }
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert_eq!(best, firsts[0].iccs());

    // A weakened level still plays a legal move, also when set through UCI_Elo.
    engine.send(b"setoption name UCI_LimitStrength value true");
    engine.send(b"setoption name UCI_Elo value 1000");
    engine.send(b"setoption name MultiPV value 1");
    engine.send(b"go depth 20");
    let lines = engine.expect("bestmove", Duration::from_secs(20));
    let best = Move::parse_coords(lines.last().unwrap().split_whitespace().nth(1).unwrap());
    assert!(pos.is_legal(best.unwrap()), "{lines:?}");
    engine.send(b"quit");
}
