//! `xiangqi-tui book build|show|generate`: make an opening book from game records or
//! from the engine's analysis, and list the book moves of a position.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, format_move, parse_move};
use xiangqi_core::record::xqf::is_xqf;
use xiangqi_core::record::{GameRecord, RecordError, decode};
use xiangqi_engine::book::builder::add_pgn_text;
use xiangqi_engine::book::format::encode;
use xiangqi_engine::book::merge::merge;
use xiangqi_engine::book::{Book, BookBuilder, Source};
use xiangqi_engine::engine::book_gen::{GenerateOptions, generate};
use xiangqi_engine::opening::classify;
use xiangqi_engine::opening::corpus::Corpus;

use super::UsageError;
use super::progress::ProgressBar;
use crate::cli::{BookBuildArgs, BookCommand, BookGenerateArgs, BookShowArgs, GlobalArgs};

pub fn run(command: &BookCommand, global: &GlobalArgs) -> Result<()> {
    match command {
        BookCommand::Build(args) => build(args),
        BookCommand::Show(args) => show(args, global),
        BookCommand::Generate(args) => generate_book(args, global),
        BookCommand::Ecco(args) => super::book_ecco::run(args),
    }
}

/// The files to read: files as given, folders walked for `.pgn` and `.xqf` files, each
/// sorted.
pub(super) fn pgn_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|ext| {
                ext.eq_ignore_ascii_case("pgn") || ext.eq_ignore_ascii_case("xqf")
            }) {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, &mut files)
                .map_err(|e| UsageError(format!("{}: cannot read folder: {e}", input.display())))?;
        } else if input.is_file() {
            files.push(input.clone());
        } else {
            return Err(UsageError(format!("{}: no such file or folder", input.display())).into());
        }
    }
    Ok(files)
}

pub(super) fn kib(bytes: usize) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

fn build(args: &BookBuildArgs) -> Result<()> {
    let started = Instant::now();
    let files = pgn_files(&args.inputs)?;
    let max_ply = (args.max_ply > 0).then_some(args.max_ply);
    let mut builder = BookBuilder::new(max_ply);
    let mut progress = ProgressBar::new(args.quiet);
    let (mut illegal, mut unreadable) = (Vec::new(), Vec::new());
    // With --distinct the games are gathered first, so a game filed twice counts once.
    let mut corpus = args.distinct.then(Corpus::new);
    for (index, file) in files.iter().enumerate() {
        progress.update(index, files.len(), "files");
        let shown = file.display();
        let text = match std::fs::read(file) {
            Err(e) => {
                unreadable.push(format!("{shown}: {e}"));
                continue;
            }
            // An XQF file (known by its magic, whatever its name) holds one game.
            Ok(bytes) if is_xqf(&bytes) => {
                match GameRecord::from_bytes(&bytes) {
                    Ok(game) => builder.add_game(&game),
                    Err(RecordError::Xqf(e)) if e.illegal_ply().is_some() => {
                        illegal.push(format!("{shown}: {e}"))
                    }
                    Err(e) => unreadable.push(format!("{shown}: {e}")),
                }
                continue;
            }
            Ok(bytes) => match decode(&bytes) {
                Ok((text, _)) => text,
                Err(e) => {
                    unreadable.push(format!("{shown}: {e}"));
                    continue;
                }
            },
        };
        if let Some(corpus) = &mut corpus {
            corpus.add_text(&text, &shown.to_string());
            continue;
        }
        let outcome = add_pgn_text(&mut builder, &text);
        illegal.extend(
            outcome
                .illegal
                .into_iter()
                .map(|(game, why)| format!("{shown} game {game}: {why}")),
        );
        unreadable.extend(
            outcome
                .unreadable
                .into_iter()
                .map(|(game, why)| format!("{shown} game {game}: {why}")),
        );
    }
    progress.update(files.len(), files.len(), "files");
    progress.finish();
    let mut read = builder.games;
    if let Some(corpus) = &corpus {
        for game in &corpus.games {
            game.add_to_book(&mut builder);
        }
        read = corpus.read;
        for (at, why) in &corpus.skipped {
            let list = if why.starts_with("illegal move") {
                &mut illegal
            } else {
                &mut unreadable
            };
            list.push(format!("{at}: {why}"));
        }
    }
    let mut entries = builder.entries(args.min_games);
    let from_games = entries.len();
    if let Some(path) = &args.fill {
        let fill = Book::open(path).map_err(|e| UsageError(e.to_string()))?;
        entries = merge(&entries, fill.entries(), &Position::startpos());
    }
    let from_fill = entries
        .iter()
        .filter(|e| e.source == Source::Engine)
        .count();
    let bytes = encode(&entries);
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let mut err = io::stderr().lock();
    for (what, list) in [("illegal move", &illegal), ("unreadable", &unreadable)] {
        for line in list.iter().take(5) {
            writeln!(err, "skipped ({what}): {line}")?;
        }
        if list.len() > 5 {
            writeln!(err, "skipped ({what}): ... and {} more", list.len() - 5)?;
        }
    }
    let mut out = io::stdout().lock();
    let distinct = if args.distinct {
        format!(" ({} distinct)", builder.games)
    } else {
        String::new()
    };
    let filled = if args.fill.is_some() {
        format!(
            "; {} kept of the {from_games} from games and {from_fill} from the fill book, \
             reached from the start",
            entries.len()
        )
    } else {
        String::new()
    };
    let written = writeln!(
        out,
        "{read} games{distinct} from {} files in {:.2} s; skipped {} with an illegal move, {} \
         unreadable\n{} entries (max ply {}, min games {}{filled}), {} ({} bytes) written to {}",
        files.len(),
        started.elapsed().as_secs_f64(),
        illegal.len(),
        unreadable.len(),
        entries.len(),
        max_ply.map_or("all".to_owned(), |p| p.to_string()),
        args.min_games.max(1),
        kib(bytes.len()),
        bytes.len(),
        args.output.display()
    );
    super::finish_output(written)
}

/// The book `show` reads: `--book FILE`, else the configured file, else the built-in one.
fn chosen_book(args: &BookShowArgs, global: &GlobalArgs) -> Result<Book> {
    if let Some(path) = &args.book {
        return Book::open(path).map_err(|e| UsageError(e.to_string()).into());
    }
    let config = super::config::load(global)?;
    let config_dir = config
        .location
        .as_ref()
        .and_then(|l| l.path.parent().map(Path::to_path_buf));
    match config.settings.book.file_path(config_dir.as_deref()) {
        Some(path) => Book::open(&path).map_err(|e| UsageError(e.to_string()).into()),
        None => Ok(Book::builtin()?.clone()),
    }
}

fn show(args: &BookShowArgs, global: &GlobalArgs) -> Result<()> {
    let start = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| UsageError(format!("bad FEN: {e}")))?,
        None => Position::startpos(),
    };
    let mut pos = start.clone();
    let mut played = Vec::new();
    for text in &args.moves {
        let mv = parse_move(&pos, text)
            .map_err(|e| UsageError(format!("move '{text}' in {}: {e}", pos.to_fen())))?;
        pos.make_move(mv);
        played.push(mv);
    }
    // The opening after each book move, from the start and the moves given.
    let opening_after = |mv: Move| {
        let mut line = played.clone();
        line.push(mv);
        classify(&start, &line)
    };
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let notation: Notation = match &global.notation {
        Some(name) => name.parse().map_err(|e| UsageError(format!("{e}")))?,
        None => Notation::Chinese,
    };
    let book = chosen_book(args, global)?;
    let moves = book.moves(&pos);
    let fen = pos.to_fen();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = if args.json {
        let list: Vec<_> = moves
            .iter()
            .map(|m| {
                let games = (m.source == Source::Games).then_some(m.stats.count);
                let pct = m.result_percents().map(|p| p.map(round));
                let opening = opening_after(m.mv);
                json!({
                    "move": m.mv.iccs(),
                    "chinese": format_move(&pos, m.mv, Notation::Chinese),
                    "source": m.source.as_str(),
                    "count": m.stats.count,
                    "games": games,
                    "red_wins": m.stats.red_wins,
                    "draws": m.stats.draws,
                    "black_wins": m.stats.black_wins,
                    "red_pct": pct.map(|p| p[0]),
                    "draw_pct": pct.map(|p| p[1]),
                    "black_pct": pct.map(|p| p[2]),
                    "ecco": opening.map(|o| o.code.to_string()),
                    "opening": opening.map(|o| o.name_for(notation)),
                })
            })
            .collect();
        let here = classify(&start, &played);
        writeln!(
            out,
            "{}",
            json!({
                "fen": fen,
                "ecco": here.map(|o| o.code.to_string()),
                "opening": here.map(|o| o.name_for(notation)),
                "moves": list,
            })
        )
    } else {
        (|| {
            writeln!(out, "{fen}")?;
            if let Some(here) = classify(&start, &played) {
                writeln!(out, "opening {}", here.label(notation.script()))?;
            }
            if moves.is_empty() {
                return writeln!(out, "not in the book");
            }
            let side = pos.side_to_move();
            for m in &moves {
                let score = m
                    .score_percent(side)
                    .map_or("-".to_owned(), |s| format!("{s:.0}%"));
                let s = m.stats;
                let games = match m.source {
                    Source::Games => format!("games {}", s.count),
                    Source::Engine => format!("engine (weight {})", s.count),
                };
                let results = m.result_percents().map_or("-".to_owned(), |[r, d, b]| {
                    format!("red {r:.0}% draw {d:.0}% black {b:.0}%")
                });
                let opening =
                    opening_after(m.mv).map_or("-".to_owned(), |o| o.label(notation.script()));
                writeln!(
                    out,
                    "{}\t{}\t{games}\t{results}\tscore {score}\t(+{} ={} -{})\t{opening}",
                    format_move(&pos, m.mv, notation),
                    m.mv.iccs(),
                    s.red_wins,
                    s.draws,
                    s.black_wins
                )?;
            }
            Ok(())
        })()
    };
    super::finish_output(written.and_then(|()| out.flush()))
}

fn generate_book(args: &BookGenerateArgs, global: &GlobalArgs) -> Result<()> {
    let options = GenerateOptions {
        plies: args.plies,
        depth: global.depth.unwrap_or(GenerateOptions::default().depth),
        width: args.width,
        margin: args.margin,
    };
    if options.depth < 2 {
        return Err(UsageError("book generate needs --depth 2 or more".to_owned()).into());
    }
    let started = Instant::now();
    let mut progress = ProgressBar::new(args.quiet);
    let (builder, searched) = generate(&options, &mut |done, known, ply| {
        progress.update(done, known, &format!("positions (ply {})", ply + 1));
    });
    progress.finish();
    let bytes = builder.to_bytes(1);
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let written = writeln!(
        io::stdout().lock(),
        "{searched} positions searched in {:.1} s (plies {}, depth {}, width {}, margin {}): \
         {} entries, {} written to {}",
        started.elapsed().as_secs_f64(),
        options.plies,
        options.depth,
        options.width,
        options.margin,
        builder.len(),
        kib(bytes.len()),
        args.output.display()
    );
    super::finish_output(written)
}
