//! A running external engine: spawned as a child process, spoken to over its standard
//! input and output (UCI or UCCI), read by a thread so every wait has a deadline. A
//! hung, dead or misbehaving engine gives an `ExternalError`, never a hang or a panic.
//! Dropping it sends `quit` and kills the process if it does not leave at once.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::engine::{Limits, SearchInfo};
use xiangqi_core::board::{Move, Position};

use super::info::{BestMove, parse_bestmove, parse_info};
use super::spec::{EngineSpec, Protocol};

/// How often a search in progress looks at the stop flag.
const POLL: Duration = Duration::from_millis(5);
/// How long a quitting engine gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    #[error("cannot start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("no `{expected}` within {} ms: the engine hangs", .timeout.as_millis())]
    Timeout {
        expected: &'static str,
        timeout: Duration,
    },
    #[error("the engine exited{}", .status.as_ref().map(|s| format!(" ({s})")).unwrap_or_default())]
    Exited { status: Option<String> },
    #[error("cannot write to the engine: {0}")]
    Write(String),
    #[error("the engine answered \"{0}\", which is not a move")]
    UnreadableMove(String),
    #[error("the engine played {0}, which is not legal here")]
    IllegalMove(String),
    #[error("the engine gave no move in a position that has legal moves")]
    NoMove,
}

/// A running engine, handshake done.
pub struct ExternalEngine {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name it gave (`id name`), if any.
    pub id_name: Option<String>,
}

impl ExternalEngine {
    /// Starts the engine, does the handshake (`uci`/`uciok` or `ucci`/`ucciok`), sends
    /// the options and waits for `readyok`, all within the spec's handshake timeout.
    pub fn start(spec: &EngineSpec) -> Result<ExternalEngine, ExternalError> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let spawn_error = |reason: String| ExternalError::Spawn {
            command: spec.command.display().to_string(),
            reason,
        };
        let mut child = command
            .spawn()
            .map_err(|error| spawn_error(error.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(spawn_error("no pipes to it".to_owned()));
        };
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name("external-engine".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|error| spawn_error(error.to_string()))?;
        let mut engine = ExternalEngine {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            id_name: None,
        };
        let started = Instant::now();
        if let Err(error) = engine.handshake() {
            tracing::warn!(command = %spec.command.display(), %error, "external engine failed");
            return Err(error);
        }
        tracing::info!(
            command = %spec.command.display(),
            name = engine.id_name.as_deref().unwrap_or("?"),
            handshake_ms = started.elapsed().as_millis() as u64,
            "external engine started"
        );
        Ok(engine)
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    fn handshake(&mut self) -> Result<(), ExternalError> {
        let deadline = Instant::now() + self.spec.handshake_timeout;
        let (hello, ok) = match self.spec.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        };
        self.send(hello)?;
        loop {
            let line = self.receive(deadline, ok)?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_owned());
            }
            if line.trim() == ok {
                break;
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("isready")?;
        while self.receive(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|error| match self.child.try_wait() {
                Ok(Some(status)) => ExternalError::Exited {
                    status: Some(status.to_string()),
                },
                _ => ExternalError::Write(error.to_string()),
            })
    }

    /// The next line, waiting until `deadline` for `expected`.
    fn receive(
        &mut self,
        deadline: Instant,
        expected: &'static str,
    ) -> Result<String, ExternalError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ExternalError::Timeout {
                expected,
                timeout: self.spec.handshake_timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    fn exited(&mut self) -> ExternalError {
        // The pipe closed; give the process a moment to be reaped for its status.
        let until = Instant::now() + Duration::from_millis(100);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status.to_string()),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        ExternalError::Exited { status }
    }

    /// Searches `position` (its moves since the start are sent too, for repetitions)
    /// within `limits`, reporting each `info` line; `stop` going up sends `stop`.
    /// Returns the move played, checked for legality (`None`: no legal move).
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(SearchInfo),
    ) -> Result<Option<Move>, ExternalError> {
        // Drain what a previous search may have left (a late info line).
        while self.lines.try_recv().is_ok() {}
        self.send(&position_command(position))?;
        self.send(&go_command(limits, self.spec.protocol))?;
        let grace = self.spec.handshake_timeout;
        let budget = limits
            .movetime
            .or(limits.clock.map(|clock| clock.remaining))
            .filter(|_| !limits.infinite);
        let mut deadline = budget.map(|budget| Instant::now() + budget + grace);
        let mut stopped = false;
        loop {
            if !stopped && stop.load(Ordering::Relaxed) {
                self.send("stop")?;
                stopped = true;
                let by = Instant::now() + grace;
                deadline = Some(deadline.map_or(by, |at| at.min(by)));
            }
            let line = match self.lines.recv_timeout(POLL) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|at| Instant::now() >= at) {
                        return Err(ExternalError::Timeout {
                            expected: "bestmove",
                            timeout: grace,
                        });
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            };
            if let Some(info) = parse_info(&line, position) {
                on_info(info);
                continue;
            }
            match parse_bestmove(&line) {
                None => {}
                Some(BestMove::Move(mv)) if position.is_legal(mv) => return Ok(Some(mv)),
                Some(BestMove::Move(mv)) => return Err(ExternalError::IllegalMove(mv.iccs())),
                Some(BestMove::Unreadable(text)) => {
                    return Err(ExternalError::UnreadableMove(text));
                }
                Some(BestMove::NoMove) if position.has_legal_move() => {
                    return Err(ExternalError::NoMove);
                }
                Some(BestMove::NoMove) => return Ok(None),
            }
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `position fen ROOT moves ...`: the game's moves from the position its history
/// starts at, so the engine sees repetitions.
pub fn position_command(position: &Position) -> String {
    let mut root = position.clone();
    let moves: Vec<Move> = position.moves_played().collect();
    for &mv in moves.iter().rev() {
        root.unmake_move(mv);
    }
    let mut line = format!("position fen {}", root.to_fen());
    if !moves.is_empty() {
        line.push_str(" moves");
        for mv in &moves {
            line.push(' ');
            line.push_str(&mv.iccs());
        }
    }
    line
}

/// The `go` line for `limits`: UCI `wtime/btime/winc/binc/movestogo`, UCCI `time/increment`.
pub fn go_command(limits: &Limits, protocol: Protocol) -> String {
    let mut words = vec!["go".to_owned()];
    if limits.is_unbounded() {
        words.push(match protocol {
            Protocol::Uci => "infinite".to_owned(),
            Protocol::Ucci => "depth 64".to_owned(),
        });
        return words.join(" ");
    }
    if let Some(depth) = limits.depth {
        words.push(format!("depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        words.push(format!("nodes {nodes}"));
    }
    if let Some(time) = limits.movetime {
        words.push(format!("movetime {}", time.as_millis()));
    }
    if let Some(clock) = limits.clock {
        let (time, increment) = (clock.remaining.as_millis(), clock.increment.as_millis());
        match protocol {
            Protocol::Uci => {
                // Only the side to move's clock is known here; the other gets the same.
                words.push(format!(
                    "wtime {time} btime {time} winc {increment} binc {increment}"
                ));
            }
            Protocol::Ucci => words.push(format!("time {time} increment {increment}")),
        }
        if let Some(moves) = clock.moves_to_go {
            words.push(format!("movestogo {moves}"));
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::clock::Clock;

    #[test]
    fn positions_are_sent_from_their_root_with_the_moves() {
        let mut position = Position::startpos();
        assert_eq!(
            position_command(&position),
            format!("position fen {}", Position::startpos().to_fen())
        );
        position.make_move(Move::parse_coords("h2e2").unwrap());
        position.make_move(Move::parse_coords("h9g7").unwrap());
        assert_eq!(
            position_command(&position),
            format!(
                "position fen {} moves h2e2 h9g7",
                Position::startpos().to_fen()
            )
        );
    }

    #[test]
    fn go_lines_carry_the_limits() {
        let clock = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(1000),
                increment: Duration::ZERO,
                moves_to_go: Some(5),
            }),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&clock, Protocol::Uci),
            "go wtime 1000 btime 1000 winc 0 binc 0 movestogo 5"
        );
        assert_eq!(
            go_command(&clock, Protocol::Ucci),
            "go time 1000 increment 0 movestogo 5"
        );
        assert_eq!(go_command(&Limits::depth(4), Protocol::Uci), "go depth 4");
        assert_eq!(go_command(&Limits::default(), Protocol::Uci), "go infinite");
    }
}
