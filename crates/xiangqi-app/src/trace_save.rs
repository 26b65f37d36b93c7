//! `:trace save PATH [FORMAT] [snapshots]` in the background: the app hands the trace
//! to the driver as an effect, the driver writes it on a thread, and the progress and
//! the result come back as actions that the status line shows.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use xiangqi_core::board::Move;
use xiangqi_engine::study::{Cut, ExportOptions, TraceFormat, TraceStore, Written, write_trace};
use xiangqi_engine::tree::NodeIndex;

use super::action::Effect;
use super::app::App;
use super::explorer::{SavedTrace, StudyNames};

/// A save the driver carries out.
#[derive(Clone, Debug)]
pub struct TraceSave {
    pub path: PathBuf,
    pub format: TraceFormat,
    pub options: ExportOptions,
    pub trace: SavedTrace,
    pub names: StudyNames,
}

/// Two saves are the same save when they write the same file the same way.
impl PartialEq for TraceSave {
    fn eq(&self, other: &TraceSave) -> bool {
        self.path == other.path && self.format == other.format && self.options == other.options
    }
}

impl Eq for TraceSave {}

/// What the saving thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceSaveUpdate {
    Progress {
        done: u64,
        total: u64,
    },
    Done {
        path: PathBuf,
        written: Written,
        cut: Option<Cut>,
    },
    Failed {
        path: PathBuf,
        message: String,
    },
}

/// A save under way, for the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saving {
    pub path: PathBuf,
    pub done: u64,
    pub total: u64,
}

impl Saving {
    /// "saving 45% trace.jsonl" (the file's name: the percentage comes first, so a
    /// narrow status line keeps it).
    pub fn describe(&self) -> String {
        let percent = (self.done * 100).checked_div(self.total).unwrap_or(0);
        let name = self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        format!("saving {percent}% {name}")
    }
}

/// `:trace save PATH [FORMAT] [snapshots]`: the save, as an effect.
pub fn request(app: &mut App, argument: &str) -> Result<Effect, String> {
    const USAGE: &str = ":trace save PATH [text|jsonl|dot] [snapshots]";
    let mut words = argument.split_whitespace();
    let (Some("save"), Some(path)) = (words.next(), words.next()) else {
        return Err(USAGE.to_owned());
    };
    let mut format = TraceFormat::from_path(path);
    let mut snapshots = false;
    for word in words {
        if word == "snapshots" {
            snapshots = true;
        } else {
            format = word
                .parse::<TraceFormat>()
                .map_err(|error| error.to_string())?;
        }
    }
    if let Some(saving) = &app.study.saving {
        return Err(format!(
            "{} is being saved: wait for it",
            saving.path.display()
        ));
    }
    let (trace, names) = match (&app.study.saved, &app.study.names) {
        (SavedTrace::None, _) | (_, None) => return Err(no_trace(app)),
        (trace, Some(names)) => (trace.clone(), names.clone()),
    };
    let options = ExportOptions {
        snapshots,
        cap: app.study.explorer.tree().cap(),
    };
    let total = match &trace {
        SavedTrace::Position(store) => store.len(),
        SavedTrace::Tree(store) => store.len(),
        SavedTrace::None => 0,
    };
    app.study.saving = Some(Saving {
        path: path.into(),
        done: 0,
        total,
    });
    Ok(Effect::SaveTrace(Box::new(TraceSave {
        path: path.into(),
        format,
        options,
        trace,
        names,
    })))
}

/// Why there is nothing to save, and how to get a trace.
fn no_trace(app: &App) -> String {
    if app.config.settings.trace.traces() {
        "no trace to save yet: let the engine search (Ctrl-G), then save".to_owned()
    } else {
        format!(
            "no trace to save: {}; F11 to nodes or events, then a search (Ctrl-G) records one",
            match app.config.settings.trace {
                crate::config::TraceLevel::Off => "the log is off",
                _ => "the log keeps summaries only",
            }
        )
    }
}

/// A report of the saving thread.
pub fn apply(app: &mut App, update: TraceSaveUpdate) {
    match update {
        TraceSaveUpdate::Progress { done, total } => {
            if let Some(saving) = &mut app.study.saving {
                saving.done = done;
                saving.total = total;
            }
        }
        TraceSaveUpdate::Done { path, written, cut } => {
            app.study.saving = None;
            let mut text = format!(
                "saved {}: {} lines, {}",
                path.display(),
                written.lines,
                bytes(written.bytes)
            );
            if let Some(cut) = cut {
                text.push_str(&format!(
                    "; cut after {} of {} events (said in the file)",
                    cut.kept, cut.total
                ));
            }
            app.notify(text);
        }
        TraceSaveUpdate::Failed { path, message } => {
            app.study.saving = None;
            app.alert(format!("cannot save {}: {message}", path.display()));
        }
    }
}

fn bytes(count: u64) -> String {
    match count {
        0..1_000 => format!("{count} B"),
        1_000..1_000_000 => format!("{:.1} kB", count as f64 / 1e3),
        _ => format!("{:.1} MB", count as f64 / 1e6),
    }
}

fn write_store<M: serde::Serialize + Copy>(
    store: &TraceStore<M>,
    save: &TraceSave,
    out: &mut dyn Write,
    report: &mut dyn FnMut(TraceSaveUpdate) -> bool,
) -> io::Result<Written> {
    let cut = store.cut();
    let mut progress = |done, total| report(TraceSaveUpdate::Progress { done, total });
    write_trace(
        store.iter(),
        store.len(),
        &save.names,
        save.format,
        save.options,
        cut.as_ref(),
        out,
        &mut progress,
    )
}

/// Writes the file (a temporary one renamed at the end, so a failure leaves no half
/// file); run by the driver on a thread. `report` returns false when nobody listens.
pub fn run(save: &TraceSave, report: &mut dyn FnMut(TraceSaveUpdate) -> bool) {
    let result = xiangqi_core::atomic_file::write_atomically_with(&save.path, &mut |file| {
        let mut out = BufWriter::new(file);
        let written = match &save.trace {
            SavedTrace::Position(store) => write_store::<Move>(store, save, &mut out, report),
            SavedTrace::Tree(store) => write_store::<NodeIndex>(store, save, &mut out, report),
            SavedTrace::None => Ok(Written::default()),
        }?;
        out.flush()?;
        Ok(written)
    });
    let path = save.path.clone();
    let cut = match &save.trace {
        SavedTrace::Position(store) => store.cut(),
        SavedTrace::Tree(store) => store.cut(),
        SavedTrace::None => None,
    };
    report(match result {
        Ok(written) => TraceSaveUpdate::Done { path, written, cut },
        Err(error) => TraceSaveUpdate::Failed {
            path,
            message: error.to_string(),
        },
    });
}
