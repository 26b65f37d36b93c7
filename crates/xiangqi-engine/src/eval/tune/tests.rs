use super::*;
use crate::eval::tests::random_positions;
use crate::eval::trace::{linear_score, slot, trace};
use crate::eval::{TEMPO, colour_flipped, evaluate_red, mirrored_files, weights};
use xiangqi_core::board::{Color, Kind, Position};

/// The committed weights file is exactly what the writer makes of the weights it holds:
/// the file is generated, and regenerating it without a fit changes nothing.
#[test]
fn writer_reproduces_the_committed_weights_file() {
    let written = weights_source(&WeightSet::current(), weights::PROVENANCE);
    let committed = include_str!("../weights.rs");
    for (n, (a, b)) in written.lines().zip(committed.lines()).enumerate() {
        assert_eq!(a, b, "line {}", n + 1);
    }
    assert_eq!(written, committed);
}

#[test]
fn weights_are_mirror_symmetric_and_survive_the_slot_round_trip() {
    let w = WeightSet::current();
    assert!(w.is_mirror_symmetric());
    assert_eq!(w.with_slots(&w.slots()), w);
}

/// The trace is the evaluation: its linear score with the compiled-in weights is the
/// static score before integer rounding (the blend truncates, so under one centipawn).
#[test]
fn trace_scores_the_same_as_the_evaluation() {
    let v = WeightSet::current().slots();
    for pos in random_positions(11, 1500) {
        let t = trace(&pos);
        let tempo = if pos.side_to_move() == Color::Red {
            TEMPO
        } else {
            -TEMPO
        };
        let exact = f64::from(evaluate_red(&pos) + tempo);
        let linear = linear_score(&t, &v.mg, &v.eg);
        assert!(
            (linear - exact).abs() < 1.0,
            "{linear} vs {exact}: {}",
            pos.to_fen()
        );
        assert!((Sample::new(&pos, 0.5).score(&v.mg, &v.eg) - linear).abs() < 1e-6);
    }
}

/// The colour-flipped twin uses every weight as often, for the other side; the
/// left-right mirror uses every weight exactly as often. So any weights the tuner writes
/// keep the evaluation colour- and mirror-symmetric, not only today's.
#[test]
fn traces_of_flipped_and_mirrored_positions_match() {
    let perft = include_str!("../../../../../tests/data/perft.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| Position::from_fen(l.split(';').next().unwrap().trim()).unwrap());
    for pos in perft.chain(random_positions(12, 1500)) {
        let t = trace(&pos);
        let flipped = trace(&colour_flipped(&pos));
        let negated: Vec<i32> = flipped.counts.iter().map(|c| -c).collect();
        assert_eq!(t.counts, negated, "{}", pos.to_fen());
        assert_eq!(t.phase, flipped.phase);
        assert_eq!(trace(&mirrored_files(&pos)), t, "{}", pos.to_fen());
    }
}

/// Labels made with K = 0.004 from today's weights: `fit_k` finds that K back.
#[test]
fn fit_k_recovers_the_scale_of_synthetic_labels() {
    let v = WeightSet::current().slots();
    let samples: Vec<Sample> = random_positions(13, 1500)
        .iter()
        .map(|pos| {
            let mut s = Sample::new(pos, 0.0);
            s.result = (1.0 / (1.0 + (-0.004 * s.score(&v.mg, &v.eg)).exp())) as f32;
            s
        })
        .collect();
    let k = fit_k(&samples, &v);
    assert!((k - 0.004).abs() < 0.0001, "{k}");
}

/// Synthetic results from a world where a chariot is worth 700 and a horse 330: a fit
/// that may move only the material weights, started from the compiled-in values, finds
/// them again.
#[test]
fn fit_recovers_known_material_values() {
    let start = WeightSet::current();
    let mut truth = start.clone();
    truth.material[Kind::Chariot as usize] = 700;
    truth.material[Kind::Horse as usize] = 330;
    let (v0, vt) = (start.slots(), truth.slots());
    let k = 0.004;
    let samples: Vec<Sample> = random_positions(14, 3000)
        .iter()
        .map(|pos| {
            let mut s = Sample::new(pos, 0.0);
            s.result = (1.0 / (1.0 + (-k * s.score(&vt.mg, &vt.eg)).exp())) as f32;
            s
        })
        .collect();
    let mut freedoms = default_freedoms(&v0);
    for (i, f) in freedoms.iter_mut().enumerate() {
        if !(slot::MATERIAL + 1..slot::MATERIAL + 7).contains(&i) {
            *f = Freedom::Fixed;
        }
    }
    let options = FitOptions {
        epochs: 400,
        rate: 2.0,
        lambda: 0.0,
    };
    let before = error(&samples, &v0, k);
    let fitted = fit(&samples, &v0, &freedoms, k, &options, &mut |_, _| {});
    let after = error(&samples, &fitted, k);
    assert!(after < before / 10.0, "{before} -> {after}");
    let chariot = fitted.mg[slot::MATERIAL + Kind::Chariot as usize];
    let horse = fitted.mg[slot::MATERIAL + Kind::Horse as usize];
    assert!((chariot - 700.0).abs() < 5.0, "chariot {chariot}");
    assert!((horse - 330.0).abs() < 5.0, "horse {horse}");
    assert_eq!(
        fitted.mg[slot::MATERIAL + Kind::Chariot as usize],
        fitted.eg[slot::MATERIAL + Kind::Chariot as usize]
    );
    // Material the truth did not change stays where it was.
    let advisor = fitted.mg[slot::MATERIAL + Kind::Advisor as usize];
    let was = f64::from(start.material[Kind::Advisor as usize]);
    assert!((advisor - was).abs() < 5.0, "advisor {advisor}, was {was}");
}

#[test]
fn quiet_leaf_plays_out_a_hanging_capture_and_skips_checks() {
    // Red's chariot on a3 can take the unguarded black horse on a7.
    let pos = Position::from_fen("3ak4/9/9/n8/9/9/R8/9/9/3K5 w - - 0 1").unwrap();
    let leaf = quiet_leaf(&pos).unwrap();
    assert_eq!(
        leaf.to_fen().split(' ').next(),
        Some("3ak4/9/9/R8/9/9/9/9/9/3K5")
    );
    // Already quiet: the position itself.
    let start = Position::startpos();
    assert_eq!(quiet_leaf(&start).unwrap().to_fen(), start.to_fen());
    // In check: no quiet score.
    let check = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").unwrap();
    assert!(check.in_check());
    assert!(quiet_leaf(&check).is_none());
}
