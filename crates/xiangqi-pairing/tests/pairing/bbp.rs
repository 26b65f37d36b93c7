//! Random Swiss tournaments paired both by this crate and by bbpPairings, round
//! by round. Shared by `examples/compare_bbp.rs` and the ignored test in
//! `tests/pairing/bbp_compare.rs`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use xiangqi_pairing::{
    Colour, Game, GameResult, Pairing, Player, Points, Tournament, pair_next_round, trf,
};

/// splitmix64: reproducible tournaments from a seed, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One round where the two disagreed.
pub struct Difference {
    pub seed: u64,
    pub round: usize,
    /// The TRF given to bbpPairings.
    pub trf: String,
    pub absent: Vec<usize>,
    pub bbp: Result<Pairing, String>,
    pub ours: Result<Pairing, String>,
}

#[derive(Default)]
pub struct Tally {
    pub tournaments: usize,
    pub rounds: usize,
    pub agreed: usize,
    /// Rounds where both found no valid pairing (counted as agreeing).
    pub both_impossible: usize,
    pub differences: Vec<Difference>,
}

/// A normalised pairing for comparison: boards sorted, bye.
fn normal(p: &Pairing) -> (Vec<(usize, usize)>, Option<usize>) {
    let mut boards = p.boards.clone();
    boards.sort_unstable();
    (boards, p.bye)
}

/// Runs bbpPairings on `text`; `Err` with its message when it cannot pair.
pub fn run_bbp(bbp: &Path, dir: &Path, text: &str) -> Result<Pairing, String> {
    let input = dir.join("input.trf");
    let output = dir.join("output.txt");
    std::fs::write(&input, text).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&output);
    let status = Command::new(bbp)
        .arg("--dutch")
        .arg(&input)
        .arg("-p")
        .arg(&output)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bbp.display()))?;
    match status.status.code() {
        Some(0) => {}
        Some(1) => return Err("no valid pairing".into()),
        _ => {
            return Err(format!(
                "bbpPairings: {}",
                String::from_utf8_lossy(&status.stderr).trim()
            ));
        }
    }
    let out = std::fs::read_to_string(&output).map_err(|e| e.to_string())?;
    trf::read_pairing_output(&out)
}

/// Plays the round at random: mostly decisive games, some draws, a few
/// forfeits.
pub fn play(rng: &mut Rng, pairing: &Pairing, absent: &[usize]) -> Vec<Game> {
    let mut games = Vec::new();
    for &(white, black) in &pairing.boards {
        let roll = rng.below(100);
        games.push(match roll {
            0..=37 => Game::Played {
                white,
                black,
                result: GameResult::WhiteWins,
            },
            38..=59 => Game::Played {
                white,
                black,
                result: GameResult::Draw,
            },
            60..=94 => Game::Played {
                white,
                black,
                result: GameResult::BlackWins,
            },
            95..=96 => Game::Forfeit {
                white,
                black,
                winner: Some(Colour::White),
            },
            97..=98 => Game::Forfeit {
                white,
                black,
                winner: Some(Colour::Black),
            },
            _ => Game::Forfeit {
                white,
                black,
                winner: None,
            },
        });
    }
    if let Some(player) = pairing.bye {
        games.push(Game::Bye { player });
    }
    // An absence is recorded as worth nothing, half a point (a requested
    // bye) or a point (an organiser's decision), which later rounds see.
    for &player in absent {
        let points = Points(rng.below(3) as u32);
        games.push(Game::Absent { player, points });
    }
    games
}

/// One random tournament of 5-40 players, compared round by round. When the
/// two differ, the tournament goes on with bbpPairings' pairing.
pub fn compare_one(seed: u64, bbp: &Path, dir: &Path, tally: &mut Tally) {
    let mut rng = Rng::new(seed);
    let n = 5 + rng.below(36) as usize;
    let mut ratings: Vec<u32> = (0..n).map(|_| 1000 + rng.below(1600) as u32).collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let max_rounds = (n - 1).min(11) as u64;
    let total_rounds = (3 + rng.below(max_rounds.saturating_sub(2).max(1))) as u32;
    let mut t = Tournament {
        name: format!("random {seed}"),
        players: ratings
            .iter()
            .enumerate()
            .map(|(i, &rating)| Player {
                name: format!("Player {}", i + 1),
                rating,
            })
            .collect(),
        rounds: Vec::new(),
        total_rounds,
        first_colour: if rng.below(2) == 0 {
            Colour::White
        } else {
            Colour::Black
        },
    };
    tally.tournaments += 1;
    for round in 0..total_rounds as usize {
        // Now and then a player sits a round out (recorded before pairing).
        let absent: Vec<usize> = (0..n).filter(|_| rng.below(100) < 3).collect();
        let mut with_absent = t.clone();
        if !absent.is_empty() {
            with_absent.rounds.push(
                absent
                    .iter()
                    .map(|&player| Game::Absent {
                        player,
                        points: Points::ZERO,
                    })
                    .collect(),
            );
        }
        let text = trf::write(&with_absent);
        let theirs = run_bbp(bbp, dir, &text);
        // For picking fixed test cases: every round's input and bbpPairings'
        // raw output.
        if let Some(all) = std::env::var_os("COMPARE_BBP_SAVE_ALL") {
            let stem = Path::new(&all).join(format!("seed{seed}-round{}", round + 1));
            std::fs::create_dir_all(&all).expect("save directory");
            std::fs::write(stem.with_extension("trf"), &text).expect("write TRF");
            if let Ok(out) = std::fs::read_to_string(dir.join("output.txt"))
                && theirs.is_ok()
            {
                std::fs::write(stem.with_extension("bbp"), out).expect("write output");
            }
        }
        let ours = pair_next_round(&t, &absent).map_err(|e| e.to_string());
        tally.rounds += 1;
        let same = match (&theirs, &ours) {
            (Ok(a), Ok(b)) => normal(a) == normal(b),
            (Err(_), Err(_)) => {
                tally.both_impossible += 1;
                true
            }
            _ => false,
        };
        if same {
            tally.agreed += 1;
        } else {
            tally.differences.push(Difference {
                seed,
                round: round + 1,
                trf: text,
                absent: absent.clone(),
                bbp: theirs.clone(),
                ours: ours.clone(),
            });
        }
        let Ok(pairing) = theirs.or(ours) else { break };
        let games = play(&mut rng, &pairing, &absent);
        t.rounds.push(games);
    }
}

/// A scratch directory for bbpPairings' files.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-pairing-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
