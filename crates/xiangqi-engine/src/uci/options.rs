//! The engine's options: the lists the handshakes announce, `setoption`, and the
//! book and strength options' state.

use std::io;
use std::sync::Arc;

use super::Session;
use crate::book::{self, Book};
use crate::engine::skill;
use crate::engine::smp::MAX_THREADS;
use crate::engine::{Engine, MAX_MULTIPV, tt};
use crate::search::Algorithm;
use xiangqi_core::board::{Move, Position};

/// The `Algorithm` option's values, as UCI's `var` list: `var minimax var alphabeta ...`.
fn algorithm_vars() -> String {
    Algorithm::ALL
        .iter()
        .map(|algorithm| format!("var {algorithm}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `option` lines of the UCI handshake.
pub(super) fn uci_options() -> Vec<String> {
    vec![
        format!(
            "option name Hash type spin default {} min {} max {}",
            Engine::DEFAULT_HASH_MB,
            tt::MIN_MB,
            tt::MAX_MB
        ),
        "option name Clear Hash type button".to_owned(),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!(
            "option name Algorithm type combo default {} {}",
            Algorithm::AlphaBeta,
            algorithm_vars()
        ),
        "option name OwnBook type check default false".to_owned(),
        "option name BookFile type string default builtin".to_owned(),
        "option name BookVariety type spin default 0 min 0 max 100".to_owned(),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        format!(
            "option name Skill Level type spin default {max} min {min} max {max}",
            min = skill::MIN_LEVEL,
            max = skill::MAX_LEVEL
        ),
        "option name UCI_LimitStrength type check default false".to_owned(),
        format!(
            "option name UCI_Elo type spin default {max} min {min} max {max}",
            min = skill::elo_of_level(skill::MIN_LEVEL),
            max = skill::elo_of_level(skill::MAX_LEVEL)
        ),
    ]
}

/// The `option` lines of the UCCI handshake.
pub(super) fn ucci_options() -> Vec<String> {
    vec![
        "option usemillisec type check default false".to_owned(),
        format!(
            "option hashsize type spin min {} max {} default {}",
            tt::MIN_MB,
            tt::MAX_MB,
            Engine::DEFAULT_HASH_MB
        ),
        format!("option threads type spin min 1 max {MAX_THREADS} default 1"),
        format!(
            "option algorithm type combo {} default {}",
            algorithm_vars(),
            Algorithm::AlphaBeta
        ),
    ]
}

/// UCI's book options. Off by default, so matches are unaffected unless a GUI asks.
pub(super) struct BookOptions {
    pub own_book: bool,
    /// `builtin` or a path.
    pub file: String,
    pub variety: u8,
    /// The book read for `file`, kept until the option changes.
    loaded: Option<(String, Arc<Book>)>,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions {
            own_book: false,
            file: "builtin".to_owned(),
            variety: 0,
            loaded: None,
        }
    }
}

impl BookOptions {
    /// The book move for `position`, if the book is on and has one; a book that cannot
    /// be read is reported as the error text.
    pub fn book_move(&mut self, position: &Position) -> Result<Option<Move>, String> {
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
            xiangqi_core::rng::random_seed(),
        ))
    }
}

/// The strength options as set; the level in effect follows from them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Strength {
    pub level: u8,
    pub limit: bool,
    pub elo: i32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            level: skill::MAX_LEVEL,
            limit: false,
            elo: skill::elo_of_level(skill::MAX_LEVEL),
        }
    }
}

impl Strength {
    pub fn level(&self) -> u8 {
        if self.limit {
            skill::level_for_elo(self.elo)
        } else {
            self.level
        }
    }
}

impl Session {
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
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
                self.finish_search();
                self.link.set_hash_mb(mb as u32);
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
                self.finish_search();
                self.link.new_game();
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
}
