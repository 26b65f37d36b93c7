//! The absolute criteria hold in every round of random tournaments paired by
//! this crate alone (no bbpPairings needed): everyone present is paired once,
//! no rematch, at most one pairing-allocated bye, no forbidden colour.

use crate::bbp::{Rng, play};
use xiangqi_pairing::{Colour, Game, PairingError, Player, Tournament, pair_next_round};

/// (games as White - games as Black, colours of the last two games).
fn colour_state(t: &Tournament, p: usize) -> (i32, Vec<Colour>) {
    let mut balance = 0;
    let mut colours = Vec::new();
    for round in &t.rounds {
        for g in round {
            if let Game::Played { white, black, .. } = *g {
                if white == p {
                    balance += 1;
                    colours.push(Colour::White);
                } else if black == p {
                    balance -= 1;
                    colours.push(Colour::Black);
                }
            }
        }
    }
    (balance, colours)
}

fn score(t: &Tournament, p: usize) -> u32 {
    let s = xiangqi_pairing::standings(t);
    s.iter().find(|r| r.player == p).unwrap().points.0
}

#[test]
fn absolute_criteria_hold_in_random_tournaments() {
    let mut rounds_checked = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng::new(seed * 7919);
        let n = 5 + rng.below(30) as usize;
        let total = 3 + rng.below(6) as u32;
        let mut t = Tournament {
            name: format!("invariants {seed}"),
            players: (0..n)
                .map(|i| Player {
                    name: format!("P{i}"),
                    rating: 2500 - i as u32,
                })
                .collect(),
            rounds: Vec::new(),
            total_rounds: total,
            first_colour: Colour::Black,
        };
        for round in 0..total as usize {
            let absent: Vec<usize> = (0..n).filter(|_| rng.below(100) < 4).collect();
            let pairing = match pair_next_round(&t, &absent) {
                Ok(p) => p,
                Err(PairingError::Impossible) => break,
                Err(e) => panic!("seed {seed} round {}: {e}", round + 1),
            };
            rounds_checked += 1;
            let last_round = round + 1 == total as usize;
            let mut seen = vec![0; n];
            for &(w, b) in &pairing.boards {
                seen[w] += 1;
                seen[b] += 1;
                let met = t.rounds.iter().flatten().any(|g| {
                    matches!(*g, Game::Played { white, black, .. }
                        if (white, black) == (w, b) || (white, black) == (b, w))
                });
                assert!(!met, "seed {seed} round {}: rematch {w}-{b}", round + 1);
                // C.3: no imbalance past 2 and no third colour in a row, but
                // in the last round for players above half the maximum score.
                let top = |p: usize| score(&t, p) > round as u32;
                for (p, c, other) in [(w, Colour::White, b), (b, Colour::Black, w)] {
                    let (balance, colours) = colour_state(&t, p);
                    let next = balance + if c == Colour::White { 1 } else { -1 };
                    let three =
                        colours.len() >= 2 && colours[colours.len() - 2..].iter().all(|&x| x == c);
                    if next.abs() > 2 || three {
                        assert!(
                            last_round && (top(p) || top(other)),
                            "seed {seed} round {}: player {p} gets {c:?} against the rules",
                            round + 1
                        );
                    }
                }
            }
            if let Some(bye) = pairing.bye {
                seen[bye] += 1;
                let had_point_without_game = t.rounds.iter().flatten().any(|g| match *g {
                    Game::Bye { player } => player == bye,
                    Game::Forfeit {
                        white,
                        black,
                        winner: Some(c),
                    } => {
                        (c == Colour::White && white == bye) || (c == Colour::Black && black == bye)
                    }
                    Game::Absent { player, points } => player == bye && points.0 >= 2,
                    _ => false,
                });
                assert!(
                    !had_point_without_game,
                    "seed {seed} round {}: second bye",
                    round + 1
                );
            }
            for (p, &count) in seen.iter().enumerate() {
                let expected = usize::from(!absent.contains(&p));
                assert_eq!(
                    count,
                    expected,
                    "seed {seed} round {}: player {p}",
                    round + 1
                );
            }
            assert_eq!(pairing.bye.is_some(), (n - absent.len()) % 2 == 1);
            let games = play(&mut rng, &pairing, &absent);
            t.rounds.push(games);
        }
    }
    assert!(rounds_checked > 150, "{rounds_checked}");
}
