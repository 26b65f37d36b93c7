//! The endgame school: lessons summed up from generated tables, drills graded against
//! the table's best move by move.

use std::sync::{Arc, OnceLock};

use xiangqi_app::train::drill::{Drill, Grade, HOLD_MOVES, Status, grade, margin};
use xiangqi_app::train::lessons::{self, Lesson, Outlook, Start, TrainError};
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_engine::egtb::{Material, Silent, Tablebases, Wdl};

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// KRK and KCK generated once (on the spot, as the school does) into a temporary folder.
fn school() -> &'static (tempfile::TempDir, Lesson, Lesson) {
    static SCHOOL: OnceLock<(tempfile::TempDir, Lesson, Lesson)> = OnceLock::new();
    SCHOOL.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let krk = lessons::lesson(dir.path(), material("KRK"), Start::Longest, &Silent).unwrap();
        let kck = lessons::lesson(dir.path(), material("KCK"), Start::Longest, &Silent).unwrap();
        (dir, krk, kck)
    })
}

fn kpk() -> &'static (tempfile::TempDir, Lesson) {
    static KPK: OnceLock<(tempfile::TempDir, Lesson)> = OnceLock::new();
    KPK.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let kpk = lessons::lesson(dir.path(), material("KPK"), Start::Longest, &Silent).unwrap();
        (dir, kpk)
    })
}

fn mv(text: &str) -> Move {
    Move::parse_coords(text).unwrap()
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap()
}

/// The KPK drill from its longest win, the table's best played for the student `n` times.
fn kpk_drill_after(n: usize) -> (Drill, Arc<Tablebases>) {
    let lesson = &kpk().1;
    let tables = lesson.tables.clone();
    let mut drill = Drill::new(lesson.start.clone(), lesson.student, true, &tables).unwrap();
    for _ in 0..n {
        let best = drill.best(&tables).unwrap().unwrap();
        drill.play(best, &tables).unwrap();
    }
    (drill, tables)
}

#[test]
fn lessons_sum_up_their_tables() {
    let (dir, krk, kck) = school();
    assert_eq!(krk.summary.positions, 2556);
    assert_eq!(krk.summary.won, 2556);
    assert_eq!(krk.summary.longest, 3);
    assert_eq!(krk.summary.longest_text(), "mate in 2");
    assert_eq!(krk.summary.outlook(), Outlook::Win);
    assert_eq!(krk.start.to_fen(), "9/9/4k4/9/9/9/9/9/9/R2K5 w - - 0 1");
    assert_eq!(krk.student, Color::Red);
    let names: Vec<String> = krk.generated.iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["KK", "KRK"]);
    assert_eq!((kck.summary.positions, kck.summary.won), (3276, 0));
    assert_eq!(kck.summary.outlook(), Outlook::Draw);
    assert_eq!(kck.summary.longest_text(), "-");
    assert_eq!(kck.student, Color::Black);
    assert_eq!(kck.start.to_fen(), "3k5/9/9/9/9/9/9/4K4/C8/9 b - - 0 1");
    let kpk = &kpk().1.summary;
    assert_eq!(
        (kpk.positions, kpk.won, kpk.drawn, kpk.longest),
        (2196, 1908, 288, 19)
    );
    assert_eq!(kpk.outlook(), Outlook::MostlyWin);
    // The list: the default set first, installed or not.
    let rows = lessons::lessons(dir.path());
    let krk_row = rows.iter().find(|r| r.material == material("KRK")).unwrap();
    assert_eq!(krk_row.summary.as_ref(), Some(&krk.summary));
    let khk_row = rows.iter().find(|r| r.material == material("KHK")).unwrap();
    assert_eq!(khk_row.summary, None);
}

#[test]
fn moves_are_graded_by_plies_lost_against_the_table() {
    let tables = kpk().1.tables.clone();
    let pos = fen("9/9/4k4/9/4P4/9/9/9/9/3K5 w - - 12 7");
    assert_eq!(grade(&tables, &pos, mv("e5e6")).unwrap(), Grade::Slower(0));
    assert_eq!(grade(&tables, &pos, mv("e5f5")).unwrap(), Grade::Slower(2));
    assert_eq!(grade(&tables, &pos, mv("e5d5")).unwrap(), Grade::Slower(4));
    assert_eq!(Grade::Slower(2).text(), "+2");
    let pos = fen("9/9/5k3/4P4/9/9/9/9/9/3K5 w - - 14 8");
    let thrown = grade(&tables, &pos, mv("e6e7")).unwrap();
    assert_eq!(thrown, Grade::ThrowsWin);
    assert_eq!(thrown.text(), "draw!");
    // A defender walking into a loss.
    let pos = fen("9/9/4kP3/9/9/9/9/9/9/3K5 b - - 0 1");
    let lost = grade(&tables, &pos, mv("e7e8")).unwrap();
    assert_eq!(
        lost,
        Grade::Loses {
            plies: 3,
            was_won: false
        }
    );
    assert_eq!(lost.text(), "loses in 2");
    assert_eq!(grade(&tables, &pos, mv("e7f7")).unwrap(), Grade::Holds);
}

#[test]
fn the_best_line_mates_at_the_optimum_and_passes() {
    let (drill, _) = kpk_drill_after(10);
    assert_eq!(drill.status, Status::Passed);
    assert_eq!(drill.optimum, Some(19));
    assert_eq!(drill.plies_used(), 19);
    assert_eq!(drill.lost(), 0);
    assert!(drill.steps.iter().all(|s| s.grade == Grade::Slower(0)));
    assert_eq!(drill.steps.last().unwrap().reply, None);
    assert_eq!(margin(19), 4);
    assert_eq!(margin(40), 8);
}

#[test]
fn the_table_defends_with_the_longest_resistance() {
    let (drill, tables) = kpk_drill_after(1);
    let step = drill.steps[0];
    assert_eq!(step.mv, mv("a3a4"));
    assert_eq!(step.reply, Some(mv("e7f7")));
    // The reply leaves the longest mate the position allows: 17 plies.
    let probe = tables.probe_checked(&drill.position).unwrap();
    assert_eq!((probe.wdl, probe.plies), (Wdl::Win, Some(17)));
}

#[test]
fn a_slower_win_within_the_margin_passes_and_beyond_it_fails() {
    // +2 at the seventh move, then the best: 21 plies, within 19 + 4.
    let (mut drill, tables) = kpk_drill_after(6);
    let step = drill.play(mv("e5f5"), &tables).unwrap();
    assert_eq!(step.grade, Grade::Slower(2));
    while drill.status == Status::Playing {
        let best = drill.best(&tables).unwrap().unwrap();
        drill.play(best, &tables).unwrap();
    }
    assert_eq!(
        (drill.status, drill.plies_used(), drill.lost()),
        (Status::Passed, 21, 2)
    );

    // +4 twice, each taken back (they still count), then the best: 19 + 8 > 23.
    let (mut drill, tables) = kpk_drill_after(3);
    for _ in 0..2 {
        assert_eq!(
            drill.play(mv("b5a5"), &tables).unwrap().grade,
            Grade::Slower(4)
        );
        assert!(drill.take_back());
    }
    assert_eq!((drill.takebacks, drill.penalty, drill.lost()), (2, 8, 8));
    while drill.status == Status::Playing {
        let best = drill.best(&tables).unwrap().unwrap();
        drill.play(best, &tables).unwrap();
    }
    assert_eq!(drill.plies_used(), 19);
    assert_eq!(drill.status, Status::TooSlow);
    assert_eq!(drill.status.text(), "failed: mate too slow");
}

#[test]
fn a_thrown_win_fails_at_once_and_can_be_taken_back() {
    let (mut drill, tables) = kpk_drill_after(7);
    let step = drill.play(mv("e6e7"), &tables).unwrap();
    assert_eq!((step.grade, step.reply), (Grade::ThrowsWin, None));
    assert_eq!(drill.status, Status::Failed);
    assert!(!drill.student_to_move());
    assert!(drill.take_back());
    assert_eq!(drill.status, Status::Playing);
    assert_eq!(
        drill.position.to_fen(),
        "9/9/5k3/4P4/9/9/9/9/9/3K5 w - - 14 8"
    );
}

#[test]
fn a_drawn_ending_is_defended_for_the_moves_required() {
    let (_, _, kck) = school();
    let tables = kck.tables.clone();
    let mut drill = Drill::new(kck.start.clone(), kck.student, false, &tables).unwrap();
    assert_eq!(drill.optimum, None);
    while drill.status == Status::Playing {
        let best = drill.best(&tables).unwrap().unwrap();
        let step = drill.play(best, &tables).unwrap();
        assert_eq!(step.grade, Grade::Holds);
        assert!(step.reply.is_some());
    }
    assert_eq!(drill.status, Status::Passed);
    assert_eq!(drill.steps.len(), HOLD_MOVES);

    // KPK drawn, the defender to move: walking into the loss fails.
    let kpk_tables = kpk().1.tables.clone();
    let start = fen("9/9/4kP3/9/9/9/9/9/9/3K5 b - - 0 1");
    let mut drill = Drill::new(start, Color::Black, false, &kpk_tables).unwrap();
    let step = drill.play(mv("e7e8"), &kpk_tables).unwrap();
    assert_eq!(step.grade.text(), "loses in 2");
    assert_eq!(drill.status, Status::Failed);
}

#[test]
fn starts_at_a_chosen_depth_or_say_why_not() {
    let dir = kpk().0.path();
    let start = Start::Random {
        moves: Some(3),
        seed: 7,
    };
    let lesson = lessons::lesson(dir, material("KPK"), start, &Silent).unwrap();
    let probe = lesson.tables.probe_checked(&lesson.start).unwrap();
    assert_eq!((probe.wdl, probe.plies), (Wdl::Win, Some(5)));
    assert!(lesson.generated.is_empty());
    let start = Start::Random {
        moves: Some(11),
        seed: 7,
    };
    let error = lessons::lesson(dir, material("KPK"), start, &Silent).unwrap_err();
    assert_eq!(
        error.to_string(),
        "KPK has no win in 11 moves (its longest is mate in 10)"
    );
    let error = lessons::lesson(dir, material("KRRKR"), Start::Longest, &Silent).unwrap_err();
    assert_eq!(
        error,
        TrainError::NeedsTable {
            material: "KRRKR".to_owned(),
            dir: dir.display().to_string()
        }
    );
    assert!(
        error
            .to_string()
            .ends_with("generate it with `xiangqi-tui egtb generate KRRKR`")
    );
}
