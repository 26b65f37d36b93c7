//! A book built from the handful of records in `tests/data/book/collection`: exact
//! counts and results per position, mirror images merged, illegal games skipped, the
//! ply and game limits applied.

use std::path::{Path, PathBuf};

use xiangqi_core::board::{Move, Position};
use xiangqi_core::record::decode;
use xiangqi_engine::book::builder::{add_pgn_text, split_games};
use xiangqi_engine::book::{Book, BookBuilder, BookKey, Stats};

fn collection() -> PathBuf {
    Path::new(crate::TOP).join("tests/data/book/collection")
}

/// Builds from every `.pgn` under the collection, in name order; (book, illegal games).
fn build(max_ply: Option<usize>, min_games: u32) -> (Book, usize, usize) {
    let mut files = Vec::new();
    let mut stack = vec![collection()];
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
    let mut builder = BookBuilder::new(max_ply);
    let mut illegal = 0;
    for file in files {
        let (text, _) = decode(&std::fs::read(file).unwrap()).unwrap();
        let outcome = add_pgn_text(&mut builder, &text);
        illegal += outcome.illegal.len();
        assert!(outcome.unreadable.is_empty(), "{:?}", outcome.unreadable);
    }
    let games = builder.games;
    (
        Book::from_bytes(builder.to_bytes(min_games)).unwrap(),
        games,
        illegal,
    )
}

fn after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for text in moves.split_whitespace() {
        pos.make_move(Move::parse_coords(text).unwrap());
    }
    pos
}

/// The book moves of a position as (ICCS, count, red wins, draws, black wins).
fn listed(book: &Book, moves: &str) -> Vec<(String, u32, u32, u32, u32)> {
    book.moves(&after(moves))
        .into_iter()
        .map(|m| {
            let Stats {
                count,
                red_wins,
                draws,
                black_wins,
            } = m.stats;
            (m.mv.iccs(), count, red_wins, draws, black_wins)
        })
        .collect()
}

fn row(mv: &str, count: u32, red: u32, draws: u32, black: u32) -> (String, u32, u32, u32, u32) {
    (mv.to_owned(), count, red, draws, black)
}

#[test]
fn counts_and_results_are_exact() {
    let (book, games, illegal) = build(None, 1);
    // a, b, c and the two games of e; d has an illegal move.
    assert_eq!((games, illegal), (5, 1));
    // The start is its own mirror image: h2e2 and b2e2 stay apart.
    assert_eq!(
        listed(&book, ""),
        [
            row("h2e2", 2, 1, 0, 1),
            row("b2e2", 1, 0, 1, 0),
            row("c3c4", 1, 1, 0, 0),
            row("g0e2", 1, 0, 0, 1),
        ]
    );
    // After h2e2: game a's h9g7 and the drawn mirror game c's b9c7 (mirrored) merge.
    assert_eq!(
        listed(&book, "h2e2"),
        [row("h9g7", 2, 1, 1, 0), row("b9c7", 1, 0, 0, 1)]
    );
    assert_eq!(listed(&book, "h2e2 h9g7"), [row("h0g2", 2, 1, 1, 0)]);
    assert_eq!(listed(&book, "h2e2 h9g7 h0g2"), [row("i9h9", 2, 1, 1, 0)]);
    assert_eq!(listed(&book, "h2e2 b9c7"), [row("h0g2", 1, 0, 0, 1)]);
    // Game b ends after three plies; game a's last move leads nowhere further.
    assert!(listed(&book, "h2e2 b9c7 h0g2").is_empty());
    assert!(listed(&book, "h2e2 h9g7 h0g2 i9h9").is_empty());
    // Each merged (position, move) pair is stored once: four at the start, two after
    // the central cannon, three further on.
    assert_eq!(book.len(), 4 + 2 + 3);
}

#[test]
fn mirror_images_read_back_mirrored() {
    let (book, _, _) = build(None, 1);
    // Game c, as played, finds the same entries with its own (left-side) moves.
    assert_eq!(
        listed(&book, "b2e2"),
        [row("b9c7", 2, 1, 1, 0), row("h9g7", 1, 0, 0, 1)]
    );
    assert_eq!(listed(&book, "b2e2 b9c7"), [row("b0c2", 2, 1, 1, 0)]);
    assert_eq!(listed(&book, "b2e2 b9c7 b0c2"), [row("a9b9", 2, 1, 1, 0)]);
    let right = BookKey::of(&after("h2e2 h9g7"));
    let left = BookKey::of(&after("b2e2 b9c7"));
    assert_eq!(right.key, left.key);
}

#[test]
fn a_game_and_its_mirror_image_land_on_the_same_entries() {
    let game = "[Result \"1-0\"]\n1. 马二进三 炮8平6 2. 车一平二 马8进7 1-0\n";
    let mirror = "[Result \"1-0\"]\n1. 马八进七 炮2平4 2. 车九平八 马2进3 1-0\n";
    let mut one = BookBuilder::new(None);
    add_pgn_text(&mut one, game);
    let mut both = BookBuilder::new(None);
    add_pgn_text(&mut both, game);
    add_pgn_text(&mut both, mirror);
    let (one, both) = (one.entries(1), both.entries(1));
    // The first move differs (the start is symmetric); every later one merges.
    assert_eq!(both.len(), one.len() + 1);
    for entry in &one[..] {
        let merged = both
            .iter()
            .find(|e| e.key == entry.key && e.mv == entry.mv)
            .unwrap();
        let expected = if entry.key == Position::startpos().key() {
            1
        } else {
            2
        };
        assert_eq!(merged.stats.count, expected, "{entry:?}");
    }
}

#[test]
fn ply_and_game_limits() {
    let (book, _, _) = build(Some(2), 1);
    assert_eq!(listed(&book, "h2e2").len(), 2);
    assert!(listed(&book, "h2e2 h9g7").is_empty());
    let (book, _, _) = build(None, 2);
    assert_eq!(listed(&book, ""), [row("h2e2", 2, 1, 0, 1)]);
    assert_eq!(listed(&book, "h2e2"), [row("h9g7", 2, 1, 1, 0)]);
    assert_eq!(listed(&book, "b2e2"), [row("b9c7", 2, 1, 1, 0)]);
}

#[test]
fn several_games_in_one_text_are_split() {
    let text = std::fs::read_to_string(collection().join("sub/e_two_games.pgn")).unwrap();
    let games = split_games(&text);
    assert_eq!(games.len(), 2);
    assert!(games[0].contains("兵七进一") && !games[0].contains("相三进五"));
    assert!(games[1].starts_with("[Game") && games[1].contains("相三进五"));
    assert_eq!(split_games("1. 炮二平五 *").len(), 1);
}
