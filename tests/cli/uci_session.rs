//! A UCI session driven through the binary, as a GUI would: handshake, a position with
//! 100 moves, a timed search, an infinite search ended by `stop`, and garbage that must
//! not stop the engine. Time bounds are generous: they prove an answer came, not speed.

use std::time::Duration;

use xiangqi_core::board::{Move, Position};

use crate::uci_support;
use uci_support::Engine;

/// 100 legal moves from the start, chosen by a fixed pseudo-random sequence.
fn hundred_moves() -> (Position, Vec<String>) {
    let mut pos = Position::startpos();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut moves = Vec::new();
    while moves.len() < 100 {
        let legal = pos.legal_move_list();
        assert!(!legal.is_empty(), "the random game ended early");
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let mv = legal[(state >> 33) as usize % legal.len()];
        pos.make_move(mv);
        moves.push(mv.iccs());
    }
    (pos, moves)
}

fn bestmove(lines: &[String]) -> Move {
    let last = lines.last().unwrap();
    Move::parse_coords(last.split_whitespace().nth(1).unwrap()).unwrap()
}

#[test]
fn uci_session_through_the_binary() {
    let mut engine = Engine::start();
    engine.send(b"uci");
    let hello = engine.expect("uciok", Duration::from_secs(10));
    assert!(hello.iter().any(|l| l.starts_with("id name ")));
    assert!(hello.iter().any(|l| l.starts_with("option name Hash ")));
    engine.send(b"setoption name Hash value 16");
    engine.send(b"isready");
    engine.expect("readyok", Duration::from_secs(10));

    let (pos, moves) = hundred_moves();
    engine.send(format!("position startpos moves {}", moves.join(" ")).as_bytes());
    engine.send(b"go movetime 200");
    let lines = engine.expect("bestmove", Duration::from_secs(5));
    assert!(pos.is_legal(bestmove(&lines)), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth ")));

    // Garbage of every kind, each answered on `info string`, none of it fatal.
    engine.send(b"go depth banana");
    engine.send(b"position fen this is not a position");
    engine.send(b"position startpos moves h2e2 h2e2");
    engine.send(&[0xff, 0xfe, 0xfd]);
    engine.send(&vec![b'x'; 20 * 1024]);
    engine.send(b"florp");
    engine.send(b"isready");
    let lines = engine.expect("readyok", Duration::from_secs(10));
    let reports = lines
        .iter()
        .filter(|l| l.starts_with("info string "))
        .count();
    assert_eq!(reports, 6, "{lines:?}");

    // The bad position commands changed nothing: the 100-move position still stands.
    engine.send(b"go infinite");
    let early = engine.drain(Duration::from_millis(400));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    engine.send(b"stop");
    let lines = engine.expect("bestmove", Duration::from_secs(2));
    assert!(pos.is_legal(bestmove(&lines)), "{lines:?}");

    engine.send(b"quit");
    let status = engine.wait();
    assert!(status.success());
}

#[test]
fn ucci_session_through_the_binary() {
    let mut engine = Engine::start();
    engine.send(b"ucci");
    engine.expect("ucciok", Duration::from_secs(10));
    engine.send(b"setoption usemillisec true");
    engine.send(b"position startpos moves h2e2");
    engine.send(b"go time 300 movestogo 1");
    let lines = engine.expect("bestmove", Duration::from_secs(5));
    let mut pos = Position::startpos();
    pos.make_move(Move::parse_coords("h2e2").unwrap());
    assert!(pos.is_legal(bestmove(&lines)));
    engine.send(b"quit");
    engine.expect("bye", Duration::from_secs(5));
    assert!(engine.wait().success());
}

#[test]
fn a_chosen_algorithm_answers_through_the_binary() {
    let mut engine = Engine::start();
    engine.send(b"uci");
    let hello = engine.expect("uciok", Duration::from_secs(10));
    assert!(
        hello.iter().any(
            |l| l.starts_with("option name Algorithm type combo default alphabeta ")
                && l.contains(" var mtdf")
        ),
        "{hello:?}"
    );
    engine.send(b"setoption name Algorithm value mtdf");
    engine.send(b"position startpos moves h2e2");
    engine.send(b"go depth 4");
    let lines = engine.expect("bestmove", Duration::from_secs(30));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
    let mut pos = Position::startpos();
    pos.make_move(Move::parse_coords("h2e2").unwrap());
    assert!(pos.is_legal(bestmove(&lines)), "{lines:?}");
    engine.send(b"quit");
    assert!(engine.wait().success());
}
