//! Game-end verdicts: no legal move loses, threefold repetition (perpetual check loses),
//! and the 120-ply no-capture draw.

use xiangqi_core::board::rules::{DrawReason, Outcome, WinReason};
use xiangqi_core::board::{Color, Move, Position};

fn play(pos: &mut Position, moves: &[&str]) {
    for text in moves {
        let mv = Move::parse_coords(text).unwrap();
        assert!(pos.is_legal(mv), "{text} in {}", pos.to_fen());
        pos.make_move(mv);
    }
}

#[test]
fn no_legal_move_is_a_loss_whether_mate_or_stalemate() {
    let mate =
        Position::from_fen("9/4a4/4ka2b/1n1P1r3/2n1p1p1c/p3P1P1P/N8/B2p1K2R/5N2c/3A5 w - - 7 67")
            .unwrap();
    assert!(mate.in_check());
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );

    let stalemate = Position::from_fen("3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!stalemate.in_check());
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Stalemate
        })
    );
    assert_eq!(stalemate.outcome().unwrap().pgn_result(), "1-0");
}

#[test]
fn perpetual_check_loses_on_the_third_occurrence() {
    let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    // The chariot checks on every move; the general steps between e9 and e8.
    play(&mut pos, &["a0a9", "e9e8", "a9a8", "e8e9", "a8a9"]);
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, &["e9e8", "a9a8", "e8e9", "a8a9"]);
    assert_eq!(pos.repetitions(), 3);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn plain_repetition_is_a_draw() {
    let mut pos = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    let cycle = ["a0a1", "i9i8", "a1a0", "i8i9"];
    play(&mut pos, &cycle);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, &cycle);
    assert_eq!(pos.repetitions(), 3);
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn a_capture_breaks_the_repetition_chain() {
    // The clock restarts at a capture, so earlier positions cannot repeat.
    let mut pos = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    play(&mut pos, &["a0a1", "i9i8", "a1a0", "i8i9"]);
    assert_eq!(pos.repetitions(), 2);
    let fresh = Position::from_fen(&pos.to_fen()).unwrap();
    assert_eq!(
        fresh.repetitions(),
        1,
        "a position read from FEN has no history"
    );
}

#[test]
fn one_hundred_twenty_plies_without_capture_draw() {
    let pos = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 120 80").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
    let pos = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 119 80").unwrap();
    assert_eq!(pos.outcome(), None);
}
