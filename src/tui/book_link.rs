//! The opening book in the TUI: which book the engine plays from, the book move it
//! plays instead of searching, and the Ctrl-B list of the position's book moves.

use std::path::Path;
use std::sync::Arc;

use unicode_width::UnicodeWidthStr;

use crate::board::Move;
use crate::book::{self, Book, BookError};
use crate::config::{BookSource, Config};
use crate::search::Algorithm;

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
        book::clock_random(),
    )
}

/// The Ctrl-B popup: the book moves of the position with counts and scores.
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
    let side = pos.side_to_move();
    let lines: Vec<String> = moves
        .iter()
        .map(|m| {
            let score = m
                .score_percent(side)
                .map_or("   -".to_owned(), |s| format!("{s:>3.0}%"));
            let text = format_move(pos, m.mv, app.display_notation());
            // Padded by display columns: Chinese characters are two wide.
            let pad = " ".repeat(10usize.saturating_sub(text.width()));
            format!("{text}{pad} {:>7} games  score {score}", m.stats.count)
        })
        .collect();
    Popup::Message {
        title,
        text: lines.join("\n"),
    }
}
