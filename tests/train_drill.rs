//! The endgame school: lessons summed up from generated tables, drills graded against
//! the table's best move by move.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use xiangqi_tui::board::{Color, Move, Position};
use xiangqi_tui::egtb::{Material, Observer, Tablebases, Wdl};
use xiangqi_tui::train::drill::{Drill, Grade, HOLD_MOVES, Status, grade, margin};
use xiangqi_tui::train::lessons::{self, Lesson, Start, TrainError, Verdict};

struct Quiet;

impl Observer for Quiet {
    fn skipped(&self, _: &Material) {}
    fn started(&self, _: &Material, _: u64) {}
    fn progress(&self, _: u64, _: u64) {}
    fn finished(&self, _: &Material, _: u64, _: Duration) {}
}

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// KRK and KCK generated once (on the spot, as the school does) into a temporary folder.
fn school() -> &'static (tempfile::TempDir, Lesson, Lesson) {
    static SCHOOL: OnceLock<(tempfile::TempDir, Lesson, Lesson)> = OnceLock::new();
    SCHOOL.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let krk = lessons::lesson(dir.path(), material("KRK"), Start::Longest, &Quiet).unwrap();
        let kck = lessons::lesson(dir.path(), material("KCK"), Start::Longest, &Quiet).unwrap();
        (dir, krk, kck)
    })
}

fn tables() -> Arc<Tablebases> {
    school().1.tables.clone()
}

#[test]
fn print_facts() {
    let (_, krk, kck) = school();
    eprintln!("{:?} {:?}", krk.summary, krk.generated);
    eprintln!("{:?} {}", kck.summary, kck.start.to_fen());
    let t = tables();
    let pos = &krk.start;
    for (mv, p) in t.move_values(pos).unwrap() {
        eprintln!("{mv} {:?}", p);
    }
}
