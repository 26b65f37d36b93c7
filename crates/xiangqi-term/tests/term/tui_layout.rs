//! The layout at 80x24 first (issue 26): a 40-move game against the engine, with the
//! score graph shown, in Chinese, WXF and ICCS notation, every move of the move list
//! readable in full at every ply; the same game at 120x40, where the graph goes under
//! the board. Also: long log lines wrap, an input error too long for the input line
//! wraps to the status line, focus shows without colour, keys typed in the log are not
//! typed on the move line, popups keep their border next to wide glyphs.

use crate::tui_support;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use insta::assert_snapshot;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tui_support::*;
use unicode_width::UnicodeWidthStr;
use xiangqi_app::config::{ColorMode, Glyphs, Notation, Settings};
use xiangqi_app::key::KeyCode;
use xiangqi_app::{Action, App, Focus, ScreenLayout, moves_and_graph, update};
use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::{Engine, Limits, SearchInfo};
use xiangqi_engine::service::EngineEvent;

/// A legal game of 80 plies: the built-in engine playing itself at depth 2, a
/// repeated position avoided by the first legal move that does not repeat.
fn long_game() -> Vec<(Move, i32)> {
    let mut pos = Position::startpos();
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let mut seen = vec![pos.key()];
    let mut game = Vec::new();
    while game.len() < 80 {
        let result = engine.search(&pos, &Limits::depth(2), &stop, &mut |_| {});
        let best = result.best_move.expect("the game goes on");
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let repeats = |mv: Move| {
            let mut after = pos.clone();
            after.make_move(mv);
            seen.contains(&after.key())
        };
        let mv = if repeats(best) {
            legal
                .into_iter()
                .find(|&mv| !repeats(mv))
                .expect("a new position")
        } else {
            best
        };
        pos.make_move(mv);
        seen.push(pos.key());
        game.push((mv, result.score));
    }
    game
}

/// The game played against the engine (Black) through the app: Red's moves typed,
/// Black's given by the engine with a score each, so the graph has its points.
fn played_game(change: impl FnOnce(&mut Settings)) -> (App, Vec<Vec<String>>) {
    let mut app = App::new(config_with(change), colour_terminal(), true);
    let game = long_game();
    // The move list's rows as they should read after each ply: the moves' texts.
    let mut texts = Vec::new();
    for (index, pair) in game.chunks(2).enumerate() {
        let (red, _) = pair[0];
        let effects = type_line(&mut app, &red.iccs());
        assert_eq!(app.input.error(), None, "{}", red.iccs());
        let id = started_search(&effects).expect("the engine's turn");
        texts.push(move_texts(&app));
        let (black, score) = pair[1];
        let info = SearchInfo {
            depth: 2,
            score,
            nodes: 4_321,
            nps: 1_000_000,
            time: Duration::from_millis(4),
            // The game's own continuation: a line long enough to wrap.
            pv: game[2 * index + 1..]
                .iter()
                .take(7)
                .map(|&(mv, _)| mv)
                .collect(),
            ..SearchInfo::default()
        };
        update(
            &mut app,
            Action::Engine(EngineEvent::Iteration { id, info }),
        );
        update(
            &mut app,
            Action::Engine(EngineEvent::BestMove {
                id,
                mv: Some(black),
                ponder: None,
            }),
        );
        texts.push(move_texts(&app));
    }
    assert_eq!(app.game.ply(), 80);
    assert!(app.game.outcome().is_none());
    assert!(app.popups.is_empty());
    (app, texts)
}

/// The texts of the moves played so far, in the notation shown.
fn move_texts(app: &App) -> Vec<String> {
    let notation = app.display_notation();
    app.game
        .played()
        .iter()
        .map(|mv| mv.text(notation).to_owned())
        .collect()
}

/// The text of `rect` in `buffer`, a row a string, without the cells wide characters
/// cover (as the terminal shows them).
fn rows_of(buffer: &Buffer, rect: Rect) -> Vec<String> {
    (rect.top()..rect.bottom())
        .map(|y| {
            let mut row = String::new();
            let mut skip = 0;
            for x in rect.left()..rect.right() {
                let symbol = buffer[(x, y)].symbol();
                if skip == 0 {
                    row.push_str(symbol);
                }
                skip = skip.max(symbol.width()).saturating_sub(1);
            }
            row
        })
        .collect()
}

/// Every move the move list shows reads in full: row by row from the newest, the
/// number, Red's move and Black's, none cut.
fn assert_moves_in_full(app: &App, texts: &[String], width: u16, height: u16) {
    let buffer = render(app, width, height);
    let layout = ScreenLayout::new(width, height).unwrap();
    let (moves, graph) = moves_and_graph(app, &layout);
    // Two positions scored: after Black's second move.
    if texts.len() >= 4 {
        assert!(graph.is_some(), "the graph is shown at ply {}", texts.len());
    }
    let inner = Rect::new(moves.x + 1, moves.y + 1, moves.width - 2, moves.height - 2);
    let rows = rows_of(&buffer, inner);
    let pairs: Vec<&[String]> = texts.chunks(2).collect();
    let shown = pairs.len().min(rows.len());
    for (index, pair) in pairs[pairs.len() - shown..].iter().enumerate() {
        let number = pairs.len() - shown + index + 1;
        let row = &rows[index];
        let start = format!("{number:>3}. {}", pair[0]);
        assert!(
            row.starts_with(&start),
            "ply {}: row {row:?} should start {start:?}",
            texts.len()
        );
        if let Some(black) = pair.get(1) {
            assert!(
                row.trim_end().ends_with(black.as_str()) && row[start.len()..].contains(black),
                "ply {}: row {row:?} should end with {black:?}",
                texts.len()
            );
        }
    }
}

fn check_every_ply(change: impl FnOnce(&mut Settings) + Clone) -> App {
    let (app, texts) = played_game(change.clone());
    // The same game again, stopped at each ply: every state's list is checked.
    for (ply, texts) in texts.iter().enumerate() {
        let mut at = App::new(config_with(change.clone()), colour_terminal(), true);
        at.game = app.game.clone();
        at.analysis = app.analysis.clone();
        while at.game.ply() > ply + 1 {
            at.game.undo();
        }
        for (width, height) in [(80, 24), (100, 30), (120, 40)] {
            assert_moves_in_full(&at, texts, width, height);
        }
    }
    app
}

fn text(app: &App, width: u16, height: u16) -> String {
    screen_text(&render(app, width, height))
}

#[test]
fn a_40_move_game_80x24_chinese() {
    let app = check_every_ply(|_| {});
    assert_snapshot!(text(&app, 80, 24));
    assert_snapshot!("a_40_move_game_120x40_chinese", text(&app, 120, 40));
}

#[test]
fn a_40_move_game_80x24_wxf() {
    let app = check_every_ply(|s| s.notation = Notation::Wxf);
    assert_snapshot!(text(&app, 80, 24));
    assert_snapshot!("a_40_move_game_120x40_wxf", text(&app, 120, 40));
}

#[test]
fn a_40_move_game_80x24_iccs() {
    let app = check_every_ply(|s| s.notation = Notation::Iccs);
    assert_snapshot!(text(&app, 80, 24));
    assert_snapshot!("a_40_move_game_120x40_iccs", text(&app, 120, 40));
}

#[test]
fn every_glyph_set_shows_the_moves_in_full() {
    for glyphs in [Glyphs::Cjk, Glyphs::Wide, Glyphs::Ascii] {
        for notation in [Notation::Chinese, Notation::ChineseTraditional] {
            let change = move |s: &mut Settings| {
                s.glyphs = glyphs;
                s.notation = notation;
            };
            let (app, texts) = played_game(change);
            assert_moves_in_full(&app, texts.last().unwrap(), 80, 24);
        }
    }
}

/// What the terminal shows at (`x`, `y`): the cell's symbol, or `None` where a wide
/// character starting left of it covers the cell (ratatui sends nothing there).
fn visible_at(buffer: &Buffer, x: u16, y: u16) -> Option<String> {
    let mut covered_until = 0;
    for column in 0..=x {
        let symbol = buffer[(column, y)].symbol();
        if column == x {
            return (column >= covered_until).then(|| symbol.to_owned());
        }
        if column >= covered_until {
            covered_until = column + symbol.width().max(1) as u16;
        }
    }
    None
}

#[test]
fn a_popup_over_the_river_keeps_its_left_border() {
    let mut app = two_player_app();
    // 56 columns wide at 80: its left border on column 12, the right half of 河.
    app.popups.push(xiangqi_app::Popup::Message {
        title: "Note".into(),
        text: "x".repeat(52),
    });
    let buffer = render(&app, 80, 24);
    let layout = ScreenLayout::new(80, 24).unwrap();
    let river = layout.board_origin.1 + 10;
    assert!(screen_text(&buffer).contains("楚 "), "the river is drawn");
    for y in 9..15 {
        let shown = visible_at(&buffer, 12, y);
        assert!(
            matches!(shown.as_deref(), Some("│" | "┌" | "└")),
            "row {y} (river {river}): {shown:?}\n{}",
            screen_text(&buffer)
        );
    }
}

#[test]
fn focus_shows_without_colour_and_the_log_does_not_type() {
    let mut app = App::new(
        config_with(|s| s.color = ColorMode::Never),
        colour_terminal(),
        true,
    );
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.focus, Focus::Log);
    let screen = text(&app, 80, 24);
    assert!(screen.contains("┏ > Search log"), "{screen}");
    assert!(screen.contains("┌ Board"), "{screen}");
    // A move typed in the log: nothing lands on the move line, a notice says why.
    for c in "h2e2".chars() {
        update(&mut app, key(KeyCode::Char(c)));
    }
    assert_eq!(app.input.text(), "");
    let notice = app.notice.as_ref().expect("a notice").text.clone();
    assert!(notice.contains("not a search-log key"), "{notice}");
    assert!(text(&app, 80, 24).contains("Esc goes back to the move line"));
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.focus, Focus::Input);
    type_line(&mut app, "h2e2");
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn step_keys_after_a_stepping_search_ends_are_not_typed() {
    let mut app = App::new(config_with(|s| s.step = true), colour_terminal(), true);
    let id = started_search(&type_line(&mut app, "h2e2")).unwrap();
    assert_eq!(app.focus, Focus::Log, "a stepping search takes the keys");
    update(&mut app, key(KeyCode::Char(' ')));
    update(
        &mut app,
        Action::Engine(EngineEvent::BestMove {
            id,
            mv: Some(mv("h9g7")),
            ponder: None,
        }),
    );
    assert_eq!(app.focus, Focus::Input, "and gives them back");
    // One Space too many, meant for the log: not typed, and said so.
    update(&mut app, key(KeyCode::Char(' ')));
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(app.input.text(), "");
    let notice = app.notice.as_ref().expect("a notice").text.clone();
    assert!(notice.contains("search is over"), "{notice}");
    // Any other key ends that: a move is typed as usual.
    type_line(&mut app, "h0g2");
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"]);
}

#[test]
fn an_input_error_too_long_for_the_input_line_wraps_to_the_status_line() {
    let mut app = two_player_app();
    type_line(&mut app, "炮八平七炮八平七");
    let error = app.input.error().expect("an error").to_owned();
    let screen = text(&app, 80, 24);
    let rows: Vec<&str> = screen.lines().collect();
    let (input, status) = (rows[22], rows[23]);
    let first = input
        .split_once("  ")
        .map(|(_, error)| error.trim())
        .unwrap_or_default();
    assert!(
        error.width() > 80 - 6 - "炮八平七炮八平七".width() - 2,
        "the error is long: {error}"
    );
    assert_eq!(format!("{first} {}", status.trim()), error, "{screen}");
}

#[test]
fn a_notice_too_long_for_the_status_line_goes_on_over_the_empty_input_line() {
    let mut app = two_player_app();
    let long = "saved to /home/someone/games/xiangqi/2026/november/a game with a long \
                name against the engine.pgn";
    app.notify(long);
    let screen = text(&app, 80, 24);
    let rows: Vec<&str> = screen.lines().collect();
    assert_eq!(
        format!("{} {}", rows[22].trim(), rows[23].trim()),
        long,
        "{screen}"
    );
    // The next key takes it away, and the input line is back.
    update(&mut app, key(KeyCode::Char('h')));
    let screen = text(&app, 80, 24);
    assert!(
        screen.lines().nth(22).unwrap().starts_with("move> h"),
        "{screen}"
    );
}
