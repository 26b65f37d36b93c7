//! `xiangqi-tui book ecco PGN... -o FILE`: the ECCO opening table from tagged games,
//! with the held-out agreement (`--holdout-report`) or a search of the settings on the
//! validation split (`--tune`).

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use xiangqi_core::record::decode;
use xiangqi_engine::opening::corpus::{Agreement, Corpus, Part, agreement};
use xiangqi_engine::opening::{Decide, OpeningTable, TableBuilder};

use super::UsageError;
use super::book::{kib, pgn_files};
use super::progress::ProgressBar;
use crate::cli::BookEccoArgs;

/// Reads every game of `inputs` into distinct games; unreadable files and games are
/// counted (and the first few named on stderr), never fatal.
pub(super) fn read_corpus(inputs: &[PathBuf], quiet: bool) -> Result<(Corpus, usize)> {
    let files = pgn_files(inputs)?;
    let mut corpus = Corpus::new();
    let mut progress = ProgressBar::new(quiet);
    for (index, file) in files.iter().enumerate() {
        progress.update(index, files.len(), "files");
        let shown = file.display().to_string();
        match std::fs::read(file)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                decode(&bytes)
                    .map(|(text, _)| text)
                    .map_err(|e| e.to_string())
            }) {
            Ok(text) => corpus.add_text(&text, &shown),
            Err(why) => corpus.skipped.push((shown, why)),
        }
    }
    progress.update(files.len(), files.len(), "files");
    progress.finish();
    let mut err = io::stderr().lock();
    for (at, why) in corpus.skipped.iter().take(5) {
        writeln!(err, "skipped: {at}: {why}")?;
    }
    if corpus.skipped.len() > 5 {
        writeln!(err, "skipped: ... and {} more", corpus.skipped.len() - 5)?;
    }
    Ok((corpus, files.len()))
}

/// A table builder fed the tagged games of `parts`.
fn builder_for(corpus: &Corpus, parts: &[Part], max_ply: u32) -> TableBuilder {
    let mut builder = TableBuilder::new(max_ply);
    for game in corpus.games_in(parts) {
        if let Some(code) = game.ecco {
            builder.add_game(&game.start, &game.moves, code);
        }
    }
    builder
}

fn measure(bytes: Vec<u8>, corpus: &Corpus, part: Part) -> Result<Agreement> {
    let table = OpeningTable::from_bytes(bytes).context("the table just built")?;
    Ok(agreement(&table, corpus.games_in(&[part])))
}

fn describe(a: &Agreement) -> String {
    format!(
        "{} of {} games agree ({:.2}%; {} classified, {:.2}% of them agree)",
        a.agree,
        a.games,
        a.percent(),
        a.classified,
        a.precision()
    )
}

pub fn run(args: &BookEccoArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.min_share) {
        return Err(UsageError(format!(
            "--min-share {} is not between 0 and 1",
            args.min_share
        ))
        .into());
    }
    let started = Instant::now();
    let (corpus, files) = read_corpus(&args.inputs, args.quiet)?;
    let count = |part| corpus.games_in(&[part]).count();
    let tagged = corpus.games.iter().filter(|g| g.ecco.is_some()).count();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} games read from {files} files in {:.1} s: {} distinct ({tagged} with an ECCO tag), \
         {} skipped; split {} train, {} validation, {} held out",
        corpus.read,
        started.elapsed().as_secs_f64(),
        corpus.games.len(),
        corpus.skipped.len(),
        count(Part::Train),
        count(Part::Validation),
        count(Part::HeldOut)
    )?;
    if args.tune {
        return tune(&corpus, &mut out);
    }
    let decide = Decide {
        min_games: args.min_games,
        min_share: args.min_share,
    };
    let bytes =
        builder_for(&corpus, &[Part::Train, Part::Validation], args.max_ply).to_bytes(decide);
    let table = OpeningTable::from_bytes(bytes.clone()).context("the table just built")?;
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    writeln!(
        out,
        "{} positions (max ply {}, min games {}, min share {}), {} ({} bytes) written to {} in {:.1} s",
        table.len(),
        args.max_ply,
        decide.min_games,
        decide.min_share,
        kib(bytes.len()),
        bytes.len(),
        args.output.display(),
        started.elapsed().as_secs_f64()
    )?;
    if args.holdout_report {
        let held = agreement(&table, corpus.games_in(&[Part::HeldOut]));
        writeln!(out, "held out: {}", describe(&held))?;
    }
    Ok(())
}

/// Builds tables from the training part with a grid of settings and prints their
/// agreement on the validation part, best first.
fn tune(corpus: &Corpus, out: &mut impl Write) -> Result<()> {
    let mut results = Vec::new();
    for max_ply in [10, 12, 14, 16, 18, 20] {
        let builder = builder_for(corpus, &[Part::Train], max_ply);
        for min_games in [1, 2, 3] {
            for min_share in [0.6, 0.7, 0.8, 0.9, 0.95] {
                let decide = Decide {
                    min_games,
                    min_share,
                };
                let bytes = builder.to_bytes(decide);
                let size = bytes.len();
                let a = measure(bytes, corpus, Part::Validation)?;
                results.push((a, max_ply, decide, size));
            }
        }
    }
    results.sort_by(|x, y| y.0.agree.cmp(&x.0.agree).then(x.3.cmp(&y.3)));
    for (a, max_ply, decide, size) in results {
        writeln!(
            out,
            "max ply {max_ply:>2} min games {} min share {:.1}: {} ({})",
            decide.min_games,
            decide.min_share,
            describe(&a),
            kib(size)
        )?;
    }
    Ok(())
}
