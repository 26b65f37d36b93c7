//! FEN reading and writing: the accepted variants, one clear error per kind of bad FEN,
//! and no panic on thousands of mutated strings.

use proptest::prelude::*;
use xiangqi_core::board::{Color, FenError, Position};

const START: &str = Position::START_FEN;

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

#[test]
fn accepts_the_liberal_forms_and_writes_the_standard_one() {
    let wxf = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1";
    assert_eq!(Position::from_fen(wxf).unwrap().to_fen(), START);
    let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(Position::from_fen(short).unwrap().to_fen(), START);
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let pos = Position::from_fen(black).unwrap();
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.to_fen(), black);
    let general_g = "rnbagabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAGABNR w - - 0 1";
    assert_eq!(Position::from_fen(general_g).unwrap().to_fen(), START);
}

#[test]
fn each_kind_of_bad_fen_has_its_own_message() {
    let cases: &[(&str, &str)] = &[
        ("", "empty FEN"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "column 59: unexpected character 'X'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "rank 0 (field 10) has 10 points",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            "has 9 ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "column 61: side to move must be",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1",
            "half-move clock must be a number",
        ),
        (
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "Black has no general",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
            "Red has 2 generals, at most 1",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "Red has no general",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 w",
            "generals face each other on file e",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "Red has no general",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/2K6/RNBA1ABNR w",
            "Red general on c1 cannot stand there: outside its palace",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w",
            "Red advisor on a1 cannot stand there: outside its palace",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w",
            "Red advisor on d1 cannot stand there: not one of the five advisor points",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4B4/P1P1P1P1P/1C5C1/9/RN1AKABNR w",
            "Red elephant on e4 cannot stand there: not one of the seven elephant points",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w",
            "Red elephant on c5 cannot stand there: across the river",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/1C5C1/P8/RNBAKABNR w",
            "Red soldier on a1 cannot stand there: behind its starting rank",
        ),
        (
            "rnbakabnr/p8/1c5c1/2p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "Black soldier on a8 cannot stand there: behind its starting rank",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 x",
            "trailing field",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PPP1P1P1P/1C5C1/9/RNBAKABNR w",
            "Red has 6 soldiers, at most 5",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
            "Red has 3 chariots, at most 2",
        ),
        // Red to move, so Black just moved and left its general attacked by Red's chariot.
        (
            "3k5/9/9/9/9/9/9/9/9/3R1K3 w",
            "Black, who just moved, is in check",
        ),
    ];
    for (fen, expected) in cases {
        let message = err(fen).to_string();
        assert!(
            message.contains(expected),
            "{fen:?}: got {message:?}, want {expected:?}"
        );
        assert!(!message.contains('\n'), "one line: {message:?}");
    }
}

#[test]
fn the_mover_may_be_in_check_but_not_the_side_that_just_moved() {
    // Black to move and in check from the chariot: fine.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3R1K3 b").unwrap();
    assert!(pos.in_check());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn mutated_fens_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<char>()), 1..6)
    ) {
        let mut chars: Vec<char> = START.chars().collect();
        for (index, op, c) in edits {
            let i = index.index(chars.len().max(1));
            match op {
                0 if !chars.is_empty() => { chars.remove(i); }
                1 => chars.insert(i.min(chars.len()), c),
                2 if !chars.is_empty() => chars[i] = c,
                _ if !chars.is_empty() => {
                    // Swap in a FEN-alphabet character, which reaches the deeper checks.
                    let alphabet: Vec<char> = "kabnrcpKABNRCP123456789/ wb-".chars().collect();
                    chars[i] = alphabet[(c as usize) % alphabet.len()];
                }
                _ => {}
            }
        }
        let fen: String = chars.into_iter().collect();
        if let Ok(pos) = Position::from_fen(&fen) {
            // Whatever is accepted must be a sound position that reads back the same.
            let written = pos.to_fen();
            prop_assert_eq!(Position::from_fen(&written).unwrap().to_fen(), written);
            prop_assert_eq!(pos.key(), pos.compute_key());
            let _ = pos.legal_move_list();
        }
    }
}
