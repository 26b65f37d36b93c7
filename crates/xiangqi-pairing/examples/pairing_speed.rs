//! How long the Dutch pairing takes for a large field: a random tournament of
//! PLAYERS players over ROUNDS rounds, the time of each round's pairing.
//!
//! ```text
//! cargo run --release --example pairing_speed -- [PLAYERS] [ROUNDS]
//! ```

#[path = "../tests/pairing/bbp.rs"]
mod bbp;

use std::time::Instant;
use xiangqi_pairing::{Colour, Player, Tournament, pair_next_round};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let players = args.first().copied().unwrap_or(100);
    let rounds = args.get(1).copied().unwrap_or(9);
    let mut rng = bbp::Rng::new(2026);
    let mut t = Tournament {
        name: "speed".into(),
        players: (0..players)
            .map(|i| Player {
                name: format!("P{i}"),
                rating: 2800 - i as u32,
            })
            .collect(),
        rounds: Vec::new(),
        total_rounds: rounds as u32,
        first_colour: Colour::White,
    };
    for round in 1..=rounds {
        let started = Instant::now();
        let pairing = match pair_next_round(&t, &[]) {
            Ok(p) => p,
            Err(e) => {
                println!("round {round}: {e}");
                break;
            }
        };
        println!(
            "round {round}: {} boards in {:.3}s",
            pairing.boards.len(),
            started.elapsed().as_secs_f64()
        );
        let games = bbp::play(&mut rng, &pairing, &[]);
        t.rounds.push(games);
    }
}
