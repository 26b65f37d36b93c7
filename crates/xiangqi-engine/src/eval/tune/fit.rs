//! Texel's method: the evaluation, squashed by a logistic curve `1 / (1 + e^(-K * eval))`,
//! should predict the game result. `fit_k` finds the K that makes today's weights predict
//! best; `fit` then moves the weights (Adam on the mean squared error, which is cheap
//! because the evaluation is linear in its weights), with a pull back toward the starting
//! values and each weight held within sensible bounds.

use super::super::trace::slot;
use super::sample::Sample;
use super::set::SlotValues;

/// The logistic curve.
#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predictions with scale `k` and weights `w`.
pub fn error(samples: &[Sample], w: &SlotValues, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = f64::from(s.result) - sigmoid(k * s.score(&w.mg, &w.eg));
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The K (per centipawn) with the least error for weights `w`: a coarse scan on a log
/// scale, then golden-section refinement around the best point.
pub fn fit_k(samples: &[Sample], w: &SlotValues) -> f64 {
    let scores: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (s.score(&w.mg, &w.eg), f64::from(s.result)))
        .collect();
    let err = |k: f64| {
        scores
            .iter()
            .map(|&(e, r)| (r - sigmoid(k * e)).powi(2))
            .sum::<f64>()
    };
    let mut best = (f64::INFINITY, 0.0);
    let mut k = 1e-4;
    while k < 0.1 {
        best = best.min_by_key_f64(err(k), k);
        k *= 1.1;
    }
    let (mut lo, mut hi) = (best.1 / 1.1, best.1 * 1.1);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

trait MinF64 {
    fn min_by_key_f64(self, err: f64, k: f64) -> Self;
}

impl MinF64 for (f64, f64) {
    fn min_by_key_f64(self, err: f64, k: f64) -> Self {
        if err < self.0 { (err, k) } else { self }
    }
}

/// How a slot may move in the fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Freedom {
    /// Held at its starting value.
    Fixed,
    /// Middlegame and endgame halves move together (material, tempo).
    Tied { lo: f64, hi: f64 },
    /// The halves move independently, each within the bounds.
    Free { lo: f64, hi: f64 },
}

/// The default freedoms: material within half and one and a half times its starting
/// value, placement and mobility within broad bounds, penalties and bonuses never of the
/// wrong sign. The general's material and the attack bonus for no attackers stay at 0
/// (only differences between counts are measurable), and so does the tempo.
pub fn default_freedoms(start: &SlotValues) -> Vec<Freedom> {
    let mut f = vec![
        Freedom::Free {
            lo: -200.0,
            hi: 300.0
        };
        slot::COUNT
    ];
    for (k, item) in f.iter_mut().enumerate().skip(slot::MATERIAL).take(7) {
        let v = start.mg[slot::MATERIAL + k];
        *item = Freedom::Tied {
            lo: (v * 0.5).round(),
            hi: (v * 1.5).round(),
        };
    }
    f[slot::MATERIAL] = Freedom::Fixed;
    // The tempo bonus steadies the search's odd/even swing; results do not measure it
    // (a fit drives it to nothing), so it stays as set.
    f[slot::TEMPO] = Freedom::Fixed;
    for i in [slot::CHARIOT_MOBILITY, slot::CANNON_MOBILITY] {
        f[i] = Freedom::Free { lo: 0.0, hi: 30.0 };
    }
    for item in &mut f[slot::HORSE_MOBILITY..slot::HORSE_MOBILITY + 9] {
        *item = Freedom::Free {
            lo: -150.0,
            hi: 150.0,
        };
    }
    for item in &mut f[slot::CONNECTED_SOLDIERS..slot::TEMPO] {
        *item = Freedom::Free { lo: 0.0, hi: 250.0 };
    }
    f[slot::ATTACK] = Freedom::Fixed;
    f
}

/// Settings of the weight fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    pub epochs: usize,
    /// Adam step size, in centipawns.
    pub rate: f64,
    /// Pull toward the starting weights: the error gains `lambda * (w - start)^2` per
    /// weight, in units of (1/100 pawn)^2.
    pub lambda: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 600,
            rate: 1.0,
            lambda: 1e-7,
        }
    }
}

/// Fits the weights from `start` by full-batch Adam with scale `k`; `progress` hears of
/// each epoch's number and training error (before the step). Deterministic: the samples
/// are summed in order.
pub fn fit(
    samples: &[Sample],
    start: &SlotValues,
    freedoms: &[Freedom],
    k: f64,
    options: &FitOptions,
    progress: &mut dyn FnMut(usize, f64),
) -> SlotValues {
    let n = slot::COUNT;
    let mut w = start.clone();
    let (mut m1, mut v1) = (vec![0.0; 2 * n], vec![0.0; 2 * n]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let count = samples.len().max(1) as f64;
    let mut grad = vec![0.0; 2 * n];
    for epoch in 0..options.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for s in samples {
            let p = sigmoid(k * s.score(&w.mg, &w.eg));
            let diff = p - f64::from(s.result);
            total += diff * diff;
            // d/dw of (p - r)^2 = 2 (p - r) p (1 - p) k * d eval / d w
            let g = 2.0 * diff * p * (1.0 - p) * k;
            let share = f64::from(s.mg_share);
            for &(i, c) in &s.uses {
                let c = f64::from(c) * g;
                grad[2 * i as usize] += c * share;
                grad[2 * i as usize + 1] += c * (1.0 - share);
            }
        }
        progress(epoch, total / count);
        let t = (epoch + 1) as i32;
        for i in 0..n {
            let (lo, hi, tied) = match freedoms[i] {
                Freedom::Fixed => continue,
                Freedom::Tied { lo, hi } => (lo, hi, true),
                Freedom::Free { lo, hi } => (lo, hi, false),
            };
            let mut gm = grad[2 * i] / count + 2.0 * options.lambda * (w.mg[i] - start.mg[i]);
            let mut ge = grad[2 * i + 1] / count + 2.0 * options.lambda * (w.eg[i] - start.eg[i]);
            if tied {
                gm += ge;
                ge = gm;
            }
            for (j, g, value) in [(2 * i, gm, &mut w.mg[i]), (2 * i + 1, ge, &mut w.eg[i])] {
                m1[j] = beta1 * m1[j] + (1.0 - beta1) * g;
                v1[j] = beta2 * v1[j] + (1.0 - beta2) * g * g;
                let mhat = m1[j] / (1.0 - beta1.powi(t));
                let vhat = v1[j] / (1.0 - beta2.powi(t));
                *value = (*value - options.rate * mhat / (vhat.sqrt() + eps)).clamp(lo, hi);
            }
        }
    }
    w
}
