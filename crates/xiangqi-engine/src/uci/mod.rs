//! The UCI front end, as Pikafish speaks it for xiangqi (ICCS moves with ranks 0-9), and
//! UCCI for the GUIs that speak that. Input is read on the caller's thread; searches run
//! on the engine service (`crate::service`), whose thread prints their `info` lines and
//! `bestmove`, so `stop`, `isready` and `quit` are answered while it thinks. Bad input
//! is reported on an `info string` line and otherwise ignored; the engine never exits
//! on bad input.

mod command;
mod input;
mod options;
mod output;
mod search;

pub use command::{Clocks, Command, Dialect, GoCommand, parse};
pub use input::{Line, LineReader};
pub use output::{bestmove_line, info_line, info_lines};

use std::io::{self, Read, Write};
use std::sync::{Arc, Mutex};

use crate::engine::Engine;
use crate::search::Algorithm;
use crate::service::{EngineLink, EngineSearcher, SearchId};
use options::{BookOptions, Strength, ucci_options, uci_options};
use output::{Output, say};
use search::{Answer, RunningSearch};
use xiangqi_core::board::Position;

pub const ENGINE_NAME: &str = concat!("xiangqi-tui ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the xiangqi-tui authors";
/// Longest input line accepted, in bytes.
pub const MAX_LINE: usize = 16 * 1024;

/// Seed of the weakened levels' picks: fixed, so a session replays the same way.
const SKILL_SEED: u64 = 0x5eed;

struct Session {
    out: Output,
    dialect: Dialect,
    /// UCCI: times in milliseconds rather than seconds.
    millis: bool,
    position: Position,
    /// The engine service: its thread searches and prints the reports.
    link: EngineLink,
    answer: Arc<Answer>,
    /// The last search started, until its answer has been waited for.
    search: Option<RunningSearch>,
    next_id: SearchId,
    hash_mb: usize,
    /// Search threads the next `go` uses (UCI `Threads`).
    threads: usize,
    /// The backend the next `go` uses.
    algorithm: Algorithm,
    /// Lines per search (UCI `MultiPV`).
    multipv: usize,
    /// Strength: `Skill Level`, or the level for `UCI_Elo` when `UCI_LimitStrength`.
    strength: Strength,
    /// The opening book options (`OwnBook`, `BookFile`, `BookVariety`).
    book: BookOptions,
}

/// Runs the protocol until `quit` or the end of input.
pub fn run<R: Read, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    run_with_tablebases(input, output, None)
}

/// `run`, with endgame tablebases for every search.
pub fn run_with_tablebases<R: Read, W: Write + Send + 'static>(
    input: R,
    output: W,
    tablebases: Option<Arc<crate::egtb::Tablebases>>,
) -> io::Result<()> {
    let out: Output = Arc::new(Mutex::new(Box::new(output)));
    let mut searcher = EngineSearcher::default();
    searcher.set_tablebases(tablebases);
    searcher.set_skill_seed(SKILL_SEED);
    let answer = Arc::new(Answer::default());
    let link = EngineLink::spawn(Box::new(searcher), search::printer(&answer, &out))?;
    let mut session = Session {
        out: Arc::clone(&out),
        dialect: Dialect::Uci,
        millis: false,
        position: Position::startpos(),
        link,
        answer,
        search: None,
        next_id: 0,
        hash_mb: Engine::DEFAULT_HASH_MB,
        threads: 1,
        algorithm: Algorithm::AlphaBeta,
        multipv: 1,
        strength: Strength::default(),
        book: BookOptions::default(),
    };
    let mut reader = LineReader::new(input, MAX_LINE);
    loop {
        let line = match reader.next_line()? {
            None => break,
            Some(Line::TooLong(len)) => {
                session.info(&format!(
                    "line of {len} bytes is too long (limit {MAX_LINE}), ignored"
                ))?;
                continue;
            }
            Some(Line::NotUtf8) => {
                session.info("line is not valid UTF-8, ignored")?;
                continue;
            }
            Some(Line::Text(text)) => text,
        };
        match parse(&line, session.dialect, session.millis) {
            None => {}
            Some(Err(reason)) => session.info(&reason)?,
            Some(Ok(Command::Quit)) => {
                session.finish_search();
                break;
            }
            Some(Ok(command)) => session.execute(command)?,
        }
    }
    // At the end of input a bounded search may finish (scripts pipe a few commands in
    // and read the answer); one that would run forever is stopped.
    if session.search.as_ref().is_some_and(|s| !s.waits_for_stop) {
        session.join_search();
    }
    session.finish_search();
    if session.dialect == Dialect::Ucci {
        say(&out, "bye")?;
    }
    Ok(())
}

impl Session {
    fn info(&self, text: &str) -> io::Result<()> {
        say(&self.out, &format!("info string {text}"))
    }

    fn hello(&self, options: Vec<String>, ok: &str) -> io::Result<()> {
        say(&self.out, &format!("id name {ENGINE_NAME}"))?;
        say(&self.out, &format!("id author {ENGINE_AUTHOR}"))?;
        for option in options {
            say(&self.out, &option)?;
        }
        say(&self.out, ok)
    }

    fn execute(&mut self, command: Command) -> io::Result<()> {
        match command {
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.hello(uci_options(), "uciok")
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                self.hello(ucci_options(), "ucciok")
            }
            Command::IsReady => say(&self.out, "readyok"),
            Command::NewGame => {
                if self.searching() {
                    return self.info("ucinewgame ignored: a search is running");
                }
                self.finish_search();
                self.link.new_game();
                Ok(())
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(position) => {
                self.position = *position;
                Ok(())
            }
            Command::Go(go) => self.go(&go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop | Command::PonderHit => {
                self.stop_search();
                Ok(())
            }
            Command::Display => self.info(&format!("fen {}", self.position.to_fen())),
            Command::BanMoves => self.info("banmoves is not supported, ignored"),
            Command::Quit => Ok(()),
        }
    }

    fn perft(&mut self, depth: u32) -> io::Result<()> {
        let mut pos = self.position.clone();
        let mut total = 0;
        for (mv, count) in pos.perft_divide(depth.max(1)) {
            total += count;
            say(&self.out, &format!("{mv}: {count}"))?;
        }
        say(&self.out, "")?;
        say(&self.out, &format!("Nodes searched: {total}"))
    }
}

#[cfg(test)]
mod tests;
