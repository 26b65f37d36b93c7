//! `xiangqi-tui analyze [--fen FEN] [--moves M...] [--json] [--trace]`, with limits from
//! the global `--depth`, `--movetime`, `--nodes`, `--hash`, `--algorithm`, `--multipv`
//! and `--level` flags (a one-second search by default). `alphabeta` is the strong engine; the other algorithms
//! run the textbook backends on the position. `--trace` prints the textbook backend's
//! trace lines, nodes named by their move paths in the `--notation` chosen.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_engine::engine::{
    BackendSettings, Engine, Limits, MAX_MULTIPV, PositionNames, PositionSearcher, PvLine,
    SearchInfo, SearchResult, Shown, Skill, Verdict, skill,
};
use xiangqi_engine::search::{Algorithm, Details, TraceEvent, TraceText};
use xiangqi_engine::study::{
    Cut, DEFAULT_NODE_CAP, ExploredTree, JsonlOptions, JsonlWriter, TraceFormat, dot,
};

use crate::cli::{AnalyzeArgs, GlobalArgs};

/// Search time when no limit is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);
/// Depth of a traced search when no limit is given: every node is a line or more.
const DEFAULT_TRACE_DEPTH: u32 = 2;

pub fn run(args: &AnalyzeArgs, global: &GlobalArgs) -> Result<()> {
    if args.trace && args.json {
        bail!("--trace and --json cannot be combined: --trace prints only the trace lines");
    }
    let format = super::trace_export::format(args.trace, &args.export)?;
    let pos = setup_position(args.fen.as_deref(), &args.moves)?;
    let algorithm = global.algorithm.unwrap_or(Algorithm::AlphaBeta);
    let hash_mb = global
        .hash
        .map_or(Engine::DEFAULT_HASH_MB, |mb| mb as usize);
    if args.trace {
        let notation: Notation = match &global.notation {
            Some(name) => name.parse().context("--notation")?,
            None => Notation::Chinese,
        };
        let limits = if has_limit(global) {
            limits_from(global)
        } else {
            Limits::depth(DEFAULT_TRACE_DEPTH)
        };
        let out = super::trace_export::writer(&args.export)?;
        let jsonl = JsonlOptions {
            snapshots: args.export.trace_snapshots,
        };
        let trace = TraceSettings {
            format,
            jsonl,
            notation,
        };
        return print_trace(&pos, algorithm, &limits, hash_mb, trace, out);
    }
    let limits = limits_from(global);
    let mut engine = Engine::new(hash_mb);
    engine.algorithm = algorithm;
    engine.set_threads(super::threads_flag(global)?);
    if let Some(n) = global.multipv {
        if !(1..=MAX_MULTIPV).contains(&usize::from(n)) {
            bail!("--multipv: {n} is out of range: it must be 1..={MAX_MULTIPV}");
        }
        engine.multipv = usize::from(n);
    }
    if let Some(level) = global.level {
        if !(skill::MIN_LEVEL..=skill::MAX_LEVEL).contains(&level) {
            bail!(
                "--level: {level} is out of range: it must be {}..={}",
                skill::MIN_LEVEL,
                skill::MAX_LEVEL
            );
        }
        engine.skill = Skill::new(level, 0);
    }
    let stop = AtomicBool::new(false);
    let json = args.json;
    let mut report = |info: &SearchInfo| {
        if !json {
            let pv: Vec<String> = info.pv.iter().map(|m| m.iccs()).collect();
            eprintln!(
                "depth {:>2}  score {:<10} nodes {:>10}  pv {}",
                info.depth,
                info.verdict().to_string(),
                info.nodes,
                pv.join(" ")
            );
            for (index, line) in info.lines.iter().enumerate().skip(1) {
                let pv: Vec<String> = line.pv.iter().map(|m| m.iccs()).collect();
                eprintln!(
                    "   line {:>2}  score {:<10} pv {}",
                    index + 1,
                    line.verdict().to_string(),
                    pv.join(" ")
                );
            }
        }
    };
    let result = engine.search(&pos, &limits, &stop, &mut report);
    if json {
        println!("{}", json_report(&pos, &result));
    } else {
        print_report(&pos, &result);
        println!("algorithm {algorithm}");
        if let Some(details) = details_line(&engine.last_details()) {
            println!("{details}");
        }
    }
    Ok(())
}

/// How `--trace` writes.
struct TraceSettings {
    format: TraceFormat,
    jsonl: JsonlOptions,
    notation: Notation,
}

/// Where the trace goes: JSON lines (OPEN as changes, a header first), or the text
/// lines and the graph straight to the output.
enum Sink<'n> {
    Jsonl(JsonlWriter<'n, PositionNames, Box<dyn Write>>),
    Plain(Box<dyn Write>),
}

/// Trace lines written at most, as the TUI keeps a search's first events for `:trace
/// save`: past them the trace says where it was cut, and the search stops.
const TRACE_LINE_CAP: u64 = DEFAULT_NODE_CAP as u64;

/// OPEN entries a text line shows (`--trace-snapshots`: all of them).
const OPEN_SHOWN: u32 = 10;

/// Runs the textbook backend with every trace event written as it comes: a text line,
/// a JSON line, or (dot) into the explored tree drawn at the end. The trace is bounded
/// (`TRACE_LINE_CAP` lines, OPEN lists cut to their first entries in text); what it
/// found is said on standard error at the end, with the view its scores are from.
fn print_trace(
    pos: &Position,
    algorithm: Algorithm,
    limits: &Limits,
    hash_mb: usize,
    trace: TraceSettings,
    out: Box<dyn Write>,
) -> Result<()> {
    let format = trace.format;
    let names = PositionNames::new(pos, trace.notation);
    let mut searcher = PositionSearcher::new(BackendSettings::with_memory_mb(hash_mb));
    let stop = AtomicBool::new(false);
    let mut written: io::Result<()> = Ok(());
    let mut explored = ExploredTree::new(DEFAULT_NODE_CAP);
    let mut sink = match format {
        TraceFormat::Jsonl => match JsonlWriter::new(&names, out, trace.jsonl) {
            Ok(writer) => Sink::Jsonl(writer),
            Err(error) => return super::finish_output(Err(error)),
        },
        _ => Sink::Plain(out),
    };
    // Lines (whole events) so far, and the events when the trace was cut.
    let (mut lines, mut events, mut cut_at) = (0u64, 0u64, None);
    let result = {
        let mut text = TraceText::new(&names);
        if !trace.jsonl.snapshots {
            text = text.with_open_limit(OPEN_SHOWN);
        }
        let mut tracer = |event: TraceEvent<Move>| {
            events += 1;
            if written.is_err() || cut_at.is_some() {
                return;
            }
            let line = text.feed(&event);
            written = match (&mut sink, format) {
                (Sink::Jsonl(writer), _) => writer.event(&event),
                (Sink::Plain(out), TraceFormat::Text) => match &line {
                    Some(line) => writeln!(out, "{line}"),
                    None => Ok(()),
                },
                (Sink::Plain(_), _) => {
                    explored.feed(&event);
                    Ok(())
                }
            };
            if line.is_some() {
                lines += 1;
                if lines >= TRACE_LINE_CAP && format != TraceFormat::Dot {
                    cut_at = Some(events);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            // A closed pipe ends the search: nobody reads the rest.
            if written.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        };
        searcher.search(
            algorithm,
            pos,
            limits,
            &stop,
            &mut |_| {},
            &mut tracer,
            Some(&names),
        )
    };
    let cut = cut_at.map(|kept| Cut {
        kept,
        total: events,
        reason: format!(
            "analyze --trace writes a search's first {TRACE_LINE_CAP} trace lines; the \
             search stopped there"
        ),
    });
    let flushed = written.and_then(|()| match sink {
        Sink::Jsonl(mut writer) => {
            if let Some(cut) = &cut {
                writer.cut(cut)?;
            }
            writer.finish().map(|_| ())
        }
        Sink::Plain(mut out) => {
            let graph = if format == TraceFormat::Dot {
                out.write_all(dot(&explored, &names).as_bytes())
            } else if let Some(cut) = &cut {
                writeln!(
                    out,
                    "# trace cut after {} of {} events: {}",
                    cut.kept, cut.total, cut.reason
                )
            } else {
                Ok(())
            };
            graph.and_then(|()| out.flush())
        }
    });
    super::finish_output(flushed)?;
    eprintln!("{}", trace_summary(pos, algorithm, &result, cut.is_some()));
    Ok(())
}

/// What a traced search found, and the view of the trace's scores: "algorithm sss, depth
/// 2, 12345 nodes: best 炮二平五 (h2e2), Red +0.35; trace scores are Red's view (MAX,
/// the side to move) in centipawns".
fn trace_summary(pos: &Position, algorithm: Algorithm, result: &SearchResult, cut: bool) -> String {
    let side = pos.side_to_move();
    let best = match result.best_move {
        Some(best) => format!(
            "best {} ({}), {}",
            chinese_move_name(pos, best),
            best.iccs(),
            result.verdict().shown(side).labelled()
        ),
        None => format!("no legal move: {} has lost", side.name()),
    };
    let stopped = if cut { " (stopped at the cut)" } else { "" };
    format!(
        "algorithm {algorithm}, depth {}, {} nodes{stopped}: {best}; trace scores are {}'s \
         view (MAX, the side to move) in centipawns",
        result.depth,
        result.nodes,
        side.name()
    )
}

/// B*'s stop reason, SSS*'s steps or the MT passes, for the plain report.
fn details_line(details: &Details) -> Option<String> {
    match details {
        Details::None => None,
        Details::Sss { steps, max_open } => Some(format!("sss steps {steps} max-open {max_open}")),
        Details::Mt { passes } => Some(format!("passes {passes}")),
        Details::BStar {
            stop, expansions, ..
        } => Some(format!(
            "bstar stop {} expansions {expansions}",
            stop.name()
        )),
    }
}

/// The position from `--fen` (or the start) after the `--moves` (ICCS, ranks 0-9).
pub fn setup_position(fen: Option<&str>, moves: &[String]) -> Result<Position> {
    let fen = fen.unwrap_or(Position::START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|e| anyhow!("--fen: {e}"))?;
    for (index, text) in moves.iter().enumerate() {
        let mv = Move::parse_coords(text)
            .ok_or_else(|| anyhow!("--moves: move {} '{text}' is not an ICCS move", index + 1))?;
        if !pos.is_legal(mv) {
            bail!(
                "--moves: move {} '{text}' is illegal in {}",
                index + 1,
                pos.to_fen()
            );
        }
        pos.make_move(mv);
    }
    Ok(pos)
}

fn has_limit(global: &GlobalArgs) -> bool {
    global.depth.is_some() || global.nodes.is_some() || global.movetime.is_some()
}

/// Limits from the global flags; a one-second search when none is given.
pub fn limits_from(global: &GlobalArgs) -> Limits {
    let limits = Limits {
        depth: global.depth,
        nodes: global.nodes,
        movetime: global.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.is_unbounded() {
        Limits::movetime(DEFAULT_MOVETIME)
    } else {
        limits
    }
}

/// A verdict of the side to move of `pos` as the JSON's `score_cp` and `mate`: from
/// Red's view like every score shown (a positive mate: Red mates).
fn json_score(pos: &Position, verdict: Verdict) -> (Option<i32>, Option<i32>) {
    match verdict.red_view(pos.side_to_move()) {
        Verdict::Centipawns(cp) => (Some(cp), None),
        Verdict::Mate(n) => (None, Some(n)),
    }
}

fn json_report(pos: &Position, result: &SearchResult) -> serde_json::Value {
    let (score_cp, mate) = json_score(pos, result.verdict());
    serde_json::json!({
        "score_view": "red",
        "bestmove": result.best_move.map(|m| m.iccs()),
        "chinese": result.best_move.map(|m| chinese_move_name(pos, m)),
        "score_cp": score_cp,
        "mate": mate,
        "depth": result.depth,
        "nodes": result.nodes,
        "nps": result.nps(),
        "pv": result.pv.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
        "lines": result_lines(result).iter().map(|line| line_json(pos, line)).collect::<Vec<_>>(),
    })
}

/// The result's lines: the MultiPV lines, or the one principal variation.
fn result_lines(result: &SearchResult) -> Vec<PvLine> {
    if result.lines.is_empty() {
        vec![PvLine {
            score: result.score,
            pv: result.pv.clone(),
        }]
    } else {
        result.lines.clone()
    }
}

fn line_json(pos: &Position, line: &PvLine) -> serde_json::Value {
    let (score_cp, mate) = json_score(pos, line.verdict());
    serde_json::json!({
        "score_cp": score_cp,
        "mate": mate,
        "pv": line.pv.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
        "chinese": chinese_line(pos, &line.pv).unwrap_or_default(),
    })
}

fn print_report(pos: &Position, result: &SearchResult) {
    let Some(best) = result.best_move else {
        println!("no legal move: {} has lost", pos.side_to_move().name());
        return;
    };
    println!("bestmove {} {}", best.iccs(), chinese_move_name(pos, best));
    let side = pos.side_to_move();
    match result.verdict().shown(side) {
        shown @ Shown::Red(_) => println!("score {shown} (Red's view)"),
        shown => println!("score {shown}"),
    }
    println!("depth {} seldepth {}", result.depth, result.seldepth);
    println!("nodes {}", result.nodes);
    println!("nps {}", result.nps());
    println!("time {:.3} s", result.time.as_secs_f64());
    let iccs: Vec<String> = result.pv.iter().map(|m| m.iccs()).collect();
    println!("pv {}", iccs.join(" "));
    println!(
        "pv {}",
        chinese_line(pos, &result.pv)
            .context("pv")
            .unwrap_or_default()
    );
    if result.lines.len() > 1 {
        for (index, line) in result.lines.iter().enumerate() {
            println!(
                "line {} score {} pv {}",
                index + 1,
                line.verdict().shown(side),
                chinese_line(pos, &line.pv).unwrap_or_default()
            );
        }
    }
}

/// A variation in Chinese notation, move by move from `pos`.
fn chinese_line(pos: &Position, moves: &[Move]) -> Result<String> {
    let mut pos = pos.clone();
    let mut names = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            bail!("{mv} is not legal in {}", pos.to_fen());
        }
        names.push(chinese_move_name(&pos, mv));
        pos.make_move(mv);
    }
    Ok(names.join(" "))
}

/// The Chinese name of a legal move of `pos`.
pub fn chinese_move_name(pos: &Position, mv: Move) -> String {
    format_move(pos, mv, Notation::Chinese)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(fen: &str, mv: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let mv = Move::parse_coords(mv).unwrap();
        assert!(pos.is_legal(mv));
        chinese_move_name(&pos, mv)
    }

    #[test]
    fn names_the_worked_examples_of_the_notation_spec() {
        let start = Position::START_FEN;
        assert_eq!(name(start, "h2e2"), "炮二平五");
        assert_eq!(name(start, "h0g2"), "马二进三");
        assert_eq!(name(start, "c0e2"), "相七进五");
        let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(name(after, "h9g7"), "马8进7");
        let cannons = "6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79";
        assert_eq!(name(cannons, "b5b4"), "后炮退一");
        assert_eq!(name(cannons, "b5c5"), "后炮平七");
        let pawns = "rnba1abn1/4k2c1/8r/5P1P1/p1p2P3/P1P5p/1C5pp/9/3CA4/RNBK1ABNR b - - 0 21";
        assert_eq!(name(pawns, "i3i2"), "前卒进1");
        assert_eq!(name(pawns, "i4h4"), "后卒平8");
        let doubled = "r1bak1br1/9/2na3Pn/6PP1/p5p2/P4cPp1/9/N1p4C1/4AC2N/R1BAK1BR1 w - - 17 32";
        assert_eq!(name(doubled, "g6f6"), "前三平四");
        assert_eq!(name(doubled, "g4g5"), "后三进一");
        let advisors = "r2a2br1/4k4/2nab1PPn/7P1/p5p2/P4cP1p/7C1/N1pA5/5C2N/R1BAK1BR1 w - - 23 35";
        assert_eq!(name(advisors, "d2e1"), "仕六退五");
    }
}
