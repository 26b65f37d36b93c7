//! The puzzle trainer's domain (src/train): an attempt played through with the prover's
//! work run inline, the ratings, the local store and the choice of the next puzzle.

use xiangqi_app::game::rating::Rating;
use xiangqi_app::train::{
    Feedback, LocalPuzzleStore, Mark, PuzzleFilter, PuzzleProfile, PuzzleSession, PuzzleStore,
    PuzzleStoreError, Status, WARM_UP_MATE, WARM_UP_SOLVES, find_puzzle, initial_rating, pick,
    rate_attempt, run,
};
use xiangqi_core::board::Move;
use xiangqi_core::notation::Notation;
use xiangqi_engine::puzzle::{Puzzle, Theme, builtin};

fn puzzle(id: &str) -> Puzzle {
    find_puzzle(builtin(), id)
        .expect("a built-in puzzle")
        .clone()
}

fn mv(iccs: &str) -> Move {
    Move::parse_coords(iccs).expect("an ICCS move")
}

/// Plays `text` and runs the prover's request, if any, inline.
fn play(session: &mut PuzzleSession, text: &str) {
    if let Some(request) = session.play(mv(text)).expect("the move is taken") {
        assert_eq!(session.status, Status::Waiting);
        session.apply(run(&request));
    }
}

fn line(session: &PuzzleSession) -> Vec<(String, Mark)> {
    session
        .moves
        .iter()
        .map(|m| (m.mv.iccs(), m.mark))
        .collect()
}

#[test]
fn a_mate_in_two_is_solved_by_its_stored_line() {
    let mut session = PuzzleSession::new(puzzle("037e93e1"));
    assert_eq!(session.moves_left(), 2);
    assert!(matches!(session.play(mv("g2g9")), Ok(None)));
    assert_eq!(
        line(&session),
        [
            ("g2g9".into(), Mark::Solution),
            ("e7g9".into(), Mark::Reply)
        ]
    );
    assert_eq!(session.moves_left(), 1);
    play(&mut session, "c2c9");
    assert_eq!(session.status, Status::Solved);
    assert_eq!(session.result(), Some(true));
    assert_eq!(session.describe(Notation::Iccs).as_deref(), Some("solved!"));
}

#[test]
fn another_mating_move_continues_the_line() {
    // Black mates in 2; the stored second move is b3c1, b3d2 mates as well.
    let mut session = PuzzleSession::new(puzzle("03888b10"));
    play(&mut session, "f3f1");
    play(&mut session, "b3d2");
    assert_eq!(session.status, Status::Solved);
    assert_eq!(session.moves[2].mark, Mark::AlsoMates);
    assert_eq!(session.result(), Some(true));
}

#[test]
fn a_wrong_first_move_is_refuted_and_said_to_mate_slower() {
    let mut session = PuzzleSession::new(puzzle("037e93e1"));
    play(&mut session, "c2c9");
    assert_eq!(session.status, Status::Refuted);
    assert_eq!(session.mistakes, 1);
    assert_eq!(session.result(), Some(false));
    let Some(Feedback::Wrong {
        refutation: Some(reply),
        mates_solver: false,
        moves_left: 2,
        slower_mate: Some(3),
        ..
    }) = session.feedback.clone()
    else {
        panic!("{:?}", session.feedback);
    };
    assert_eq!(session.moves[1].mv, reply);
    assert_eq!(session.moves[1].mark, Mark::Refutation);
    let text = session.describe(Notation::Iccs).unwrap();
    assert_eq!(
        text,
        format!(
            "wrong: c2c9 is met by {} and there is no mate in 2; that also mates, but in 3",
            reply.iccs()
        )
    );
    // Retry takes the wrong move back; the attempt stays failed.
    session.retry();
    assert_eq!(session.ply(), 0);
    assert_eq!(session.status, Status::YourMove);
    play(&mut session, "g2g9");
    play(&mut session, "c2c9");
    assert_eq!(session.status, Status::Solved);
    assert_eq!(session.result(), Some(false));
}

#[test]
fn a_hint_marks_the_piece_and_fails_the_attempt() {
    let mut session = PuzzleSession::new(puzzle("037e93e1"));
    assert!(matches!(session.ask_hint(), Ok(None)));
    assert_eq!(session.hint, Some(mv("g2g9").from()));
    play(&mut session, "g2g9");
    assert_eq!(session.hint, None);
    play(&mut session, "c2c9");
    assert_eq!(session.status, Status::Solved);
    assert_eq!(session.result(), Some(false));
}

#[test]
fn ratings_go_up_after_a_solve_and_down_after_a_failure_once_per_puzzle() {
    let easy = puzzle("037e93e1");
    assert_eq!(initial_rating(&easy).rating, 1350.0); // 1100 + 200 + 50 (sacrifice)
    let mut profile = PuzzleProfile::default();
    let solved = rate_attempt(&mut profile, &easy, true, 100);
    assert!(solved.rated);
    assert!(profile.rating.rating > 1500.0, "{:?}", profile.rating);
    assert!(profile.puzzle_rating(&easy).rating < 1350.0);
    let before = profile.rating;
    let again = rate_attempt(&mut profile, &easy, false, 200);
    assert!(!again.rated);
    assert_eq!(profile.rating, before);
    let other = puzzle("03888b10");
    let failed = rate_attempt(&mut profile, &other, false, 300);
    assert!(failed.rated && failed.rating_after < before.rating);
    assert_eq!(profile.history.len(), 3);
}

#[test]
fn the_local_store_round_trips_and_refuses_a_damaged_file() {
    let dir = std::env::temp_dir().join(format!("xq-puzzle-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("puzzles.json");
    let mut store = LocalPuzzleStore::new(path.clone());
    assert_eq!(store.load().unwrap(), PuzzleProfile::default());
    let mut profile = PuzzleProfile::default();
    let easy = puzzle("037e93e1");
    let attempt = rate_attempt(&mut profile, &easy, true, 1_700_000_000);
    store
        .record(&attempt, profile.rating, Some(profile.puzzle_rating(&easy)))
        .unwrap();
    let mut reopened = LocalPuzzleStore::new(path.clone());
    assert_eq!(reopened.load().unwrap(), profile);

    std::fs::write(&path, "{\"version\": 1, \"rating\": ").unwrap();
    let mut damaged = LocalPuzzleStore::new(path.clone());
    let error = damaged.load().unwrap_err();
    assert!(matches!(error, PuzzleStoreError::Damaged { .. }));
    let text = error.to_string();
    assert!(text.starts_with("the puzzle history "), "{text}");
    assert!(!text.contains('\n'));
    // Recording refuses too: the damaged file is never written over.
    assert!(damaged.record(&attempt, Rating::default(), None).is_err());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"version\": 1, \"rating\": "
    );
    let aside = damaged.set_aside().unwrap();
    assert_eq!(aside, dir.join("puzzles.json.damaged"));
    assert!(aside.exists() && !path.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_next_puzzle_is_near_the_rating_fresh_and_filtered() {
    let set = builtin();
    let profile = PuzzleProfile::default();
    // A new player (1500) starts on a mate in 2, the nearest of the short mates.
    let first = pick(set, &profile, &PuzzleFilter::default()).unwrap();
    assert_eq!(first.mate_in, WARM_UP_MATE);
    let mut played = profile.clone();
    rate_attempt(&mut played, first, true, 1);
    let next = pick(set, &played, &PuzzleFilter::default()).unwrap();
    assert_ne!(next.id, first.id);
    assert!(next.mate_in <= WARM_UP_MATE);
    // Once enough are solved, the nearest to the rating, whatever its length.
    let mut seasoned = PuzzleProfile::default();
    for (at, puzzle) in set
        .iter()
        .filter(|p| p.mate_in == 1)
        .take(WARM_UP_SOLVES)
        .enumerate()
    {
        rate_attempt(&mut seasoned, puzzle, true, at as u64);
    }
    seasoned.rating = PuzzleProfile::default().rating;
    let later = pick(set, &seasoned, &PuzzleFilter::default()).unwrap();
    assert_eq!(initial_rating(later).rating, 1500.0);
    assert_eq!(later.mate_in, 3);
    let filter = PuzzleFilter {
        mate_in: Some(3),
        theme: Some(Theme::Sacrifice),
    };
    let chosen = pick(set, &profile, &filter).unwrap();
    assert_eq!(chosen.mate_in, 3);
    assert!(chosen.has_theme(Theme::Sacrifice));
    assert!(
        pick(
            set,
            &profile,
            &PuzzleFilter {
                mate_in: Some(9),
                theme: None
            }
        )
        .is_none()
    );
}
