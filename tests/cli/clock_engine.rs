//! The engine manages its own clock. These are correctness bounds, not speed tests: the
//! engine must answer inside the time it has left, measured on the real clock, with its
//! own overhead margin (it keeps a reserve back from every clock).
//!
//! - in-process: the engine plays both sides of a 3-second game (faster than 1+0, so
//!   stricter), each side's clock charged
//!   with the real elapsed time of each search (`GameClock` on the monotonic clock);
//! - through the binary: `go wtime 1000 btime 1000 winc 0 binc 0` clocks over 100 UCI
//!   moves, the time from `go` to `bestmove` charged to the mover's clock.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use xiangqi_core::board::{Move, Position};
use xiangqi_core::clock::{GameClock, MonotonicTime, TimeControl, TimeSource};
use xiangqi_engine::engine::{Engine, Limits};

/// Plies timed in all: a game goes to at most this many (the clock must last them all),
/// and one that ends sooner is followed by another.
const MAX_PLIES: usize = 120;

#[test]
fn the_engine_never_loses_on_time_at_a_3_second_game_in_process() {
    // Three seconds a side: faster than 1+0, so a harder test of the same code.
    let control: TimeControl = "0.05+0".parse().unwrap();
    let time = MonotonicTime::default();
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let mut plies = 0;
    let mut games = 0;
    // A game that ends early (a mate) is followed by another on fresh clocks, so every
    // run times the same number of moves.
    while plies < MAX_PLIES {
        games += 1;
        let mut clock = GameClock::new(Some(control), Some(control));
        let mut position = Position::startpos();
        // The first move is free on a game clock; start Red's at once so every move counts.
        clock.start(position.side_to_move(), time.now());
        while plies < MAX_PLIES && position.outcome().is_none() {
            let side = position.side_to_move();
            let limits = Limits {
                clock: clock.engine_clock(side, time.now()),
                ..Limits::default()
            };
            let left = limits.clock.unwrap().remaining;
            let started = Instant::now();
            let best = engine
                .search(&position, &limits, &stop, &mut |_| {})
                .best_move
                .expect("a legal move");
            let used = started.elapsed();
            assert!(
                used < left,
                "game {games}, ply {plies}: {} used {used:?} with {left:?} left",
                side.name()
            );
            assert_eq!(
                clock.moved(side, time.now()),
                Ok(()),
                "game {games}, ply {plies}: the flag fell"
            );
            position.make_move(best);
            plies += 1;
        }
        let now = time.now();
        eprintln!(
            "game {games}: clocks left: Red {:?}, Black {:?}",
            clock.remaining(xiangqi_core::board::Color::Red, now),
            clock.remaining(xiangqi_core::board::Color::Black, now)
        );
    }
    assert_eq!(plies, MAX_PLIES);
}

/// A `xiangqi-tui uci` process.
struct Uci {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut uci = Uci {
            child,
            input,
            output,
        };
        uci.send("uci");
        uci.wait_for("uciok");
        uci.send("setoption name Hash value 16");
        uci.send("isready");
        uci.wait_for("readyok");
        uci
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "the engine exited"
            );
            if line.starts_with(prefix) {
                return line.trim().to_owned();
            }
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn go_wtime_1000_over_100_uci_moves_stays_inside_the_clock() {
    let mut uci = Uci::start();
    let start = Position::startpos().to_fen();
    let mut goes = 0;
    let mut games = 0;
    let mut lowest = u128::MAX;
    while goes < 100 {
        games += 1;
        uci.send("ucinewgame");
        let mut position = Position::startpos();
        let mut moves: Vec<String> = Vec::new();
        // Red's and Black's clocks, in milliseconds.
        let mut clocks = [1000u128, 1000u128];
        while goes < 100 && position.outcome().is_none() && moves.len() < MAX_PLIES {
            let side = position.side_to_move().index();
            let mut command = format!("position fen {start}");
            if !moves.is_empty() {
                command.push_str(" moves ");
                command.push_str(&moves.join(" "));
            }
            uci.send(&command);
            let go = format!("go wtime {} btime {} winc 0 binc 0", clocks[0], clocks[1]);
            let started = Instant::now();
            uci.send(&go);
            let answer = uci.wait_for("bestmove");
            let used = started.elapsed().as_millis();
            goes += 1;
            assert!(
                used < clocks[side],
                "game {games}, ply {}: `{go}` answered after {used} ms",
                moves.len()
            );
            clocks[side] -= used;
            lowest = lowest.min(clocks[side]);
            let word = answer.split_whitespace().nth(1).unwrap();
            let mv = Move::parse_coords(word).expect("a move");
            assert!(position.is_legal(mv), "{answer}");
            position.make_move(mv);
            moves.push(word.to_owned());
        }
    }
    assert_eq!(goes, 100);
    eprintln!("{games} game(s); the lowest clock after a move: {lowest} ms");
}
