//! Studying the algorithms side by side: the tree a search explored, rebuilt
//! from its trace events ([`ExploredTree`]); an explorer over it that a UI
//! draws ([`Explorer`]); trace export as text, `jsonl` or Graphviz `dot`; and
//! `compare`, every backend on one problem with the classic results checked.
//! No terminal code here: the TUI draws what these types hold.

pub mod compare;
pub mod detail;
pub mod explored;
pub mod explorer;
pub mod export;
pub mod trace_file;

pub use compare::{Check, CompareError, Comparison, Problem, Row, RowValue, compare, table_header};
pub use explored::{DEFAULT_NODE_CAP, ExploredNode, ExploredTree, PassVisit};
pub use explorer::{Explorer, ExplorerRow};
pub use export::{
    ExportOptions, JsonlError, TraceFormat, UnknownTraceFormat, dot, event_json, export,
    node_facts, parse_jsonl, short_label, write_trace,
};
pub use trace_file::{
    Cut, JSONL_VERSION, JsonlOptions, JsonlTrace, JsonlWriter, OpenChange, TraceStore, Written,
    read_jsonl,
};
