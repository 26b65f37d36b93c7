//! `:review` in the TUI without a terminal: the request it hands the driver, the
//! progress on the status line, the marks in the move list and on the graph once the
//! review comes back (scripted here, so the test is exact), `n`/`N` on the board, marks
//! that hold only for the moves the game still shares; the reviewing thread's work with
//! the engine; and the screen at 80x24.

use crate::tui_support;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::game::GameState;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{
    Action, App, Command, Effect, Focus, ReviewRequest, ReviewUpdate, graph_points, run_review,
    update,
};
use xiangqi_core::board::Move;
use xiangqi_core::record::GameRecord;
use xiangqi_engine::engine::{Limits, Verdict};
use xiangqi_engine::review::{Evaluation, GameReview, MoveClass, ReviewLimits};

const GAME: &str = "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 卒7进1 *";

fn record() -> GameRecord {
    GameRecord::from_pgn(GAME).unwrap()
}

fn eval(cp: i32, line: &[&str]) -> Evaluation {
    Evaluation {
        verdict: Verdict::Centipawns(cp),
        line: line.iter().map(|m| mv(m)).collect(),
    }
}

/// Scores that make 马二进三 (ply 3) an inaccuracy and 卒7进1 (ply 6) a blunder.
fn scripted_review() -> GameReview {
    let evaluations = [
        eval(20, &["h2e2"]),
        eval(-20, &["h9g7"]),
        eval(30, &["c3c4", "g6g5", "h0g2"]),
        eval(40, &["i9h9"]),
        eval(-40, &["i0h0"]),
        eval(40, &["b9c7", "b0c2"]),
        eval(300, &["h0g2"]),
    ];
    GameReview::new(&record(), &evaluations)
}

fn app_with_game() -> App {
    let mut app = two_player_app();
    app.game = GameState::from_record(&record()).unwrap();
    app
}

fn status_line(app: &App) -> String {
    let text = screen_text(&render(app, 80, 24));
    text.lines().last().unwrap().to_owned()
}

/// `:review` typed: the request, and its id.
fn start_review(app: &mut App) -> u64 {
    let effects = type_line(app, ":review");
    let request: &ReviewRequest = effects
        .iter()
        .find_map(|effect| match effect {
            Effect::Review(request) => Some(request.as_ref()),
            _ => None,
        })
        .expect("a review effect");
    assert_eq!(request.record.moves, record().moves);
    assert_eq!(request.limits.limits, Limits::depth(10));
    request.id
}

fn reviewed_app() -> App {
    let mut app = app_with_game();
    let id = start_review(&mut app);
    let review = Box::new(scripted_review());
    update(&mut app, Action::Review(ReviewUpdate::Done { id, review }));
    app
}

#[test]
fn the_review_runs_with_progress_and_marks_the_moves() {
    let mut app = app_with_game();
    let id = start_review(&mut app);
    // The notice first, then the state with the count.
    assert!(status_line(&app).contains("reviewing 7 positions at depth 10"));
    app.notice = None;
    assert!(
        status_line(&app).contains("reviewing 0/7"),
        "{}",
        status_line(&app)
    );
    // A second one waits for the first.
    type_line(&mut app, ":review");
    assert!(
        app.input
            .error()
            .is_some_and(|e| e.contains("a review is running"))
    );
    app.input.clear();
    app.notice = None;
    let progress = ReviewUpdate::Progress {
        id,
        done: 3,
        total: 7,
    };
    update(&mut app, Action::Review(progress));
    assert!(
        status_line(&app).contains("reviewing 3/7"),
        "{}",
        status_line(&app)
    );
    // A report of another review is dropped.
    let stale = ReviewUpdate::Done {
        id: id + 1,
        review: Box::new(scripted_review()),
    };
    update(&mut app, Action::Review(stale));
    assert!(app.review.running.is_some());
    let review = Box::new(scripted_review());
    update(&mut app, Action::Review(ReviewUpdate::Done { id, review }));
    assert!(app.review.running.is_none());
    let notice = app.notice.as_ref().unwrap().text.clone();
    assert!(notice.starts_with("review: accuracy Red "), "{notice}");
    assert!(
        notice.ends_with("; 2 marked moves: n/N on the board jump to them"),
        "{notice}"
    );
    // Every position scored for the graph, the marks in the move list.
    assert_eq!(graph_points(&app).len(), 7);
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("马二进三?!"), "{screen}");
    assert!(screen.contains("卒7进1??"), "{screen}");
}

#[test]
fn n_and_shift_n_on_the_board_jump_between_the_marked_moves() {
    let mut app = reviewed_app();
    app.focus = Focus::Board;
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(app.shown_ply(), 6);
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "no marked move after this one"
    );
    update(&mut app, key(KeyCode::Char('N')));
    assert_eq!(app.shown_ply(), 3);
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "2. 马二进三?! inaccuracy (-13.7%): 兵七进一 was best (兵七进一 卒7进1 马二进三)"
    );
    update(&mut app, key(KeyCode::Char('N')));
    assert_eq!(app.shown_ply(), 3);
    update(&mut app, key(KeyCode::Char('n')));
    assert_eq!(app.shown_ply(), 6);
    let text = &app.notice.as_ref().unwrap().text;
    assert!(text.starts_with("3... 卒7进1?? blunder (-"), "{text}");
    assert!(
        text.ends_with(": 马2进3 was best (马2进3 马八进七)"),
        "{text}"
    );
    // On the input line n and N are text (WXF's horse), and without a review the
    // board passes them there too.
    app.focus = Focus::Input;
    update(&mut app, key(KeyCode::Char('N')));
    assert_eq!(app.input.text(), "N");
    let mut fresh = app_with_game();
    fresh.focus = Focus::Board;
    update(&mut fresh, key(KeyCode::Char('n')));
    assert_eq!((fresh.focus, fresh.input.text()), (Focus::Input, "n"));
}

#[test]
fn marks_hold_only_for_the_moves_the_game_still_shares() {
    let mut app = reviewed_app();
    update(&mut app, Action::Command(Command::Undo));
    update(&mut app, Action::Command(Command::Undo));
    assert_eq!(app.game.ply(), 4);
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("马二进三?!"), "{screen}");
    assert!(!screen.contains("??"), "{screen}");
    // Another 5th move: still only the first mark.
    type_line(&mut app, "i0i1");
    let screen = screen_text(&render(&app, 80, 24));
    assert!(
        screen.contains("马二进三?!") && !screen.contains("??"),
        "{screen}"
    );
}

#[test]
fn review_after_the_blunder_80x24() {
    let mut app = reviewed_app();
    app.focus = Focus::Board;
    update(&mut app, key(KeyCode::Char('N')));
    update(&mut app, key(KeyCode::Char('n')));
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
}

#[test]
fn the_reviewing_thread_reports_each_position_then_the_review() {
    let request = ReviewRequest {
        id: 7,
        record: record(),
        limits: ReviewLimits {
            limits: Limits::depth(3),
            threads: 2,
            hash_mb: 1,
        },
    };
    let mut updates = Vec::new();
    run_review(&request, None, &mut |update| {
        updates.push(update);
        true
    });
    assert_eq!(updates.len(), 8, "{updates:?}");
    for (done, update) in updates.iter().take(7).enumerate() {
        assert!(
            matches!(update, ReviewUpdate::Progress { id: 7, done: d, total: 7 } if *d == done + 1),
            "{update:?}"
        );
    }
    let ReviewUpdate::Done { id: 7, review } = &updates[7] else {
        panic!("{:?}", updates[7]);
    };
    let moves: Vec<Move> = review.moves.iter().map(|m| m.mv).collect();
    assert_eq!(moves, record().moves);
    assert!(review.moves.iter().all(|m| m.class != MoveClass::Blunder));
}
