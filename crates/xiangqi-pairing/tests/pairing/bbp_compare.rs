//! The comparison with bbpPairings as a test: run it with
//! `BBP_PAIRINGS=/path/to/bbpPairings.exe cargo test --release -p xiangqi-pairing bbp_compare -- --ignored`.
//! Ignored by default because bbpPairings is built outside the repository.

use crate::bbp;

#[test]
#[ignore = "needs BBP_PAIRINGS pointing to a bbpPairings binary"]
fn agrees_with_bbp_pairings_on_random_tournaments() {
    let binary = std::env::var("BBP_PAIRINGS").expect("set BBP_PAIRINGS to the bbpPairings binary");
    let count: u64 = std::env::var("BBP_TOURNAMENTS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(200);
    let dir = bbp::scratch("test");
    let mut tally = bbp::Tally::default();
    for seed in 1..=count {
        bbp::compare_one(seed, binary.as_ref(), &dir, &mut tally);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let differing: Vec<String> = tally
        .differences
        .iter()
        .map(|d| format!("seed {} round {}", d.seed, d.round))
        .collect();
    assert!(
        differing.is_empty(),
        "{} of {} rounds differ: {differing:?}",
        differing.len(),
        tally.rounds
    );
    assert!(tally.rounds >= count as usize * 3);
}
