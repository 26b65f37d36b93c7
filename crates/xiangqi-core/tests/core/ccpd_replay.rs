//! The 300 real game records of the CCPD sample (Big5, traditional characters, full-width
//! digits; docs/notation.md §8) replay to their last move. The records are CC BY 4.0 data
//! kept outside the repository (see `master_games`: skipped on a clone without them,
//! required in CI).

use std::path::PathBuf;

use xiangqi_core::record::{TextEncoding, decode, parse_pgn};

#[test]
fn all_ccpd_records_replay_to_their_last_move() {
    let Some(dir) = crate::master_games::ccpd_dir(crate::TOP) else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let mut moves = 0;
    let mut empty = Vec::new();
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let (text, encoding) = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(encoding, TextEncoding::Big5, "{name}");
        let game = parse_pgn(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (record, failure) = game
            .replay_partial()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(f) = failure {
            failures.push(format!("{name}: {f}"));
        }
        if game.moves.is_empty() {
            empty.push(name);
        }
        moves += record.moves.len();
    }
    println!("{} files, {moves} moves", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(files.len(), 300);
    assert_eq!(empty, ["game_195.pgn"]);
    assert_eq!(moves, 24_503);
}
