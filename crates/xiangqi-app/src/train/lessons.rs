//! The endgame school's lessons: each ending of the tablebases with its verdict for the
//! stronger side and its longest win, and the position a drill starts from. Reading a
//! table (and generating a missing small one) is slow: `run` does it from a plain
//! request, so any driver can call it on a thread.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use xiangqi_core::board::{Color, Position};
use xiangqi_core::rng::SplitMix64;
use xiangqi_engine::egtb::solve::{DRAW, ILLEGAL, MAX_DTM};
use xiangqi_engine::egtb::{self, EgtbError, Indexer, Material, Observer, Table, Tablebases};

/// Missing tables (the ending and what it captures into) up to this many positions
/// per side to move in all are generated on the spot: a few seconds on one core.
pub const GENERATE_ON_THE_SPOT: u64 = 3_000_000;

/// Threads the on-the-spot generation uses.
const SOLVER_THREADS: usize = 2;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TrainError {
    /// The player left before the lesson was ready.
    #[error("the lesson was cancelled")]
    Cancelled,
    #[error(
        "no tablebase for {material} in {dir}: generate it with `xiangqi-tui egtb generate {material}`"
    )]
    NeedsTable { material: String, dir: String },
    #[error("{material} has no win in {moves} moves (its longest is mate in {longest})")]
    NoSuchDepth {
        material: String,
        moves: u32,
        longest: u32,
    },
    #[error("{0} has no position to drill")]
    Empty(String),
    #[error(transparent)]
    Tables(#[from] EgtbError),
}

/// What the stronger side can expect, by its share of won positions (stronger side to
/// move): win from 95%, mostly win from 50%, mostly draw from 5%, else draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Win,
    MostlyWin,
    MostlyDraw,
    Draw,
}

impl Verdict {
    pub fn of(won: u64, positions: u64) -> Verdict {
        let share = won as f64 / positions.max(1) as f64;
        if share >= 0.95 {
            Verdict::Win
        } else if share >= 0.5 {
            Verdict::MostlyWin
        } else if share >= 0.05 {
            Verdict::MostlyDraw
        } else {
            Verdict::Draw
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::MostlyWin => "mostly win",
            Verdict::MostlyDraw => "mostly draw",
            Verdict::Draw => "draw",
        }
    }

    /// The student attacks (plays the won side) in a won ending, defends in a drawn one.
    pub fn attack(self) -> bool {
        matches!(self, Verdict::Win | Verdict::MostlyWin)
    }
}

/// One table summed up, the stronger side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub material: Material,
    /// Legal positions (stored ones: a mirror image counts once).
    pub positions: u64,
    pub won: u64,
    pub drawn: u64,
    /// The longest win in plies (odd; 0 if nothing is won).
    pub longest: u32,
    /// A position with the longest win.
    pub longest_fen: Option<String>,
}

impl Summary {
    pub fn verdict(&self) -> Verdict {
        Verdict::of(self.won, self.positions)
    }

    /// Percent of positions won.
    pub fn won_percent(&self) -> f64 {
        100.0 * self.won as f64 / self.positions.max(1) as f64
    }

    /// "mate in 12" (moves of the winner), or "-" when nothing is won.
    pub fn longest_text(&self) -> String {
        if self.longest == 0 {
            "-".to_owned()
        } else {
            format!("mate in {}", self.longest.div_ceil(2))
        }
    }
}

/// Sums a table up from its stored values (stronger side to move).
pub fn summarize(table: &Table) -> Summary {
    let ix = &table.indexer;
    let values = &table.stored_values()[..ix.stored as usize];
    let (mut positions, mut won, mut drawn, mut longest, mut at) = (0, 0, 0, 0u8, None);
    for (slot, &v) in values.iter().enumerate() {
        match v {
            ILLEGAL => continue,
            DRAW => drawn += 1,
            d if d <= MAX_DTM && d % 2 == 1 => {
                won += 1;
                if d > longest {
                    longest = d;
                    at = Some(slot as u64);
                }
            }
            _ => {}
        }
        positions += 1;
    }
    Summary {
        material: ix.material,
        positions,
        won,
        drawn,
        longest: u32::from(longest),
        longest_fen: at
            .and_then(|slot| position_at(ix, slot))
            .map(|p| p.to_fen()),
    }
}

/// The position of a stored slot (see `Table::stored_values`).
fn position_at(ix: &Indexer, slot: u64) -> Option<Position> {
    let index = if slot < ix.stored {
        slot
    } else {
        ix.per_side + slot - ix.stored
    };
    ix.build(&ix.decode(index))
}

/// The lessons: the default set's endings, then any other installed table.
pub fn lesson_materials(tables: &Tablebases) -> Vec<Material> {
    let mut all = egtb::default_set();
    for m in tables.materials() {
        if !all.contains(m) {
            all.push(*m);
        }
    }
    all
}

/// Where a drill starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Start {
    /// A won ending: a position with its longest win; a drawn one: the first drawn
    /// position of seed 0.
    #[default]
    Longest,
    /// A position drawn by a seeded generator: of a won ending, one won in exactly
    /// `moves` moves (any won one without); of a drawn ending, a drawn one.
    Random { moves: Option<u32>, seed: u64 },
}

/// A drill's ending and start, as the school gives it out.
#[derive(Debug, Clone)]
pub struct Lesson {
    pub summary: Summary,
    pub start: Position,
    /// The student's side: the stronger side attacking, the weaker one defending.
    pub student: Color,
    /// The tables of `dir` (the drill probes the ending and what it captures into).
    pub tables: Arc<Tablebases>,
    /// Tables generated on the spot to give this lesson.
    pub generated: Vec<Material>,
}

/// The slow work of the school, as plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchoolRequest {
    /// The lessons and their summaries (not installed: no summary).
    Lessons { dir: PathBuf },
    /// A lesson to drill, its tables generated first if small enough.
    Drill {
        dir: PathBuf,
        material: Material,
        start: Start,
    },
}

/// One row of the lessons list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonRow {
    pub material: Material,
    /// `None`: its table is not installed (or damaged).
    pub summary: Option<Summary>,
}

/// What `run` answers.
#[derive(Debug, Clone)]
pub enum SchoolAnswer {
    Lessons(Vec<LessonRow>),
    Drill(Result<Box<Lesson>, TrainError>),
}

/// Does the work of `request`, reporting table generation to `observer`.
pub fn run(request: &SchoolRequest, observer: &dyn Observer) -> SchoolAnswer {
    match request {
        SchoolRequest::Lessons { dir } => SchoolAnswer::Lessons(lessons(dir)),
        SchoolRequest::Drill {
            dir,
            material,
            start,
        } => SchoolAnswer::Drill(lesson(dir, *material, *start, observer).map(Box::new)),
    }
}

/// Every lesson with the summary of its table where installed.
pub fn lessons(dir: &Path) -> Vec<LessonRow> {
    let tables = Tablebases::open(dir);
    lesson_materials(&tables)
        .into_iter()
        .map(|material| LessonRow {
            material,
            summary: tables.table(&material).ok().map(|t| summarize(&t)),
        })
        .collect()
}

/// The endings `material` needs (itself and what captures lead to) with no valid
/// table in `dir`, and their positions per side to move in all.
pub fn missing(dir: &Path, material: Material) -> (Vec<Material>, u64) {
    let missing: Vec<Material> = material
        .closure()
        .into_iter()
        .filter(|m| !egtb::file::is_valid(dir, m))
        .collect();
    let size = missing.iter().map(|m| Indexer::new(*m).per_side).sum();
    (missing, size)
}

/// A quick look (the folder listed, no file read) for a driver's thread: the endings
/// to generate first, or why they are too large to generate on the spot.
pub fn check(dir: &Path, material: Material) -> Result<Vec<Material>, TrainError> {
    let present = Tablebases::open(dir);
    let absent: Vec<Material> = material
        .closure()
        .into_iter()
        .filter(|m| !present.materials().contains(m))
        .collect();
    too_large(dir, material, &absent)?;
    Ok(absent)
}

pub(super) fn too_large(
    dir: &Path,
    material: Material,
    absent: &[Material],
) -> Result<(), TrainError> {
    let size: u64 = absent.iter().map(|m| Indexer::new(*m).per_side).sum();
    if size > GENERATE_ON_THE_SPOT {
        return Err(TrainError::NeedsTable {
            material: material.to_string(),
            dir: dir.display().to_string(),
        });
    }
    Ok(())
}

/// A lesson of `material` from the tables in `dir`, generating them first if they are
/// missing and small enough.
pub fn lesson(
    dir: &Path,
    material: Material,
    start: Start,
    observer: &dyn Observer,
) -> Result<Lesson, TrainError> {
    let (absent, _) = missing(dir, material);
    let mut generated = Vec::new();
    if !absent.is_empty() {
        too_large(dir, material, &absent)?;
        generated = egtb::generate(&[material], dir, SOLVER_THREADS, observer)?;
    }
    let tables = Arc::new(Tablebases::open(dir));
    let table = tables.table(&material)?;
    let summary = summarize(&table);
    lesson_of(tables, &table, summary, start, generated)
}

/// The lesson of `table` (of `tables`, summed up as `summary`) from `start`.
pub(super) fn lesson_of(
    tables: Arc<Tablebases>,
    table: &Table,
    summary: Summary,
    start: Start,
    generated: Vec<Material>,
) -> Result<Lesson, TrainError> {
    let attack = summary.verdict().attack();
    let start = start_position(table, &summary, start)?;
    let student = if attack { Color::Red } else { Color::Black };
    Ok(Lesson {
        summary,
        start,
        student,
        tables,
        generated,
    })
}

/// The start position of a drill (see `Start`).
fn start_position(table: &Table, summary: &Summary, start: Start) -> Result<Position, TrainError> {
    let ix = &table.indexer;
    let values = table.stored_values();
    let name = ix.material.to_string();
    let attack = summary.verdict().attack();
    if attack && start == Start::Longest {
        let fen = summary.longest_fen.as_deref();
        return fen
            .and_then(|f| Position::from_fen(f).ok())
            .ok_or(TrainError::Empty(name));
    }
    let (moves, seed) = match start {
        Start::Longest => (None, 0),
        Start::Random { moves, seed } => (moves, seed),
    };
    // Attack: the stronger side to move (the first half); defence: the weaker side to
    // move in a drawn position.
    let stored = ix.stored as usize;
    let (range, wanted): (std::ops::Range<usize>, Box<dyn Fn(u8) -> bool>) = if attack {
        let want = moves.map(|m| 2 * m.max(1) - 1);
        (
            0..stored,
            Box::new(move |v: u8| {
                v <= MAX_DTM && v % 2 == 1 && want.is_none_or(|w| u32::from(v) == w)
            }),
        )
    } else {
        (stored..2 * stored, Box::new(|v: u8| v == DRAW))
    };
    let slots: Vec<usize> = range.filter(|&s| wanted(values[s])).collect();
    if slots.is_empty() {
        return Err(match moves {
            Some(moves) if attack => TrainError::NoSuchDepth {
                material: name,
                moves,
                longest: summary.longest.div_ceil(2),
            },
            _ => TrainError::Empty(name),
        });
    }
    let slot = slots[SplitMix64::new(seed).below(slots.len())];
    position_at(ix, slot as u64).ok_or(TrainError::Empty(name))
}
