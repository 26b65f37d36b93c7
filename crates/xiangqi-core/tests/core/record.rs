//! Game records: the PGN fixtures in `tests/data/pgn/` (UTF-8, GBK, Big5; comments,
//! variations, a Black-to-move start, `[Format]` tags) read into the moves they were
//! written from, and writing then reading a game gives it back.

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::Notation;
use xiangqi_core::record::{
    GameRecord, GameResult, Line, RecordError, TextEncoding, decode, parse_pgn,
};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/pgn/{name}", crate::TOP);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn iccs_list(moves: &[Move]) -> String {
    moves.iter().map(|m| m.iccs()).collect::<Vec<_>>().join(" ")
}

const OPENING: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 b0c2 c9e7 c3c4 h7i7 h6g6 i7i8";

#[test]
fn utf8_fixture_with_comments_and_variations() {
    let bytes = fixture("opening_utf8.pgn");
    assert_eq!(decode(&bytes).unwrap().1, TextEncoding::Utf8);
    let game = GameRecord::from_pgn_bytes(&bytes).unwrap();
    assert_eq!(iccs_list(&game.moves), OPENING);
    assert_eq!(game.result, GameResult::RedWins);
    assert_eq!(game.tag("Red"), Some("Red player"));
    assert_eq!(game.start, Position::startpos());
}

#[test]
fn gbk_fixture() {
    let bytes = fixture("opening_gbk.pgn");
    assert_eq!(decode(&bytes).unwrap().1, TextEncoding::Gb18030);
    let game = GameRecord::from_pgn_bytes(&bytes).unwrap();
    assert_eq!(
        iccs_list(&game.moves),
        "c3c4 g6g5 b0c2 h9g7 h2e2 c9e7 h0g2 b9a7 i0h0 a9b9"
    );
    assert_eq!(game.result, GameResult::Draw);
    assert_eq!(game.tag("Event"), Some("Fixture: 仙人指路 in GBK"));
}

#[test]
fn big5_fixture_starts_with_black_to_move() {
    let bytes = fixture("endgame_big5.pgn");
    assert_eq!(decode(&bytes).unwrap().1, TextEncoding::Big5);
    let game = GameRecord::from_pgn_bytes(&bytes).unwrap();
    assert_eq!(
        game.start.to_fen(),
        "3k5/4a4/9/9/9/2p6/9/9/4A4/3AK1R2 b - - 0 1"
    );
    assert_eq!(iccs_list(&game.moves), "c4d4 g0g9 d9d8 g9g8 d4e4 e1f2 e4e3");
    assert_eq!(
        game.final_position().to_fen(),
        "9/3ka1R2/9/9/9/9/4p4/5A3/9/3AK4 w - - 7 5"
    );
}

#[test]
fn format_tags_choose_the_notation() {
    for name in ["opening_wxf.pgn", "opening_iccs.pgn"] {
        let game = GameRecord::from_pgn_bytes(&fixture(name)).unwrap();
        assert_eq!(
            iccs_list(&game.moves),
            "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5",
            "{name}"
        );
        assert_eq!(game.result, GameResult::Unknown);
    }
    // Declared WXF: a Chinese move is then malformed, not detected.
    let err = GameRecord::from_pgn("[Format \"WXF\"]\n1. 炮二平五 *").unwrap_err();
    assert!(matches!(err, RecordError::Move(_)), "{err}");
    let err = GameRecord::from_pgn("[Format \"Klingon\"]\n1. C2.5 *").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1:1: [Format]: unknown format 'Klingon', expected ICCS, WXF or Chinese"
    );
}

#[test]
fn the_first_bad_move_is_reported_with_its_place() {
    let text = String::from_utf8(fixture("illegal_move.pgn")).unwrap();
    let (record, failure) = parse_pgn(&text).unwrap().replay_partial().unwrap();
    assert_eq!(iccs_list(&record.moves), "h2e2 h9g7");
    let failure = failure.unwrap();
    assert_eq!((failure.ply, failure.line, failure.column), (3, 5, 4));
    assert_eq!(failure.text, "马二进四");
    assert!(
        failure
            .to_string()
            .starts_with("line 5:4: move 3 '马二进四': illegal")
    );
    let malformed = parse_pgn("1. 炮二平五 马8进x")
        .unwrap()
        .replay_partial()
        .unwrap()
        .1;
    let malformed = malformed.unwrap();
    assert_eq!((malformed.line, malformed.column), (1, 12));
    let bad_fen = GameRecord::from_pgn("[Game \"Chinese Chess\"]\n[FEN \"9/9 w\"]\n*").unwrap_err();
    assert!(
        bad_fen.to_string().starts_with("line 2:1: [FEN]:"),
        "{bad_fen}"
    );
}

#[test]
fn writing_uses_canonical_chinese_and_numbered_pairs() {
    let mut game = GameRecord::from_pgn_bytes(&fixture("opening_gbk.pgn")).unwrap();
    game.moves.truncate(3);
    game.set_tag("Event", "A \"quoted\" event");
    let pgn = game.to_pgn(Notation::Chinese);
    assert_eq!(
        pgn,
        "[Game \"Chinese Chess\"]\n[Event \"A \\\"quoted\\\" event\"]\n[Result \"1/2-1/2\"]\n\
         [Format \"Chinese\"]\n\n1. 兵七进一 卒7进1\n2. 马八进七\n1/2-1/2\n"
    );
    let black_start = GameRecord::from_pgn_bytes(&fixture("endgame_big5.pgn")).unwrap();
    let pgn = black_start.to_pgn(Notation::Wxf);
    assert!(
        pgn.contains("[FEN \"3k5/4a4/9/9/9/2p6/9/9/4A4/3AK1R2 b - - 0 1\"]\n"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Format \"WXF\"]\n\n1. ... P3.4\n2. R3+9 K4+1\n"),
        "{pgn}"
    );
}

#[test]
fn write_then_read_gives_the_game_back() {
    let games = [
        GameRecord::from_pgn_bytes(&fixture("opening_utf8.pgn")).unwrap(),
        GameRecord::from_pgn_bytes(&fixture("endgame_big5.pgn")).unwrap(),
        random_game(7, 150),
        random_game(11, 201),
        annotated(random_game(5, 120)),
        annotated(random_game(13, 61)),
    ];
    for game in &games {
        for notation in [
            Notation::Chinese,
            Notation::ChineseTraditional,
            Notation::Wxf,
            Notation::Iccs,
        ] {
            let text = game.to_pgn(notation);
            let back = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let mut expected = game.clone();
            if expected.tag("Game").is_none() {
                // The writer puts the tag xqbase files start with first.
                expected
                    .tags
                    .insert(0, ("Game".to_string(), "Chinese Chess".to_string()));
            }
            assert_eq!(back, expected, "{notation}\n{text}");
        }
    }
}

#[test]
fn the_fixtures_notes_are_kept_and_written() {
    let game = GameRecord::from_pgn_bytes(&fixture("opening_utf8.pgn")).unwrap();
    assert_eq!(
        game.comment.as_deref(),
        Some("A line written for the tests: comments, variations and NAGs are kept.")
    );
    assert_eq!(game.note(2).unwrap().nags, [1]);
    assert_eq!(game.note(9).unwrap().nags, [1]);
    let text = game.to_pgn(Notation::Chinese);
    let moves = text.split_once("\n\n").unwrap().1;
    assert_eq!(
        moves,
        "{A line written for the tests: comments, variations and NAGs are kept.}\n\
         1. 炮二平五 马8进7 {屏风马} (1... 炮8平5 {顺炮} 2. 马二进三 (2. 马八进七) 2... 马8进7)\n\
         2. 马二进三 $1 车9平8\n\
         3. 车一平二 卒7进1 {a comment to the end of the line}\n\
         4. 车二进六 马2进3\n\
         5. 马八进七 象3进5 $1\n\
         6. 兵七进一 炮8平9\n\
         7. 车二平三 炮9退1\n\
         1-0\n"
    );
}

#[test]
fn a_variation_on_a_red_move_numbers_blacks_reply() {
    let mut game = GameRecord::from_pgn("1. 炮二平五 马8进7 2. 马二进三 *").unwrap();
    game.set_tag("Game", "Chinese Chess");
    let alternative = GameRecord::from_pgn("1. 兵七进一 卒7进1 *").unwrap().moves;
    let note = game.note_mut(0);
    note.nags.push(6);
    note.comment = Some("[%eval 0.35] a } brace".to_string());
    note.variations.push(Line::new(alternative));
    let text = game.to_pgn(Notation::Iccs);
    assert!(
        text.ends_with(
            "1. h2e2 $6 ; [%eval 0.35] a } brace\n(1. c3c4 g6g5) 1... h9g7\n2. h0g2\n*\n"
        ),
        "{text}"
    );
    assert_eq!(GameRecord::from_pgn(&text).unwrap(), game);
}

/// Notes on every seventh move: NAGs, a comment and a variation of up to three other
/// moves, itself with a nested variation on its second move.
fn annotated(mut game: GameRecord) -> GameRecord {
    let mut pos = game.start.clone();
    for i in 0..game.moves.len() {
        let mv = game.moves[i];
        if i % 7 == 3 {
            let mut line = Line::new(Vec::new());
            let mut branch = pos.clone();
            for k in 0..3 {
                let legal = branch.legal_move_list();
                let Some(&other) = legal.iter().rev().find(|&&m| k > 0 || m != mv) else {
                    break;
                };
                if k == 1 {
                    let legal = branch.legal_move_list();
                    if let Some(&alt) = legal.iter().find(|&&m| m != other) {
                        line.note_mut(1).variations.push(Line::new(vec![alt]));
                    }
                }
                branch.make_move(other);
                line.moves.push(other);
            }
            if i % 2 == 1 {
                line.comment = Some(format!("line {i}"));
            }
            let note = game.note_mut(i);
            note.nags = vec![2, 14];
            note.comment = Some(format!("[%eval {i}.5] comment\nover two lines"));
            note.variations.push(line);
        }
        pos.make_move(mv);
    }
    game.comment = Some("annotated".to_string());
    game
}

/// A game of random legal moves from a position rich in stacked soldiers, Black to move.
fn random_game(seed: u64, plies: usize) -> GameRecord {
    let start = Position::from_fen(
        "rn1akabn1/9/4Pcr2/4pP3/4P1P2/3pPp3/3p1p3/1CN4C1/4A4/R1BAK1BNR b - - 2 27",
    )
    .unwrap();
    let mut game = GameRecord::new(start.clone());
    game.set_tag("Event", "random");
    game.result = GameResult::BlackWins;
    let mut pos = start;
    let mut state = seed;
    for _ in 0..plies {
        let moves = pos.legal_move_list();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(state >> 33) as usize % moves.len()];
        pos.make_move(mv);
        game.moves.push(mv);
    }
    game
}
