//! Tournament pairing for xiangqi-tui's server, with no knowledge of the game:
//! players, results and rounds in; pairings and standings out. It is pure
//! (no I/O, no clock, no randomness), so the server can call it from any task
//! and store only the tournament's history.
//!
//! - [`pair_next_round`]: Swiss pairings by the FIDE Dutch system (Handbook
//!   C.04.3), computed as bbpPairings (the program FIDE endorses) computes
//!   them and checked against it round by round on thousands of random
//!   tournaments (`examples/compare_bbp.rs`).
//! - [`standings()`]: points and the tie-breaks Buchholz, Buchholz cut-1,
//!   Sonneborn-Berger and direct encounter; how unplayed rounds count is in
//!   its documentation.
//! - [`arena`]: lichess-style arenas: pairing waiting players, scoring with
//!   win streaks, standings.
//! - [`trf`]: FIDE's tournament report file, TRF(x), to export a tournament
//!   or hand it to another pairing program.
//!
//! A Swiss round, from nothing to standings:
//!
//! ```
//! use xiangqi_pairing::{Colour, Game, GameResult, Player, Tournament, pair_next_round, standings};
//!
//! let mut t = Tournament {
//!     name: "Tuesday club".into(),
//!     // In pairing-number order: by rating, strongest first.
//!     players: ["Ana", "Bo", "Cy", "Di", "Ed"]
//!         .iter()
//!         .zip([2100, 1950, 1800, 1700, 1500])
//!         .map(|(name, rating)| Player { name: name.to_string(), rating })
//!         .collect(),
//!     rounds: Vec::new(),
//!     total_rounds: 3,
//!     first_colour: Colour::White,
//! };
//! let round1 = pair_next_round(&t, &[]).unwrap();
//! // Top half against bottom half, colours alternating; the last player
//! // of an odd field gets the bye.
//! assert_eq!(round1.boards, [(0, 2), (3, 1)]);
//! assert_eq!(round1.bye, Some(4));
//!
//! let mut games: Vec<Game> = round1
//!     .boards
//!     .iter()
//!     .map(|&(white, black)| Game::Played { white, black, result: GameResult::WhiteWins })
//!     .collect();
//! games.push(Game::Bye { player: 4 });
//! t.rounds.push(games);
//!
//! let table = standings(&t);
//! // The two winners and the bye have a point each and lead the table.
//! assert!(table[..3].iter().all(|s| s.points.to_string() == "1"));
//! assert_eq!(table[3].points.to_string(), "0");
//! ```

pub mod arena;
mod colour;
mod dutch;
mod matching;
mod standings;
mod state;
mod tournament;
pub mod trf;
mod wide;

pub use dutch::{Pairing, PairingError, pair_next_round};
pub use standings::{Standing, standings};
pub use tournament::{Colour, Game, GameResult, Player, Points, Tournament};
