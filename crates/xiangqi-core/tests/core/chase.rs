//! Perpetual check and perpetual chase verdicts on many repetitions: tests/data/
//! chase_cases.tsv holds threefold repetitions after random playouts, shuffles and
//! designed chases (tools/gen_chase_cases.py), and our engine's match games that the
//! Fairy-Stockfish referee ended by the repetition rule, each with the verdict for the
//! side to move. The verdicts are pyffish's, except the rows with a fourth column: there
//! the rule book rules otherwise, and the column says which rule (docs/rules.md).

use xiangqi_core::board::rules::{DrawReason, Outcome, WinReason};
use xiangqi_core::board::{Color, Move, Position};

/// pyffish writes ranks 1-10; ICCS uses 0-9.
fn from_pyffish(text: &str) -> Move {
    let split = text[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
    let (from, to) = text.split_at(split);
    let iccs = |square: &str| {
        let rank: u32 = square[1..].parse().unwrap();
        format!("{}{}", &square[..1], rank - 1)
    };
    Move::parse_coords(&(iccs(from) + &iccs(to))).unwrap()
}

#[test]
fn repetition_verdicts_are_the_rule_books() {
    let cases = include_str!("../../../../tests/data/chase_cases.tsv");
    let mut counts = [0usize; 3];
    for (number, line) in cases.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let (fen, moves, verdict) = match fields[..] {
            [fen, moves, verdict] => (fen, moves, verdict),
            [fen, moves, verdict, why] => {
                assert!(
                    why.contains("rule") || why.contains("appendix"),
                    "line {}",
                    number + 1
                );
                (fen, moves, verdict)
            }
            _ => panic!("line {}: three or four fields expected", number + 1),
        };
        let mut pos = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = moves.split(' ').map(from_pyffish).collect();
        for (ply, &mv) in moves.iter().enumerate() {
            assert!(pos.is_legal(mv), "line {}: {mv} illegal", number + 1);
            assert_eq!(
                pos.outcome(),
                None,
                "line {}: the game ended before ply {ply}",
                number + 1
            );
            pos.make_move(mv);
        }
        let us = pos.side_to_move();
        let outcome = pos.outcome();
        let got = match outcome {
            Some(Outcome::Win { winner, .. }) if winner == us => "win",
            Some(Outcome::Win { .. }) => "loss",
            Some(Outcome::Draw(_)) => "draw",
            None => "none",
        };
        assert_eq!(got, verdict, "line {}: {outcome:?}", number + 1);
        counts[match verdict {
            "win" => 0,
            "loss" => 1,
            _ => 2,
        }] += 1;
    }
    // The file must exercise every verdict.
    assert!(counts.iter().all(|&c| c >= 10), "{counts:?}");
}

#[test]
fn chasing_an_undefended_cannon_loses() {
    // From a match game: Black's chariot follows Red's cannon along the back rank.
    let mut pos =
        Position::from_fen("2b2k2C/4a4/b4a1P1/p5r2/9/P3R4/9/9/4A4/4KA3 b - - 14 60").unwrap();
    for _ in 0..2 {
        for text in ["g6i6", "i9g9", "i6g6", "g9i9"] {
            let mv = Move::parse_coords(text).unwrap();
            assert!(pos.is_legal(mv), "{text}");
            pos.make_move(mv);
        }
    }
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::PerpetualChase
        })
    );
}

#[test]
fn idle_shuffling_is_still_a_draw() {
    let mut pos = Position::startpos();
    for _ in 0..2 {
        for text in ["h0g2", "h9g7", "g2h0", "g7h9"] {
            pos.make_move(Move::parse_coords(text).unwrap());
        }
    }
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}
