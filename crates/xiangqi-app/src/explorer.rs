//! The search-tree explorer pane (F12, or Tab to the board's place while it is
//! shown): the tree the last search explored, kept in step with the search log.
//! A textbook tree opened with `xiangqi-tui study FILE.tree` is replayed here
//! event by event, drawn in the board's place.

use std::borrow::Cow;
use std::sync::Arc;

use crate::key::{KeyCode, KeyEvent};

use xiangqi_core::board::Move;
use xiangqi_engine::engine::PositionNames;
use xiangqi_engine::search::{
    Algorithm, Backend, Limits, NodeId, NodeNames, Recorder, Search, SearchOptions, TraceEvent,
    TraceText,
};
use xiangqi_engine::service::StepCommand;
use xiangqi_engine::study::{DEFAULT_NODE_CAP, Explorer, TraceStore, node_facts};
use xiangqi_engine::tree::{NodeIndex, Tree, exact_table_entries};

use super::action::{Effect, ExplorerMove};
use super::app::{App, AppMode, Focus};
use super::search_log::{LogKind, SearchLog};

/// Trace events kept for `:trace save` (SSS*'s OPEN lists counted as their changes);
/// a longer search saves its first ones, up to the end of a whole event.
pub const SAVED_EVENTS: usize = 1_000_000;

/// Labels of the nodes being explored.
#[derive(Clone, Debug)]
pub enum StudyNames {
    Position(Box<PositionNames>),
    Tree(Arc<Tree>),
}

impl NodeNames for StudyNames {
    fn label(&self, node: NodeId) -> Cow<'_, str> {
        match self {
            StudyNames::Position(names) => names.label(node),
            StudyNames::Tree(tree) => NodeNames::label(tree.as_ref(), node),
        }
    }

    fn children_after(&self, node: NodeId, searched: u32) -> Option<Vec<Cow<'_, str>>> {
        match self {
            StudyNames::Position(names) => names.children_after(node, searched),
            StudyNames::Tree(tree) => NodeNames::children_after(tree.as_ref(), node, searched),
        }
    }
}

/// The events of the trace shown, for `:trace save`.
#[derive(Clone, Debug, Default)]
pub enum SavedTrace {
    #[default]
    None,
    Position(TraceStore<Move>),
    Tree(TraceStore<NodeIndex>),
}

/// A textbook tree's whole search, revealed one log line at a time.
#[derive(Clone, Debug)]
pub struct TreeReplay {
    pub algorithm: Algorithm,
    events: Vec<TraceEvent<NodeIndex>>,
    /// Events fed to the explorer so far.
    next: usize,
    text_lines: usize,
    /// Trace lines of the whole search.
    pub total_lines: usize,
}

/// The event a detail pane shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DetailEvent {
    /// The whole trace line.
    pub text: String,
    /// Its number among the trace lines, from 1.
    pub number: usize,
    /// The label and facts of its node.
    pub node: Option<(String, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct StudyState {
    pub explorer: Explorer,
    pub names: Option<StudyNames>,
    /// The explorer is drawn in the board's place.
    pub shown: bool,
    /// The `/` search being typed.
    pub search: Option<String>,
    /// Absolute log position (dropped + index) of each trace line of the search shown.
    line_seq: Vec<u64>,
    pub saved: SavedTrace,
    /// Node cap of the explorer.
    pub cap: usize,
    /// The absolute log position of the trace line whose event the detail shows.
    pub detail: Option<u64>,
    /// A `:trace save` under way.
    pub saving: Option<super::trace_save::Saving>,
}

impl StudyState {
    fn reset(&mut self, names: StudyNames) {
        let cap = if self.cap == 0 {
            DEFAULT_NODE_CAP
        } else {
            self.cap
        };
        self.explorer = Explorer::new(cap);
        self.names = Some(names);
        self.line_seq.clear();
        self.saved = SavedTrace::None;
        self.detail = None;
    }

    /// The absolute log position of the selected node's line, to highlight.
    pub fn highlighted_seq(&self) -> Option<u64> {
        let line = self.explorer.selected_line()?;
        self.line_seq.get(line).copied()
    }

    /// The trace line the detail shows, in full: its text, its 1-based number among
    /// the trace lines, and its node's label and facts in the iteration shown.
    pub fn detail_event(&self, log: &SearchLog) -> Option<DetailEvent> {
        let seq = self.detail?;
        let index = usize::try_from(seq.checked_sub(log.dropped())?).ok()?;
        let text = log.lines().get(index)?.text.clone();
        let line = self.line_seq.partition_point(|&s| s < seq);
        let node = self.explorer.line_node(line).map(|node| {
            let facts = node_facts(self.explorer.tree().node(node));
            (self.explorer.label(node).to_owned(), facts)
        });
        Some(DetailEvent {
            text,
            number: line + 1,
            node,
        })
    }

    /// Trace lines seen so far.
    pub fn lines(&self) -> usize {
        self.line_seq.len()
    }

    /// A trace line was pushed to the log at absolute position `seq`.
    pub fn line_logged(&mut self, seq: u64) {
        self.line_seq.push(seq);
        self.detail = Some(seq);
    }

    fn feed_position(&mut self, event: TraceEvent<Move>, line: bool) {
        let Some(names) = &self.names else { return };
        self.explorer.feed(&event, line, names);
        if let SavedTrace::None = self.saved {
            self.saved = SavedTrace::Position(TraceStore::new(SAVED_EVENTS));
        }
        if let SavedTrace::Position(store) = &mut self.saved {
            store.push(event, line);
        }
    }
}

/// A search on a position starts: a fresh explorer named by its moves (a tree study
/// ends: its tree is no longer shown).
pub fn search_started(app: &mut App, names: PositionNames) {
    if matches!(app.mode, AppMode::Study(_)) {
        app.mode = AppMode::Play;
    }
    app.study.cap = app.config.settings.explorer_nodes as usize;
    app.study.reset(StudyNames::Position(Box::new(names)));
}

/// Typed events from the worker.
pub fn on_events(app: &mut App, events: Vec<(TraceEvent<Move>, bool)>) {
    let stepping = app
        .log
        .step
        .is_some_and(|step| step.mode() != xiangqi_engine::service::StepMode::Free);
    app.study.explorer.follow = stepping;
    for (event, line) in events {
        app.study.feed_position(event, line);
    }
}

/// F12: show the explorer in the board's place and focus it; again: back to the board.
pub fn toggle(app: &mut App) -> Vec<Effect> {
    // A tree study has no board to go back to.
    if matches!(app.mode, AppMode::Study(_)) {
        app.focus = Focus::Board;
        return Vec::new();
    }
    if app.study.shown && app.focus == Focus::Board {
        app.study.shown = false;
    } else {
        app.study.shown = true;
        app.focus = Focus::Board;
    }
    Vec::new()
}

/// A key while a `/` search is typed: its text, Enter to search, Esc to give up.
pub fn search_key(app: &mut App, key: KeyEvent) {
    let Some(text) = &mut app.study.search else {
        return;
    };
    match key.code {
        KeyCode::Char(c) => text.push(c),
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Enter => {
            let text = app.study.search.take().unwrap_or_default();
            if !app.study.explorer.search(&text) {
                app.notify(format!("no move matches '{text}'"));
            }
        }
        KeyCode::Esc => app.study.search = None,
        _ => {}
    }
}

/// Walks the explorer's rows.
pub fn walk(app: &mut App, to: ExplorerMove) {
    let explorer = &mut app.study.explorer;
    match to {
        ExplorerMove::Up => explorer.up(),
        ExplorerMove::Down => explorer.down(),
        ExplorerMove::Page(rows) => explorer.page(rows),
        ExplorerMove::Right => explorer.right(),
        ExplorerMove::Left => explorer.left(),
        ExplorerMove::Toggle => explorer.toggle(),
        ExplorerMove::Pv if !explorer.jump_to_pv() => app.notify("no principal variation yet"),
        ExplorerMove::NextCutoff if !explorer.next_cutoff() => {
            app.notify("no cut-off in this tree")
        }
        ExplorerMove::Search => app.study.search = Some(String::new()),
        ExplorerMove::Iteration(by) => {
            if !explorer.show_iteration(by) {
                let (shown, count) = (explorer.shown_iteration(), explorer.iterations());
                app.notify(format!(
                    "iteration {} of {count}: no other that way",
                    shown + 1
                ));
            }
        }
        ExplorerMove::Pv | ExplorerMove::NextCutoff => {}
    }
    // The detail follows the selection to its node's latest line, if it has one.
    if to != ExplorerMove::Search
        && let Some(seq) = app.study.highlighted_seq()
    {
        app.study.detail = Some(seq);
    }
}

/// The log was scrolled: the explorer selects the node of the bottom line shown.
pub fn sync_from_log(app: &mut App) {
    let log = &app.log;
    let end = log.len().saturating_sub(log.scroll());
    if end == 0 {
        return;
    }
    let seq = log.dropped() + end as u64 - 1;
    // The last trace line at or before the bottom line.
    let line = app.study.line_seq.partition_point(|&s| s <= seq);
    if line > 0 {
        app.study.explorer.select_line(line - 1);
        app.study.detail = app.study.line_seq.get(line - 1).copied();
    }
}

/// Opens a textbook tree for study: the whole search runs at once (trees are
/// small), then the log and the explorer reveal it one line per step.
pub fn open_tree(app: &mut App, tree: Tree, algorithm: Algorithm) -> Result<(), String> {
    tree.check_algorithm(algorithm)
        .map_err(|error| error.to_string())?;
    let options = SearchOptions {
        table_entries: exact_table_entries(&tree),
        bounding: xiangqi_engine::search::Bounding::FailHard,
        ..SearchOptions::default()
    };
    let mut recorder = Recorder::new();
    let result =
        Backend::new(algorithm, &options).search(&mut tree.game(), &Limits::none(), &mut recorder);
    let tree = Arc::new(tree);
    app.study.cap = app.config.settings.explorer_nodes as usize;
    app.study.reset(StudyNames::Tree(Arc::clone(&tree)));
    app.study.saved = SavedTrace::Tree(TraceStore::from_events(&recorder.events));
    let events = recorder.events.len();
    let total_lines = xiangqi_engine::search::trace_lines(tree.as_ref(), &recorder.events).len();
    app.mode = AppMode::Study(Box::new(TreeReplay {
        algorithm,
        events: recorder.events,
        next: 0,
        text_lines: 0,
        total_lines,
    }));
    app.study.shown = true;
    app.study.explorer.follow = true;
    // The engine keeps out: the tree is what is studied.
    app.engine.paused = true;
    app.focus = Focus::Log;
    app.log.clear();
    app.log.push(
        LogKind::Search,
        format!("{algorithm} on the tree ({} nodes)", tree.len()),
    );
    let value = result
        .value
        .exact()
        .map_or_else(|| result.value.to_string(), |v| v.to_string());
    app.log.push(
        LogKind::Note,
        format!("value {value}; Space one event, c to the end; F12 explorer ({events} events)"),
    );
    Ok(())
}

/// A step key during a tree replay: reveals its next line (or all of it).
pub fn replay_step(app: &mut App, command: StepCommand) {
    if command == StepCommand::Pause {
        return;
    }
    let (AppMode::Study(replay), Some(StudyNames::Tree(tree))) = (&mut app.mode, &app.study.names)
    else {
        return;
    };
    let tree = Arc::clone(tree);
    let mut text = TraceText::new(tree.as_ref());
    // The text renderer keeps state between events: feed it the events already shown.
    for event in &replay.events[..replay.next] {
        text.feed(event);
    }
    let all = !matches!(command, StepCommand::One);
    while replay.next < replay.events.len() {
        let event = replay.events[replay.next];
        replay.next += 1;
        let line = text.feed(&event);
        app.study
            .explorer
            .feed(&event, line.is_some(), tree.as_ref());
        if let Some(line) = line {
            app.log.push(LogKind::Trace, line);
            let seq = app.log.dropped() + app.log.len() as u64 - 1;
            app.study.line_logged(seq);
            replay.text_lines += 1;
            if !all {
                break;
            }
        }
    }
    if replay.next == replay.events.len() && replay.text_lines > 0 {
        app.log
            .push(LogKind::Result, "end of the search".to_owned());
        replay.text_lines = 0;
    }
}
