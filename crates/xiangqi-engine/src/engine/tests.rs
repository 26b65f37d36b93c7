use std::sync::atomic::AtomicBool;

use super::*;
use crate::eval::tests::random_positions;
use mate_oracle::defender_lost_within;
use score::{MATE_BOUND, mated_in};
use xiangqi_core::board::{Kind, Move};

/// The shortest forced win by the side to move, up to `limit` moves.
fn shortest_win(fen: &str, limit: u32) -> Option<u32> {
    mate_oracle::shortest_forced_win(&Position::from_fen(fen).unwrap(), limit)
}

fn search(fen: &str, limits: Limits) -> SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(16);
    engine.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Checks the engine reports the oracle's shortest win, by depth 2N+2, with a move after
/// which the defender is lost within N-1 more moves.
fn assert_shortest_mate(fen: &str, n: u32) {
    assert_eq!(
        shortest_win(fen, n),
        Some(n),
        "oracle: {fen} is not a mate in {n}"
    );
    let result = search(fen, Limits::depth(2 * n + 2));
    assert_eq!(
        result.verdict(),
        Verdict::Mate(n as i32),
        "{fen}: {result:?}"
    );
    let mut pos = Position::from_fen(fen).unwrap();
    let best = result.best_move.unwrap();
    assert!(pos.is_legal(best));
    pos.make_move(best);
    assert!(
        defender_lost_within(&mut pos, n - 1),
        "{fen}: {best} does not mate in {n}"
    );
}

/// Two chariots and the general on the open d-file: Ra5-e5 mates.
const CHARIOT_MATE_IN_1: &str = "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1";
/// Horse mate: the horse reaches c8, the soldier on e7 guards e8, the advisors block.
const HORSE_MATE_IN_1: &str = "3aka3/9/4P4/1N7/9/9/9/9/9/3K5 w - - 0 1";
/// Double-cannon mate: the second cannon joins the e-file behind the first (the only
/// move that ends the game).
const CANNON_MATE_IN_1: &str = "3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1";
/// Stalemate wins: the horse takes d9 from the black general, which is not in check and
/// has no move (the soldier holds e8, the general on the open f-file holds f9).
const STALEMATE_IN_1: &str = "4k4/9/4P4/N8/9/9/9/9/9/5K3 w - - 0 1";

#[test]
fn finds_chariot_horse_and_cannon_mates_in_one() {
    assert_shortest_mate(CHARIOT_MATE_IN_1, 1);
    assert_shortest_mate(HORSE_MATE_IN_1, 1);
    assert_shortest_mate(CANNON_MATE_IN_1, 1);
    let horse = search(HORSE_MATE_IN_1, Limits::depth(4)).best_move.unwrap();
    let pos = Position::from_fen(HORSE_MATE_IN_1).unwrap();
    assert_eq!(pos.piece_at(horse.from()).kind(), Kind::Horse);
    let cannon = search(CANNON_MATE_IN_1, Limits::depth(4))
        .best_move
        .unwrap();
    let pos = Position::from_fen(CANNON_MATE_IN_1).unwrap();
    assert_eq!(pos.piece_at(cannon.from()).kind(), Kind::Cannon);
}

#[test]
fn a_stalemating_move_wins() {
    assert_shortest_mate(STALEMATE_IN_1, 1);
    let mut pos = Position::from_fen(STALEMATE_IN_1).unwrap();
    let best = search(STALEMATE_IN_1, Limits::depth(4)).best_move.unwrap();
    pos.make_move(best);
    assert!(!pos.in_check(), "{best} gives check: not a stalemate");
    assert_eq!(pos.count_legal(), 0);
}

#[test]
fn no_legal_move_at_the_root_is_a_loss_without_a_move() {
    // Black to move in the position after the stalemating move.
    let result = search("4k4/9/4P4/9/9/9/9/9/3R5/5K3 b - - 0 1", Limits::depth(3));
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, mated_in(0));
}

#[test]
fn finds_mates_in_two() {
    // Two chariots; horse and cannon; horse and chariot.
    for fen in [
        "4k4/9/9/9/R8/9/9/9/7R1/3K5 w - - 0 1",
        "3aka3/9/9/9/9/9/9/2N6/4C4/3K5 w - - 0 1",
        "4k4/9/9/9/9/9/9/2N6/R8/3K5 w - - 0 1",
    ] {
        assert_shortest_mate(fen, 2);
    }
}

#[test]
fn finds_mates_in_three() {
    // Chariot and cannon against the advisors; horse and cannon; two horses; horse
    // and cannon against a full palace guard.
    for fen in [
        "3aka3/9/9/R2C5/9/9/9/9/9/5K3 w - - 0 1",
        "3k5/9/9/9/9/9/9/1N7/C8/5K3 w - - 0 1",
        "4k4/9/9/4N4/6N2/9/9/9/9/4K4 w - - 0 1",
        "3akab2/4N4/C8/9/9/9/9/9/9/3K5 w - - 0 1",
    ] {
        assert_shortest_mate(fen, 3);
    }
}

#[test]
fn the_defender_sees_its_mate_coming() {
    // After Red's best first move in a mate in 2, Black is mated in 1 whatever it does.
    let fen = "4k4/9/9/9/R8/9/9/9/7R1/3K5 w - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    let best = search(fen, Limits::depth(6)).best_move.unwrap();
    pos.make_move(best);
    let reply = search(&pos.to_fen(), Limits::depth(6));
    assert_eq!(reply.verdict(), Verdict::Mate(-1));
}

#[test]
fn never_returns_an_illegal_move() {
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    for (i, pos) in random_positions(11, 300).into_iter().enumerate() {
        let limits = if i % 2 == 0 {
            Limits::depth(3)
        } else {
            Limits::nodes(1500)
        };
        let result = engine.search(&pos, &limits, &stop, &mut |_| {});
        match result.best_move {
            Some(mv) => assert!(pos.is_legal(mv), "{mv} in {}", pos.to_fen()),
            None => assert_eq!(pos.count_legal(), 0, "{}", pos.to_fen()),
        }
        // The variation is a legal line.
        let mut line = pos.clone();
        for &mv in &result.pv {
            assert!(
                line.is_legal(mv),
                "pv {:?} from {}",
                result.pv,
                pos.to_fen()
            );
            line.make_move(mv);
        }
    }
}

#[test]
fn fixed_depth_and_node_searches_are_deterministic() {
    for pos in random_positions(12, 6) {
        for limits in [Limits::depth(6), Limits::nodes(20_000)] {
            let a = Engine::new(8).search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
            let b = Engine::new(8).search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(
                (a.best_move, a.score, a.nodes, &a.pv),
                (b.best_move, b.score, b.nodes, &b.pv)
            );
            // new_game makes a used engine behave like a fresh one.
            let mut used = Engine::new(8);
            used.search(
                &pos,
                &Limits::depth(4),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            used.new_game();
            let c = used.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(
                (a.best_move, a.score, a.nodes),
                (c.best_move, c.score, c.nodes)
            );
        }
    }
}

#[test]
fn node_limit_is_exact() {
    let result = search(Position::START_FEN, Limits::nodes(5000));
    assert_eq!(result.nodes, 5000);
    assert!(result.best_move.is_some());
}

#[test]
fn a_raised_stop_flag_still_answers_with_a_legal_move() {
    let pos = Position::startpos();
    let mut engine = Engine::new(4);
    let result = engine.search(
        &pos,
        &Limits::infinite(),
        &AtomicBool::new(true),
        &mut |_| {},
    );
    assert!(pos.is_legal(result.best_move.unwrap()));
}

#[test]
fn reports_every_completed_iteration() {
    let pos = Position::startpos();
    let mut depths = Vec::new();
    let result = Engine::new(4).search(
        &pos,
        &Limits::depth(5),
        &AtomicBool::new(false),
        &mut |info| {
            assert!(!info.pv.is_empty());
            depths.push(info.depth);
        },
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(result.depth, 5);
}

/// The chariot checks from d1 and e1 in turn while the black general steps between d9
/// and e9; the start position has occurred twice.
fn perpetual_check_history() -> Position {
    let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1").unwrap();
    for _ in 0..2 {
        for m in ["e1d1", "d9e9", "d1e1", "e9d9"] {
            pos.make_move(Move::parse_coords(m).unwrap());
        }
    }
    pos
}

#[test]
fn repeating_a_perpetual_check_is_scored_as_its_loss() {
    let pos = perpetual_check_history();
    let check = Move::parse_coords("e1d1").unwrap();
    let mut after = pos.clone();
    after.make_move(check);
    // Black to move in a position it has seen, where Red checked every move: Black wins.
    assert_eq!(repetition::verdict(&after, 1), Some((score::mate_in(1), 4)));

    let mut engine = Engine::new(4);
    engine.options.quiescence = false;
    let result = engine.search(
        &pos,
        &Limits::depth(1),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_ne!(result.best_move, Some(check));
    // The root's value came through a repetition of a game position: never a stored score.
    let hit = engine.tt.probe(pos.key()).unwrap();
    assert_eq!(hit.bound, tt::Bound::None);
}

#[test]
fn path_free_values_are_stored_exactly() {
    let pos = Position::startpos();
    let mut engine = Engine::new(4);
    engine.search(
        &pos,
        &Limits::depth(3),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let hit = engine.tt.probe(pos.key()).unwrap();
    assert_eq!(hit.bound, tt::Bound::Exact);
    assert_eq!(hit.depth, 3);
}

#[test]
fn mate_scores_survive_the_table_at_another_ply() {
    // A second search of the same mate reuses table entries stored at other plies and
    // must still report the same distance.
    let fen = "3aka3/9/9/R2C5/9/9/9/9/9/5K3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let first = engine.search(&pos, &Limits::depth(8), &stop, &mut |_| {});
    let again = engine.search(&pos, &Limits::depth(8), &stop, &mut |_| {});
    assert_eq!(first.verdict(), Verdict::Mate(3));
    assert_eq!(again.verdict(), Verdict::Mate(3));
    assert!(first.score >= MATE_BOUND);
}

#[test]
fn plain_alpha_beta_options_still_find_the_mate() {
    let mut engine = Engine::new(4);
    engine.options = SearchOptions {
        quiescence: false,
        null_move: false,
        late_move_reductions: false,
        pruning: false,
        check_extensions: false,
        aspiration: false,
    };
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/2N6/R8/3K5 w - - 0 1").unwrap();
    let result = engine.search(
        &pos,
        &Limits::depth(4),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(result.verdict(), Verdict::Mate(2));
}

#[test]
fn a_depth_limit_is_searched_past_a_longer_mate_to_the_shorter_one() {
    // From a real game: the reduced search proves a mate in 4 at depth 7, but the quiet
    // Hd8-e6 mates in 3 and shows only at depth 12. Stopping at the first proven mate
    // reported the longer one whatever depth was asked.
    let fen = "4R4/3N1k3/4b4/9/2b6/9/9/7p1/4K4/9 w - - 1 67";
    assert_eq!(shortest_win(fen, 3), Some(3));
    assert_eq!(search(fen, Limits::depth(7)).verdict(), Verdict::Mate(4));
    let result = search(fen, Limits::depth(14));
    assert_eq!(result.verdict(), Verdict::Mate(3));
    assert_eq!(result.depth, 14);
}
