//! The puzzle trainer through the app's update loop, without a terminal: `:puzzle ID`,
//! the solution typed and played with the board cursor, a wrong move and its
//! refutation, a hint, retry, the proof tree, and leaving back to the game kept as it
//! was. The prover's work (`Effect::Puzzle`) is run inline, so it is deterministic.

use crate::tui_support;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::key::KeyCode;
use xiangqi_app::train::{Status, run};
use xiangqi_app::{Action, App, AppMode, Effect, PuzzleMode, PuzzleRecord, update};
use xiangqi_core::board::Square;

/// The mate in 2 of 胡榮華 – 鄭守賢 (1982): 车二进九 象7退9 炮七进九.
const MATE_IN_TWO: &str = "037e93e1";
const FEN: &str = "1Cbak4/4a4/2N1b4/p3p3p/7n1/P3P4/4N3P/2C3R2/c8/2rA1K3 w - - 6 33";

/// Runs the prover's work asked for by `effects` (and by what its answers ask for);
/// the attempts handed to the store.
fn settle_work(app: &mut App, effects: Vec<Effect>) -> Vec<PuzzleRecord> {
    let mut records = Vec::new();
    let mut queue = effects;
    while !queue.is_empty() {
        let mut next = Vec::new();
        for effect in queue {
            match effect {
                Effect::Puzzle(request) => {
                    let answer = run(&request);
                    next.extend(update(app, Action::Puzzle(Box::new(answer))));
                }
                Effect::RecordPuzzle(record) => records.push(*record),
                _ => {}
            }
        }
        queue = next;
    }
    records
}

fn typed(app: &mut App, text: &str) -> Vec<PuzzleRecord> {
    let effects = type_line(app, text);
    settle_work(app, effects)
}

fn trainer(app: &App) -> &PuzzleMode {
    match &app.mode {
        AppMode::Puzzle(mode) => mode,
        other => panic!("not in the trainer: {other:?}"),
    }
}

fn fixed_time() -> u64 {
    1_764_000_000
}

/// Two players with one move played, then the puzzle opened.
fn in_puzzle() -> App {
    let mut app = two_player_app();
    app.trainer.clock = fixed_time;
    typed(&mut app, "h2e2");
    assert_eq!(played(&app), ["h2e2"]);
    typed(&mut app, &format!(":puzzle {MATE_IN_TWO}"));
    app
}

fn status_line(app: &App) -> String {
    let text = screen_text(&render(app, 80, 24));
    text.lines().last().unwrap().to_owned()
}

#[test]
fn the_solution_typed_solves_it_and_leaving_brings_the_game_back() {
    let mut app = in_puzzle();
    assert_eq!(app.shown_position().to_fen(), FEN);
    assert_eq!(trainer(&app).session.puzzle.id, MATE_IN_TWO);
    assert!(!app.flipped, "Red solves: Red at the bottom");
    assert!(typed(&mut app, "g2g9").is_empty());
    assert_eq!(trainer(&app).session.ply(), 2);
    let records = typed(&mut app, "c2c9");
    assert_eq!(trainer(&app).session.status, Status::Solved);
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert!(record.attempt.solved && record.attempt.rated);
    assert_eq!(record.attempt.at, fixed_time());
    assert_eq!(record.player.rating.round(), 1620.0);
    assert_eq!(app.trainer.profile.history.len(), 1);
    // The game was kept as it was.
    let effects = update(&mut app, ctrl('x'));
    assert!(settle_work(&mut app, effects).is_empty());
    assert!(matches!(app.mode, AppMode::Play));
    assert_eq!(played(&app), ["h2e2"]);
    assert_eq!(app.shown_position().to_fen(), app.game.position().to_fen());
}

#[test]
fn the_board_cursor_plays_the_solution() {
    let mut app = in_puzzle();
    // The cursor starts on e3 (file 4, rank 3): to g2, pick up, to g9, put down.
    assert_eq!(app.cursor, Square::new(4, 3));
    for code in [
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Enter,
    ] {
        update(&mut app, key(code));
    }
    assert_eq!(app.selected, Some(Square::new(6, 2)));
    for _ in 0..7 {
        update(&mut app, key(KeyCode::Up));
    }
    let effects = update(&mut app, key(KeyCode::Enter));
    settle_work(&mut app, effects);
    assert_eq!(trainer(&app).session.ply(), 2);
    assert_eq!(trainer(&app).session.status, Status::YourMove);
}

#[test]
fn a_wrong_move_is_refuted_then_retry_and_a_hint() {
    let mut app = in_puzzle();
    let records = typed(&mut app, "c2c9");
    assert_eq!(trainer(&app).session.status, Status::Refuted);
    assert_eq!(records.len(), 1);
    assert!(!records[0].attempt.solved);
    assert!(app.trainer.profile.rating.rating < 1500.0);
    // No move is taken until retry.
    typed(&mut app, "g2g9");
    assert_eq!(trainer(&app).session.ply(), 2);
    update(&mut app, ctrl('z'));
    assert_eq!(trainer(&app).session.ply(), 0);
    update(&mut app, ctrl('h'));
    assert_eq!(trainer(&app).hint(), Some(Square::new(6, 2)));
    typed(&mut app, "g2g9");
    let records = typed(&mut app, "c2c9");
    assert_eq!(trainer(&app).session.status, Status::Solved);
    assert!(records.is_empty(), "one attempt is kept once");
}

#[test]
fn the_themes_wait_until_solved_and_a_hint_says_it_fails_the_attempt() {
    let mut app = in_puzzle();
    let pane = screen_text(&render(&app, 120, 40));
    assert!(
        pane.contains("themes: hidden until solved (Ctrl-T shows them)"),
        "{pane}"
    );
    assert!(!pane.contains("sacrifice"), "{pane}");
    // The prompt's example move is legal here and is not the solution's.
    let example = xiangqi_app::prompt::example_move(&app, app.shown_position()).unwrap();
    assert!(app.shown_position().is_legal(example));
    assert_ne!(example, mv("g2g9"));
    update(&mut app, ctrl('h'));
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "hint: the marked piece moves (the attempt now counts as failed)"
    );
    // A second hint fails nothing more.
    update(&mut app, ctrl('h'));
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "hint: the marked piece moves"
    );
    update(&mut app, ctrl('t'));
    assert_eq!(
        app.notice.as_ref().unwrap().text,
        "themes: chariot, cannon, sacrifice"
    );
    assert!(screen_text(&render(&app, 120, 40)).contains("themes: chariot, cannon, sacrifice"));
    // Solved, another puzzle's themes are shown without asking.
    let mut solved = in_puzzle();
    typed(&mut solved, "g2g9");
    typed(&mut solved, "c2c9");
    assert!(trainer(&solved).themes_shown());
}

#[test]
fn entering_puzzles_stops_the_engine_and_leaving_lets_it_play_on() {
    let mut app = app_against_engine();
    let effects = type_line(&mut app, "h2e2");
    let id = started_search(&effects).expect("the engine answers");
    let effects = type_line(&mut app, &format!(":puzzle {MATE_IN_TWO}"));
    assert!(effects.contains(&Effect::StopSearch(id)), "{effects:?}");
    assert!(app.engine.thinking.is_none());
    let effects = update(&mut app, ctrl('x'));
    assert!(started_search(&effects).is_some(), "{effects:?}");
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn filters_and_errors_of_the_puzzle_command() {
    let mut app = two_player_app();
    typed(&mut app, ":puzzle mate 3 theme sacrifice");
    let puzzle = &trainer(&app).session.puzzle;
    assert_eq!(puzzle.mate_in, 3);
    assert!(puzzle.has_theme(xiangqi_engine::puzzle::Theme::Sacrifice));
    typed(&mut app, ":puzzle mate 9");
    assert_eq!(app.input.error(), Some("no built-in puzzle matches that"));
    app.input.clear();
    typed(&mut app, ":puzzle theme bogus");
    assert!(
        app.input
            .error()
            .unwrap()
            .starts_with("no theme 'bogus'; themes: chariot"),
        "{:?}",
        app.input.error()
    );
    app.input.clear();
    typed(&mut app, ":fen 9/9/9/9/9/9/9/9/9/9 w");
    assert_eq!(
        app.input.error(),
        Some(":fen is not available in the puzzle trainer")
    );
    // Ctrl-N: the next puzzle, with the same filter.
    app.input.clear();
    let first = trainer(&app).session.puzzle.id.clone();
    update(&mut app, ctrl('n'));
    assert_ne!(trainer(&app).session.puzzle.id, first);
    assert_eq!(trainer(&app).session.puzzle.mate_in, 3);
}

#[test]
fn puzzle_refuted_80x24() {
    let mut app = in_puzzle();
    typed(&mut app, "c2c9");
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
}

#[test]
fn puzzle_solved_120x40() {
    let mut app = in_puzzle();
    typed(&mut app, "g2g9");
    typed(&mut app, "c2c9");
    assert_snapshot!(screen_text(&render(&app, 120, 40)));
}

#[test]
fn puzzle_proof_tree_80x24() {
    let mut app = in_puzzle();
    let effects = update(&mut app, ctrl('v'));
    let records = settle_work(&mut app, effects);
    assert_eq!(records.len(), 1, "the solution shown fails the attempt");
    assert!(!records[0].attempt.solved);
    let level = trainer(&app).tree.as_ref().unwrap().level();
    let node = level.node.as_ref().expect("the prover answered");
    assert!(node.replies.iter().all(|r| r.mated_in == Some(1)));
    update(&mut app, key(KeyCode::Down));
    assert_snapshot!(screen_text(&render(&app, 80, 24)));
    assert_eq!(
        status_line(&app),
        format!(
            "{:<80}",
            " puzzle 037e93e1 | proof tree: arrows walk it, Ctrl-V closes"
        )
    );
    // Right goes in: the answer mates, the end of the line; Ctrl-V closes.
    update(&mut app, key(KeyCode::Right));
    assert_eq!(trainer(&app).tree.as_ref().unwrap().levels.len(), 1);
    update(&mut app, ctrl('v'));
    assert!(trainer(&app).tree.is_none());
    assert_eq!(app.shown_position().to_fen(), FEN);
}

#[test]
fn the_proof_tree_of_a_mate_in_three_goes_in_and_out() {
    // Black mates in 3 (001ddd3c): the board turns, Black at the bottom.
    let mut app = two_player_app();
    typed(&mut app, ":puzzle 001ddd3c");
    assert!(app.flipped);
    let effects = update(&mut app, ctrl('v'));
    settle_work(&mut app, effects);
    let tree = trainer(&app).tree.as_ref().unwrap();
    assert_eq!(tree.level().moves_left, 2);
    let node = tree.level().node.clone().expect("the prover answered");
    // Longest first: the stored defence lasts as long as any.
    assert_eq!(node.replies[0].mated_in, Some(2));
    assert!(
        node.replies
            .iter()
            .all(|r| r.mated_in.is_some_and(|k| k <= 2))
    );
    let first = node.replies[0].clone();
    let effects = update(&mut app, key(KeyCode::Right));
    settle_work(&mut app, effects);
    let tree = trainer(&app).tree.as_ref().unwrap();
    assert_eq!(tree.levels.len(), 2);
    assert_eq!(tree.level().moves_left, 1);
    let mut expected = tree.levels[0].position.clone();
    expected.make_move(first.reply);
    expected.make_move(first.answer.unwrap());
    assert_eq!(app.shown_position().to_fen(), expected.to_fen());
    let deeper = tree.level().node.as_ref().expect("answered");
    assert!(deeper.replies.iter().all(|r| r.mated_in == Some(1)));
    update(&mut app, key(KeyCode::Left));
    assert_eq!(trainer(&app).tree.as_ref().unwrap().levels.len(), 1);
}

#[test]
fn a_late_answer_to_the_previous_puzzle_is_dropped() {
    let mut app = in_puzzle();
    // A wrong move sent to the prover, then the next puzzle before the answer.
    let effects = type_line(&mut app, "c2c9");
    let late: Vec<Effect> = effects
        .into_iter()
        .filter(|e| matches!(e, Effect::Puzzle(_)))
        .collect();
    assert_eq!(late.len(), 1);
    let effects = update(&mut app, ctrl('n'));
    let records = settle_work(&mut app, effects);
    assert_eq!(records.len(), 1, "the begun attempt counts as failed");
    let fen = app.shown_position().to_fen();
    let id = trainer(&app).session.puzzle.id.clone();
    assert_ne!(id, MATE_IN_TWO);
    // The new attempt's first move waits for the prover too (any non-stored move).
    let Effect::Puzzle(request) = &late[0] else {
        unreachable!()
    };
    update(&mut app, Action::Puzzle(Box::new(run(request))));
    assert_eq!(trainer(&app).session.ply(), 0);
    assert_eq!(trainer(&app).session.status, Status::YourMove);
    assert_eq!(app.shown_position().to_fen(), fen);
}

#[test]
fn the_analysis_board_comes_back_after_the_puzzles() {
    let mut app = app_against_engine();
    let effects = update(&mut app, ctrl('a'));
    let id = started_search(&effects).expect("the analysis starts");
    let effects = type_line(&mut app, &format!(":puzzle {MATE_IN_TWO}"));
    assert!(effects.contains(&Effect::StopSearch(id)), "{effects:?}");
    let effects = update(&mut app, ctrl('x'));
    assert!(app.analysing());
    assert!(started_search(&effects).is_some(), "{effects:?}");
}

#[test]
fn the_help_in_the_trainer_lists_its_keys() {
    use xiangqi_app::{Place, help_lines};
    let lines = help_lines(Place::Puzzle);
    let find = |keys: &str| {
        lines
            .iter()
            .find(|(k, _)| k == keys)
            .map(|(_, text)| text.as_str())
    };
    assert_eq!(
        find("Ctrl-Z"),
        Some("retry: take the wrong move back (the attempt stays failed)")
    );
    assert_eq!(find("Ctrl-N"), Some("next puzzle"));
    assert_eq!(find("Ctrl-X"), Some("leave: back to the game as it was"));
    for absent in ["Ctrl-R", "Ctrl-A", "[ ]", ":review", ":fen FEN"] {
        assert_eq!(find(absent), None, "{absent}");
    }
    assert!(find(":puzzle [ID|mate N|theme T]").is_some());
}

#[test]
fn puzzle_history_lists_the_attempts() {
    let mut app = in_puzzle();
    typed(&mut app, "g2g9");
    typed(&mut app, "c2c9");
    typed(&mut app, ":puzzle history");
    let text = screen_text(&render(&app, 80, 24));
    assert!(
        text.contains("puzzle rating 1620? after 1 attempt(s)"),
        "{text}"
    );
    assert!(
        text.contains("037e93e1  solved  rated    1620  2025-11-24"),
        "{text}"
    );
}
