//! `xiangqi-tui tree FILE --algorithm NAME [--trace] [--json]`: search a
//! textbook tree and print the value, best move, leaves and counts, the trace
//! lines of §2.3, or one JSON object keyed like the `.expected` files.

use anyhow::{Context, anyhow, bail};

use xiangqi_engine::search::{
    Algorithm, Backend, Bounding, Limits, Recorder, Search, SearchOptions, TranspositionTable,
};
use xiangqi_engine::study::{DEFAULT_NODE_CAP, ExportOptions, TraceFormat, write_trace};
use xiangqi_engine::tree::{NodeIndex, Tree, exact_table_entries, run_tree};

use crate::cli::{GlobalArgs, TreeArgs};

pub fn run(args: &TreeArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    if args.trace && args.json {
        bail!("--trace and --json cannot be combined: --trace prints only the trace lines");
    }
    let algorithm = global.algorithm.unwrap_or(Algorithm::AlphaBeta);
    let path = args.file.display();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|error| anyhow!("cannot read {path}: {error}"))?;
    let tree = Tree::parse(&text).map_err(|error| anyhow!("{path}:{error}"))?;

    let limits = Limits {
        depth: global.depth,
        nodes: global.nodes,
        ..Limits::default()
    };
    let mut options = SearchOptions::default();
    if let Some(megabytes) = global.hash {
        options.table_entries =
            TranspositionTable::<NodeIndex>::with_megabytes(megabytes as usize).capacity();
    }
    // The `.ab-trace` of the spec is the textbook fail-hard stream; both forms
    // evaluate the same leaves and return the same root value.
    if args.trace {
        options.bounding = Bounding::FailHard;
    }
    let format = super::trace_export::format(args.trace, &args.export)?;
    let report =
        run_tree(&tree, algorithm, &limits, &options).map_err(|error| anyhow!("{path}:{error}"))?;
    if args.trace && format != TraceFormat::Text {
        // The same search again, its events kept for the other formats.
        let mut recorder = Recorder::new();
        let options = SearchOptions {
            table_entries: options.table_entries.max(exact_table_entries(&tree)),
            ..options
        };
        Backend::new(algorithm, &options).search(&mut tree.game(), &limits, &mut recorder);
        let options = ExportOptions {
            snapshots: args.export.trace_snapshots,
            cap: DEFAULT_NODE_CAP,
        };
        let mut out = super::trace_export::writer(&args.export)?;
        let events = &recorder.events;
        let written = write_trace(
            events.iter().copied(),
            events.len() as u64,
            &tree,
            format,
            options,
            None,
            &mut out,
            &mut |_, _| true,
        );
        return super::finish_output(written.map(|_| ()));
    }
    if args.trace && args.export.trace_out.is_some() {
        let mut text = report.trace.join("\n");
        text.push('\n');
        return super::trace_export::write(&args.export, &text);
    }

    let lines = if args.trace {
        report.trace
    } else if args.json {
        vec![serde_json::to_string(&report.to_json()).context("encoding JSON")?]
    } else {
        report.plain_lines()
    };
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}
