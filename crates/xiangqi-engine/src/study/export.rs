//! Trace export: the text lines of §2.3, one JSON object per event (`jsonl`,
//! schema in `docs/trace-jsonl.md`), or a Graphviz graph of the explored tree.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::str::FromStr;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::search::{BoundKind, NodeNames, ScoreText, Status, TraceEvent};
use crate::study::explored::{ExploredNode, ExploredTree};
pub use crate::study::trace_file::JsonlError;
use crate::study::trace_file::{Cut, JsonlOptions, JsonlWriter, TextWriter, Written, read_jsonl};

/// The three export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TraceFormat {
    #[default]
    Text,
    Jsonl,
    Dot,
}

impl TraceFormat {
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Text => "text",
            TraceFormat::Jsonl => "jsonl",
            TraceFormat::Dot => "dot",
        }
    }

    /// The format a file name suggests (`.jsonl`, `.dot`/`.gv`), else text.
    pub fn from_path(path: &str) -> TraceFormat {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".jsonl") || lower.ends_with(".json") {
            TraceFormat::Jsonl
        } else if lower.ends_with(".dot") || lower.ends_with(".gv") {
            TraceFormat::Dot
        } else {
            TraceFormat::Text
        }
    }
}

/// A format name that is not text, jsonl or dot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown trace format '{0}': valid formats are text, jsonl, dot")]
pub struct UnknownTraceFormat(pub String);

impl FromStr for TraceFormat {
    type Err = UnknownTraceFormat;

    fn from_str(name: &str) -> Result<TraceFormat, UnknownTraceFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(TraceFormat::Text),
            "jsonl" => Ok(TraceFormat::Jsonl),
            "dot" => Ok(TraceFormat::Dot),
            _ => Err(UnknownTraceFormat(name.to_string())),
        }
    }
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Event fields that hold a node id; each gets a `<field>_label` next to it.
const NODE_FIELDS: [&str; 7] = [
    "node",
    "child",
    "ancestor",
    "candidate",
    "target",
    "from",
    "to",
];

fn add_labels<N: NodeNames + ?Sized>(object: &mut serde_json::Map<String, Value>, names: &N) {
    let mut labels = Vec::new();
    for field in NODE_FIELDS {
        if let Some(id) = object.get(field).and_then(Value::as_u64) {
            labels.push((
                format!("{field}_label"),
                names.label(crate::search::NodeId(id)),
            ));
        }
    }
    if object.get("event").and_then(Value::as_str) == Some("bstar_stop")
        && let Some(id) = object.get("best").and_then(Value::as_u64)
    {
        labels.push(("best_label".into(), names.label(crate::search::NodeId(id))));
    }
    for (key, label) in labels {
        object.insert(key, Value::String(label.into_owned()));
    }
    if let Some(Value::Object(desc)) = object.get_mut("desc") {
        add_labels(desc, names);
    }
}

/// One event as a `jsonl` line: the serde form plus `*_label` fields that name
/// the nodes for a reader (ignored when read back).
pub fn event_json<M: Serialize, N: NodeNames + ?Sized>(event: &TraceEvent<M>, names: &N) -> String {
    let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
    if let Value::Object(object) = &mut value {
        add_labels(object, names);
    }
    value.to_string()
}

/// Reads a `jsonl` trace back into typed events (blank lines are skipped), from a
/// file of either version: version 2's header, `open_change` and `cut` lines are
/// understood ([`read_jsonl`] says what they held).
pub fn parse_jsonl<M: DeserializeOwned>(text: &str) -> Result<Vec<TraceEvent<M>>, JsonlError> {
    read_jsonl(text).map(|trace| trace.events)
}

/// What an export writes besides the events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// `jsonl`: OPEN in full after each SSS* step, not its change.
    pub snapshots: bool,
    /// `dot`: the node cap of the explored tree.
    pub cap: usize,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            snapshots: false,
            cap: crate::study::DEFAULT_NODE_CAP,
        }
    }
}

/// Events between two progress reports.
const PROGRESS_EVERY: u64 = 1 << 14;

/// Writes `events` (`total` of them, for the progress) in `format` to `out`, then
/// the `cut` when the events were cut. `progress(done, total)` is called now and then;
/// when it returns false the export stops with an `Interrupted` error.
#[allow(clippy::too_many_arguments)]
pub fn write_trace<M: Serialize + Copy, N: NodeNames + ?Sized, W: Write>(
    events: impl Iterator<Item = TraceEvent<M>>,
    total: u64,
    names: &N,
    format: TraceFormat,
    options: ExportOptions,
    cut: Option<&Cut>,
    out: W,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> io::Result<Written> {
    let mut done = 0u64;
    let mut tick = |done: &mut u64| {
        *done += 1;
        if done.is_multiple_of(PROGRESS_EVERY) && !progress(*done, total) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "export stopped"));
        }
        Ok(())
    };
    match format {
        TraceFormat::Text => {
            let mut writer = TextWriter::new(names, out);
            for event in events {
                writer.event(&event)?;
                tick(&mut done)?;
            }
            if let Some(cut) = cut {
                writer.cut(cut)?;
            }
            writer.finish()
        }
        TraceFormat::Jsonl => {
            let jsonl = JsonlOptions {
                snapshots: options.snapshots,
            };
            let mut writer = JsonlWriter::new(names, out, jsonl)?;
            for event in events {
                writer.event(&event)?;
                tick(&mut done)?;
            }
            if let Some(cut) = cut {
                writer.cut(cut)?;
            }
            writer.finish()
        }
        TraceFormat::Dot => {
            let mut tree = ExploredTree::new(options.cap);
            for event in events {
                tree.feed(&event);
                tick(&mut done)?;
            }
            let mut text = dot(&tree, names);
            if let Some(cut) = cut {
                let _ = writeln!(
                    text,
                    "// trace cut after {} of {} events: {}",
                    cut.kept, cut.total, cut.reason
                );
            }
            let mut out = out;
            out.write_all(text.as_bytes())?;
            out.flush()?;
            Ok(Written {
                lines: text.lines().count() as u64,
                bytes: text.len() as u64,
            })
        }
    }
}

/// The whole trace in `format`, each line ending in a newline (`jsonl`: OPEN as changes).
pub fn export<M: Serialize + Copy, N: NodeNames + ?Sized>(
    events: &[TraceEvent<M>],
    names: &N,
    format: TraceFormat,
    cap: usize,
) -> String {
    let options = ExportOptions {
        cap,
        ..ExportOptions::default()
    };
    let mut out = Vec::new();
    let total = events.len() as u64;
    // Writing to memory does not fail.
    let _ = write_trace(
        events.iter().copied(),
        total,
        names,
        format,
        options,
        None,
        &mut out,
        &mut |_, _| true,
    );
    String::from_utf8(out).unwrap_or_default()
}

/// The short label of a node: a position's last move, a tree node's label.
pub fn short_label<N: NodeNames + ?Sized>(names: &N, node: &ExploredNode) -> String {
    let label = names.label(node.id);
    match label
        .rsplit(crate::engine::move_paths::PATH_SEPARATOR)
        .next()
    {
        Some(last) if node.parent.is_some() => last.to_string(),
        _ => label.into_owned(),
    }
}

fn kind_name(kind: BoundKind) -> &'static str {
    match kind {
        BoundKind::Exact => "exact",
        BoundKind::Lower => "lower",
        BoundKind::Upper => "upper",
    }
}

/// What the backend knew at a node, in one line: window, value and bound,
/// leaf value, SSS* status and h, MT passes, B* interval, cut-off.
pub fn node_facts(node: &ExploredNode) -> String {
    let s = ScoreText;
    let mut parts = Vec::new();
    if let Some((alpha, beta)) = node.window {
        parts.push(format!("({},{})", s(alpha), s(beta)));
    }
    if let Some(value) = node.leaf {
        parts.push(format!("leaf {}", s(value)));
    } else if let Some((value, kind)) = node.value {
        parts.push(format!("= {} {}", s(value), kind_name(kind)));
    }
    if let Some((status, merit)) = node.sss {
        let status = match status {
            Status::Live => "live",
            Status::Solved => "solved",
        };
        parts.push(format!("{status} h={}", s(merit)));
    }
    if !node.passes.is_empty() {
        let tests: Vec<String> = node
            .passes
            .iter()
            .map(|p| format!("{}:{}", p.pass, s(p.gamma)))
            .collect();
        parts.push(format!("passes {}", tests.join(" ")));
    }
    if let Some(interval) = node.interval {
        parts.push(interval.to_string());
    }
    if let Some((k, pruned)) = node.cutoff {
        parts.push(format!("cut after #{k}, {pruned} pruned"));
    }
    parts.join(" ")
}

fn dot_quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// A Graphviz digraph of the explored tree: each node labelled with its move
/// and what the backend knew there, the principal variation bold, and a
/// dashed edge to a "pruned" box wherever a cut-off skipped siblings.
pub fn dot<N: NodeNames + ?Sized>(tree: &ExploredTree, names: &N) -> String {
    let mut out = String::from("digraph explored {\n  node [shape=box, fontname=\"monospace\"];\n");
    let pv = tree.principal_variation();
    let mut on_pv = vec![false; tree.len()];
    if let Some(root) = tree.root() {
        on_pv[root] = true;
    }
    for &index in &pv {
        on_pv[index] = true;
    }
    for (index, node) in tree.nodes().iter().enumerate() {
        let label = format!("{}\n{}", short_label(names, node), node_facts(node));
        let style = if on_pv[index] { ", style=bold" } else { "" };
        let _ = writeln!(
            out,
            "  n{index} [label={}{style}];",
            dot_quote(label.trim_end())
        );
        if let Some(parent) = node.parent {
            let bold = if on_pv[index] && on_pv[parent] {
                " [style=bold]"
            } else {
                ""
            };
            let _ = writeln!(out, "  n{parent} -> n{index}{bold};");
        }
        if let Some((_, pruned)) = node.cutoff
            && pruned > 0
        {
            let _ = writeln!(
                out,
                "  c{index} [label=\"{pruned} pruned\", shape=plaintext];\n  n{index} -> c{index} [style=dashed];"
            );
        }
    }
    if tree.truncated() {
        let _ = writeln!(
            out,
            "  truncated [label=\"tree shown up to {} nodes\", shape=plaintext];",
            tree.len()
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip_and_unknown_ones_list_the_valid() {
        for format in [TraceFormat::Text, TraceFormat::Jsonl, TraceFormat::Dot] {
            assert_eq!(format.name().parse::<TraceFormat>(), Ok(format));
        }
        assert_eq!(
            "svg".parse::<TraceFormat>().unwrap_err().to_string(),
            "unknown trace format 'svg': valid formats are text, jsonl, dot"
        );
        assert_eq!(TraceFormat::from_path("a.JSONL"), TraceFormat::Jsonl);
        assert_eq!(TraceFormat::from_path("a.gv"), TraceFormat::Dot);
        assert_eq!(TraceFormat::from_path("a.txt"), TraceFormat::Text);
    }

    #[test]
    fn dot_labels_are_quoted() {
        assert_eq!(dot_quote("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    }
}
