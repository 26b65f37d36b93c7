//! The endgame school's tables shared by every session of a server: one set of tables
//! read once (a drill's probes are lookups in tables its lesson's job loaded), each
//! table's summary kept once it is worked out (the lessons list does not decompress
//! every table each time it opens), and one generation at a time: a lesson whose
//! tables another session is generating waits for them, with that generation's
//! progress, instead of generating them again. Blocking calls, for a server's job
//! threads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock, TryLockError};
use std::time::Duration;

use xiangqi_engine::egtb::{self, Indexer, Material, Observer, Table, Tablebases};

use super::lessons::{
    Lesson, LessonRow, SchoolAnswer, SchoolRequest, Start, Summary, TrainError, lesson_materials,
    lesson_of, summarize, too_large,
};

/// How often a lesson waiting for another's generation looks at its progress (and
/// whether it was cancelled).
const WAIT_STEP: Duration = Duration::from_millis(100);

/// What the generation under way has done: its table, positions done of the total.
type Progress = Option<(Material, u64, u64)>;

pub struct SchoolTables {
    dir: PathBuf,
    /// The tables, opened again when a generation (or the operator) adds some.
    tables: RwLock<Arc<Tablebases>>,
    /// Each table's summary once worked out (`None`: the file is damaged).
    summaries: Mutex<HashMap<Material, Option<Summary>>>,
    /// Held while tables are generated: one generation at a time.
    generating: Mutex<()>,
    progress: Mutex<Progress>,
    progressed: Condvar,
    /// Threads a generation solves with.
    threads: usize,
    /// Tables solved here so far.
    solved: AtomicU64,
}

impl SchoolTables {
    /// The tables of `dir` (only listed now), generated with `threads` threads.
    pub fn new(dir: &Path, threads: usize) -> SchoolTables {
        SchoolTables {
            dir: dir.to_owned(),
            tables: RwLock::new(Arc::new(Tablebases::open(dir).lookups_only())),
            summaries: Mutex::default(),
            generating: Mutex::new(()),
            progress: Mutex::new(None),
            progressed: Condvar::new(),
            threads: threads.max(1),
            solved: AtomicU64::new(0),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The tables as they are now.
    pub fn tablebases(&self) -> Arc<Tablebases> {
        Arc::clone(&self.tables.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Tables solved by this server so far (each missing one once).
    pub fn solved(&self) -> u64 {
        self.solved.load(Ordering::Relaxed)
    }

    /// Does the work of `request` (its folder is this one's), reporting generation
    /// progress to `observer`; a wait for another's generation ends once `stop` is set.
    pub fn run(
        &self,
        request: &SchoolRequest,
        observer: &dyn Observer,
        stop: &AtomicBool,
    ) -> SchoolAnswer {
        match request {
            SchoolRequest::Lessons { .. } => SchoolAnswer::Lessons(self.lessons()),
            SchoolRequest::Drill {
                material, start, ..
            } => SchoolAnswer::Drill(self.lesson(*material, *start, observer, stop).map(Box::new)),
        }
    }

    /// The folder listed again: a new set of tables when files came or went.
    fn refresh(&self) -> Arc<Tablebases> {
        let listed = Tablebases::open(&self.dir).lookups_only();
        let mut tables = self.tables.write().unwrap_or_else(|p| p.into_inner());
        if tables.materials() != listed.materials() {
            *tables = Arc::new(listed);
        }
        Arc::clone(&tables)
    }

    /// The folder listed again, always a new set (a damaged table generated again
    /// keeps its name).
    fn reopen(&self) {
        let listed = Arc::new(Tablebases::open(&self.dir).lookups_only());
        *self.tables.write().unwrap_or_else(|p| p.into_inner()) = listed;
    }

    /// Every lesson with its table's summary where installed, each table read once
    /// for its summary in the server's life.
    pub fn lessons(&self) -> Vec<LessonRow> {
        let tables = self.refresh();
        lesson_materials(&tables)
            .into_iter()
            .map(|material| LessonRow {
                material,
                summary: tables
                    .materials()
                    .contains(&material)
                    .then(|| self.summary(material, None))
                    .flatten(),
            })
            .collect()
    }

    /// The summary of `material`'s table: kept, or worked out from `table` (loaded)
    /// or from its file (read and let go).
    fn summary(&self, material: Material, table: Option<&Table>) -> Option<Summary> {
        let kept = self.summaries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(summary) = kept.get(&material) {
            return summary.clone();
        }
        drop(kept);
        let summary = match table {
            Some(table) => Some(summarize(table)),
            None => {
                let indexer = Indexer::new(material);
                let path = egtb::file::table_path(&self.dir, &material);
                egtb::file::read_table(&path, &indexer)
                    .ok()
                    .map(|(values, longest)| summarize(&Table::new(indexer, values, longest)))
            }
        };
        self.summaries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(material, summary.clone());
        summary
    }

    /// The endings `material` needs that `tables` cannot give (absent or damaged); the
    /// others are loaded now, so the drill only looks them up.
    fn absent(tables: &Tablebases, material: Material) -> Vec<Material> {
        material
            .closure()
            .into_iter()
            .filter(|m| tables.table(m).is_err())
            .collect()
    }

    /// A lesson of `material`, its missing tables generated first (once, whoever asks).
    pub fn lesson(
        &self,
        material: Material,
        start: Start,
        observer: &dyn Observer,
        stop: &AtomicBool,
    ) -> Result<Lesson, TrainError> {
        let mut generated = Vec::new();
        let mut followed: Option<Material> = None;
        let mut tried = false;
        loop {
            let tables = self.tablebases();
            let absent = Self::absent(&tables, material);
            if absent.is_empty() {
                let table = tables.table(&material)?;
                let summary = self
                    .summary(material, Some(&table))
                    .ok_or_else(|| TrainError::Empty(material.to_string()))?;
                return lesson_of(tables, &table, summary, start, generated);
            }
            too_large(&self.dir, material, &absent)?;
            if tried {
                // Generated, and still not readable: no use trying again.
                return Err(TrainError::NeedsTable {
                    material: material.to_string(),
                    dir: self.dir.display().to_string(),
                });
            }
            if stop.load(Ordering::Relaxed) {
                return Err(TrainError::Cancelled);
            }
            match self.generating.try_lock() {
                Ok(_held) => {
                    // Another generation may have made them while this one waited.
                    if Self::absent(&self.refresh(), material).is_empty() {
                        continue;
                    }
                    let sharing = Sharing {
                        tables: self,
                        observer,
                    };
                    let solved = egtb::generate(&[material], &self.dir, self.threads, &sharing);
                    *self.progress.lock().unwrap_or_else(|p| p.into_inner()) = None;
                    self.progressed.notify_all();
                    self.reopen();
                    tried = true;
                    let solved = solved?;
                    self.solved
                        .fetch_add(solved.len() as u64, Ordering::Relaxed);
                    generated = solved;
                }
                Err(TryLockError::WouldBlock) => {
                    let progress = self.progress.lock().unwrap_or_else(|p| p.into_inner());
                    let (progress, _) = self
                        .progressed
                        .wait_timeout(progress, WAIT_STEP)
                        .unwrap_or_else(|p| p.into_inner());
                    if let Some((table, done, total)) = *progress {
                        if followed != Some(table) {
                            followed = Some(table);
                            observer.started(&table, total);
                        }
                        observer.progress(done, total);
                    }
                }
                // A generation that panicked: its tables are checked again above.
                Err(TryLockError::Poisoned(_)) => self.generating.clear_poison(),
            }
        }
    }
}

/// The generating lesson's observer, whose progress the waiting ones follow too.
struct Sharing<'a> {
    tables: &'a SchoolTables,
    observer: &'a dyn Observer,
}

impl Sharing<'_> {
    fn set(&self, change: impl FnOnce(&mut Progress)) {
        change(
            &mut self
                .tables
                .progress
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        );
        self.tables.progressed.notify_all();
    }
}

impl Observer for Sharing<'_> {
    fn skipped(&self, material: &Material) {
        self.observer.skipped(material);
    }

    fn started(&self, material: &Material, positions: u64) {
        self.set(|progress| *progress = Some((*material, 0, positions)));
        self.observer.started(material, positions);
    }

    fn progress(&self, done: u64, total: u64) {
        self.set(|progress| {
            if let Some((_, at, of)) = progress {
                (*at, *of) = (done, total);
            }
        });
        self.observer.progress(done, total);
    }

    fn finished(&self, material: &Material, bytes: u64, time: Duration) {
        self.observer.finished(material, bytes, time);
    }
}
