//! The opening book in the TUI: which book the engine plays from, the book move it
//! plays instead of searching, and the Ctrl-B list of the position's book moves.

use std::path::Path;
use std::sync::Arc;

use unicode_width::UnicodeWidthStr;

use crate::config::{BookSource, Config};
use xiangqi_core::board::{Move, Position};
use xiangqi_engine::book::{self, Book, BookError, Source};
use xiangqi_engine::opening::classify;
use xiangqi_engine::search::Algorithm;

use super::app::App;
use super::notation_link::format_move;
use super::popup::Popup;

/// The book the settings name, read at start (a file) or taken from the program
/// (built-in); `None` for `book = "none"`.
pub fn load(config: &Config) -> Result<Option<Arc<Book>>, BookError> {
    let config_dir = config
        .location
        .as_ref()
        .and_then(|l| l.path.parent().map(Path::to_path_buf));
    match &config.settings.book {
        BookSource::None => Ok(None),
        BookSource::Builtin => Ok(Some(Arc::new(Book::builtin()?.clone()))),
        source @ BookSource::File(_) => {
            let path = source
                .file_path(config_dir.as_deref())
                .expect("a file source has a path");
            Book::open(&path).map(|book| Some(Arc::new(book)))
        }
    }
}

/// The move the engine plays from the book now, if the settings let it: a book is on,
/// the strong engine plays (the textbook algorithms and step mode are there to watch
/// a search), and the position has book moves.
pub fn engine_book_move(app: &App) -> Option<Move> {
    let settings = &app.config.settings;
    if settings.book == BookSource::None
        || settings.algorithm != Algorithm::AlphaBeta
        || app.search_steps()
    {
        return None;
    }
    let book = app.book.as_ref()?;
    book::choose(
        &book.moves(app.position()),
        settings.book_variety,
        xiangqi_core::rng::random_seed(),
    )
}

/// The Ctrl-B popup: the book moves of the position, each with its games (or "engine"),
/// the Red/draw/Black results and the opening it leads to.
pub fn popup(app: &App) -> Popup {
    let title = "Book moves".to_owned();
    let Some(book) = &app.book else {
        return Popup::Message {
            title,
            text: "no book (the `book` setting is \"none\")".to_owned(),
        };
    };
    let pos = app.position();
    let moves = book.moves(pos);
    if moves.is_empty() {
        return Popup::Message {
            title,
            text: "this position is not in the book".to_owned(),
        };
    }
    let notation = app.display_notation();
    let script = app.config.settings.notation.script();
    let (start, played): (&Position, Vec<Move>) = (app.game.start(), app.game.moves().collect());
    let lines: Vec<String> = moves
        .iter()
        .map(|m| {
            let text = format_move(pos, m.mv, notation);
            // Padded by display columns: Chinese characters are two wide.
            let pad = " ".repeat(10usize.saturating_sub(text.width()));
            let (count, results) = match m.source {
                Source::Engine => ("engine".to_owned(), String::new()),
                Source::Games => (
                    format!("{} games", m.stats.count),
                    m.result_percents().map_or(String::new(), |[r, d, b]| {
                        format!("  red {r:>3.0}% draw {d:>3.0}% black {b:>3.0}%")
                    }),
                ),
            };
            let mut line = played.clone();
            line.push(m.mv);
            let opening =
                classify(start, &line).map_or(String::new(), |o| format!("  {}", o.label(script)));
            format!("{text}{pad} {count:>11}{results}{opening}")
        })
        .collect();
    Popup::Message {
        title,
        text: lines.join("\n"),
    }
}
