use std::io::Write;
use std::sync::{Arc, Mutex};

use super::*;
use std::time::Duration;
use xiangqi_core::board::Move;

fn uci(line: &str) -> Option<Result<Command, String>> {
    parse(line, Dialect::Uci, false)
}

#[test]
fn parses_go_limits() {
    let Some(Ok(Command::Go(go))) = uci("go depth 7 nodes 1000 movetime 250") else {
        panic!("go did not parse");
    };
    let limits = go.limits_for(xiangqi_core::board::Color::Red);
    assert_eq!(limits.depth, Some(7));
    assert_eq!(limits.nodes, Some(1000));
    assert_eq!(limits.movetime, Some(Duration::from_millis(250)));
    let Some(Ok(Command::Go(go))) = uci("go wtime 60000 btime 30000 winc 1000 binc 500") else {
        panic!("go did not parse");
    };
    let black = go
        .limits_for(xiangqi_core::board::Color::Black)
        .clock
        .unwrap();
    assert_eq!(black.remaining, Duration::from_millis(30000));
    assert_eq!(black.increment, Duration::from_millis(500));
    assert_eq!(uci("go perft 3"), Some(Ok(Command::Perft(3))));
    assert!(matches!(uci("go infinite"), Some(Ok(Command::Go(g))) if g.limits.infinite));
}

#[test]
fn ucci_times_are_seconds_unless_milliseconds_were_asked_for() {
    let seconds = parse("go time 5 increment 1", Dialect::Ucci, false);
    let Some(Ok(Command::Go(go))) = seconds else {
        panic!("go did not parse");
    };
    let clock = go
        .limits_for(xiangqi_core::board::Color::Black)
        .clock
        .unwrap();
    assert_eq!(clock.remaining, Duration::from_secs(5));
    assert_eq!(clock.increment, Duration::from_secs(1));
    let Some(Ok(Command::Go(go))) = parse("go time 500 movestogo 1", Dialect::Ucci, true) else {
        panic!("go did not parse");
    };
    let clock = go
        .limits_for(xiangqi_core::board::Color::Red)
        .clock
        .unwrap();
    assert_eq!(clock.remaining, Duration::from_millis(500));
    assert_eq!(clock.moves_to_go, Some(1));
}

#[test]
fn rejects_malformed_lines_whole() {
    for bad in [
        "go depth x",
        "go movetime",
        "go depth -3",
        "go sideways 5",
        "position",
        "position fen",
        "position fen rnbakabnr/9 w",
        "position startpos moves h2e2 h2e2",
        "position startpos moves z9z9",
        "setoption",
        "frobnicate",
    ] {
        assert!(matches!(uci(bad), Some(Err(_))), "{bad} was accepted");
    }
    assert_eq!(uci("   "), None);
}

#[test]
fn position_applies_every_move() {
    let Some(Ok(Command::Position(pos))) = uci("position startpos moves h2e2 h9g7") else {
        panic!("position did not parse");
    };
    assert_eq!(pos.ply(), 2);
    let Some(Ok(Command::Position(pos))) =
        uci("position fen 4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1 moves a1a9")
    else {
        panic!("position did not parse");
    };
    assert!(pos.in_check());
}

#[test]
fn setoption_in_both_dialects() {
    assert_eq!(
        uci("setoption name Clear Hash"),
        Some(Ok(Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }))
    );
    assert_eq!(
        uci("setoption name Hash value 32"),
        Some(Ok(Command::SetOption {
            name: "Hash".into(),
            value: Some("32".into())
        }))
    );
    assert_eq!(
        parse("setoption hashsize 16", Dialect::Ucci, false),
        Some(Ok(Command::SetOption {
            name: "hashsize".into(),
            value: Some("16".into())
        }))
    );
}

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn session(input: &[u8]) -> Vec<String> {
    let out = Shared::default();
    run(input, out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_string).collect()
}

#[test]
fn a_scripted_session_answers_every_command() {
    let lines = session(b"uci\nisready\nposition startpos moves h2e2\ngo depth 3\n");
    assert!(lines.contains(&"uciok".to_string()));
    assert!(lines.contains(&"readyok".to_string()));
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
    let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    let mv = Move::parse_coords(best.split_whitespace().nth(1).unwrap()).unwrap();
    let mut pos = Position::startpos();
    pos.make_move(Move::parse_coords("h2e2").unwrap());
    assert!(pos.is_legal(mv));
}

#[test]
fn bad_input_is_reported_and_the_session_goes_on() {
    let mut input = b"uci\ngo depth zz\nposition startpos moves e0e5\n".to_vec();
    input.extend_from_slice(&[0xc3, 0x28, b'\n']);
    input.extend(std::iter::repeat_n(b'a', 20 * 1024));
    input.extend_from_slice(b"\nsetoption name Hash value lots\nisready\n");
    let lines = session(&input);
    let reports = lines
        .iter()
        .filter(|l| l.starts_with("info string "))
        .count();
    assert_eq!(reports, 5, "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
}

#[test]
fn ucci_handshake_and_quit() {
    let lines = session(b"ucci\nposition startpos\ngo depth 2\nquit\n");
    assert!(lines.contains(&"ucciok".to_string()));
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")));
    assert_eq!(lines.last().map(String::as_str), Some("bye"));
}

#[test]
fn go_perft_prints_the_divide_and_the_total() {
    let lines = session(b"position startpos\ngo perft 2\n");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 1920")
    );
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 44 + 1);
}

#[test]
fn no_legal_move_answers_bestmove_none() {
    let lines = session(b"position fen 4k4/9/4P4/9/9/9/9/9/3R5/5K3 b - - 0 1\ngo depth 3\n");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
}

fn best_move(lines: &[String]) -> Move {
    let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    Move::parse_coords(best.split_whitespace().nth(1).unwrap()).unwrap()
}

#[test]
fn every_algorithm_can_be_chosen_and_answers_a_legal_move() {
    let lines = session(b"uci\n");
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name Algorithm "))
        .unwrap();
    assert_eq!(
        option,
        "option name Algorithm type combo default alphabeta var minimax var alphabeta var sss var mtsss var mtdf var bstar"
    );
    for algorithm in crate::search::Algorithm::ALL {
        let script =
            format!("setoption name Algorithm value {algorithm}\nposition startpos\ngo depth 2\n");
        let lines = session(script.as_bytes());
        assert!(
            Position::startpos().is_legal(best_move(&lines)),
            "{algorithm}: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("info depth ")),
            "{algorithm}"
        );
    }
}

#[test]
fn ucci_chooses_the_algorithm_too_and_unknown_names_are_reported() {
    let lines = session(b"ucci\nsetoption algorithm sss\nposition startpos\ngo depth 3\nquit\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option algorithm type combo "))
    );
    assert!(Position::startpos().is_legal(best_move(&lines)));
    let lines = session(b"setoption name Algorithm value negascout\nisready\n");
    assert_eq!(
        lines,
        [
            "info string option Algorithm: unknown algorithm 'negascout': valid names are minimax, alphabeta, sss, mtsss, mtdf, bstar",
            "readyok"
        ]
    );
}
