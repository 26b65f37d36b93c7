//! Looking positions up: a directory of table files, each loaded (and checked) the first
//! time a position of its material is probed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::EgtbError;
use super::file::{EXTENSION, read_table, table_path};
use super::index::Indexer;
use super::material::Material;
use super::solve::{DRAW, ILLEGAL, MAX_DTM};
use xiangqi_core::board::{Move, Position};

/// Win, draw or loss for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

impl Wdl {
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

/// A table's verdict on a position, for its side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub wdl: Wdl,
    /// Plies to mate (delivered or suffered) with best play; `None` for a draw.
    pub plies: Option<u32>,
}

impl Probe {
    /// Reads a value byte (see `solve`).
    pub fn from_value(v: u8) -> Option<Probe> {
        match v {
            DRAW => Some(Probe {
                wdl: Wdl::Draw,
                plies: None,
            }),
            d if d <= MAX_DTM => Some(Probe {
                wdl: if d % 2 == 1 { Wdl::Win } else { Wdl::Loss },
                plies: Some(u32::from(d)),
            }),
            _ => None,
        }
    }

    /// How the TUI status line says it: "win, mate in 7" (in moves of the side to move).
    pub fn describe(&self) -> String {
        match (self.wdl, self.plies) {
            (Wdl::Win, Some(p)) => format!("win, mate in {}", p.div_ceil(2)),
            (Wdl::Loss, Some(p)) => format!("loss, mated in {}", p / 2),
            _ => "draw".to_string(),
        }
    }
}

/// One ending in memory: the stored values of both sides to move.
pub struct Table {
    pub indexer: Indexer,
    values: Vec<u8>,
    pub longest: u8,
}

impl Table {
    pub fn new(indexer: Indexer, values: Vec<u8>, longest: u8) -> Table {
        Table {
            indexer,
            values,
            longest,
        }
    }

    /// The stored value bytes: the stronger side to move first (`indexer.stored` of
    /// them), then the weaker side to move; slot `i < stored` is index `i`.
    pub fn stored_values(&self) -> &[u8] {
        &self.values
    }

    /// The value byte of a position of this table's material (`flip`: stronger side
    /// Black); `ILLEGAL` if a piece stands where the index has no point for it.
    pub fn value(&self, pos: &Position, flip: bool) -> u8 {
        let placement = self.indexer.placement(pos, flip);
        match self.indexer.stored_slot(&placement) {
            Some(slot) => self.values[slot as usize],
            None => ILLEGAL,
        }
    }
}

/// The tables of a directory, loaded on demand. Shared by threads (the engine's worker,
/// the TUI's status line).
pub struct Tablebases {
    dir: PathBuf,
    /// Materials with a file present (not yet checked).
    present: Vec<Material>,
    most_pieces: u32,
    loaded: RwLock<HashMap<Material, Option<Arc<Table>>>>,
    /// Whether `probe` reads a table not loaded yet (see `lookups_only`).
    probe_loads: bool,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tablebases({}, {} tables)",
            self.dir.display(),
            self.present.len()
        )
    }
}

impl Tablebases {
    /// The tables in the data directory (where `egtb generate` writes by default), if
    /// there are any.
    pub fn installed() -> Option<Arc<Tablebases>> {
        let tables = Tablebases::open(&super::default_dir()?);
        (!tables.is_empty()).then(|| Arc::new(tables))
    }

    /// The tables in `dir` (none if it does not exist). Files are only listed here; each
    /// is read and checked on first use, and one that fails the check counts as absent.
    pub fn open(dir: &Path) -> Tablebases {
        let mut present = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
                    continue;
                }
                if let Some(m) = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(|s| s.parse::<Material>().ok())
                    && m.to_string() == path.file_stem().and_then(|s| s.to_str()).unwrap_or("")
                {
                    present.push(m);
                }
            }
        }
        present.sort();
        let most_pieces = present.iter().map(Material::pieces).max().unwrap_or(0);
        Tablebases {
            dir: dir.to_path_buf(),
            present,
            most_pieces,
            loaded: RwLock::new(HashMap::new()),
            probe_loads: true,
        }
    }

    /// The same tables, whose `probe` (the status line's, a search's) only looks up
    /// tables already loaded: a server's session draws on an async worker, which must
    /// not read and decompress a file. `table` and the probes built on it still load
    /// (a lesson's job loads its tables on the server's job pool).
    pub fn lookups_only(mut self) -> Tablebases {
        self.probe_loads = false;
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// True if no table file is present.
    pub fn is_empty(&self) -> bool {
        self.present.is_empty()
    }

    /// The materials with a file present.
    pub fn materials(&self) -> &[Material] {
        &self.present
    }

    /// Most pieces in any table: a quick test before computing a position's material.
    pub fn most_pieces(&self) -> u32 {
        self.most_pieces
    }

    /// The table of a material, loading it on first use.
    pub fn table(&self, material: &Material) -> Result<Arc<Table>, EgtbError> {
        if let Some(entry) = self.loaded.read().expect("tablebase lock").get(material) {
            return entry
                .clone()
                .ok_or_else(|| EgtbError::Missing(material.to_string()));
        }
        let read = if self.present.contains(material) {
            let ix = Indexer::new(*material);
            read_table(&table_path(&self.dir, material), &ix)
                .map(|(values, longest)| Some(Arc::new(Table::new(ix, values, longest))))
        } else {
            Ok(None)
        };
        // A damaged file counts as absent from now on: the search must not read it again
        // at every node.
        let loaded = read.as_ref().ok().cloned().flatten();
        self.loaded
            .write()
            .expect("tablebase lock")
            .insert(*material, loaded.clone());
        read?.ok_or_else(|| EgtbError::Missing(material.to_string()))
    }

    /// The verdict on a position, if its material has a valid table.
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if pos.occupied().count_ones() > self.most_pieces {
            return None;
        }
        if !self.probe_loads {
            let (material, flip) = Material::of(pos);
            let loaded = self.loaded.read().expect("tablebase lock");
            let table = loaded.get(&material)?.as_ref()?;
            return Probe::from_value(table.value(pos, flip));
        }
        self.probe_checked(pos).ok()
    }

    /// The verdict, or why there is none (no table, a damaged file).
    pub fn probe_checked(&self, pos: &Position) -> Result<Probe, EgtbError> {
        let (material, flip) = Material::of(pos);
        let table = self.table(&material)?;
        Probe::from_value(table.value(pos, flip))
            .ok_or_else(|| EgtbError::OutsideIndex(material.to_string()))
    }

    /// Every legal move with the verdict on the position it leads to (for the side to
    /// move there), in generation order.
    pub fn move_values(&self, pos: &Position) -> Result<Vec<(Move, Probe)>, EgtbError> {
        let mut p = pos.clone();
        let mut out = Vec::new();
        for mv in pos.legal_move_list() {
            p.make_move(mv);
            let probe = self.probe_checked(&p);
            p.unmake_move(mv);
            out.push((mv, probe?));
        }
        Ok(out)
    }

    /// The best move by the tables: a win by the fastest mate, a loss by the longest
    /// defence, a draw by a move that keeps it (the first in generation order). `None`
    /// when the side to move has no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<Move>, EgtbError> {
        let mut best: Option<(Move, i64)> = None;
        for (mv, child) in self.move_values(pos)? {
            let key = preference(&child);
            if best.is_none_or(|(_, b)| key > b) {
                best = Some((mv, key));
            }
        }
        Ok(best.map(|(mv, _)| mv))
    }
}

/// Orders moves by the verdict on the position they lead to (the opponent's view):
/// higher is better for the mover; ties keep the first move generated.
pub fn preference(child: &Probe) -> i64 {
    let plies = i64::from(child.plies.unwrap_or(0));
    match child.wdl {
        // The opponent loses: sooner is better.
        Wdl::Loss => 2_000 - plies,
        Wdl::Draw => 0,
        // The opponent wins: later is better.
        Wdl::Win => -2_000 + plies,
    }
}
