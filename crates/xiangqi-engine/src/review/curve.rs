//! The winning chance of a score: `P = 1 / (1 + exp(-k * cp))` for the side the score is
//! for, a mate 0 or 1. `k` was fitted by maximum likelihood on master games
//! (`examples/fit_win_chance.rs`, docs/review.md) with [`fit_scale`].

use crate::engine::Verdict;

/// The fitted scale of the curve, per centipawn: 0.007903 by maximum likelihood on 9,835
/// positions of 5,000 distinct CCPD master games searched to depth 10 (docs/review.md).
/// +100 cp is a 69% chance, +200 cp 83%, +400 cp 96%.
pub const WIN_CHANCE_K: f64 = 0.0079;

/// The winning chance, in percent (0..=100), of the side a verdict is for.
pub fn win_percent(verdict: Verdict) -> f64 {
    match verdict {
        Verdict::Centipawns(cp) => 100.0 * logistic(WIN_CHANCE_K * f64::from(cp)),
        Verdict::Mate(moves) if moves > 0 => 100.0,
        // Mated now (0) or soon.
        Verdict::Mate(_) => 0.0,
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `k` that makes `1 / (1 + exp(-k * cp))` most likely to give the results: `samples`
/// are (centipawns, result) pairs for the same side, result 1 (win), 0.5 (draw) or 0.
/// The log-likelihood `sum r*ln P + (1-r)*ln(1-P)` is concave in `k`, so Newton's method
/// from 0 finds its maximum. `None` without samples that carry a score.
pub fn fit_scale(samples: &[(f64, f64)]) -> Option<f64> {
    if !samples.iter().any(|&(cp, _)| cp != 0.0) {
        return None;
    }
    let mut k = 0.0_f64;
    for _ in 0..100 {
        let (mut gradient, mut curvature) = (0.0, 0.0);
        for &(cp, result) in samples {
            let p = logistic(k * cp);
            gradient += (result - p) * cp;
            curvature -= p * (1.0 - p) * cp * cp;
        }
        if curvature >= 0.0 {
            break;
        }
        let step = gradient / curvature;
        k -= step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    k.is_finite().then_some(k)
}

/// The log-likelihood per sample of `k` (for reports of the fit).
pub fn mean_log_likelihood(samples: &[(f64, f64)], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|&(cp, result)| {
            let p = logistic(k * cp).clamp(1e-12, 1.0 - 1e-12);
            result * p.ln() + (1.0 - result) * (1.0 - p).ln()
        })
        .sum();
    sum / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_is_half_and_mates_are_certain() {
        assert_eq!(win_percent(Verdict::Centipawns(0)), 50.0);
        assert_eq!(win_percent(Verdict::Mate(3)), 100.0);
        assert_eq!(win_percent(Verdict::Mate(-2)), 0.0);
        assert_eq!(win_percent(Verdict::Mate(0)), 0.0);
        let up = win_percent(Verdict::Centipawns(300));
        let down = win_percent(Verdict::Centipawns(-300));
        assert!((up + down - 100.0).abs() < 1e-9);
        assert!(up > 50.0 && up < 100.0);
    }

    #[test]
    fn the_fit_finds_the_scale_the_results_were_drawn_from() {
        // Results drawn exactly in proportion to a curve of scale 0.005: at each score,
        // wins and losses in the ratio P : 1 - P (draws count half of each).
        let k = 0.005;
        let mut samples = Vec::new();
        for cp in (-800..=800).step_by(50) {
            let p = logistic(k * f64::from(cp));
            let wins = (p * 1000.0).round() as usize;
            samples.extend(std::iter::repeat_n((f64::from(cp), 1.0), wins));
            samples.extend(std::iter::repeat_n((f64::from(cp), 0.0), 1000 - wins));
        }
        let fitted = fit_scale(&samples).unwrap();
        assert!((fitted - k).abs() < 2e-5, "{fitted}");
        // Draws: two draws weigh as a win and a loss.
        let draws = [(100.0, 0.5), (100.0, 0.5), (-100.0, 0.5), (-100.0, 0.5)];
        assert_eq!(fit_scale(&draws), Some(0.0));
        assert_eq!(fit_scale(&[(0.0, 1.0)]), None);
        assert!(mean_log_likelihood(&samples, fitted) > mean_log_likelihood(&samples, 2.0 * k));
    }
}
