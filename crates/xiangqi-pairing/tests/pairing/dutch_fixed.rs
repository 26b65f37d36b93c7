//! Fixed tournaments whose expected pairings are bbpPairings' output (v6,
//! the Dutch rules in force from 2026). The tournaments are synthetic, made by
//! `examples/compare_bbp.rs` with `COMPARE_BBP_SAVE_ALL`.

use xiangqi_pairing::{PairingError, pair_next_round, trf};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Pairs `NAME.trf` and checks boards (in published order, with colours)
/// and the bye against `NAME.pairing`.
fn check(name: &str) {
    let (tournament, absent) = trf::read_for_pairing(&data(&format!("{name}.trf"))).unwrap();
    let expected = trf::read_pairing_output(&data(&format!("{name}.pairing"))).unwrap();
    let ours = pair_next_round(&tournament, &absent).unwrap();
    assert_eq!(ours.boards, expected.boards, "{name}: boards");
    assert_eq!(ours.bye, expected.bye, "{name}: bye");
}

#[test]
fn round_one_of_nine_alternates_colours_and_gives_the_last_player_the_bye() {
    check("seed1000-round1");
    let (t, _) = trf::read_for_pairing(&data("seed1000-round1.trf")).unwrap();
    let p = pair_next_round(&t, &[]).unwrap();
    // Top half against bottom half, colours alternating from the top seed.
    assert_eq!(p.boards, [(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!(p.bye, Some(8));
}

#[test]
fn forfeits_an_absence_and_an_earlier_bye() {
    check("seed1000-round4");
}

#[test]
fn forty_players_with_absences_and_forfeits() {
    check("seed1033-round9");
}

#[test]
fn last_round_of_forty_players() {
    check("seed1033-round11");
}

#[test]
fn last_round_of_thirty_nine_players() {
    check("seed1038-round6");
}

#[test]
fn a_field_that_has_played_everyone_it_may_cannot_be_paired() {
    let (t, absent) = trf::read_for_pairing(&data("seed1029-round7-unpairable.trf")).unwrap();
    assert_eq!(pair_next_round(&t, &absent), Err(PairingError::Impossible));
}
