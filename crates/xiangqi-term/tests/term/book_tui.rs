//! The book in the TUI, without a terminal: the engine answers from the book ("book
//! move" in the log, no search started), searches once out of it, keeps searching with
//! `book = "none"`, and Ctrl-B lists the position's book moves.

use crate::tui_support;

use std::path::Path;
use std::sync::Arc;

use tui_support::*;
use xiangqi_app::config::{BookSource, Notation};
use xiangqi_app::{App, Popup, update};
use xiangqi_core::record::decode;
use xiangqi_engine::book::builder::add_pgn_text;
use xiangqi_engine::book::{Book, BookBuilder};

/// The book of the test collection's three opening games.
fn test_book() -> Arc<Book> {
    let dir = Path::new(crate::TOP).join("tests/data/book/collection");
    let mut builder = BookBuilder::new(None);
    for name in ["a_central_cannon.pgn", "b_iccs.pgn", "c_mirror_gbk.pgn"] {
        let (text, _) = decode(&std::fs::read(dir.join(name)).unwrap()).unwrap();
        add_pgn_text(&mut builder, &text);
    }
    Arc::new(Book::from_bytes(builder.to_bytes(1)).unwrap())
}

fn app_with_book(source: BookSource) -> App {
    let mut app = App::new(
        config_with(|settings| {
            settings.book = source;
            settings.book_variety = 0;
        }),
        colour_terminal(),
        true,
    );
    app.book = Some(test_book());
    app
}

fn log_texts(app: &App) -> Vec<String> {
    app.log.lines().iter().map(|l| l.text.clone()).collect()
}

#[test]
fn the_engine_plays_book_moves_then_searches() {
    let mut app = app_with_book(BookSource::Builtin);
    let effects = type_line(&mut app, "炮二平五");
    // h9g7 was played in two games, b9c7 in one: variety 0 takes the most played.
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert_eq!(started_search(&effects), None, "{effects:?}");
    assert!(log_texts(&app).contains(&"book move 马8进7".to_owned()));
    assert!(app.people_may_move());
    type_line(&mut app, "马二进三");
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    // Out of the book: a search starts.
    let effects = type_line(&mut app, "车一平二");
    assert!(started_search(&effects).is_some(), "{effects:?}");
}

#[test]
fn no_book_means_a_search() {
    let mut app = app_with_book(BookSource::None);
    let effects = type_line(&mut app, "h2e2");
    assert!(started_search(&effects).is_some());
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn ctrl_b_lists_the_book_moves_in_the_chosen_notation() {
    let mut app = app_with_book(BookSource::Builtin);
    app.config.settings.engine_side = xiangqi_app::config::EngineSide::None;
    type_line(&mut app, "h2e2");
    update(&mut app, ctrl('b'));
    let Some(Popup::Message { title, text }) = app.popups.last() else {
        panic!("{:?}", app.popups);
    };
    assert_eq!(title, "Book moves");
    assert_eq!(
        text,
        "马8进7         2 games  red  50% draw  50% black   0%  C00 中炮对屏风马\n\
         马2进3         1 games  red   0% draw   0% black 100%  B00 中炮局"
    );
    update(&mut app, key(xiangqi_app::key::KeyCode::Esc));
    assert!(app.popups.is_empty());
    app.config.settings.notation = Notation::Iccs;
    type_line(&mut app, "b9c7");
    update(&mut app, ctrl('b'));
    let Some(Popup::Message { text, .. }) = app.popups.last() else {
        panic!();
    };
    assert_eq!(
        text,
        "h0g2           1 games  red   0% draw   0% black 100%  B00 中炮局"
    );
}
