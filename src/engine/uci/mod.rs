//! The UCI front end, as Pikafish speaks it for xiangqi (ICCS moves with ranks 0-9), and
//! UCCI for the GUIs that speak that. Input is read on the caller's thread; each search
//! runs on its own thread and prints its `info` lines and `bestmove` itself, so `stop`,
//! `isready` and `quit` are answered while it thinks. Bad input is reported on an
//! `info string` line and otherwise ignored; the engine never exits on bad input.

mod command;
mod input;

pub use command::{Clocks, Command, Dialect, GoCommand, parse};
pub use input::{Line, LineReader};

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::skill::{self, Skill};
use super::smp::MAX_THREADS;
use super::tt;
use super::{Engine, MAX_MULTIPV, SearchInfo, SearchResult, Verdict};
use crate::board::{Move, Position};
use crate::book::{self, Book};
use crate::search::Algorithm;

pub const ENGINE_NAME: &str = concat!("xiangqi-tui ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the xiangqi-tui authors";
/// Longest input line accepted, in bytes.
pub const MAX_LINE: usize = 16 * 1024;

/// Where lines go: shared by the input loop and the search thread, flushed per line.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Output, line: &str) -> io::Result<()> {
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(out, "{line}")?;
    out.flush()
}

/// A search running on its own thread; it hands the engine back when done.
struct RunningSearch {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Engine>,
    /// Only a stop ends it (`go infinite`, `go ponder`).
    waits_for_stop: bool,
    /// Set just before the search prints `bestmove`: from then on the GUI may send the
    /// next `go`, and the thread is about to hand the engine back.
    answered: Arc<AtomicBool>,
}

struct Session {
    out: Output,
    dialect: Dialect,
    /// UCCI: times in milliseconds rather than seconds.
    millis: bool,
    position: Position,
    /// The engine, when no search holds it.
    engine: Option<Engine>,
    hash_mb: usize,
    /// Search threads the next `go` uses (UCI `Threads`).
    threads: usize,
    /// The backend the next `go` uses.
    algorithm: Algorithm,
    search: Option<RunningSearch>,
    /// Lines per search (UCI `MultiPV`).
    multipv: usize,
    /// Strength: `Skill Level`, or the level for `UCI_Elo` when `UCI_LimitStrength`.
    strength: Strength,
    tablebases: Option<Arc<crate::egtb::Tablebases>>,
    /// The opening book options (`OwnBook`, `BookFile`, `BookVariety`).
    book: BookOptions,
}

/// UCI's book options. Off by default, so matches are unaffected unless a GUI asks.
struct BookOptions {
    own_book: bool,
    /// `builtin` or a path.
    file: String,
    variety: u8,
    /// The book read for `file`, kept until the option changes.
    loaded: Option<(String, Arc<Book>)>,
}

impl BookOptions {
    /// The book move for `position`, if the book is on and has one; a book that cannot
    /// be read is reported as the error text.
    fn book_move(&mut self, position: &Position) -> Result<Option<Move>, String> {
        if !self.own_book {
            return Ok(None);
        }
        if self
            .loaded
            .as_ref()
            .is_none_or(|(file, _)| *file != self.file)
        {
            let book = if self.file.eq_ignore_ascii_case("builtin") {
                Book::builtin().cloned()
            } else {
                Book::open(std::path::Path::new(&self.file))
            }
            .map_err(|e| e.to_string())?;
            self.loaded = Some((self.file.clone(), Arc::new(book)));
        }
        let Some((_, book)) = &self.loaded else {
            return Ok(None);
        };
        Ok(book::choose(
            &book.moves(position),
            self.variety,
            book::clock_random(),
        ))
    }
}

/// The strength options as set; the level in effect follows from them.
#[derive(Debug, Clone, Copy)]
struct Strength {
    level: u8,
    limit: bool,
    elo: i32,
}

impl Strength {
    fn level(&self) -> u8 {
        if self.limit {
            skill::level_for_elo(self.elo)
        } else {
            self.level
        }
    }
}

/// Seed of the weakened levels' picks: fixed, so a session replays the same way.
const SKILL_SEED: u64 = 0x5eed;

/// The `Algorithm` option's values, as UCI's `var` list: `var minimax var alphabeta ...`.
fn algorithm_vars() -> String {
    Algorithm::ALL
        .iter()
        .map(|algorithm| format!("var {algorithm}"))
        .collect::<Vec<_>>()
        .join(" ")
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
    let mut session = Session {
        out: Arc::clone(&out),
        dialect: Dialect::Uci,
        millis: false,
        position: Position::startpos(),
        engine: Some(Engine::default()),
        hash_mb: Engine::DEFAULT_HASH_MB,
        threads: 1,
        algorithm: Algorithm::AlphaBeta,
        search: None,
        multipv: 1,
        strength: Strength {
            level: skill::MAX_LEVEL,
            limit: false,
            elo: skill::elo_of_level(skill::MAX_LEVEL),
        },
        tablebases,
        book: BookOptions {
            own_book: false,
            file: "builtin".to_owned(),
            variety: 0,
            loaded: None,
        },
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

    fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.answered.load(Ordering::Acquire))
    }

    /// Stops the running search, if any, and takes the engine back.
    fn finish_search(&mut self) {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    /// Waits for the running search, if any, to end by itself, and takes the engine back.
    fn join_search(&mut self) {
        if let Some(search) = self.search.take() {
            match search.thread.join() {
                Ok(engine) => self.engine = Some(engine),
                // A panicking search lost the engine: start afresh rather than exit.
                Err(_) => self.engine = Some(Engine::new(self.hash_mb)),
            }
        }
    }

    /// The engine, once no search is using it.
    fn idle_engine(&mut self) -> &mut Engine {
        if !self.searching() {
            self.finish_search();
        }
        self.engine
            .get_or_insert_with(|| Engine::new(Engine::DEFAULT_HASH_MB))
    }

    fn execute(&mut self, command: Command) -> io::Result<()> {
        match command {
            Command::Uci => {
                self.dialect = Dialect::Uci;
                say(&self.out, &format!("id name {ENGINE_NAME}"))?;
                say(&self.out, &format!("id author {ENGINE_AUTHOR}"))?;
                say(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {} min {} max {}",
                        Engine::DEFAULT_HASH_MB,
                        tt::MIN_MB,
                        tt::MAX_MB
                    ),
                )?;
                say(&self.out, "option name Clear Hash type button")?;
                say(
                    &self.out,
                    &format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
                )?;
                say(
                    &self.out,
                    &format!(
                        "option name Algorithm type combo default {} {}",
                        Algorithm::AlphaBeta,
                        algorithm_vars()
                    ),
                )?;
                say(&self.out, "option name OwnBook type check default false")?;
                say(
                    &self.out,
                    "option name BookFile type string default builtin",
                )?;
                say(
                    &self.out,
                    "option name BookVariety type spin default 0 min 0 max 100",
                )?;
                say(
                    &self.out,
                    &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                )?;
                say(
                    &self.out,
                    &format!(
                        "option name Skill Level type spin default {max} min {min} max {max}",
                        min = skill::MIN_LEVEL,
                        max = skill::MAX_LEVEL
                    ),
                )?;
                say(
                    &self.out,
                    "option name UCI_LimitStrength type check default false",
                )?;
                say(
                    &self.out,
                    &format!(
                        "option name UCI_Elo type spin default {max} min {min} max {max}",
                        min = skill::elo_of_level(skill::MIN_LEVEL),
                        max = skill::elo_of_level(skill::MAX_LEVEL)
                    ),
                )?;
                say(&self.out, "uciok")
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                say(&self.out, &format!("id name {ENGINE_NAME}"))?;
                say(&self.out, &format!("id author {ENGINE_AUTHOR}"))?;
                say(&self.out, "option usemillisec type check default false")?;
                say(
                    &self.out,
                    &format!(
                        "option hashsize type spin min {} max {} default {}",
                        tt::MIN_MB,
                        tt::MAX_MB,
                        Engine::DEFAULT_HASH_MB
                    ),
                )?;
                say(
                    &self.out,
                    &format!("option threads type spin min 1 max {MAX_THREADS} default 1"),
                )?;
                say(
                    &self.out,
                    &format!(
                        "option algorithm type combo {} default {}",
                        algorithm_vars(),
                        Algorithm::AlphaBeta
                    ),
                )?;
                say(&self.out, "ucciok")
            }
            Command::IsReady => say(&self.out, "readyok"),
            Command::NewGame => {
                if self.searching() {
                    return self.info("ucinewgame ignored: a search is running");
                }
                self.idle_engine().new_game();
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
                if let Some(search) = &self.search {
                    search.stop.store(true, Ordering::Relaxed);
                }
                Ok(())
            }
            Command::Display => self.info(&format!("fen {}", self.position.to_fen())),
            Command::BanMoves => self.info("banmoves is not supported, ignored"),
            Command::Quit => Ok(()),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "hash" | "hashsize" => {
                let Some(mb) = value.and_then(|v| v.trim().parse::<usize>().ok()) else {
                    return self.info(&format!("option {name} needs a number of MB"));
                };
                if !(tt::MIN_MB..=tt::MAX_MB).contains(&mb) {
                    return self.info(&format!(
                        "option {name} must be {}..{} MB",
                        tt::MIN_MB,
                        tt::MAX_MB
                    ));
                }
                if self.searching() {
                    return self.info("setoption ignored: a search is running");
                }
                self.hash_mb = mb;
                self.idle_engine().set_hash_mb(mb);
                Ok(())
            }
            // Takes effect at the next `go`.
            "threads" => match value.and_then(|v| v.trim().parse::<usize>().ok()) {
                Some(n) if (1..=MAX_THREADS).contains(&n) => {
                    self.threads = n;
                    Ok(())
                }
                _ => self.info(&format!("option {name} must be 1..{MAX_THREADS}")),
            },
            "clear hash" => {
                if self.searching() {
                    return self.info("setoption ignored: a search is running");
                }
                self.idle_engine().new_game();
                Ok(())
            }
            // Takes effect at the next `go`; a running search keeps its backend.
            "algorithm" => match value.unwrap_or("").parse::<Algorithm>() {
                Ok(algorithm) => {
                    self.algorithm = algorithm;
                    Ok(())
                }
                Err(error) => self.info(&format!("option {name}: {error}")),
            },
            "usemillisec" => match value.map(str::trim) {
                Some("true") => {
                    self.millis = true;
                    Ok(())
                }
                Some("false") => {
                    self.millis = false;
                    Ok(())
                }
                _ => self.info("option usemillisec needs true or false"),
            },
            "ownbook" => match value.map(str::trim) {
                Some(flag @ ("true" | "false")) => {
                    self.book.own_book = flag == "true";
                    Ok(())
                }
                _ => self.info("option OwnBook needs true or false"),
            },
            "bookfile" => match value.map(str::trim).filter(|v| !v.is_empty()) {
                Some(file) => {
                    self.book.file = file.to_owned();
                    Ok(())
                }
                None => self.info("option BookFile needs builtin or a path"),
            },
            "bookvariety" => match value.and_then(|v| v.trim().parse::<u8>().ok()) {
                Some(variety) if variety <= 100 => {
                    self.book.variety = variety;
                    Ok(())
                }
                _ => self.info("option BookVariety must be 0..100"),
            },
            // These three take effect at the next `go`.
            "multipv" => match value.and_then(|v| v.trim().parse::<usize>().ok()) {
                Some(n) if (1..=MAX_MULTIPV).contains(&n) => {
                    self.multipv = n;
                    Ok(())
                }
                _ => self.info(&format!("option {name} must be 1..{MAX_MULTIPV}")),
            },
            "skill level" => match value.and_then(|v| v.trim().parse::<u8>().ok()) {
                Some(level) if (skill::MIN_LEVEL..=skill::MAX_LEVEL).contains(&level) => {
                    self.strength.level = level;
                    Ok(())
                }
                _ => self.info(&format!(
                    "option {name} must be {}..{}",
                    skill::MIN_LEVEL,
                    skill::MAX_LEVEL
                )),
            },
            "uci_limitstrength" => match value.map(str::trim) {
                Some("true") => {
                    self.strength.limit = true;
                    Ok(())
                }
                Some("false") => {
                    self.strength.limit = false;
                    Ok(())
                }
                _ => self.info(&format!("option {name} needs true or false")),
            },
            "uci_elo" => match value.and_then(|v| v.trim().parse::<i32>().ok()) {
                Some(elo) => {
                    self.strength.elo = elo;
                    Ok(())
                }
                None => self.info(&format!("option {name} needs a number")),
            },
            _ => self.info(&format!("unknown option '{name}', ignored")),
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

    fn go(&mut self, go: &GoCommand) -> io::Result<()> {
        if self.searching() {
            return self.info("go ignored: a search is running (send stop first)");
        }
        self.finish_search();
        // A book move is answered at once; pondering and infinite analysis still search.
        if !go.ponder && !go.limits.infinite {
            match self.book.book_move(&self.position) {
                Ok(Some(mv)) => {
                    self.info(&format!("book move {mv}"))?;
                    return say(&self.out, &format!("bestmove {mv}"));
                }
                Ok(None) => {}
                Err(error) => {
                    self.info(&format!("book not used: {error}"))?;
                    self.book.own_book = false;
                }
            }
        }
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb));
        engine.algorithm = self.algorithm;
        engine.set_threads(self.threads);
        engine.set_tablebases(self.tablebases.clone());
        engine.multipv = self.multipv;
        // A new level starts its picks afresh; the same level keeps its random state.
        let level = self.strength.level();
        if engine.skill.level() != level {
            engine.skill = Skill::new(level, SKILL_SEED);
        }
        let limits = go.limits_for(self.position.side_to_move());
        let wait_for_stop = go.ponder || limits.infinite;
        let stop = Arc::new(AtomicBool::new(false));
        let position = self.position.clone();
        let out = Arc::clone(&self.out);
        let dialect = self.dialect;
        let thread_stop = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        let thread = thread::Builder::new()
            .name("uci-search".into())
            .spawn(move || {
                let mut report = |info: &SearchInfo| {
                    for line in info_lines(info, dialect) {
                        let _ = say(&out, &line);
                    }
                };
                let result = engine.search(&position, &limits, &thread_stop, &mut report);
                // `go infinite` and `go ponder` answer only once told to stop.
                while wait_for_stop && !thread_stop.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(2));
                }
                thread_answered.store(true, Ordering::Release);
                let _ = say(&out, &bestmove_line(&result, dialect));
                engine
            })?;
        self.search = Some(RunningSearch {
            stop,
            thread,
            waits_for_stop: wait_for_stop,
            answered,
        });
        Ok(())
    }
}

/// The `info` lines for one completed iteration: one, or with MultiPV in UCI one per
/// line with its rank (`multipv K`).
pub fn info_lines(info: &SearchInfo, dialect: Dialect) -> Vec<String> {
    if info.lines.len() < 2 || dialect == Dialect::Ucci {
        return vec![info_line(info, dialect)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            format!(
                "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
                info.depth,
                info.seldepth,
                index + 1,
                line.verdict(),
                info.nodes,
                info.nps,
                info.hashfull,
                info.time.as_millis(),
                moves_text(&line.pv)
            )
        })
        .collect()
}

/// An `info` line for one completed iteration.
pub fn info_line(info: &SearchInfo, dialect: Dialect) -> String {
    let pv = moves_text(&info.pv);
    let millis = info.time.as_millis();
    match dialect {
        Dialect::Uci => format!(
            "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {} pv {pv}",
            info.depth,
            info.seldepth,
            info.verdict(),
            info.nodes,
            info.nps,
            info.hashfull,
            millis
        ),
        Dialect::Ucci => {
            let score = match info.verdict() {
                Verdict::Centipawns(cp) => cp,
                Verdict::Mate(_) => info.score,
            };
            format!(
                "info depth {} score {score} time {millis} nodes {} pv {pv}",
                info.depth, info.nodes
            )
        }
    }
}

/// The final `bestmove` line (UCI `bestmove (none)` / UCCI `nobestmove` when the side
/// to move has no legal move).
pub fn bestmove_line(result: &SearchResult, dialect: Dialect) -> String {
    match (result.best_move, dialect) {
        (Some(mv), _) => match result.ponder {
            Some(reply) => format!("bestmove {mv} ponder {reply}"),
            None => format!("bestmove {mv}"),
        },
        (None, Dialect::Uci) => "bestmove (none)".to_string(),
        (None, Dialect::Ucci) => "nobestmove".to_string(),
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(|m| m.iccs()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
