//! XQF robustness and other writers: no input panics (random bytes, every truncation, bit
//! flips and random move trees after valid headers of the committed fixtures), and, where
//! they are at hand, files of other writers and the CCPD games written and read back.

use std::path::PathBuf;

use proptest::prelude::*;
use xiangqi_core::board::Position;
use xiangqi_core::record::GameRecord;
use xiangqi_core::record::xqf::{read_xqf, write_xqf, write_xqf_seeded};

const VERSIONS: [u8; 4] = [10, 11, 12, 18];

/// Files of another writer (XQStudio's, e.g. ElephantEye's XQFTOOLS samples) are read when
/// `XQF_SAMPLES` names their folder; they are not committed (their licences are not ours).
/// Each one read prints what it holds, each refused its error (some collections keep
/// broken files on purpose); a PGN of the same name beside one must agree with it.
#[test]
fn files_of_another_writer_read_when_at_hand() {
    let Some(dir) = std::env::var_os("XQF_SAMPLES") else {
        return;
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("xqf")))
        .collect();
    paths.sort();
    let mut read = 0;
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let game = match read_xqf(&bytes) {
            Ok(game) => game,
            Err(e) => {
                println!("{}: version {}: {e}", path.display(), bytes[2]);
                continue;
            }
        };
        read += 1;
        println!(
            "{}: version {}, {} plies, {} comments, {} variations, tags {:?}",
            path.display(),
            bytes[2],
            game.moves.len(),
            game.notes.iter().filter(|n| n.comment.is_some()).count()
                + usize::from(game.comment.is_some()),
            game.notes.iter().map(|n| n.variations.len()).sum::<usize>(),
            game.tags,
        );
        // Our writer's bytes for it read back the same game.
        for version in VERSIONS {
            assert_eq!(read_xqf(&write_xqf(&game, version)).unwrap(), game);
        }
        let pgn = path.with_extension("PGN");
        if let Ok(text) = std::fs::read(&pgn) {
            let pgn = GameRecord::from_pgn_bytes(&text).unwrap();
            assert_eq!(game.start, pgn.start, "{}", path.display());
            assert_eq!(game.moves, pgn.moves, "{}", path.display());
            assert_eq!(game.result, pgn.result, "{}", path.display());
            println!("{}: agrees with its PGN", path.display());
        }
    }
    println!("{read} of {} files read", paths.len());
}

/// Valid files to mutate: the committed fixtures (versions 10, 11, 12 and 18; comments,
/// variations, a setup position, an illegal move), each one read also written in every
/// version: 16 files.
fn valid_files() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(format!("{}/tests/data/xqf", crate::TOP));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        if let Ok(game) = read_xqf(&bytes) {
            files.extend(VERSIONS.iter().map(|&v| write_xqf(&game, v)));
        }
        files.push(bytes);
    }
    assert_eq!(files.len(), 16);
    files
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    for file in valid_files() {
        for len in 0..file.len() {
            assert!(read_xqf(&file[..len]).is_err(), "length {len}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn random_bytes_never_panic(
        version in any::<u8>(),
        body in proptest::collection::vec(any::<u8>(), 0..3000),
    ) {
        let mut bytes = b"XQ".to_vec();
        bytes.push(version);
        bytes.extend(body);
        let _ = read_xqf(&bytes);
        let _ = GameRecord::from_bytes(&bytes);
    }

    #[test]
    fn bit_flips_never_panic(
        file in 0usize..16,
        flips in proptest::collection::vec((any::<usize>(), 0u8..8), 1..4),
    ) {
        let mut bytes = valid_files().swap_remove(file);
        for (at, bit) in flips {
            let at = at % bytes.len();
            bytes[at] ^= 1 << bit;
        }
        let _ = read_xqf(&bytes);
    }

    #[test]
    fn random_move_trees_never_panic(
        file in 0usize..16,
        tree in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        // A valid header, then noise: the tree reader meets every flag combination.
        let mut bytes = valid_files().swap_remove(file);
        bytes.truncate(0x400);
        bytes.extend(tree);
        let _ = read_xqf(&bytes);
    }
}

/// Local measurement: every distinct game of the CCPD dataset (Yu-Han Tseng and Bo-Nian
/// Chen (2026). Chinese Chess Practical Dataset (CCPD). CC BY 4.0), kept outside the
/// repository, written as XQF 10 and 18 and read back to the same start, moves, result and
/// the tags XQF has. Runs only where `XQF_CCPD_DIR` names the unpacked `Dataset` folder.
#[test]
fn ccpd_games_survive_xqf_when_at_hand() {
    let Some(root) = std::env::var_os("XQF_CCPD_DIR") else {
        return;
    };
    let mut stack = vec![PathBuf::from(root)];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    let kept = [
        "Event",
        "Title",
        "Site",
        "Date",
        "Red",
        "Black",
        "TimeControl",
        "RedTime",
        "BlackTime",
        "Annotator",
        "Author",
    ];
    let mut seen = std::collections::HashSet::new();
    let (mut games, mut plies, mut unreadable, mut bytes_10, mut bytes_18) = (0, 0, 0, 0, 0);
    let mut read_time = std::time::Duration::ZERO;
    for path in &files {
        let Ok(game) = GameRecord::read_file(path) else {
            unreadable += 1;
            continue;
        };
        if !seen.insert((game.start.to_fen(), game.moves.clone())) {
            continue;
        }
        let mut expected = game.clone();
        // XQF strings are read without the spaces around them.
        for (_, value) in &mut expected.tags {
            *value = value.trim().to_string();
        }
        expected
            .tags
            .retain(|(name, value)| kept.contains(&name.as_str()) && !value.is_empty());
        expected
            .tags
            .sort_by_key(|(name, _)| kept.iter().position(|k| k == name));
        for (version, seed) in [(10, 0), (18, games as u64)] {
            let bytes = write_xqf_seeded(&game, version, seed);
            if version == 10 {
                bytes_10 += bytes.len();
            } else {
                bytes_18 += bytes.len();
            }
            let started = std::time::Instant::now();
            let mut back = read_xqf(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            read_time += started.elapsed();
            // Names longer than their field are cut; compare what fits.
            back.tags.retain(|(name, _)| expected.tag(name).is_some());
            let mut fitted = expected.clone();
            for (name, value) in &mut fitted.tags {
                if let Some(short) = back.tag(name) {
                    assert!(value.starts_with(short), "{}: {name}", path.display());
                    *value = short.to_string();
                }
            }
            // XQF keeps the board and the side to move, not the move number.
            let placed = |p: &Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
            assert_eq!(
                placed(&back.start),
                placed(&fitted.start),
                "{}",
                path.display()
            );
            assert_eq!(back.moves, fitted.moves, "{}", path.display());
            assert_eq!(back.result, fitted.result, "{}", path.display());
            assert_eq!(back.tags, fitted.tags, "{}", path.display());
        }
        games += 1;
        plies += game.moves.len();
    }
    println!(
        "{} files, {unreadable} unreadable as PGN, {games} distinct games, {plies} plies; \
         XQF 10 {bytes_10} bytes, XQF 18 {bytes_18} bytes; reading them all took {read_time:?}",
        files.len()
    );
}
