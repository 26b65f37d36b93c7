use std::sync::mpsc;
use std::time::Duration;

use super::*;

/// A job that reports its name, then waits for its stop flag (or a release).
fn holding(
    name: &'static str,
    log: mpsc::Sender<&'static str>,
    release: Arc<AtomicBool>,
) -> impl FnOnce(&JobContext) + Send + 'static {
    move |context| {
        let _ = log.send(name);
        while !context.stopped() && !release.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn owners_are_served_in_turn_not_in_arrival_order() {
    let jobs = Jobs::new(1, 64, 16).unwrap();
    let (log, seen) = mpsc::channel();
    let release = Arc::new(AtomicBool::new(false));
    // The worker holds a first job while the others queue.
    let first = jobs
        .submit("flood", holding("f0", log.clone(), Arc::clone(&release)))
        .unwrap();
    assert_eq!(seen.recv_timeout(Duration::from_secs(20)), Ok("f0"));
    let mut tickets = Vec::new();
    for name in ["f1", "f2", "f3"] {
        tickets.push(
            jobs.submit(
                "flood",
                holding(name, log.clone(), Arc::new(AtomicBool::new(true))),
            )
            .unwrap(),
        );
    }
    let late = jobs
        .submit(
            "ann",
            holding("a1", log.clone(), Arc::new(AtomicBool::new(true))),
        )
        .unwrap();
    // Ann's one job goes after the flood's next, not after all three.
    assert_eq!(late.ahead(), Some(1));
    assert_eq!(tickets[2].ahead(), Some(3));
    release.store(true, Ordering::Relaxed);
    let order: Vec<&str> = (0..4)
        .map(|_| seen.recv_timeout(Duration::from_secs(20)).unwrap())
        .collect();
    assert_eq!(order, ["f1", "a1", "f2", "f3"]);
    wait_until("all finished", || jobs.counts().finished == 5);
    drop((first, tickets, late));
    let counts = jobs.counts();
    assert_eq!(counts.peak_running, 1);
    assert_eq!(
        (counts.started, counts.cancelled, counts.refused),
        (5, 0, 0)
    );
    jobs.stop();
}

#[test]
fn a_full_queue_answers_at_once_and_an_owner_gets_half_of_it() {
    let jobs = Jobs::new(1, 64, 4).unwrap();
    let (log, seen) = mpsc::channel();
    let hold = Arc::new(AtomicBool::new(false));
    let _running = jobs
        .submit("a", holding("run", log.clone(), Arc::clone(&hold)))
        .unwrap();
    assert_eq!(seen.recv_timeout(Duration::from_secs(20)), Ok("run"));
    let a1 = jobs
        .submit("a", holding("a1", log.clone(), Arc::clone(&hold)))
        .unwrap();
    let _a2 = jobs
        .submit("a", holding("a2", log.clone(), Arc::clone(&hold)))
        .unwrap();
    // Half the queue (2 of 4) is one owner's most.
    assert_eq!(
        jobs.submit("a", holding("a3", log.clone(), Arc::clone(&hold)))
            .err(),
        Some(Busy { ahead: 2 })
    );
    let _b1 = jobs
        .submit("b", holding("b1", log.clone(), Arc::clone(&hold)))
        .unwrap();
    let _c1 = jobs
        .submit("c", holding("c1", log.clone(), Arc::clone(&hold)))
        .unwrap();
    let refused = jobs
        .submit("d", holding("d1", log.clone(), Arc::clone(&hold)))
        .err()
        .unwrap();
    assert_eq!(
        refused.to_string(),
        "the server is busy: 4 jobs ahead, try again in a moment"
    );
    // A job cancelled while it waits never runs and frees its place.
    assert!(a1.cancel());
    let _d1 = jobs
        .submit("d", holding("d1", log.clone(), Arc::clone(&hold)))
        .unwrap();
    let counts = jobs.counts();
    assert_eq!(
        (counts.waiting, counts.refused, counts.cancelled),
        (4, 2, 1)
    );
    jobs.stop();
}

#[test]
fn a_running_job_sees_its_stop_flag_when_cancelled_or_dropped() {
    let jobs = Jobs::new(2, 64, 8).unwrap();
    assert_eq!(jobs.hash_mb(), 32);
    let (log, seen) = mpsc::channel();
    let never = Arc::new(AtomicBool::new(false));
    let one = jobs
        .submit("a", holding("one", log.clone(), Arc::clone(&never)))
        .unwrap();
    let two = jobs
        .submit("b", holding("two", log.clone(), Arc::clone(&never)))
        .unwrap();
    for _ in 0..2 {
        seen.recv_timeout(Duration::from_secs(20)).unwrap();
    }
    assert_eq!(one.ahead(), None);
    assert!(!one.cancel(), "it was running, not waiting");
    wait_until("the first stopped", || one.finished());
    drop(two);
    wait_until("the second stopped", || jobs.counts().running == 0);
    let counts = jobs.counts();
    assert_eq!((counts.finished, counts.cancelled), (2, 2));
    jobs.stop();
}
