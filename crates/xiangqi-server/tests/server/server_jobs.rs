//! The work a session starts, bounded (issue 39): the puzzle prover, `:review` and the
//! endgame school's tables run as jobs of the server's one pool (`engine_threads`
//! threads, `jobs_queue` waiting), one job per session, cancelled by a take-back or the
//! session's end, with the server's engine limits and never the play settings. Each
//! test counts the jobs (the pool's own counts), never wall time.

use crate::server_support;

use std::time::Duration;

use server_support::{PATIENCE, Terminal, exec, settings, start};
use xiangqi_server::store::{FinishedGame, Side, SqliteStore, Store};

/// Waits until no job runs or waits.
async fn drained(server: &xiangqi_server::Running) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let jobs = server.jobs();
        if jobs.running + jobs.waiting == 0 {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "jobs still under way: {jobs:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn take_backs_in_a_puzzle_run_one_job_and_the_job_ends_with_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    // A mate in 4 whose wrong move f5a5 takes the prover seconds to refute.
    let mut eve = Terminal::open(server.addr, "eve", None, Some("puzzle 0103611e")).await;
    eve.wait_text("mate in 4").await;
    // Wrong move, Ctrl-Z, sixty times (was: sixty prover threads, running on), and
    // the wrong move once more.
    eve.type_text(&"f5a5\r\x1a".repeat(60)).await;
    eve.command("f5a5").await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    // Each take-back cancels its judging, unless a busy machine let the prover finish
    // it first (seen: 59 cancelled, 3 finished): either way the judging is over.
    let handled = |jobs: xiangqi_app::jobs::JobCounts| jobs.cancelled + jobs.finished;
    while handled(server.jobs()) < 60 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{:?}",
            server.jobs()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let jobs = server.jobs();
    assert!(jobs.peak_running <= 1, "{jobs:?}");
    assert!(jobs.waiting + jobs.running <= 1, "{jobs:?}");
    // The session ends, its last judging goes with it.
    drop(eve);
    drained(&server).await;
    let jobs = server.jobs();
    assert_eq!(jobs.started, jobs.finished, "{jobs:?}");
    // On a busy machine every one may have been cancelled before a thread took it.
    assert!(jobs.started <= 61 && jobs.peak_running <= 1, "{jobs:?}");
    server.stop(Duration::from_secs(2)).await;
}

/// A ten-move game in the archive (id 1).
fn archive_a_game(dir: &std::path::Path) {
    let store = SqliteStore::open_in(dir).unwrap();
    let side = |name: &str| Side {
        name: name.to_owned(),
        key: None,
    };
    store
        .archive(
            &FinishedGame {
                pgn: "[Red \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 2. h0g2 \
                      i9h9 3. i0h0 b9c7 4. b0c2 a9b9 5. a0b0 c6c5 0-1\n"
                    .to_owned(),
                red: side("ann"),
                black: side("bob"),
                result: "0-1".to_owned(),
                termination: "resignation".to_owned(),
                time_control: "none".to_owned(),
                rated: false,
                started: 1,
                ended: 2,
                tournament: None,
            },
            None,
        )
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_in_many_sessions_wait_their_turn_or_are_told_the_server_is_busy() {
    let dir = tempfile::tempdir().unwrap();
    archive_a_game(dir.path());
    let mut many = settings(dir.path());
    many.max_per_address = 64;
    let server = start(many).await;
    let mut reviewers = Vec::new();
    for n in 0..24 {
        let mut viewer = Terminal::open(server.addr, &format!("v{n}"), None, Some("pgn 1")).await;
        viewer.wait_text("archived game #1").await;
        viewer.command(":review").await;
        reviewers.push(viewer);
    }
    let (mut reviewing, mut busy) = (0, 0);
    for viewer in &mut reviewers {
        viewer
            .wait_for("reviewing or busy", |screen| {
                screen.contains("reviewing") || screen.contains("the server is busy")
            })
            .await;
        if viewer.text().contains("jobs ahead, try again") {
            busy += 1;
        } else {
            reviewing += 1;
        }
    }
    assert_eq!(reviewing + busy, 24);
    // All 24 from one address: half the queue (16) is its most, one review runs.
    let jobs = server.jobs();
    assert_eq!(jobs.peak_running, 1, "{jobs:?}");
    assert!(jobs.waiting <= 16, "{jobs:?}");
    assert_eq!(jobs.refused as usize, busy, "{jobs:?}");
    // The lobby still answers at once.
    let (out, _, status) = exec(server.addr, "rooms").await;
    assert_eq!((out.as_str(), status), ("no rooms\n", Some(0)));
    // Gone, the sessions take their reviews with them.
    drop(reviewers);
    drained(&server).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_runs_with_the_servers_engine_limits_not_the_play_settings() {
    let dir = tempfile::tempdir().unwrap();
    archive_a_game(dir.path());
    let mut limits = settings(dir.path());
    limits.config.settings.threads = xiangqi_app::config::Threads::Count(2);
    limits.config.settings.hash_mb = 128;
    limits.engine_threads = 1;
    limits.engine_hash_mb = 16;
    let server = start(limits).await;
    let mut ann = Terminal::open(server.addr, "ann", None, Some("pgn 1")).await;
    ann.wait_text("archived game #1").await;
    ann.command(":review").await;
    // Said in the log (was: 2 threads and 128 MB, the play settings).
    ann.wait_text("review on 1 thread, 16 MB").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_asking_for_the_same_missing_ending_share_one_generation() {
    let dir = tempfile::tempdir().unwrap();
    let mut many = settings(dir.path());
    many.max_per_address = 64;
    let server = start(many).await;
    let mut students = Vec::new();
    for n in 0..16 {
        students.push(Terminal::open(server.addr, &format!("s{n}"), None, Some("drill KRK")).await);
    }
    for student in &mut students {
        student.wait_text("Endgame school: KRK").await;
    }
    // KRK and what it captures into (KK), each generated once (was: once a session).
    assert_eq!(server.tables_generated(), 2);
    let mut files: Vec<String> = std::fs::read_dir(dir.path().join("egtb"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["KK.xqtb", "KRK.xqtb"]);
    assert_eq!(server.jobs().peak_running, 1);
    server.stop(Duration::from_secs(2)).await;
}
