//! Strength levels are monotonic: level 15 beats level 5 clearly in a small self-play
//! match at a fixed node budget (so the result does not depend on the machine), played
//! in-process from a few openings with colours swapped. Level 20 plays as the default
//! engine.

use std::sync::atomic::AtomicBool;

use xiangqi_core::board::rules::Outcome;
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_engine::engine::{Engine, Limits, Skill};

/// Short openings (ICCS), each played twice with colours swapped.
const OPENINGS: [&str; 4] = ["h2e2 h9g7", "b2e2 b9c7 b0c2", "c3c4 g6g5", "h0g2 b9c7 b2d2"];
/// The budget both sides get per move; the weaker level caps it lower.
const NODES: u64 = 8_000;
/// Game length cap, in plies; then the game is adjudicated by a search.
const MAX_PLIES: usize = 160;

fn player(level: u8, seed: u64) -> Engine {
    let mut engine = Engine::new(8);
    engine.skill = Skill::new(level, seed);
    engine
}

/// Red's result of one game: 1.0 win, 0.5 draw, 0.0 loss.
fn play(opening: &str, red: &mut Engine, black: &mut Engine) -> f64 {
    let mut pos = Position::startpos();
    for text in opening.split_whitespace() {
        let mv = Move::parse_coords(text).unwrap();
        assert!(pos.is_legal(mv));
        pos.make_move(mv);
    }
    red.new_game();
    black.new_game();
    let stop = AtomicBool::new(false);
    for _ in 0..MAX_PLIES {
        if let Some(outcome) = pos.outcome() {
            return match outcome {
                Outcome::Win { winner, .. } => f64::from(u8::from(winner == Color::Red)),
                Outcome::Draw(_) => 0.5,
            };
        }
        let engine = match pos.side_to_move() {
            Color::Red => &mut *red,
            Color::Black => &mut *black,
        };
        let result = engine.search(&pos, &Limits::nodes(NODES), &stop, &mut |_| {});
        let mv = result.best_move.expect("a move when the game is not over");
        assert!(pos.is_legal(mv));
        pos.make_move(mv);
    }
    // Adjudicate by a full-strength search: two soldiers' worth decides.
    let result = Engine::new(8).search(&pos, &Limits::depth(6), &stop, &mut |_| {});
    let red_score = match pos.side_to_move() {
        Color::Red => result.score,
        Color::Black => -result.score,
    };
    match red_score {
        s if s >= 200 => 1.0,
        s if s <= -200 => 0.0,
        _ => 0.5,
    }
}

#[test]
fn level_15_beats_level_5_at_fixed_nodes() {
    let mut strong = player(15, 1);
    let mut weak = player(5, 2);
    let mut strong_score = 0.0;
    let mut games = 0;
    for opening in OPENINGS {
        strong_score += play(opening, &mut strong, &mut weak);
        strong_score += 1.0 - play(opening, &mut weak, &mut strong);
        games += 2;
    }
    // Seeded picks and node limits make the match reproducible; a clear win means at
    // least three quarters of the points.
    assert!(
        strong_score >= 0.75 * games as f64,
        "level 15 scored {strong_score}/{games} against level 5"
    );
}

#[test]
fn a_weak_level_plays_one_of_its_best_lines() {
    let pos = Position::startpos();
    let mut engine = player(3, 5);
    let result = engine.search(
        &pos,
        &Limits::nodes(NODES),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(result.lines.len(), 4);
    let chosen = result.best_move.unwrap();
    assert!(result.lines.iter().any(|line| line.pv[0] == chosen));
    assert!(result.nodes <= Skill::node_cap(3));
    assert_eq!(result.pv[0], chosen);
}
