//! The server's shared school tables: sessions asking for the same missing ending at
//! once get one generation between them (the others wait for it), and a table's
//! summary is worked out once.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xiangqi_app::train::SchoolTables;
use xiangqi_app::train::lessons::Start;
use xiangqi_engine::egtb::{Material, Silent};

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

#[test]
fn lessons_asked_at_once_generate_each_missing_table_once() {
    let dir = tempfile::tempdir().unwrap();
    let tables = Arc::new(SchoolTables::new(dir.path(), 1));
    let krk = material("KRK");
    let askers: Vec<_> = (0..6)
        .map(|_| {
            let tables = Arc::clone(&tables);
            std::thread::spawn(move || {
                let never = AtomicBool::new(false);
                tables
                    .lesson(krk, Start::Longest, &Silent, &never)
                    .map(|lesson| (lesson.summary.longest, lesson.generated.len()))
            })
        })
        .collect();
    let answers: Vec<(u32, usize)> = askers
        .into_iter()
        .map(|asker| asker.join().unwrap().unwrap())
        .collect();
    // Every lesson has the same table; one of them generated it (KRK and KK).
    assert!(
        answers.iter().all(|(longest, _)| *longest == 3),
        "{answers:?}"
    );
    let generated: Vec<usize> = answers.iter().map(|(_, n)| *n).filter(|n| *n > 0).collect();
    assert_eq!(generated, [krk.closure().len()]);
    assert_eq!(tables.solved(), krk.closure().len() as u64);
    // Written through the atomic writer: no temporary file is left.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["KK.xqtb", "KRK.xqtb"]);
}

#[test]
fn a_summary_is_read_once_and_a_cancelled_wait_ends() {
    let dir = tempfile::tempdir().unwrap();
    let tables = SchoolTables::new(dir.path(), 1);
    let never = AtomicBool::new(false);
    tables
        .lesson(material("KRK"), Start::Longest, &Silent, &never)
        .unwrap();
    let row = |tables: &SchoolTables| {
        tables
            .lessons()
            .into_iter()
            .find(|row| row.material == material("KRK"))
            .unwrap()
            .summary
    };
    let first = row(&tables).expect("KRK is summed up");
    assert_eq!(first.longest_text(), "mate in 2");
    // The file damaged now: the list still shows the summary it worked out.
    std::fs::write(dir.path().join("KRK.xqtb"), b"damaged").unwrap();
    assert_eq!(row(&tables), Some(first));
    // A fresh set reads the file, and finds it damaged.
    assert_eq!(row(&SchoolTables::new(dir.path(), 1)), None);
    // Cancelled before it starts, a lesson that needs a generation does not wait.
    let stopped = AtomicBool::new(true);
    let error = tables
        .lesson(material("KCK"), Start::Longest, &Silent, &stopped)
        .unwrap_err();
    assert_eq!(error.to_string(), "the lesson was cancelled");
}

#[test]
fn the_status_line_probes_only_tables_a_lesson_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let never = AtomicBool::new(false);
    SchoolTables::new(dir.path(), 1)
        .lesson(material("KRK"), Start::Longest, &Silent, &never)
        .unwrap();
    // A server started again: KRK is on disk, read by no one yet.
    let tables = SchoolTables::new(dir.path(), 1);
    let pos =
        xiangqi_core::board::Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
    assert_eq!(tables.tablebases().probe(&pos), None);
    // The lesson's job loads it; the same position then has its verdict.
    tables
        .lesson(material("KRK"), Start::Longest, &Silent, &never)
        .unwrap();
    let probe = tables.tablebases().probe(&pos).expect("KRK is loaded");
    assert_eq!(probe.describe(), "win, mate in 1");
}
