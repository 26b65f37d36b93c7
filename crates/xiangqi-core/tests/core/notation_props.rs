//! Properties over random positions (random playouts from the start and from the
//! positions of `tests/data/notation.tsv`, which are rich in stacked soldiers): every legal
//! move's canonical Chinese (both scripts), WXF and ICCS strings read back as that move,
//! and no two legal moves of a position share a string.

use std::collections::HashSet;

use proptest::prelude::*;
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{MoveWriter, Notation, parse_move};

fn tsv_fens() -> Vec<String> {
    let mut fens: Vec<String> = include_str!("../../../../tests/data/notation.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen\t"))
        .filter_map(|l| l.split('\t').next().map(str::to_string))
        .collect();
    fens.dedup();
    fens
}

/// A small deterministic generator, so each case is reproducible from its seed.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Checks every legal move of `pos`; returns a description of the first failure.
fn check_position(pos: &Position) -> Result<(), String> {
    let writer = MoveWriter::new(pos);
    let moves = pos.legal_move_list();
    for notation in [
        Notation::Chinese,
        Notation::ChineseTraditional,
        Notation::Wxf,
        Notation::Iccs,
    ] {
        let mut seen: HashSet<String> = HashSet::new();
        for &mv in &moves {
            let text = writer.write(mv, notation);
            if !seen.insert(text.clone()) {
                return Err(format!("{pos:?}: two moves print as {text}"));
            }
            match parse_move(pos, &text) {
                Ok(back) if back == mv => {}
                other => return Err(format!("{pos:?}: {mv} printed {text}, read {other:?}")),
            }
        }
    }
    Ok(())
}

fn playout(start: &Position, seed: u64, plies: usize) -> Result<usize, String> {
    let mut rng = XorShift(seed | 1);
    let mut pos = start.clone();
    let mut checked = 0;
    for _ in 0..=plies {
        check_position(&pos)?;
        checked += 1;
        let moves: Vec<Move> = pos.legal_move_list();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_playouts_from_the_start(seed in any::<u64>(), plies in 0usize..120) {
        let result = playout(&Position::startpos(), seed, plies);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }

    #[test]
    fn random_playouts_from_stacked_soldier_positions(
        index in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        plies in 0usize..40,
    ) {
        let fens = tsv_fens();
        let start = Position::from_fen(&fens[index.index(fens.len())]).unwrap();
        let result = playout(&start, seed, plies);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

#[test]
fn every_tsv_position_is_unique_and_reads_back() {
    for fen in tsv_fens() {
        let pos = Position::from_fen(&fen).unwrap();
        if let Err(e) = check_position(&pos) {
            panic!("{e}");
        }
    }
}
