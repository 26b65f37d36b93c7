//! Trace files in proportion to the search: SSS*'s OPEN list kept and written as a
//! change from the previous snapshot ([`OpenChange`]), full snapshots only on request;
//! a store of a search's events that keeps the first ones up to a cap and stops at the
//! end of a whole event ([`TraceStore`]); and the `jsonl` file of version 2 (a header
//! line, `open_change` lines, a `cut` line when the events were cut), read back by
//! [`read_jsonl`] along with version 1 (one event per line, nothing else).

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::search::{Descriptor, NodeId, NodeNames, TraceEvent, TraceText};

/// The `jsonl` format written now; 1 is the format before the header and `open_change`.
pub const JSONL_VERSION: u64 = 2;

/// How OPEN changed from one snapshot to the next: entries `removed` (indices in the
/// old list, ascending), then entries `added` (index in the new list, ascending).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenChange {
    pub removed: Vec<u32>,
    pub added: Vec<(u32, Descriptor)>,
}

impl OpenChange {
    /// The change that turns `old` into `new`; the entries kept keep their order.
    pub fn between(old: &[Descriptor], new: &[Descriptor]) -> OpenChange {
        let mut at: HashMap<NodeId, usize> = HashMap::with_capacity(new.len());
        for (index, desc) in new.iter().enumerate() {
            at.insert(desc.node, index);
        }
        let mut kept = vec![false; new.len()];
        let mut removed = Vec::new();
        let mut last: Option<usize> = None;
        for (index, desc) in old.iter().enumerate() {
            match at.get(&desc.node) {
                Some(&to) if new[to] == *desc && last.is_none_or(|l| to > l) && !kept[to] => {
                    kept[to] = true;
                    last = Some(to);
                }
                _ => removed.push(index as u32),
            }
        }
        let added = new
            .iter()
            .enumerate()
            .filter(|(index, _)| !kept[*index])
            .map(|(index, desc)| (index as u32, *desc))
            .collect();
        OpenChange { removed, added }
    }

    /// `old` changed; `None` when the change does not fit the list.
    pub fn apply(&self, old: &[Descriptor]) -> Option<Vec<Descriptor>> {
        let mut list = Vec::with_capacity(old.len() + self.added.len());
        let mut removed = self.removed.iter().peekable();
        for (index, desc) in old.iter().enumerate() {
            if removed.peek() == Some(&&(index as u32)) {
                removed.next();
            } else {
                list.push(*desc);
            }
        }
        if removed.next().is_some() {
            return None;
        }
        for &(at, desc) in &self.added {
            let at = at as usize;
            if at > list.len() {
                return None;
            }
            list.insert(at, desc);
        }
        Some(list)
    }

    /// Entries named by the change: what a file spends on it.
    pub fn size(&self) -> usize {
        self.removed.len() + self.added.len()
    }
}

/// Why and where a trace was cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Events kept (OPEN entries counted one by one).
    pub kept: u64,
    /// Events the search sent in all, as far as known.
    pub total: u64,
    pub reason: String,
}

/// An OPEN snapshot as stored: its change from the previous one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StoredOpen {
    len: u32,
    change: OpenChange,
}

/// A search's events as kept for saving: SSS*'s OPEN snapshots as changes, so the
/// store grows with the search, not with OPEN's length at each step. It keeps events
/// up to `cap` (OPEN entries counted as the changes stored) and stops at the end of
/// a whole event (a trace line), saying so in [`TraceStore::cut`].
#[derive(Clone, Debug)]
pub struct TraceStore<M> {
    /// Every event but the OPEN entries; a snapshot's entries are in `opens`.
    events: Vec<TraceEvent<M>>,
    opens: Vec<StoredOpen>,
    /// OPEN as of the last complete snapshot.
    open: Vec<Descriptor>,
    /// The snapshot being received: its length and entries so far.
    pending: Option<(u32, Vec<Descriptor>)>,
    cap: usize,
    /// Entries stored so far (events and the changes' entries).
    size: usize,
    /// Events sent, stored or not.
    seen: u64,
    /// Events kept when the store stopped.
    stopped: Option<u64>,
}

impl<M> TraceStore<M> {
    pub fn new(cap: usize) -> TraceStore<M> {
        TraceStore {
            events: Vec::new(),
            opens: Vec::new(),
            open: Vec::new(),
            pending: None,
            cap,
            size: 0,
            seen: 0,
            stopped: None,
        }
    }

    /// Events sent to the store, kept or not.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Events the store gives back.
    pub fn len(&self) -> u64 {
        self.stopped.unwrap_or(self.seen)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where and why the store stopped keeping events.
    pub fn cut(&self) -> Option<Cut> {
        self.stopped.map(|kept| Cut {
            kept,
            total: self.seen,
            reason: format!(
                "the app keeps a search's first {} stored events; the search went on",
                self.cap
            ),
        })
    }
}

impl<M: Copy> TraceStore<M> {
    /// Keeps `event`; `line_end` says it completed a trace line (a whole event), the
    /// only place where the store may stop.
    pub fn push(&mut self, event: TraceEvent<M>, line_end: bool) {
        self.seen += 1;
        if self.stopped.is_some() {
            return;
        }
        match event {
            TraceEvent::OpenSnapshot { len } => {
                self.pending = Some((len, Vec::with_capacity(len as usize)));
                if len == 0 {
                    self.finish_snapshot();
                }
            }
            TraceEvent::OpenEntry { desc } => {
                if let Some((_, entries)) = &mut self.pending {
                    entries.push(desc);
                    self.finish_snapshot();
                }
                return self.check_cap(line_end);
            }
            _ => {}
        }
        self.events.push(event);
        self.size += 1;
        self.check_cap(line_end);
    }

    fn finish_snapshot(&mut self) {
        let Some((len, entries)) = &self.pending else {
            return;
        };
        if entries.len() < *len as usize {
            return;
        }
        let (len, entries) = self.pending.take().unwrap_or_default();
        let change = OpenChange::between(&self.open, &entries);
        self.size += change.size();
        self.opens.push(StoredOpen { len, change });
        self.open = entries;
    }

    fn check_cap(&mut self, line_end: bool) {
        if line_end && self.size >= self.cap && self.pending.is_none() {
            self.stopped = Some(self.seen);
        }
    }

    /// Every event kept, in order, OPEN snapshots in full.
    pub fn iter(&self) -> StoreIter<'_, M> {
        StoreIter {
            store: self,
            event: 0,
            opens: 0,
            open: Vec::new(),
            entry: None,
        }
    }

    /// The events kept, OPEN snapshots in full.
    pub fn to_vec(&self) -> Vec<TraceEvent<M>> {
        self.iter().collect()
    }

    /// A store of `events`, whole.
    pub fn from_events(events: &[TraceEvent<M>]) -> TraceStore<M> {
        let mut store = TraceStore::new(usize::MAX);
        for event in events {
            store.push(*event, false);
        }
        store
    }
}

/// The events of a [`TraceStore`], OPEN snapshots in full.
pub struct StoreIter<'a, M> {
    store: &'a TraceStore<M>,
    event: usize,
    opens: usize,
    open: Vec<Descriptor>,
    /// Inside a snapshot: the next entry to give.
    entry: Option<usize>,
}

impl<M: Copy> Iterator for StoreIter<'_, M> {
    type Item = TraceEvent<M>;

    fn next(&mut self) -> Option<TraceEvent<M>> {
        if let Some(entry) = self.entry {
            if let Some(&desc) = self.open.get(entry) {
                self.entry = Some(entry + 1);
                return Some(TraceEvent::OpenEntry { desc });
            }
            self.entry = None;
        }
        let event = *self.store.events.get(self.event)?;
        self.event += 1;
        if let TraceEvent::OpenSnapshot { .. } = event {
            // A snapshot cut short at the very end is not given.
            let stored = self.store.opens.get(self.opens)?;
            self.opens += 1;
            self.open = stored.change.apply(&self.open).unwrap_or_default();
            self.entry = Some(0);
        }
        Some(event)
    }
}

/// What the `jsonl` writer writes besides the events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonlOptions {
    /// OPEN in full after each step (`open_snapshot` and `open_entry` lines) instead
    /// of its change (`open_change`).
    pub snapshots: bool,
}

/// What was written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub lines: u64,
    pub bytes: u64,
}

/// Lines written to `out`, counted: what both trace writers write through.
struct Lines<W> {
    out: W,
    written: Written,
}

impl<W: Write> Lines<W> {
    fn new(out: W) -> Lines<W> {
        Lines {
            out,
            written: Written::default(),
        }
    }

    fn line(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.written.lines += 1;
        self.written.bytes += text.len() as u64 + 1;
        Ok(())
    }

    /// Flushes; what was written.
    fn finish(mut self) -> io::Result<Written> {
        self.out.flush()?;
        Ok(self.written)
    }
}

fn descriptor_json<N: NodeNames + ?Sized>(desc: &Descriptor, names: &N) -> Value {
    let mut value = serde_json::to_value(desc).unwrap_or(Value::Null);
    if let Value::Object(object) = &mut value {
        object.insert(
            "node_label".into(),
            Value::String(names.label(desc.node).into_owned()),
        );
    }
    value
}

/// Writes `jsonl` lines: the header first, then each event; OPEN snapshots become
/// `open_change` lines unless full snapshots are asked for. An OPEN snapshot left
/// incomplete at the end is not written (a file never ends mid-event).
pub struct JsonlWriter<'n, N: ?Sized, W> {
    names: &'n N,
    lines: Lines<W>,
    options: JsonlOptions,
    open: Vec<Descriptor>,
    pending: Option<(u32, Vec<Descriptor>)>,
}

impl<'n, N: NodeNames + ?Sized, W: Write> JsonlWriter<'n, N, W> {
    pub fn new(names: &'n N, out: W, options: JsonlOptions) -> io::Result<Self> {
        let mut writer = JsonlWriter {
            names,
            lines: Lines::new(out),
            options,
            open: Vec::new(),
            pending: None,
        };
        let open = if options.snapshots {
            "snapshots"
        } else {
            "changes"
        };
        let header = json!({"trace": "xiangqi-tui", "version": JSONL_VERSION, "open": open});
        writer.line(&header.to_string())?;
        Ok(writer)
    }

    fn line(&mut self, text: &str) -> io::Result<()> {
        self.lines.line(text)
    }

    pub fn event<M: Serialize + Copy>(&mut self, event: &TraceEvent<M>) -> io::Result<()> {
        if self.options.snapshots {
            let line = super::export::event_json(event, self.names);
            return self.line(&line);
        }
        match *event {
            TraceEvent::OpenSnapshot { len } => {
                self.pending = Some((len, Vec::with_capacity(len as usize)));
                self.finish_snapshot()
            }
            TraceEvent::OpenEntry { desc } => {
                if let Some((_, entries)) = &mut self.pending {
                    entries.push(desc);
                }
                self.finish_snapshot()
            }
            _ => {
                let line = super::export::event_json(event, self.names);
                self.line(&line)
            }
        }
    }

    fn finish_snapshot(&mut self) -> io::Result<()> {
        match &self.pending {
            Some((len, entries)) if entries.len() >= *len as usize => {}
            _ => return Ok(()),
        }
        let (len, entries) = self.pending.take().unwrap_or_default();
        let change = OpenChange::between(&self.open, &entries);
        let added: Vec<Value> = change
            .added
            .iter()
            .map(|(at, desc)| json!({"at": at, "desc": descriptor_json(desc, self.names)}))
            .collect();
        let line =
            json!({"event": "open_change", "len": len, "removed": change.removed, "added": added});
        self.open = entries;
        self.line(&line.to_string())
    }

    /// Says in the file that the trace stops here, and why.
    pub fn cut(&mut self, cut: &Cut) -> io::Result<()> {
        let line = json!({"cut": {"kept": cut.kept, "total": cut.total, "reason": cut.reason}});
        self.line(&line.to_string())
    }

    /// Flushes; what was written.
    pub fn finish(self) -> io::Result<Written> {
        self.lines.finish()
    }
}

/// Writes text lines (§2.3), counting them; a line left incomplete at the end (an
/// SSS* step cut before its OPEN list) is not written.
pub struct TextWriter<'n, N: ?Sized, W> {
    text: TraceText<'n, N>,
    lines: Lines<W>,
}

impl<'n, N: NodeNames + ?Sized, W: Write> TextWriter<'n, N, W> {
    pub fn new(names: &'n N, out: W) -> Self {
        TextWriter {
            text: TraceText::new(names),
            lines: Lines::new(out),
        }
    }

    pub fn event<M>(&mut self, event: &TraceEvent<M>) -> io::Result<()> {
        match self.text.feed(event) {
            Some(line) => self.lines.line(&line),
            None => Ok(()),
        }
    }

    pub fn cut(&mut self, cut: &Cut) -> io::Result<()> {
        let line = format!(
            "# trace cut after {} of {} events: {}",
            cut.kept, cut.total, cut.reason
        );
        self.lines.line(&line)
    }

    pub fn finish(self) -> io::Result<Written> {
        self.lines.finish()
    }
}

/// A `jsonl` line that is not an event.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct JsonlError {
    pub line: usize,
    pub message: String,
}

/// A `jsonl` trace read back.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonlTrace<M> {
    /// 1 for a file without a header.
    pub version: u64,
    /// The events, OPEN snapshots in full whichever way the file wrote them.
    pub events: Vec<TraceEvent<M>>,
    /// The file's `cut` line: (events kept, events in all, why).
    pub cut: Option<Cut>,
}

/// Reads a `jsonl` trace of either version (blank lines are skipped).
pub fn read_jsonl<M: DeserializeOwned>(text: &str) -> Result<JsonlTrace<M>, JsonlError> {
    let mut trace = JsonlTrace {
        version: 1,
        events: Vec::new(),
        cut: None,
    };
    let mut open: Vec<Descriptor> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let error = |message: String| JsonlError {
            line: index + 1,
            message,
        };
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| error(e.to_string()))?;
        if index == 0 && value.get("trace").is_some() {
            let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
            if version == 0 || version > JSONL_VERSION {
                return Err(error(format!(
                    "trace version {version}: this program reads versions 1 to {JSONL_VERSION}"
                )));
            }
            trace.version = version;
            continue;
        }
        if let Some(cut) = value.get("cut") {
            trace.cut = Some(Cut {
                kept: cut.get("kept").and_then(Value::as_u64).unwrap_or(0),
                total: cut.get("total").and_then(Value::as_u64).unwrap_or(0),
                reason: cut
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            });
            continue;
        }
        match value.get("event").and_then(Value::as_str) {
            Some("open_change") => {
                let change = open_change(&value).map_err(error)?;
                open = change
                    .apply(&open)
                    .ok_or_else(|| error("open_change does not fit the OPEN list".into()))?;
                trace.events.push(TraceEvent::OpenSnapshot {
                    len: open.len() as u32,
                });
                trace
                    .events
                    .extend(open.iter().map(|&desc| TraceEvent::OpenEntry { desc }));
            }
            _ => {
                let event: TraceEvent<M> =
                    serde_json::from_value(value).map_err(|e| error(e.to_string()))?;
                trace.events.push(event);
            }
        }
    }
    Ok(trace)
}

fn open_change(value: &Value) -> Result<OpenChange, String> {
    let removed = value
        .get("removed")
        .cloned()
        .map(serde_json::from_value::<Vec<u32>>)
        .transpose()
        .map_err(|e| format!("open_change removed: {e}"))?
        .unwrap_or_default();
    let mut added = Vec::new();
    for entry in value
        .get("added")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let at = entry
            .get("at")
            .and_then(Value::as_u64)
            .ok_or("open_change added: missing at")?;
        let desc: Descriptor =
            serde_json::from_value(entry.get("desc").cloned().unwrap_or_default())
                .map_err(|e| format!("open_change added: {e}"))?;
        added.push((at as u32, desc));
    }
    Ok(OpenChange { removed, added })
}

#[cfg(test)]
#[path = "trace_file_tests.rs"]
mod tests;
