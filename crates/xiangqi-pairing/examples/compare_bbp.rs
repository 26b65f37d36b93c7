//! Compares this crate's Dutch pairings with bbpPairings' on random
//! tournaments and prints the agreement.
//!
//! ```text
//! cargo run --release --example compare_bbp -- PATH/TO/bbpPairings.exe [COUNT] [FIRST_SEED] [SAVE_DIR]
//! ```
//! bbpPairings (github: BieremaBoyzProgramming/bbpPairings, Apache-2.0) is
//! built from its public source outside this repository: `make` in its
//! checkout (g++ with C++20) leaves `bbpPairings.exe` there. The figures in
//! the crate's history were measured against its v6 (the Dutch rules in force
//! from 2026).
//! Differences are printed; with SAVE_DIR, each one's TRF and both pairings
//! are written there for study.

#[path = "../tests/pairing/bbp.rs"]
mod bbp;

use std::path::PathBuf;

fn show(p: &Result<xiangqi_pairing::Pairing, String>) -> String {
    match p {
        Ok(p) => {
            let mut boards = p.boards.clone();
            boards.sort_unstable();
            let mut s: Vec<String> = boards
                .iter()
                .map(|(w, b)| format!("{}-{}", w + 1, b + 1))
                .collect();
            if let Some(b) = p.bye {
                s.push(format!("bye {}", b + 1));
            }
            s.join(" ")
        }
        Err(e) => format!("error: {e}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(binary) = args.get(1) else {
        eprintln!("usage: compare_bbp PATH/TO/bbpPairings [COUNT] [FIRST_SEED] [SAVE_DIR]");
        std::process::exit(2);
    };
    let count: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let first: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let save = args.get(4).map(PathBuf::from);
    let dir = bbp::scratch("compare");
    let mut tally = bbp::Tally::default();
    let started = std::time::Instant::now();
    for seed in first..first + count {
        bbp::compare_one(seed, binary.as_ref(), &dir, &mut tally);
    }
    for d in &tally.differences {
        println!("seed {} round {} absent {:?}", d.seed, d.round, d.absent);
        println!("  bbp:  {}", show(&d.bbp));
        println!("  ours: {}", show(&d.ours));
        if let Some(save) = &save {
            std::fs::create_dir_all(save).expect("save directory");
            let stem = save.join(format!("seed{}-round{}", d.seed, d.round));
            std::fs::write(stem.with_extension("trf"), &d.trf).expect("write TRF");
            std::fs::write(
                stem.with_extension("txt"),
                format!("bbp:  {}\nours: {}\n", show(&d.bbp), show(&d.ours)),
            )
            .expect("write pairings");
        }
    }
    println!(
        "{} tournaments, {} rounds paired, {} agree ({:.2}%; {} of them unpairable by both), {} differ; {:.1}s",
        tally.tournaments,
        tally.rounds,
        tally.agreed,
        100.0 * tally.agreed as f64 / tally.rounds.max(1) as f64,
        tally.both_impossible,
        tally.differences.len(),
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
