//! `:drill`: the endgame school in the TUI. The lessons list and a lesson's tables (read,
//! or generated on the spot) come from the driver as an effect run on a thread
//! (`train::lessons::run`); the drill itself only probes, so it runs here. While it
//! runs the board shows the drill's position and the game waits, untouched: leaving
//! gives it back as it was.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use crate::train::SchoolTables;
use crate::train::drill::{Drill, Status};
use crate::train::lessons::{self, Lesson, LessonRow, SchoolAnswer, SchoolRequest, Start};
use xiangqi_core::board::{Color, Move};
use xiangqi_engine::egtb::{self, Material, Observer};

use super::action::{Command, Effect};
use super::app::{App, AppMode};
use super::aside::Kept;
use super::hint::Hint;
use super::popup::{ChoiceItem, ChoicePurpose, ChoiceValue, Popup};

/// A school request the driver runs on a thread (`run`), with its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolJob {
    pub id: u64,
    pub request: SchoolRequest,
}

/// What the thread reports: tables being generated, then the answer.
#[derive(Debug, Clone)]
pub enum SchoolUpdate {
    Progress {
        id: u64,
        material: String,
        percent: u64,
    },
    Done {
        id: u64,
        answer: SchoolAnswer,
    },
}

impl SchoolUpdate {
    pub fn id(&self) -> u64 {
        match self {
            SchoolUpdate::Progress { id, .. } | SchoolUpdate::Done { id, .. } => *id,
        }
    }
}

/// Two updates are the same when they are of the same job and kind (answers are not
/// compared: they hold tables).
impl PartialEq for SchoolUpdate {
    fn eq(&self, other: &SchoolUpdate) -> bool {
        match (self, other) {
            (SchoolUpdate::Done { id: a, .. }, SchoolUpdate::Done { id: b, .. }) => a == b,
            (a @ SchoolUpdate::Progress { .. }, b @ SchoolUpdate::Progress { .. }) => {
                format!("{a:?}") == format!("{b:?}")
            }
            _ => false,
        }
    }
}

impl Eq for SchoolUpdate {}

/// The app's school: the job running, if any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct School {
    next_id: u64,
    pub running: Option<u64>,
    /// Where the drill asked for starts (kept for "again").
    start: Start,
}

/// A drill in progress, and what to give back on leaving it.
#[derive(Debug, Clone)]
pub struct DrillMode {
    pub lesson: Box<Lesson>,
    pub drill: Drill,
    pub start: Start,
    /// The game's view set aside for the drill, given back on leaving.
    pub kept: Box<Kept>,
}

/// The work of the thread: `report` gets the generation's progress (each table, each
/// percent), the answer is returned.
pub fn run(job: &SchoolJob, report: &(dyn Fn(SchoolUpdate) + Sync)) -> SchoolUpdate {
    let progress = Progress {
        id: job.id,
        report,
        state: Mutex::new((String::new(), u64::MAX)),
    };
    SchoolUpdate::Done {
        id: job.id,
        answer: lessons::run(&job.request, &progress),
    }
}

/// `run` on a server's shared tables (`SchoolTables`: one generation at a time,
/// summaries kept); a wait for another session's generation ends once `stop` is set.
pub fn run_shared(
    job: &SchoolJob,
    tables: &SchoolTables,
    stop: &AtomicBool,
    report: &(dyn Fn(SchoolUpdate) + Sync),
) -> SchoolUpdate {
    let progress = Progress {
        id: job.id,
        report,
        state: Mutex::new((String::new(), u64::MAX)),
    };
    SchoolUpdate::Done {
        id: job.id,
        answer: tables.run(&job.request, &progress, stop),
    }
}

/// Generation progress as updates, one per table and percent.
struct Progress<'a> {
    id: u64,
    report: &'a (dyn Fn(SchoolUpdate) + Sync),
    /// The table being solved and the last percent reported.
    state: Mutex<(String, u64)>,
}

impl Progress<'_> {
    fn send(&self, material: String, percent: u64) {
        (self.report)(SchoolUpdate::Progress {
            id: self.id,
            material,
            percent,
        });
    }
}

impl Observer for Progress<'_> {
    fn skipped(&self, _: &Material) {}

    fn started(&self, material: &Material, _: u64) {
        *self.state.lock().expect("progress lock") = (material.to_string(), 0);
        self.send(material.to_string(), 0);
    }

    fn progress(&self, done: u64, total: u64) {
        let percent = (done.min(total) * 100) / total.max(1);
        let mut state = self.state.lock().expect("progress lock");
        if percent != state.1 {
            state.1 = percent;
            let material = state.0.clone();
            drop(state);
            self.send(material, percent);
        }
    }

    fn finished(&self, _: &Material, _: u64, _: std::time::Duration) {}
}

fn drilling(app: &App) -> Option<&DrillMode> {
    match &app.mode {
        AppMode::Drill(mode) => Some(mode),
        _ => None,
    }
}

fn drilling_mut(app: &mut App) -> Option<&mut DrillMode> {
    match &mut app.mode {
        AppMode::Drill(mode) => Some(mode),
        _ => None,
    }
}

/// The folder of the tables: the installed ones', else the data directory's.
fn tables_dir(app: &App) -> Result<PathBuf, String> {
    match &app.tablebases {
        Some(tables) => Ok(tables.dir().to_path_buf()),
        None => egtb::default_dir()
            .ok_or_else(|| "no data directory for the tablebases (no home directory)".to_owned()),
    }
}

fn submit(app: &mut App, request: SchoolRequest) -> Result<Vec<Effect>, String> {
    if app.school.running.is_some() {
        return Err("the school is busy: wait for it".to_owned());
    }
    app.school.next_id += 1;
    let id = app.school.next_id;
    app.school.running = Some(id);
    Ok(vec![Effect::School(Box::new(SchoolJob { id, request }))])
}

/// `:drill` (the lessons), `:drill MATERIAL [MOVES]` (a lesson: its longest win, or a
/// position won in MOVES), and in a drill `:drill retry|next|best|back|leave`.
pub fn command(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    let words: Vec<&str> = argument.split_whitespace().collect();
    let in_drill = drilling(app).is_some();
    match words.as_slice() {
        [] => {
            let dir = tables_dir(app)?;
            app.notify("reading the lessons...");
            submit(app, SchoolRequest::Lessons { dir })
        }
        ["retry"] if in_drill => Ok(retry(app)),
        ["next"] if in_drill => next_lesson(app),
        ["best"] if in_drill => {
            show_best(app);
            Ok(Vec::new())
        }
        ["back"] if in_drill => {
            take_back(app);
            Ok(Vec::new())
        }
        ["leave"] if in_drill => {
            leave(app);
            Ok(Vec::new())
        }
        [name] => start(app, name, Start::Longest),
        [name, moves] => {
            let moves: u32 = moves
                .parse()
                .ok()
                .filter(|m| (1..=126).contains(m))
                .ok_or_else(|| format!("bad depth '{moves}': a number of moves, 1 to 126"))?;
            start(
                app,
                name,
                Start::Random {
                    moves: Some(moves),
                    seed: 1,
                },
            )
        }
        _ => {
            Err("usage: :drill [MATERIAL [MOVES]] | retry | next | best | back | leave".to_owned())
        }
    }
}

fn start(app: &mut App, name: &str, start: Start) -> Result<Vec<Effect>, String> {
    let material: Material = name.parse().map_err(|e: egtb::EgtbError| e.to_string())?;
    let dir = tables_dir(app)?;
    // The folder listed only: reading the tables is the thread's work.
    let missing = lessons::check(&dir, material).map_err(|e| e.to_string())?;
    app.notify(if missing.is_empty() {
        format!("opening the {material} lesson...")
    } else {
        format!("generating the {material} tables into {}...", dir.display())
    });
    app.school.start = start;
    submit(
        app,
        SchoolRequest::Drill {
            dir,
            material,
            start,
        },
    )
}

/// A report of the thread; a stale one is dropped.
pub fn apply(app: &mut App, update: SchoolUpdate) {
    if app.school.running != Some(update.id()) {
        return;
    }
    let answer = match update {
        SchoolUpdate::Progress {
            material, percent, ..
        } => {
            app.notify(format!("generating the {material} table: {percent}%"));
            return;
        }
        SchoolUpdate::Done { answer, .. } => answer,
    };
    app.school.running = None;
    match answer {
        SchoolAnswer::Lessons(rows) => list(app, rows),
        SchoolAnswer::Drill(Err(error)) => app.alert(error.to_string()),
        SchoolAnswer::Drill(Ok(lesson)) => {
            let start = app.school.start;
            begin(app, lesson, start);
        }
    }
}

/// The lessons as a choice list.
fn list(app: &mut App, rows: Vec<LessonRow>) {
    let items: Vec<ChoiceItem> = rows
        .iter()
        .map(|row| ChoiceItem {
            label: lesson_label(row),
            value: ChoiceValue::Lesson(row.material.to_string()),
        })
        .collect();
    app.notice = None;
    app.popups.push(Popup::Choice {
        purpose: ChoicePurpose::Lesson,
        items,
        selected: 0,
    });
}

/// "KRK      win          mate in 2" or "KRKAA    (not installed)".
pub fn lesson_label(row: &LessonRow) -> String {
    match &row.summary {
        Some(s) => format!(
            "{:<9}{:<12}{}",
            row.material.to_string(),
            s.verdict().name(),
            s.longest_text()
        ),
        None => format!("{:<9}(not installed)", row.material.to_string()),
    }
}

/// A lesson chosen from the list.
pub fn choose(app: &mut App, material: &str) -> Vec<Effect> {
    start(app, material, Start::Longest).unwrap_or_else(|error| {
        app.alert(error);
        Vec::new()
    })
}

/// Opens the TUI on a lesson prepared beforehand (`egtb drill MATERIAL`): its tables
/// become the app's, so `:drill` and the next lesson use the same folder.
pub fn open(app: &mut App, lesson: Box<Lesson>, start: Start) {
    app.tablebases = Some(lesson.tables.clone());
    begin(app, lesson, start);
}

/// The drill of `lesson` starts; the game (or the drill) left is kept to go back to.
fn begin(app: &mut App, lesson: Box<Lesson>, start: Start) {
    let tables = lesson.tables.clone();
    let attack = lesson.summary.verdict().attack();
    let drill = match Drill::new(lesson.start.clone(), lesson.student, attack, &tables) {
        Ok(drill) => drill,
        Err(error) => {
            app.alert(error.to_string());
            return;
        }
    };
    let kept = match std::mem::take(&mut app.mode) {
        AppMode::Drill(mode) => mode.kept,
        other => Box::new(Kept::take(app, other)),
    };
    let generated: Vec<String> = lesson.generated.iter().map(|m| m.to_string()).collect();
    let summary = &lesson.summary;
    let side = if lesson.student == Color::Red {
        "Red"
    } else {
        "Black"
    };
    let mut text = format!(
        "{}: {} - you play {side}{}",
        summary.material,
        summary.verdict().name(),
        if attack {
            ", mate the table"
        } else {
            ", hold the draw"
        }
    );
    if !generated.is_empty() {
        text = format!("generated {}; {text}", generated.join(" "));
    }
    app.flipped = lesson.student == Color::Black;
    app.selected = None;
    app.hint = None;
    app.input.clear();
    app.mode = AppMode::Drill(Box::new(DrillMode {
        lesson,
        drill,
        start,
        kept,
    }));
    app.orient_cursor();
    app.notify(text);
}

/// Why the student cannot move now, in a drill.
pub fn why_no_move(app: &App) -> Option<&'static str> {
    let mode = drilling(app)?;
    match mode.drill.status {
        Status::Playing => None,
        _ => Some("the drill is over: Ctrl-Z takes back, Ctrl-K again, Ctrl-N next lesson"),
    }
}

/// The student's move (legal): graded, and the table answers.
pub fn play(app: &mut App, mv: Move) {
    let notation = app.display_notation();
    let Some(mode) = drilling_mut(app) else {
        return;
    };
    let before = mode.drill.position.clone();
    let tables = mode.lesson.tables.clone();
    let result = mode.drill.play(mv, &tables);
    let status = mode.drill.status;
    let text = match result {
        Ok(step) => {
            let played = xiangqi_core::notation::format_move(&before, mv, notation);
            let mut text = format!("{played} {}", step.grade.text());
            match status {
                Status::Playing => {}
                Status::Passed => text.push_str(": passed!"),
                other => text.push_str(&format!(
                    ": {} (Ctrl-Z takes back, Ctrl-K again)",
                    other.text()
                )),
            }
            Ok(text)
        }
        Err(error) => Err(error.to_string()),
    };
    app.selected = None;
    app.hint = None;
    app.cursor_shown = false;
    match text {
        Ok(text) if status == Status::Passed => app.notify(text),
        Ok(text) if status.over() => app.alert(text),
        Ok(text) => app.notify(text),
        Err(error) => app.alert(error),
    }
}

/// Keys in a drill: Ctrl-Z takes back, Ctrl-N the next lesson, Ctrl-K again, Ctrl-H
/// the table's best, Ctrl-X leaves; what would touch the game waiting is refused.
/// `None`: as anywhere.
pub fn on_command(app: &mut App, command: Command) -> Option<Vec<Effect>> {
    drilling(app)?;
    match command {
        Command::Undo => take_back(app),
        Command::DrillAgain => return Some(retry(app)),
        Command::Hint => show_best(app),
        Command::NewGame => {
            return Some(next_lesson(app).unwrap_or_else(|error| {
                app.alert(error);
                Vec::new()
            }));
        }
        Command::LeaveTraining => leave(app),
        Command::Browse(_) | Command::GoToPly(_) | Command::Resign => {
            app.alert("not in the drill: Ctrl-X leaves it (the game waits)");
        }
        _ => return None,
    }
    Some(Vec::new())
}

fn take_back(app: &mut App) {
    let Some(mode) = drilling_mut(app) else {
        return;
    };
    let took = mode.drill.take_back();
    app.hint = None;
    app.selected = None;
    if took {
        app.notify("taken back (the plies it lost still count)");
    } else {
        app.alert("nothing to take back");
    }
}

/// The same lesson from its start.
fn retry(app: &mut App) -> Vec<Effect> {
    let Some(mode) = drilling(app) else {
        return Vec::new();
    };
    let lesson = mode.lesson.clone();
    let start = mode.start;
    begin(app, lesson, start);
    app.notify("again from the start");
    Vec::new()
}

/// The lesson after this one in the lessons list.
fn next_lesson(app: &mut App) -> Result<Vec<Effect>, String> {
    let Some(mode) = drilling(app) else {
        return Ok(Vec::new());
    };
    let all = lessons::lesson_materials(&mode.lesson.tables);
    let here = mode.lesson.summary.material;
    let at = all.iter().position(|m| *m == here).unwrap_or(0);
    let next = all[(at + 1) % all.len()];
    start(app, &next.to_string(), Start::Longest)
}

/// The table's best move for the student, marked on the board like a hint.
fn show_best(app: &mut App) {
    let notation = app.display_notation();
    let Some(mode) = drilling(app) else {
        return;
    };
    if !mode.drill.student_to_move() {
        app.alert("the drill is over: Ctrl-Z takes back, Ctrl-K again");
        return;
    }
    match mode.drill.best(&mode.lesson.tables) {
        Ok(Some(mv)) => {
            let text = xiangqi_core::notation::format_move(&mode.drill.position, mv, notation);
            app.hint = Some(Hint {
                mv,
                text: text.clone(),
            });
            app.notify(format!("the table's best: {text}"));
        }
        Ok(None) => app.alert("no move here"),
        Err(error) => app.alert(error.to_string()),
    }
}

/// Back to the game, as it was.
pub fn leave(app: &mut App) {
    let AppMode::Drill(mode) = std::mem::take(&mut app.mode) else {
        return;
    };
    mode.kept.restore(app);
    app.hint = None;
    app.notify("left the drill: the game is back");
}
