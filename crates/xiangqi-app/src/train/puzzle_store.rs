//! Where a player's puzzle rating, history and the puzzles' ratings are kept: a small
//! storage-neutral trait, and the local program's implementation, one JSON file in the
//! data directory (`puzzles.json`), written atomically. A damaged file is refused with
//! a one-line error and never overwritten: [`LocalPuzzleStore::set_aside`] renames it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::rating::Rating;

use super::puzzle_rating::{Attempt, PuzzleProfile};

#[derive(Debug, Error)]
pub enum PuzzleStoreError {
    #[error("cannot read the puzzle history {path}: {message}")]
    Read { path: PathBuf, message: String },
    #[error("the puzzle history {path} is damaged ({message}); it is kept as it is")]
    Damaged { path: PathBuf, message: String },
    #[error("cannot write the puzzle history {path}: {message}")]
    Write { path: PathBuf, message: String },
    #[error("the puzzle store failed: {0}")]
    Other(String),
}

/// A player's puzzle data, wherever it is kept (a file here, the server's database
/// for a key holder).
pub trait PuzzleStore {
    /// The player's rating and history, and the ratings of the puzzles attempted.
    fn load(&mut self) -> Result<PuzzleProfile, PuzzleStoreError>;
    /// Keeps an attempt: appended to the history, the player's rating set to `player`
    /// and, for a rated attempt, the puzzle's to `puzzle`.
    fn record(
        &mut self,
        attempt: &Attempt,
        player: Rating,
        puzzle: Option<Rating>,
    ) -> Result<(), PuzzleStoreError>;
}

/// The local program's store: one file.
#[derive(Debug, Clone)]
pub struct LocalPuzzleStore {
    path: PathBuf,
    /// What the file holds (once loaded).
    profile: Option<PuzzleProfile>,
}

impl LocalPuzzleStore {
    pub fn new(path: PathBuf) -> LocalPuzzleStore {
        LocalPuzzleStore {
            path,
            profile: None,
        }
    }

    /// `puzzles.json` in the data directory (`None` without a home directory).
    pub fn in_data_dir() -> Option<LocalPuzzleStore> {
        xiangqi_core::paths::data_dir().map(|dir| LocalPuzzleStore::new(dir.join("puzzles.json")))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames a damaged file to `puzzles.json.damaged` (numbered if taken) and starts
    /// afresh; returns where it went.
    pub fn set_aside(&mut self) -> Result<PathBuf, PuzzleStoreError> {
        let mut aside = self.path.with_extension("json.damaged");
        let mut n = 1;
        while aside.exists() {
            n += 1;
            aside = self.path.with_extension(format!("json.damaged.{n}"));
        }
        std::fs::rename(&self.path, &aside).map_err(|e| PuzzleStoreError::Write {
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        self.profile = Some(PuzzleProfile::default());
        Ok(aside)
    }
}

impl PuzzleStore for LocalPuzzleStore {
    fn load(&mut self) -> Result<PuzzleProfile, PuzzleStoreError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => {
                return Err(PuzzleStoreError::Read {
                    path: self.path.clone(),
                    message: e.to_string(),
                });
            }
        };
        let profile = if text.trim().is_empty() {
            PuzzleProfile::default()
        } else {
            let file: File =
                serde_json::from_str(&text).map_err(|e| PuzzleStoreError::Damaged {
                    path: self.path.clone(),
                    message: e.to_string(),
                })?;
            file.into_profile()
                .map_err(|message| PuzzleStoreError::Damaged {
                    path: self.path.clone(),
                    message,
                })?
        };
        self.profile = Some(profile.clone());
        Ok(profile)
    }

    fn record(
        &mut self,
        attempt: &Attempt,
        player: Rating,
        puzzle: Option<Rating>,
    ) -> Result<(), PuzzleStoreError> {
        if self.profile.is_none() {
            // Loading refuses a damaged file, so it is never written over.
            self.load()?;
        }
        let profile = self.profile.as_mut().expect("loaded above");
        profile.history.push(attempt.clone());
        profile.rating = player;
        if let Some(rating) = puzzle {
            profile.puzzles.insert(attempt.puzzle.clone(), rating);
        }
        let text = serde_json::to_string_pretty(&File::of(profile))
            .map_err(|e| PuzzleStoreError::Other(e.to_string()))?;
        xiangqi_core::atomic_file::write_atomically(&self.path, &(text + "\n")).map_err(|e| {
            PuzzleStoreError::Write {
                path: self.path.clone(),
                message: e.to_string(),
            }
        })
    }
}

/// The file's format (version 1).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    rating: StoredRating,
    puzzles: std::collections::BTreeMap<String, StoredRating>,
    history: Vec<StoredAttempt>,
}

#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct StoredRating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredAttempt {
    puzzle: String,
    at: u64,
    solved: bool,
    rated: bool,
    rating_after: f64,
}

impl From<Rating> for StoredRating {
    fn from(r: Rating) -> StoredRating {
        StoredRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl StoredRating {
    fn rating(self) -> Result<Rating, String> {
        let fine = self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0;
        if !fine {
            return Err(format!("a rating is not a number: {}", self.rating));
        }
        Ok(Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        })
    }
}

impl File {
    fn of(profile: &PuzzleProfile) -> File {
        File {
            version: 1,
            rating: profile.rating.into(),
            puzzles: profile
                .puzzles
                .iter()
                .map(|(id, r)| (id.clone(), (*r).into()))
                .collect(),
            history: profile
                .history
                .iter()
                .map(|a| StoredAttempt {
                    puzzle: a.puzzle.clone(),
                    at: a.at,
                    solved: a.solved,
                    rated: a.rated,
                    rating_after: a.rating_after,
                })
                .collect(),
        }
    }

    fn into_profile(self) -> Result<PuzzleProfile, String> {
        if self.version != 1 {
            return Err(format!("unknown version {}", self.version));
        }
        let mut puzzles = std::collections::BTreeMap::new();
        for (id, rating) in self.puzzles {
            puzzles.insert(id, rating.rating()?);
        }
        Ok(PuzzleProfile {
            rating: self.rating.rating()?,
            puzzles,
            history: self
                .history
                .into_iter()
                .map(|a| Attempt {
                    puzzle: a.puzzle,
                    at: a.at,
                    solved: a.solved,
                    rated: a.rated,
                    rating_after: a.rating_after,
                })
                .collect(),
        })
    }
}
