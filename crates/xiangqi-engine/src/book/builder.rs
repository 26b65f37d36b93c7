//! Building a book from games: every position reached (up to a ply limit) gets the move
//! played from it counted with the game's result, mirror images merged.

use std::collections::HashMap;

use crate::eval::mirrored_files;
use xiangqi_core::board::Move;
use xiangqi_core::record::{GameRecord, GameResult, RecordError};

use super::format::{Entry, Source, Stats, encode};
use super::mirror::{BookKey, mirror_move};

/// Collects moves and results; `finish` turns them into sorted entries.
#[derive(Debug, Default)]
pub struct BookBuilder {
    stats: HashMap<(u64, Move), Stats>,
    /// Plies taken from each game (`None`: all).
    pub max_ply: Option<usize>,
    pub games: usize,
    /// What the entries are counted from (games unless the engine's analysis).
    pub source: Source,
}

impl BookBuilder {
    pub fn new(max_ply: Option<usize>) -> BookBuilder {
        BookBuilder {
            max_ply,
            ..BookBuilder::default()
        }
    }

    /// Counts one game: its first `max_ply` moves, each with the game's result.
    pub fn add_game(&mut self, game: &GameRecord) {
        let result = match game.result {
            GameResult::RedWins => Stats {
                count: 1,
                red_wins: 1,
                ..Stats::default()
            },
            GameResult::Draw => Stats {
                count: 1,
                draws: 1,
                ..Stats::default()
            },
            GameResult::BlackWins => Stats {
                count: 1,
                black_wins: 1,
                ..Stats::default()
            },
            GameResult::Unknown => Stats {
                count: 1,
                ..Stats::default()
            },
        };
        let plies = self.max_ply.unwrap_or(usize::MAX);
        let mut pos = game.start.clone();
        // The mirror image is played alongside, so its key comes from the incremental
        // update rather than a board rebuilt at every ply.
        let mut mirror = mirrored_files(&pos);
        for &mv in game.moves.iter().take(plies) {
            self.add(BookKey::from_keys(pos.key(), mirror.key()), mv, result);
            pos.make_move(mv);
            mirror.make_move(mirror_move(mv));
        }
        self.games += 1;
    }

    /// Counts `stats` for move `mv` (as played) of a position filed under `key`.
    pub fn add(&mut self, key: BookKey, mv: Move, stats: Stats) {
        self.stats
            .entry((key.key, key.convert(mv)))
            .or_default()
            .add(stats);
    }

    /// Distinct (position, move) pairs so far.
    pub fn len(&self) -> usize {
        self.stats.len()
    }

    pub fn is_empty(&self) -> bool {
        self.stats.is_empty()
    }

    /// The entries played in at least `min_games` games, sorted as the file stores them.
    pub fn entries(&self, min_games: u32) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .stats
            .iter()
            .filter(|(_, stats)| stats.count >= min_games.max(1))
            .map(|(&(key, mv), &stats)| Entry {
                key,
                mv,
                stats,
                source: self.source,
            })
            .collect();
        entries.sort_by_key(|e| (e.key, e.mv.bits()));
        entries
    }

    /// The book file's bytes.
    pub fn to_bytes(&self, min_games: u32) -> Vec<u8> {
        encode(&self.entries(min_games))
    }
}

/// Splits a PGN text holding several games at each tag section that follows move text
/// (the reader reads one game from a text).
pub fn split_games(text: &str) -> Vec<&str> {
    let mut games = Vec::new();
    let mut start = 0;
    let mut seen_moves = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches('\u{feff}').trim();
        if trimmed.starts_with('[') {
            if seen_moves {
                games.push(&text[start..offset]);
                start = offset;
                seen_moves = false;
            }
        } else if !trimmed.is_empty() {
            seen_moves = true;
        }
        offset += line.len();
    }
    if text[start..].trim().is_empty() {
        if games.is_empty() {
            games.push(text);
        }
    } else {
        games.push(&text[start..]);
    }
    games
}

/// What became of the games of one file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FileOutcome {
    pub added: usize,
    /// (game number in the file, 1-based; why it was skipped).
    pub illegal: Vec<(usize, String)>,
    pub unreadable: Vec<(usize, String)>,
}

/// Adds every game of a decoded PGN text; a game with an illegal move or a broken
/// record is skipped and reported, never ending the build.
pub fn add_pgn_text(builder: &mut BookBuilder, text: &str) -> FileOutcome {
    let mut outcome = FileOutcome::default();
    for (index, game) in split_games(text).into_iter().enumerate() {
        match GameRecord::from_pgn(game) {
            Ok(record) => {
                builder.add_game(&record);
                outcome.added += 1;
            }
            Err(RecordError::Move(failure)) => {
                outcome.illegal.push((index + 1, failure.to_string()))
            }
            Err(error) => outcome.unreadable.push((index + 1, error.to_string())),
        }
    }
    outcome
}
