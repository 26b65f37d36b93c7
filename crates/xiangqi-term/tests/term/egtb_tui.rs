//! The TUI's status line gives the tablebase verdict on a covered position.

use crate::tui_support;

use std::sync::Arc;

use tui_support::{render, screen_text, two_player_app};
use xiangqi_app::game::GameState;
use xiangqi_core::board::Position;
use xiangqi_engine::egtb::{self, Silent, Tablebases};

fn status_line(app: &xiangqi_app::App) -> String {
    let screen = screen_text(&render(app, 100, 30));
    screen.lines().last().unwrap().to_string()
}

#[test]
fn status_line_shows_the_tablebase_verdict() {
    let dir = tempfile::tempdir().unwrap();
    egtb::generate(&["KRK".parse().unwrap()], dir.path(), 1, &Silent).unwrap();
    let mut app = two_player_app();
    app.tablebases = Some(Arc::new(Tablebases::open(dir.path())));

    app.game = GameState::new(Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap());
    assert!(status_line(&app).contains("Red to move | tablebase: win, mate in 1 |"));

    app.game = GameState::new(Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b").unwrap());
    assert!(status_line(&app).contains("Black to move | tablebase: loss, mated in 1 |"));

    // Not covered (the start position): no verdict.
    app.game = GameState::new(Position::startpos());
    assert!(!status_line(&app).contains("tablebase"));
}
