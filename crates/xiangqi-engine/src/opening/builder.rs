//! Building the opening table from tagged games: every position up to a ply limit
//! counts the ECCO codes of the games through it (mirror images merged; a position
//! reached twice in one game counts once). A position keeps the code most of its games
//! carry when enough games reach it and that code is clear enough.

use std::collections::{HashMap, HashSet};

use crate::book::{BookKey, mirror_move};
use crate::eval::mirrored_files;
use xiangqi_core::board::{Move, Position};

use super::code::Ecco;
use super::format::{Level, TableEntry, encode};
use super::table::is_standard_start;

/// When a position's code counts as decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decide {
    /// Games that must reach the position.
    pub min_games: u32,
    /// Share of those games (0 to 1) the most common code must have.
    pub min_share: f64,
}

impl Default for Decide {
    /// Tuned on the validation split (docs/openings.md).
    fn default() -> Decide {
        Decide {
            min_games: 2,
            min_share: 0.7,
        }
    }
}

/// Collects (position, code) counts; `entries` turns them into the table.
#[derive(Debug, Default)]
pub struct TableBuilder {
    counts: HashMap<u64, HashMap<Ecco, u32>>,
    /// Plies of each game taken (positions after 1 ..= max_ply moves).
    pub max_ply: u32,
    pub games: usize,
}

impl TableBuilder {
    pub fn new(max_ply: u32) -> TableBuilder {
        TableBuilder {
            max_ply,
            ..TableBuilder::default()
        }
    }

    /// Counts one game with its code; a game from another start is skipped (false).
    pub fn add_game(&mut self, start: &Position, moves: &[Move], code: Ecco) -> bool {
        if !is_standard_start(start) {
            return false;
        }
        let mut pos = start.clone();
        let mut mirror = mirrored_files(&pos);
        let mut seen = HashSet::new();
        for &mv in moves.iter().take(self.max_ply as usize) {
            pos.make_move(mv);
            mirror.make_move(mirror_move(mv));
            let key = BookKey::from_keys(pos.key(), mirror.key()).key;
            if seen.insert(key) {
                *self.counts.entry(key).or_default().entry(code).or_default() += 1;
            }
        }
        self.games += 1;
        true
    }

    /// Distinct positions counted so far.
    pub fn positions(&self) -> usize {
        self.counts.len()
    }

    /// The decided positions, sorted as the file stores them. A position is decided at
    /// the finest level (code, group of ten, family) whose most common value has the
    /// share; ties go to the smaller code, so a build is reproducible.
    pub fn entries(&self, decide: Decide) -> Vec<TableEntry> {
        let mut entries: Vec<TableEntry> = self
            .counts
            .iter()
            .filter_map(|(&key, codes)| {
                let total: u32 = codes.values().sum();
                if total < decide.min_games.max(1) {
                    return None;
                }
                Level::ALL.into_iter().find_map(|level| {
                    let mut by_head: HashMap<Ecco, u32> = HashMap::new();
                    for (&code, &n) in codes {
                        *by_head.entry(level.head(code)).or_default() += n;
                    }
                    let (&head, &top) = by_head
                        .iter()
                        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))?;
                    (f64::from(top) >= decide.min_share * f64::from(total)).then_some(TableEntry {
                        key,
                        code: head,
                        level,
                    })
                })
            })
            .collect();
        entries.sort_by_key(|e| e.key);
        entries
    }

    /// The table file's bytes.
    pub fn to_bytes(&self, decide: Decide) -> Vec<u8> {
        encode(&self.entries(decide), self.max_ply)
    }
}
