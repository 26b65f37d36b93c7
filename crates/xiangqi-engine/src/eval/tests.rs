use super::*;
use xiangqi_core::board::{Move, Square};
use xiangqi_core::rng::SplitMix64;

/// Positions reached by random games from the start, captures preferred half the time so
/// that material thins out and endgames appear. Games that end early stop there.
pub(crate) fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut moves: Vec<Move> = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        let plies = 1 + rng.below(160);
        for _ in 0..plies {
            moves.clear();
            if rng.below(2) == 0 {
                pos.legal_captures(&mut moves);
            }
            if moves.is_empty() {
                pos.legal_moves(&mut moves);
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
        }
        pos.clear_history();
        out.push(pos);
    }
    out
}

#[test]
fn start_position_is_balanced() {
    let pos = Position::startpos();
    assert_eq!(evaluate_red(&pos), 0);
    assert_eq!(evaluate(&pos), TEMPO);
    assert_eq!(phase(&pos), phased::PHASE_MAX);
}

#[test]
fn the_psq_sum_matches_a_walk_over_every_point() {
    for pos in random_positions(1, 300) {
        let walked: i32 = (0..90)
            .map(|i| pst::PSQ[pos.piece_at(Square::from_index(i)).index()][i])
            .sum();
        assert_eq!(pst::sum(&pos), walked, "{}", pos.to_fen());
    }
}

#[test]
fn the_psq_delta_of_every_move_is_the_change_of_the_sum() {
    for mut pos in random_positions(2, 100) {
        let before = pst::sum(&pos);
        for mv in pos.legal_move_list() {
            let delta = pst::delta(&pos, mv);
            pos.make_move(mv);
            assert_eq!(pst::sum(&pos), before + delta, "{} {mv:?}", pos.to_fen());
            pos.unmake_move(mv);
        }
    }
}

#[test]
fn colour_flip_negates_the_red_score_and_keeps_the_side_to_move_score() {
    for pos in random_positions(3, 2000) {
        let flipped = colour_flipped(&pos);
        assert_eq!(colour_flipped(&flipped).to_fen(), pos.to_fen());
        assert_eq!(
            evaluate_red(&pos),
            -evaluate_red(&flipped),
            "{} vs {}",
            pos.to_fen(),
            flipped.to_fen()
        );
        assert_eq!(evaluate(&pos), evaluate(&flipped), "{}", pos.to_fen());
        let (a, b) = (terms(&pos), terms(&flipped));
        assert_eq!(a.material, -b.material);
        assert_eq!(a.safety, -b.safety);
        assert_eq!(a.coordination, -b.coordination);
        assert_eq!(a.mobility, -b.mobility);
    }
}

#[test]
fn left_right_mirror_scores_the_same() {
    for pos in random_positions(4, 1000) {
        let mirror = mirrored_files(&pos);
        assert_eq!(evaluate(&pos), evaluate(&mirror), "{}", pos.to_fen());
    }
}

#[test]
fn terms_add_up_to_the_evaluation_within_rounding() {
    for pos in random_positions(5, 500) {
        let t = terms(&pos);
        // Each term is blended separately, so integer division may lose a point per term.
        assert!(
            (t.total() - evaluate_red(&pos)).abs() <= 5,
            "{}",
            pos.to_fen()
        );
    }
}

#[test]
fn extra_chariot_is_worth_about_its_value() {
    let with =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .unwrap();
    let without =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1")
            .unwrap();
    let diff = evaluate(&with) - evaluate(&without);
    assert!((500..800).contains(&diff), "{diff}");
}

#[test]
fn empty_headed_cannon_is_penalised() {
    // Black's central file is open between Red's cannon on e2 and the black general.
    let hollow =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR w - - 0 1")
            .unwrap();
    let t = terms(&hollow);
    assert!(t.safety > 0, "{t:?}");
}

#[test]
fn crossed_soldiers_side_by_side_earn_a_bonus() {
    let apart = Position::from_fen("4k4/9/9/9/2P3P2/9/9/9/9/3K5 w - - 0 1").unwrap();
    let together = Position::from_fen("4k4/9/9/9/2PP5/9/9/9/9/3K5 w - - 0 1").unwrap();
    assert!(terms(&together).coordination > terms(&apart).coordination);
}
