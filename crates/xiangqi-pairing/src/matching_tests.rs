//! Tests of the maximum-weight matching.

#![allow(clippy::needless_range_loop)]

use super::*;

fn run(edges: &[(usize, usize, u64)]) -> Vec<Option<usize>> {
    let n = edges.iter().map(|e| e.0.max(e.1) + 1).max().unwrap_or(0);
    let mut m = vec![vec![0u64; n]; n];
    for &(i, j, w) in edges {
        // Doubled: the algorithm needs even slacks between S-vertices.
        m[i.min(j)][i.max(j)] = 2 * w;
    }
    max_weight_matching(n, |i, j| m[i][j])
}

fn mates(v: &[Option<usize>]) -> Vec<i64> {
    v.iter().map(|m| m.map_or(-1, |x| x as i64)).collect()
}

// Small graphs that exercise each kind of blossom handling; the expected
// matchings are checked by hand (and by brute force below).
#[test]
fn simple_cases() {
    assert_eq!(mates(&run(&[(0, 1, 1)])), [1, 0]);
    assert_eq!(mates(&run(&[(1, 2, 10), (2, 3, 11)])), [-1, -1, 3, 2]);
    assert_eq!(
        mates(&run(&[(1, 2, 5), (2, 3, 11), (3, 4, 5)])),
        [-1, -1, 3, 2, -1]
    );
}

#[test]
fn blossoms() {
    assert_eq!(
        mates(&run(&[(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7)])),
        [-1, 2, 1, 4, 3]
    );
    assert_eq!(
        mates(&run(&[
            (1, 2, 9),
            (1, 3, 8),
            (2, 3, 10),
            (1, 4, 5),
            (4, 5, 4),
            (1, 6, 3)
        ])),
        [-1, 6, 3, 2, 5, 4, 1]
    );
    assert_eq!(
        mates(&run(&[
            (1, 2, 45),
            (1, 5, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 50),
            (1, 6, 30),
            (3, 9, 35),
            (4, 8, 35),
            (5, 7, 26),
            (9, 10, 5)
        ])),
        [-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9]
    );
    assert_eq!(
        mates(&run(&[
            (1, 2, 45),
            (1, 7, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 95),
            (4, 6, 94),
            (5, 6, 94),
            (6, 7, 50),
            (1, 8, 30),
            (3, 11, 35),
            (5, 9, 36),
            (7, 10, 26),
            (11, 12, 5)
        ])),
        [-1, 8, 3, 2, 6, 9, 4, 10, 1, 5, 7, 12, 11]
    );
}

fn brute(n: usize, w: &[Vec<u64>], used: u32, from: usize) -> u64 {
    let Some(i) = (from..n).find(|&i| used & (1 << i) == 0) else {
        return 0;
    };
    let mut best = brute(n, w, used | 1 << i, i + 1);
    for j in i + 1..n {
        if used & (1 << j) == 0 && w[i][j] > 0 {
            best = best.max(w[i][j] + brute(n, w, used | 1 << i | 1 << j, i + 1));
        }
    }
    best
}

/// Random graphs against exhaustive search: the matching's total weight is
/// the maximum.
#[test]
fn agrees_with_brute_force() {
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    for _ in 0..300 {
        let n = 2 + (next() % 9) as usize;
        let mut w = vec![vec![0u64; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                if next() % 3 != 0 {
                    w[i][j] = 2 * (next() % 20);
                }
            }
        }
        let m = max_weight_matching(n, |i, j| w[i][j]);
        let mut total = 0;
        for (i, partner) in m.iter().enumerate() {
            if let Some(j) = *partner {
                assert_eq!(m[j], Some(i));
                if i < j {
                    assert!(w[i][j] > 0);
                    total += w[i][j];
                }
            }
        }
        assert_eq!(total, brute(n, &w, 0, 0));
    }
}
