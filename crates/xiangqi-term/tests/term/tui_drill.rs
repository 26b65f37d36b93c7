//! `:drill` in the TUI without a terminal: the lessons list and a lesson come back from
//! the school's work (run here in the test, so it is exact), moves typed and made with
//! the board cursor are graded, the mate passes, take back / again / leave, and the
//! game left waiting comes back as it was; the screen at 80x24 and 120x40.

use crate::tui_support;

use std::sync::Arc;

use insta::assert_snapshot;
use tui_support::*;
use xiangqi_app::key::KeyCode;
use xiangqi_app::{
    Action, App, AppMode, ChoicePurpose, ChoiceValue, Effect, Popup, SchoolJob, run_school, update,
};
use xiangqi_engine::egtb::Tablebases;

/// A two-player game with two moves, the tables in an empty temporary folder.
fn app_with_game(dir: &tempfile::TempDir) -> App {
    let mut app = two_player_app();
    app.tablebases = Some(Arc::new(Tablebases::open(dir.path())));
    type_line(&mut app, "h2e2");
    type_line(&mut app, "h9g7");
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    app
}

/// The school's job among `effects`, carried out as the driver's thread would; the
/// progress notices shown on the way.
fn run_job(app: &mut App, effects: &[Effect]) -> Vec<String> {
    let job: &SchoolJob = effects
        .iter()
        .find_map(|effect| match effect {
            Effect::School(job) => Some(job.as_ref()),
            _ => None,
        })
        .expect("a school effect");
    // The generation's progress, as the driver passes it on.
    let reports = std::sync::Mutex::new(Vec::new());
    let answer = run_school(job, &|update| reports.lock().unwrap().push(update));
    let mut shown = Vec::new();
    for report in reports.into_inner().unwrap() {
        update(app, Action::School(report));
        shown.push(notice(app));
    }
    update(app, Action::School(answer));
    shown
}

fn notice(app: &App) -> String {
    app.notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn drill_krk(app: &mut App) {
    let effects = type_line(app, ":drill KRK");
    assert!(notice(app).starts_with("generating the KRK tables into "));
    let shown = run_job(app, &effects);
    assert_eq!(shown.first().unwrap(), "generating the KK table: 0%");
    assert!(shown.contains(&"generating the KRK table: 0%".to_owned()));
    assert!(matches!(app.mode, AppMode::Drill(_)));
}

fn drill_mode(app: &App) -> &xiangqi_app::DrillMode {
    match &app.mode {
        AppMode::Drill(mode) => mode,
        other => panic!("not in a drill: {other:?}"),
    }
}

/// Moves the board cursor from where it is to `square` (ICCS: "a8") with arrow keys,
/// then Enter on the empty input line: pick up or put down there.
fn point_at(app: &mut App, square: &str) {
    let bytes = square.as_bytes();
    let (x, y) = (bytes[0] - b'a', bytes[1] - b'0');
    assert!(!app.flipped);
    while app.cursor.x() != x {
        let arrow = if app.cursor.x() < x {
            KeyCode::Right
        } else {
            KeyCode::Left
        };
        update(app, key(arrow));
    }
    while app.cursor.y() != y {
        let arrow = if app.cursor.y() < y {
            KeyCode::Up
        } else {
            KeyCode::Down
        };
        update(app, key(arrow));
    }
    update(app, key(KeyCode::Enter));
}

#[test]
fn a_drill_grades_typed_and_cursor_moves_and_passes_on_mate_then_the_game_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_game(&dir);
    let game_fen = app.position().to_fen();
    drill_krk(&mut app);
    assert_eq!(
        notice(&app),
        "generated KK KRK; KRK: win - you play Red, mate the table"
    );
    assert_eq!(
        app.shown_position().to_fen(),
        "9/9/4k4/9/9/9/9/9/9/R2K5 w - - 0 1"
    );
    // Typed: the fastest mate's first move.
    type_line(&mut app, "a0a8");
    assert_eq!(notice(&app), "车九进八 +0");
    let step = drill_mode(&app).drill.steps[0];
    assert_eq!(step.reply, Some(mv("e7f7")));
    // With the board cursor: the mate.
    point_at(&mut app, "a8");
    point_at(&mut app, "e8");
    assert_eq!(notice(&app), "车九平五 +0: passed!");
    let drill = &drill_mode(&app).drill;
    assert_eq!(drill.status, xiangqi_app::train::drill::Status::Passed);
    assert_eq!(drill.plies_used(), 3);
    assert_snapshot!("drill_passed_80x24", screen_text(&render(&app, 80, 24)));
    // The game kept as it was.
    update(&mut app, ctrl('x'));
    assert!(matches!(app.mode, AppMode::Play));
    assert_eq!(notice(&app), "left the drill: the game is back");
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
    assert_eq!(app.shown_position().to_fen(), game_fen);
    type_line(&mut app, "h0g2");
    assert_eq!(played(&app), ["h2e2", "h9g7", "h0g2"]);
}

#[test]
fn take_back_counts_again_starts_over_and_the_best_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_game(&dir);
    drill_krk(&mut app);
    type_line(&mut app, "a0a1");
    assert_eq!(notice(&app), "车九进一 +2");
    update(&mut app, ctrl('z'));
    assert_eq!(notice(&app), "taken back (the plies it lost still count)");
    let drill = &drill_mode(&app).drill;
    assert_eq!(
        (drill.steps.len(), drill.takebacks, drill.lost()),
        (0, 1, 2)
    );
    update(&mut app, ctrl('h'));
    assert_eq!(notice(&app), "the table's best: 车九进八");
    assert_eq!(app.hint.as_ref().map(|h| h.mv), Some(mv("a0a8")));
    update(&mut app, ctrl('k'));
    assert_eq!(notice(&app), "again from the start");
    let drill = &drill_mode(&app).drill;
    assert_eq!((drill.takebacks, drill.lost()), (0, 0));
    // What would touch the game waiting is refused.
    update(&mut app, ctrl('r'));
    assert_eq!(
        notice(&app),
        "not in the drill: Ctrl-X leaves it (the game waits)"
    );
    type_line(&mut app, ":resign");
    assert_eq!(
        app.input.error(),
        Some("unknown command ':resign'; commands: :theme :drill :help")
    );
    assert_eq!(played(&app), ["h2e2", "h9g7"]);
}

#[test]
fn the_lessons_list_opens_a_lesson_and_a_large_missing_table_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_game(&dir);
    drill_krk(&mut app);
    update(&mut app, ctrl('x'));
    let effects = type_line(&mut app, ":drill");
    run_job(&mut app, &effects);
    let Some(Popup::Choice { purpose, items, .. }) = app.popups.last() else {
        panic!("no list");
    };
    assert_eq!(*purpose, ChoicePurpose::Lesson);
    let krk = items
        .iter()
        .position(|item| item.value == ChoiceValue::Lesson("KRK".to_owned()))
        .unwrap();
    assert_eq!(items[krk].label, "KRK      win         mate in 2");
    assert_eq!(items[0].label, "KRK      win         mate in 2");
    // What `egtb drill` lists as made on first use, the list says so too; a table too
    // large to make on the spot is not installed.
    assert_eq!(items[1].label, "KRKB     (made on first use)");
    let kaabb = items
        .iter()
        .find(|item| item.value == ChoiceValue::Lesson("KRKAABB".to_owned()))
        .unwrap();
    assert_eq!(kaabb.label, "KRKAABB  (not installed)");
    let khk = items
        .iter()
        .find(|item| item.value == ChoiceValue::Lesson("KHK".to_owned()))
        .unwrap();
    assert_eq!(khk.label, "KHK      (made on first use)");
    assert_snapshot!("drill_lessons_80x24", screen_text(&render(&app, 80, 24)));
    // The list is longer than the screen: it scrolls to keep the selection in view (Up
    // from the first goes to the last), the keys' line stays under it.
    let count = items.len();
    let last = format!("{count} {}", items[count - 1].label);
    assert!(!screen_text(&render(&app, 80, 24)).contains(&last));
    update(&mut app, key(KeyCode::Up));
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains(&last), "{screen}");
    assert!(!screen.contains(" 1 KRK "), "{screen}");
    assert!(
        screen.contains("Up/Down, Enter chooses, Esc cancels"),
        "{screen}"
    );
    update(&mut app, key(KeyCode::Down));
    let effects = update(&mut app, key(KeyCode::Enter));
    run_job(&mut app, &effects);
    assert_eq!(drill_mode(&app).lesson.summary.material.to_string(), "KRK");
    type_line(&mut app, ":drill KRRKR");
    let alert = app.input.error().unwrap_or_default().to_owned();
    assert!(
        alert.ends_with("generate it with `xiangqi-tui egtb generate KRRKR`"),
        "{alert}"
    );
}

#[test]
fn a_longer_lesson_at_120x40() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_game(&dir);
    let effects = type_line(&mut app, ":drill KPK");
    run_job(&mut app, &effects);
    for typed in ["a3a4", "a4a5", "a5b5", "b5a5"] {
        type_line(&mut app, typed);
    }
    assert_eq!(notice(&app), "兵八平九 +4");
    assert_snapshot!("drill_kpk_120x40", screen_text(&render(&app, 120, 40)));
}

#[test]
fn the_engine_game_waits_behind_the_drill_and_goes_on_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_against_engine();
    app.tablebases = Some(Arc::new(Tablebases::open(dir.path())));
    let effects = type_line(&mut app, "h2e2");
    assert!(started_search(&effects).is_some(), "the engine answers");
    // Entering the drill stops the engine's search; nothing is played into the game.
    let effects = type_line(&mut app, ":drill KRK");
    run_job(&mut app, &effects);
    assert!(matches!(app.mode, AppMode::Drill(_)));
    assert!(app.engine.thinking.is_none());
    let effects = type_line(&mut app, "a0a8");
    assert_eq!(started_search(&effects), None);
    assert_eq!(played(&app), ["h2e2"]);
    // Leaving: the engine's turn in the game again, so it searches.
    let effects = update(&mut app, ctrl('x'));
    assert!(started_search(&effects).is_some());
    assert_eq!(played(&app), ["h2e2"]);
}

#[test]
fn a_drawn_ending_is_defended_from_the_bottom_of_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with_game(&dir);
    let effects = type_line(&mut app, ":drill KCK");
    run_job(&mut app, &effects);
    assert_eq!(
        notice(&app),
        "generated KK KCK; KCK: draw - you play Black, hold the draw"
    );
    assert!(app.flipped);
    let best = {
        let mode = drill_mode(&app);
        mode.drill.best(&mode.lesson.tables).unwrap().unwrap()
    };
    type_line(&mut app, &best.iccs());
    assert!(notice(&app).ends_with(" holds"), "{}", notice(&app));
    app.notice = None;
    let screen = screen_text(&render(&app, 80, 24));
    assert!(screen.contains("held 1/20, take-backs 0"), "{screen}");
    assert_eq!(
        screen.lines().last().unwrap().trim_end(),
        " drill KCK: your move | the game waits: Ctrl-X                          F1 help"
    );
}
