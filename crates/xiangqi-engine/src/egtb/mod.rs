//! Endgame tablebases: every position of an ending solved backwards (retrograde
//! analysis) under this program's rules — checkmate and stalemate lose, the generals may
//! not face — with win, draw or loss for the side to move and the distance to mate in
//! plies. Repetition is out of scope: a position that can only cycle is a draw.
//!
//! - `material`: signatures such as `KRKAABB` (stronger side first).
//! - `index`: position <-> index, using where each kind may stand and mirror symmetry.
//! - `solve`: the retrograde solver.
//! - `file`: the compressed, checksummed file format.
//! - `probe`: looking positions up ([`Tablebases`]).

pub mod file;
pub mod index;
pub mod material;
pub mod probe;
pub mod solve;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

pub use index::Indexer;
pub use material::Material;
pub use probe::{Probe, Table, Tablebases, Wdl};

use xiangqi_core::board::Position;

/// Largest ending (positions per side to move) `generate` accepts: its solver needs
/// four bytes per position in memory.
pub const MAX_POSITIONS_PER_SIDE: u64 = 600_000_000;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EgtbError {
    #[error("bad material '{name}': {why}")]
    BadMaterial { name: String, why: String },
    #[error("no tablebase for {0}")]
    Missing(String),
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}: damaged tablebase file: {why}")]
    Corrupt { path: String, why: String },
    #[error("{0}: a mate is longer than the table can record")]
    TooDeep(String),
    #[error("{0}: a capture led to an illegal position in a smaller table")]
    Inconsistent(String),
    #[error("{0}: a piece stands where the table has no point for it")]
    OutsideIndex(String),
    #[error("{name} is too large to generate ({positions} positions per side to move)")]
    TooLarge { name: String, positions: u64 },
}

/// The folder tables live in by default: `egtb` in the platform data directory (next
/// to the TUI's autosave). `None` without a home directory.
pub fn default_dir() -> Option<PathBuf> {
    xiangqi_core::paths::data_dir().map(|dir| dir.join("egtb"))
}

/// The default set `egtb generate` makes without materials: every ending of one attacker
/// against any advisors and elephants, and every ending of one attacker on each side
/// with at most `DEFAULT_DEFENDERS` defenders in all. docs/engine.md gives sizes and times.
pub fn default_set() -> Vec<Material> {
    let mut set = Material::one_attacker_vs_defenders();
    for m in Material::attacker_each(DEFAULT_DEFENDERS) {
        if !set.contains(&m) {
            set.push(m);
        }
    }
    set
}

/// Defenders (advisors and elephants, both sides together) in the default set's endings
/// with an attacker on each side: chosen so the set takes about ten minutes on two cores.
pub const DEFAULT_DEFENDERS: u32 = 1;

/// What `generate` reports as it goes.
pub trait Observer: Sync {
    /// A table is already complete and valid: it is kept.
    fn skipped(&self, material: &Material);
    /// Solving starts: `positions` indexes in all (both sides to move).
    fn started(&self, material: &Material, positions: u64);
    /// Positions decided so far in the current step.
    fn progress(&self, done: u64, total: u64);
    /// A table is written.
    fn finished(&self, material: &Material, bytes: u64, time: Duration);
}

/// An observer that reports nothing (tests, work whose caller says it started).
pub struct Silent;

impl Observer for Silent {
    fn skipped(&self, _: &Material) {}
    fn started(&self, _: &Material, _: u64) {}
    fn progress(&self, _: u64, _: u64) {}
    fn finished(&self, _: &Material, _: u64, _: Duration) {}
}

/// Generates the tables of `materials` and of every ending they reach by captures, in
/// `dir`, smallest first; tables already present and valid are kept (so an interrupted
/// run resumes). Returns the materials solved in this run.
pub fn generate(
    materials: &[Material],
    dir: &Path,
    threads: usize,
    observer: &dyn Observer,
) -> Result<Vec<Material>, EgtbError> {
    let mut all: Vec<Material> = Vec::new();
    for m in materials {
        for sub in m.closure() {
            if !all.contains(&sub) {
                all.push(sub);
            }
        }
    }
    all.sort_by_key(|m| (m.pieces(), m.to_string()));
    for m in &all {
        let ix = Indexer::new(*m);
        if ix.per_side > MAX_POSITIONS_PER_SIDE || m.to_string().len() > 15 {
            return Err(EgtbError::TooLarge {
                name: m.to_string(),
                positions: ix.per_side,
            });
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| EgtbError::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let tables = Tablebases::open(dir);
    let mut solved = Vec::new();
    // Tables solved in this run stay in memory for the larger endings that need them.
    let mut fresh: HashMap<Material, Arc<Table>> = HashMap::new();
    for m in all {
        if file::is_valid(dir, &m) {
            observer.skipped(&m);
            continue;
        }
        let start = Instant::now();
        let ix = Indexer::new(m);
        observer.started(&m, 2 * ix.per_side);
        let mut subs: HashMap<Material, Arc<Table>> = HashMap::new();
        for c in m.captures() {
            let table = match fresh.get(&c) {
                Some(t) => t.clone(),
                None => tables.table(&c).or_else(|_| {
                    let sub_ix = Indexer::new(c);
                    let (values, longest) = file::read_table(&file::table_path(dir, &c), &sub_ix)?;
                    Ok::<_, EgtbError>(Arc::new(Table::new(sub_ix, values, longest)))
                })?,
            };
            subs.insert(c, table);
        }
        let sub = |pos: &Position| {
            let (material, flip) = Material::of(pos);
            subs.get(&material)
                .map_or(solve::ILLEGAL, |t| t.value(pos, flip))
        };
        let progress = |done: u64, total: u64| observer.progress(done, total);
        let values = solve::solve(&ix, &sub, threads, &progress)?;
        let bytes = file::write_table(dir, &ix, &values)?;
        let (stored, longest) = file::read_table(&file::table_path(dir, &m), &ix)?;
        fresh.insert(m, Arc::new(Table::new(ix, stored, longest)));
        // Materials come smallest first: one two pieces smaller is nobody's sub-ending now.
        fresh.retain(|k, _| k.pieces() + 1 >= m.pieces());
        observer.finished(&m, bytes, start.elapsed());
        solved.push(m);
    }
    Ok(solved)
}
