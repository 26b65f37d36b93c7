//! Every backend on real positions: at a fixed shallow depth without quiescence they all
//! find the same value (the strong engine too, with its selectivity switched off), SSS*
//! evaluates a subset of alpha-beta's leaves, each exact backend finds short mates, and
//! B* answers with a legal move for a stated reason.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_core::rng::SplitMix64 as Rng;
use xiangqi_engine::engine::score::from_search;
use xiangqi_engine::engine::{
    self, Engine, PositionGame, PositionNames, PositionSearcher, SearchOptions,
};
use xiangqi_engine::search::{
    Algorithm, AlphaBeta, BStar, BStarStop, Details, Game, INFINITY, Limits, Minimax, MtSss, Mtdf,
    NoTrace, Recorder, Score, Search, SearchResult, Sss, trace_lines,
};

/// Positions from random games (captures preferred half the time, so material thins
/// out), set up afresh from their FEN with the no-capture clock at zero: no history, so
/// no repetition or clock verdict differs between the searches compared.
fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..4 + rng.below(100) {
            moves.clear();
            if rng.below(2) == 0 {
                pos.legal_captures(&mut moves);
            }
            if moves.is_empty() {
                pos.legal_moves(&mut moves);
            }
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
        let fen = pos.to_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let fresh = format!("{} {} - - 0 1", fields[0], fields[1]);
        let pos = Position::from_fen(&fresh).unwrap();
        if pos.has_legal_move() {
            out.push(pos);
        }
    }
    out
}

fn run<S: Search<PositionGame>>(backend: &mut S, pos: &Position, depth: u32) -> SearchResult<Move> {
    let mut game = PositionGame::new(pos);
    let result = backend.search(&mut game, &Limits::none().with_depth(depth), &mut NoTrace);
    assert_eq!(
        game.position().to_fen(),
        pos.to_fen(),
        "the search left the root"
    );
    result
}

/// The strong engine as a plain alpha-beta: no quiescence, pruning, reductions,
/// extensions or aspiration windows (its transposition table and PVS stay).
fn plain_engine_score(pos: &Position, depth: u32) -> i32 {
    let mut engine = Engine::new(4);
    engine.options = SearchOptions {
        quiescence: false,
        null_move: false,
        late_move_reductions: false,
        pruning: false,
        check_extensions: false,
        aspiration: false,
    };
    engine
        .search(
            pos,
            &engine::Limits::depth(depth),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .score
}

fn assert_all_agree(pos: &Position, depth: u32) {
    let fen = pos.to_fen();
    let minimax = run(&mut Minimax, pos, depth);
    let value = minimax.exact_value().unwrap();
    let others = [
        ("alphabeta", run(&mut AlphaBeta::default(), pos, depth)),
        ("sss", run(&mut Sss, pos, depth)),
        ("mtsss", run(&mut MtSss::default(), pos, depth)),
        ("mtdf", run(&mut Mtdf::default(), pos, depth)),
    ];
    for (name, result) in &others {
        assert_eq!(
            result.exact_value(),
            Some(value),
            "{name} at depth {depth}: {fen}"
        );
    }
    // Same value, same left-most best move for the exact textbook backends.
    assert_eq!(others[0].1.best_move, minimax.best_move, "{fen}");
    assert_eq!(others[1].1.best_move, minimax.best_move, "{fen}");
    assert_eq!(
        plain_engine_score(pos, depth),
        from_search(value),
        "strong engine at depth {depth}: {fen}"
    );
}

#[test]
fn every_backend_finds_the_same_value_at_depth_two() {
    for pos in random_positions(7, 40) {
        assert_all_agree(&pos, 2);
    }
}

#[test]
fn every_backend_finds_the_same_value_at_depth_three() {
    for pos in random_positions(11, 20) {
        assert_all_agree(&pos, 3);
    }
}

#[test]
fn the_driver_reports_the_backends_value_at_the_asked_depth() {
    let stop = AtomicBool::new(false);
    for pos in random_positions(3, 6) {
        let value = run(&mut Minimax, &pos, 3).exact_value().unwrap();
        for algorithm in [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::Sss,
            Algorithm::MtSss,
            Algorithm::Mtdf,
        ] {
            let result = engine::search_position(algorithm, &pos, &engine::Limits::depth(3), &stop);
            assert_eq!(
                result.score,
                from_search(value),
                "{algorithm}: {}",
                pos.to_fen()
            );
            assert_eq!(result.depth, 3);
            let best = result.best_move.unwrap();
            assert!(pos.is_legal(best));
            assert_eq!(result.pv.first(), Some(&best), "{algorithm}");
            // The principal variation is a legal line.
            let mut line = pos.clone();
            for &mv in &result.pv {
                assert!(line.is_legal(mv), "{algorithm}: pv {:?}", result.pv);
                line.make_move(mv);
            }
        }
    }
}

#[test]
fn sss_evaluates_a_subset_of_the_leaves_alpha_beta_evaluates() {
    let mut fewer = 0;
    for pos in random_positions(5, 12) {
        let limits = Limits::none().with_depth(3);
        let mut ab_trace = Recorder::new();
        AlphaBeta::default().search(&mut PositionGame::new(&pos), &limits, &mut ab_trace);
        let mut sss_trace = Recorder::new();
        Sss.search(&mut PositionGame::new(&pos), &limits, &mut sss_trace);
        // Node ids are move paths, so a leaf is the same node in both searches.
        let ab: HashSet<_> = ab_trace.distinct_leaves().into_iter().collect();
        let sss = sss_trace.distinct_leaves();
        assert!(sss.len() <= ab.len(), "{}", pos.to_fen());
        assert!(sss.iter().all(|leaf| ab.contains(leaf)), "{}", pos.to_fen());
        fewer += usize::from(sss.len() < ab.len());
    }
    assert!(fewer > 0, "SSS* never saved a leaf");
}

const MATES_IN_ONE: [&str; 4] = [
    // Chariot, horse, cannon, and a stalemate (a win in xiangqi).
    "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1",
    "3aka3/9/4P4/1N7/9/9/9/9/9/3K5 w - - 0 1",
    "3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1",
    "4k4/9/4P4/N8/9/9/9/9/9/5K3 w - - 0 1",
];
const MATES_IN_TWO: [&str; 3] = [
    "4k4/9/9/9/R8/9/9/9/7R1/3K5 w - - 0 1",
    "3aka3/9/9/9/9/9/9/2N6/4C4/3K5 w - - 0 1",
    "4k4/9/9/9/9/9/9/2N6/R8/3K5 w - - 0 1",
];

/// Whether the side to move at `pos` can force the opponent out of moves within
/// `moves` of its own moves: an oracle independent of every search.
fn mates_within(pos: &mut Position, moves: u32) -> bool {
    moves > 0
        && pos.legal_move_list().into_iter().any(|mv| {
            pos.make_move(mv);
            let replies = pos.legal_move_list();
            let lost = replies.is_empty()
                || replies.into_iter().all(|reply| {
                    pos.make_move(reply);
                    let mated = mates_within(pos, moves - 1);
                    pos.unmake_move(reply);
                    mated
                });
            pos.unmake_move(mv);
            lost
        })
}

#[test]
fn each_exact_backend_finds_mates_in_one_and_two() {
    let cases = MATES_IN_ONE
        .iter()
        .map(|fen| (fen, 1))
        .chain(MATES_IN_TWO.iter().map(|fen| (fen, 2)));
    for (fen, moves) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let plies = 2 * moves - 1;
        for algorithm in [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::Sss,
            Algorithm::MtSss,
            Algorithm::Mtdf,
        ] {
            let mut backend = xiangqi_engine::search::Backend::new(algorithm, &Default::default());
            let result = run(&mut backend, &pos, plies);
            assert_eq!(
                result.exact_value(),
                Some(Score::mate_in(plies)),
                "{algorithm}: {fen}"
            );
            let mut after = pos.clone();
            after.make_move(result.best_move.unwrap());
            let mut defender = after.clone();
            let lost = !defender.has_legal_move()
                || defender.legal_move_list().into_iter().all(|reply| {
                    defender.make_move(reply);
                    let mated = mates_within(&mut defender, moves - 1);
                    defender.unmake_move(reply);
                    mated
                });
            assert!(
                lost,
                "{algorithm}: {} does not mate in {moves} in {fen}",
                result.best_move.unwrap()
            );
        }
        // And through the engine, as analyze and UCI run them.
        for algorithm in Algorithm::ALL {
            let mut engine = Engine::new(4);
            engine.algorithm = algorithm;
            let result = engine.search(
                &pos,
                &engine::Limits::depth(plies + 1),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            if algorithm.is_exact() {
                assert_eq!(
                    result.verdict(),
                    engine::Verdict::Mate(moves as i32),
                    "{algorithm}: {fen}"
                );
            } else {
                assert!(pos.is_legal(result.best_move.unwrap()));
            }
        }
    }
}

fn bstar(pos: &Position, limits: &Limits) -> (SearchResult<Move>, BStarStop, u64) {
    let mut game = PositionGame::new(pos);
    let result = BStar::default().search(&mut game, limits, &mut NoTrace);
    let Details::BStar {
        stop, expansions, ..
    } = result.details
    else {
        panic!("B* details");
    };
    (result, stop, expansions)
}

#[test]
fn bstar_separates_on_mates_and_won_material_and_otherwise_stops_at_its_budget() {
    for fen in MATES_IN_ONE {
        let pos = Position::from_fen(fen).unwrap();
        let (result, stop, expansions) = bstar(&pos, &Limits::none().with_nodes(50));
        assert_eq!(stop, BStarStop::Separation, "{fen}");
        assert_eq!(expansions, 1, "{fen}");
        let mut after = pos.clone();
        after.make_move(result.best_move.unwrap());
        assert!(!after.has_legal_move(), "{fen}");
    }
    // A chariot en prise with nothing to win back: a few expansions prove the capture.
    let free_chariot =
        Position::from_fen("1nbakabnr/9/1c5c1/2p1p1p1p/r8/9/2P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .unwrap();
    let (result, stop, expansions) = bstar(&free_chariot, &Limits::none().with_nodes(300));
    assert_eq!(stop, BStarStop::Separation);
    assert!(expansions < 300);
    assert_eq!(result.best_move, Move::parse_coords("a0a5"));
    for pos in random_positions(13, 4)
        .iter()
        .chain([&Position::startpos()])
    {
        let (result, stop, expansions) = bstar(pos, &Limits::none().with_nodes(20));
        assert!(pos.is_legal(result.best_move.unwrap()));
        match stop {
            BStarStop::Limit => assert_eq!(expansions, 20),
            BStarStop::Separation => assert!(expansions <= 20),
            BStarStop::Exhausted => panic!("positions without a horizon do not run dry"),
        }
    }
}

#[test]
fn bstar_runs_dry_against_a_depth_horizon_and_answers_the_best_pessimistic_bound() {
    // With a horizon at ply 1 nothing below the root can be expanded.
    let pos = Position::startpos();
    let (result, stop, expansions) = bstar(&pos, &Limits::none().with_depth(1));
    assert_eq!((stop, expansions), (BStarStop::Exhausted, 1));
    let best = result.best_move.unwrap();
    assert!(pos.is_legal(best));
    // Its pessimistic bound is the root's: no root move has a better one.
    let mut game = PositionGame::new(&pos);
    let mut moves = Vec::new();
    game.moves(&mut moves);
    let mut best_lo = -INFINITY;
    for mv in moves {
        game.play(mv);
        let lo = -xiangqi_engine::search::IntervalGame::interval(&mut game).hi;
        game.undo(mv);
        best_lo = best_lo.max(lo);
    }
    assert_eq!(result.value.lo, best_lo);
}

#[test]
fn traces_name_nodes_by_their_move_paths() {
    // SSS* on a mate in one: the root's children are listed by their moves.
    let pos = Position::from_fen(MATES_IN_ONE[0]).unwrap();
    let names = PositionNames::new(&pos, Notation::Chinese);
    let mut trace = Recorder::new();
    let mut searcher = PositionSearcher::default();
    let result = searcher.search(
        Algorithm::Sss,
        &pos,
        &engine::Limits::depth(1),
        &AtomicBool::new(false),
        &mut |_| {},
        &mut trace,
        Some(&names),
    );
    let best = result.best_move.unwrap();
    let mate = format_move(&pos, best, Notation::Chinese);
    assert_eq!(mate, "车九平五");
    let lines = trace_lines(&names, &trace.events);
    assert_eq!(lines[0], "step 0: OPEN = root/L/inf");
    // The root's children are pushed in piece-square gain order: the chariot across the
    // river first, the mate after it.
    assert!(lines[1].starts_with("step 1: pop root/L/inf ; case G6 ; push 车四进五/L/inf "));
    assert!(lines[1].contains(&format!("{mate}/L/inf")), "{}", lines[1]);
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with(&format!("case done ; value {}", Score::mate_in(1)))
    );

    // Deeper than the packed paths, nodes are numbered in the names' book.
    let ending = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
    let names = PositionNames::new(&ending, Notation::Iccs);
    let mut trace = Recorder::new();
    searcher.search(
        Algorithm::AlphaBeta,
        &ending,
        &engine::Limits::depth(5),
        &AtomicBool::new(false),
        &mut |_| {},
        &mut trace,
        Some(&names),
    );
    let deep = trace_lines(&names, &trace.events)
        .into_iter()
        .find(|line| line.starts_with("leaf ") && line.matches(',').count() == 4)
        .expect("a leaf five plies deep");
    let path = deep["leaf ".len()..].split(" = ").next().unwrap();
    let mut line = ending.clone();
    for text in path.split(',') {
        let mv = Move::parse_coords(text).unwrap();
        assert!(line.is_legal(mv), "{deep}");
        line.make_move(mv);
    }
}

#[test]
fn repetitions_and_transpositions_do_not_confuse_the_mt_table() {
    // Sparse endings at depth 5-6 are full of transpositions and of positions that
    // repeat one earlier on their path. Keyed by the Zobrist key alone, MT-SSS* and
    // MTD(f) found 136 instead of 140 on the first (a stored value reused on a path
    // where it does not hold); keys with the reversible history and the ply keep them
    // exact.
    for (fen, depth) in [
        ("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", 6),
        ("3ak4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1", 6),
        ("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1", 5),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let value = run(&mut Minimax, &pos, depth).exact_value();
        assert_eq!(
            run(&mut MtSss::default(), &pos, depth).exact_value(),
            value,
            "{fen}"
        );
        assert_eq!(
            run(&mut Mtdf::default(), &pos, depth).exact_value(),
            value,
            "{fen}"
        );
    }
    // A game whose history the search can repeat: Black's g7h9 brings back the start.
    let mut pos = Position::startpos();
    for text in ["h0g2", "h9g7", "g2h0"] {
        pos.make_move(Move::parse_coords(text).unwrap());
    }
    let mut game = PositionGame::new(&pos);
    game.play(Move::parse_coords("g7h9").unwrap());
    assert_eq!(
        game.outcome(),
        Some(Score::ZERO),
        "the repetition is a draw"
    );
    assert_all_agree(&pos, 3);
}
