//! `xiangqi-tui review GAME [--depth N | --movetime MS] [--threads N] [--json]
//! [-o OUT.pgn]`: the engine's review of a game (src/review): one line per move with its
//! class and, for an inaccuracy, mistake or blunder, the better move and line; then each
//! side's accuracy. `-o` writes the game annotated as PGN. A game the repetition rules
//! ended has the move that lost by them marked, and the arbiter's ruling.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::{Value, json};
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_core::record::{GameRecord, RecordError};
use xiangqi_engine::egtb::Tablebases;
use xiangqi_engine::engine::{Engine, Limits, Verdict};
use xiangqi_engine::opening::classify;
use xiangqi_engine::review::{
    DEFAULT_DEPTH, GameReview, MoveReview, ReviewLimits, builtin_searchers, eval_text, review_game,
};

use super::progress::ProgressBar;
use super::usage;
use crate::cli::{GlobalArgs, ReviewArgs};

fn limits(global: &GlobalArgs) -> Result<Limits> {
    match (global.depth, global.movetime) {
        (Some(_), Some(_)) => Err(usage("review: give --depth or --movetime, not both")),
        (Some(0), _) => Err(usage("--depth: must be 1 or more")),
        (_, Some(0)) => Err(usage("--movetime: must be 1 ms or more")),
        (Some(depth), None) => Ok(Limits::depth(depth)),
        (None, Some(ms)) => Ok(Limits::movetime(Duration::from_millis(ms))),
        (None, None) => Ok(Limits::depth(DEFAULT_DEPTH)),
    }
}

pub fn run(args: &ReviewArgs, global: &GlobalArgs) -> Result<()> {
    let search_limits = limits(global)?;
    let record = GameRecord::read_file(&args.file).map_err(|e| match e {
        // The I/O error names the file already.
        RecordError::Io { .. } => usage(e.to_string()),
        e => usage(format!("{}: {e}", args.file.display())),
    })?;
    if record.moves.is_empty() {
        return Err(usage(format!(
            "{}: the game has no moves to review",
            args.file.display()
        )));
    }
    let notation: Notation = match &global.notation {
        Some(name) => name.parse().context("--notation")?,
        None => Notation::Chinese,
    };
    let hash_mb = global.hash.unwrap_or(Engine::DEFAULT_HASH_MB as u32);
    let limits = ReviewLimits {
        limits: search_limits,
        threads: super::threads_flag(global)?,
        hash_mb,
    };
    let searcher = builtin_searchers(hash_mb, Tablebases::installed());
    let mut progress = ProgressBar::new(args.quiet);
    let review = review_game(&record, &limits, &searcher, &mut |done, total| {
        progress.update(done, total, "positions");
        true
    })?;
    progress.finish();
    if let Some(path) = &args.output {
        let mut annotated = review.annotate(&record);
        xiangqi_engine::opening::tag_record(&mut annotated);
        let pgn = annotated.to_pgn(notation);
        xiangqi_core::atomic_file::write_atomically(path, &pgn)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = io::stdout().lock();
    let written = if args.json {
        writeln!(out, "{}", json_report(&record, &review))
    } else {
        write_text(&mut out, &record, &review, notation)
    };
    super::finish_output(written)
}

/// A score from Red's view as `analyze --json` gives it: centipawns, or `"mate N"`.
fn json_eval(verdict: Verdict) -> Value {
    match verdict {
        Verdict::Centipawns(cp) => json!(cp),
        Verdict::Mate(moves) => json!(format!("mate {moves}")),
    }
}

/// One decimal: the losses and accuracies are estimates.
fn tenths(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn json_report(record: &GameRecord, review: &GameReview) -> Value {
    let mut pos = record.start.clone();
    let mut moves = Vec::with_capacity(review.moves.len());
    let lost = review.lost_by_rules().map(|m| m.ply);
    for m in &review.moves {
        moves.push(json!({
            "ply": m.ply,
            "move": m.mv.iccs(),
            "chinese": format_move(&pos, m.mv, Notation::Chinese),
            "eval_before": json_eval(m.before),
            "eval_after": json_eval(m.after),
            "loss": tenths(m.loss),
            "class": m.class.name(),
            "best_move": m.best_move().map(|b| b.iccs()),
            "best_line": m.best_line.iter().map(|b| b.iccs()).collect::<Vec<_>>(),
            "lost_by_rules": lost == Some(m.ply),
        }));
        pos.make_move(m.mv);
    }
    let opening = classify(&record.start, &record.moves);
    json!({
        "ecco": opening.map(|o| o.code.to_string()),
        "opening": opening.map(|o| o.name(false)),
        "moves": moves,
        "accuracy": {
            "red": review.red_accuracy.map(tenths),
            "black": review.black_accuracy.map(tenths),
        },
        "ruling": review.ruling,
    })
}

/// `moves` from `pos` in `notation`, space-separated.
fn line_text(pos: &Position, moves: &[Move], notation: Notation) -> String {
    let mut pos = pos.clone();
    let mut names = Vec::with_capacity(moves.len());
    for &mv in moves {
        names.push(format_move(&pos, mv, notation));
        pos.make_move(mv);
    }
    names.join(" ")
}

/// `12.` before Red's move, `12...` before Black's.
fn move_number(pos: &Position) -> String {
    let number = pos.fullmove_number().max(1);
    match pos.side_to_move() {
        Color::Red => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

fn move_line(pos: &Position, m: &MoveReview, notation: Notation) -> String {
    let name = format!("{}{}", format_move(pos, m.mv, notation), m.class.symbol());
    let mut line = format!(
        "{:>6} {name:<width$} {:>7}  {}",
        move_number(pos),
        eval_text(m.after),
        m.class,
        // Chinese names are two columns a character.
        width = if notation == Notation::Chinese || notation == Notation::ChineseTraditional {
            8
        } else {
            10
        },
    );
    if m.class.is_error() {
        line.push_str(&format!(" (-{:.1}%)", m.loss));
        if let Some(best) = m.best_move() {
            line.push_str(&format!(
                "  best {}: {}",
                format_move(pos, best, notation),
                line_text(pos, &m.best_line, notation)
            ));
        }
    }
    line
}

fn write_text(
    out: &mut impl Write,
    record: &GameRecord,
    review: &GameReview,
    notation: Notation,
) -> io::Result<()> {
    if let Some(opening) = classify(&record.start, &record.moves) {
        writeln!(out, "opening {}", opening.label(notation.script()))?;
    }
    let mut pos = record.start.clone();
    let lost = review.lost_by_rules().map(|m| m.ply);
    for m in &review.moves {
        let mut line = move_line(&pos, m, notation);
        if lost == Some(m.ply)
            && let Some(ruling) = &review.ruling
        {
            line.push_str(&format!("  loses by the rules: {}", ruling.termination()));
        }
        writeln!(out, "{line}")?;
        pos.make_move(m.mv);
    }
    if let Some(ruling) = &review.ruling {
        writeln!(out, "ruling {ruling}")?;
    }
    let count = |side: Color, class| {
        review
            .moves
            .iter()
            .filter(|m| m.side == side && m.class == class)
            .count()
    };
    for (side, accuracy) in [
        (Color::Red, review.red_accuracy),
        (Color::Black, review.black_accuracy),
    ] {
        use xiangqi_engine::review::MoveClass::{Blunder, Inaccuracy, Mistake};
        let accuracy = accuracy.map_or_else(|| "-".to_string(), |a| format!("{a:.1}"));
        writeln!(
            out,
            "{:<5} accuracy {accuracy:>5}  inaccuracies {}  mistakes {}  blunders {}",
            side.name(),
            count(side, Inaccuracy),
            count(side, Mistake),
            count(side, Blunder)
        )?;
    }
    Ok(())
}
