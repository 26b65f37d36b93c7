//! Accuracy: how close a side's moves came to the engine's, 0..100. Per move lichess's
//! curve of the winning chance lost, `103.1668 * exp(-0.04354 * loss) - 3.1669` clamped
//! to 0..100 (a move that loses nothing scores 100, one that loses 10 points 63.6, 30
//! points 24.8); per side the plain mean of its moves (docs/review.md says why).

/// The accuracy of one move that lost `loss` points of winning chance (0..100).
pub fn move_accuracy(loss: f64) -> f64 {
    let loss = loss.max(0.0);
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The accuracy of a side from the losses of its moves: the mean of the moves'
/// accuracies; `None` for a side that did not move.
pub fn side_accuracy(losses: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, count) = losses
        .into_iter()
        .fold((0.0, 0usize), |(sum, count), loss| {
            (sum + move_accuracy(loss), count + 1)
        });
    (count > 0).then(|| sum / count as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_and_the_mean() {
        let near = |a: f64, b: f64| (a - b).abs() < 0.005;
        assert!(near(move_accuracy(0.0), 100.0));
        assert_eq!(move_accuracy(-3.0), move_accuracy(0.0));
        assert!(near(move_accuracy(10.0), 63.58), "{}", move_accuracy(10.0));
        assert!(near(move_accuracy(30.0), 24.78), "{}", move_accuracy(30.0));
        assert_eq!(move_accuracy(100.0), 0.0);
        assert_eq!(side_accuracy([]), None);
        let mean = side_accuracy([0.0, 100.0]).unwrap();
        assert!(near(mean, 50.0), "{mean}");
    }
}
