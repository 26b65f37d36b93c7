//! The liberal input of docs/notation.md §1.8 and §2, and the three kinds of error:
//! malformed (with the column), illegal (with the piece and the reason) and ambiguous (with
//! the candidates in canonical Chinese).

use xiangqi_core::board::{Move, Position, Square};
use xiangqi_core::notation::{
    IllegalReason, MoveError, Notation, format_move, parse_move, parse_move_as, parse_uci_move,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn mv(iccs: &str) -> Move {
    Move::parse_coords(iccs).unwrap()
}

fn sq(name: &str) -> Square {
    mv(&format!("{name}{name}")).from()
}

fn reads(p: &Position, text: &str, iccs: &str) {
    assert_eq!(parse_move(p, text), Ok(mv(iccs)), "{text}");
}

fn illegal_reason(p: &Position, text: &str) -> IllegalReason {
    match parse_move(p, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal-move error, got {other:?}"),
    }
}

fn ambiguous(p: &Position, text: &str) -> Vec<(String, String)> {
    match parse_move(p, text) {
        Err(MoveError::Ambiguous { candidates, .. }) => candidates
            .into_iter()
            .map(|c| (c.mv.iccs(), c.chinese))
            .collect(),
        other => panic!("{text}: expected an ambiguity, got {other:?}"),
    }
}

const TWO_ADVISORS: &str =
    "r2a2br1/4k4/2nab1PPn/7P1/p5p2/P4cP1p/7C1/N1pA5/5C2N/R1BAK1BR1 w - - 23 35";
const TWO_CANNONS: &str =
    "6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79";
const THREE_PAWNS: &str =
    "r2a2br1/4k2P1/2nab2Pn/7P1/p5p2/P5Pp1/7C1/N1pA2c2/5C2N/R1BAK1B1R w - - 29 38";
const FOUR_PAWNS: &str = "3akab2/3n5/4P3n/4pP3/1r2PP3/RN1p5/C2p3C1/3p4B/3p5/2BA1K1NR b - - 3 50";
const TWO_DOUBLED_FILES: &str =
    "r1bak1br1/9/2na3Pn/6PP1/p5p2/P4cPp1/9/N1p4C1/4AC2N/R1BAK1BR1 w - - 17 32";

#[test]
fn spellings_of_one_move() {
    let start = Position::startpos();
    for text in [
        "炮二平五",
        "炮2平5",
        "砲二平五",
        "包二平五",
        "炮 二 平 五",
        "炮二平五+",
        "炮二平五!?",
        "C2.5",
        "c2.5",
        "C2=5",
        "C25",
        "Ｃ２．５",
        "h2e2",
        "H2-E2",
        "h2-e2",
    ] {
        reads(&start, text, "h2e2");
    }
    for text in [
        "马二进三",
        "馬二進三",
        "傌二上三",
        "马2进3",
        "H2+3",
        "N2+3",
        "h0g2",
    ] {
        reads(&start, text, "h0g2");
    }
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    for text in ["马8进7", "馬８進７", "马八进七", "H8+7", "h9g7"] {
        reads(&black, text, "h9g7");
    }
    reads(&black, "将5进1", "e9e8");
    reads(&black, "帅５上１（将军）", "e9e8");
}

#[test]
fn advisors_and_elephants_accept_front_and_rear() {
    let p = pos(TWO_ADVISORS);
    reads(&p, "仕六退五", "d2e1");
    reads(&p, "仕六进五", "d0e1");
    reads(&p, "前仕退五", "d2e1");
    reads(&p, "后士进五", "d0e1");
    reads(&p, "A6-5", "d2e1");
    reads(&p, "A+-5", "d2e1");
    reads(&p, "A-+5", "d0e1");
}

#[test]
fn tandem_file_form_is_accepted_only_when_one_piece_can_move() {
    let p = pos(TWO_CANNONS);
    assert_eq!(format_move(&p, mv("b7b9"), Notation::Chinese), "前炮进二");
    reads(&p, "前炮进二", "b7b9");
    reads(&p, "炮八进二", "b7b9"); // the rear cannon's b7 is taken by its twin
    reads(&p, "C8+2", "b7b9"); // Fairy-Stockfish's file fallback
    reads(&p, "+C+2", "b7b9");
    reads(&p, "fC+2", "b7b9");
    assert_eq!(
        ambiguous(&p, "炮八平七"),
        [
            ("b7c7".to_string(), "前炮平七".to_string()),
            ("b5c5".to_string(), "后炮平七".to_string())
        ]
    );
    assert_eq!(ambiguous(&p, "C8.7").len(), 2);
}

#[test]
fn three_pawns_accept_fairy_stockfish_indexes() {
    let p = pos(THREE_PAWNS);
    reads(&p, "后兵平三", "h6g6");
    reads(&p, "P-.3", "h6g6");
    reads(&p, "32=3", "h6g6");
    assert_eq!(
        illegal_reason(&p, "中兵进一"),
        IllegalReason::OwnPieceOnTarget(sq("h8"))
    );
}

#[test]
fn four_pawns_accept_traditional_ordinals() {
    let p = pos(FOUR_PAWNS);
    reads(&p, "一卒平3", "d1c1");
    reads(&p, "前卒平3", "d1c1");
    reads(&p, "１卒平３", "d1c1");
    reads(&p, "++.3", "d1c1");
    reads(&p, "四卒平3", "d4c4");
    reads(&p, "后卒平3", "d4c4");
    reads(&p, "--.3", "d4c4");
}

#[test]
fn pawns_doubled_on_two_files() {
    let p = pos(TWO_DOUBLED_FILES);
    reads(&p, "前三平四", "g6f6");
    reads(&p, "后三进一", "g4g5");
    reads(&p, "3+.4", "g6f6");
    reads(&p, "3-+1", "g4g5");
    reads(&p, "前兵三平四", "g6f6"); // R6 with the piece kept
    reads(&p, "兵三平四", "g6f6"); // file form: only the front pawn has crossed
    reads(&p, "三兵平四", "g6f6"); // xqbase series: 二 file's two pawns come first
    reads(&p, "四兵进一", "g4g5");
    reads(&p, "前兵平四", "g6f6"); // 前兵 without a file, unique here
    let both_fronts = ambiguous(&p, "前兵进一");
    assert_eq!(both_fronts.len(), 2);
    assert!(
        both_fronts.iter().any(|(_, c)| c == "前二进一"),
        "{both_fronts:?}"
    );
    assert!(
        both_fronts.iter().any(|(_, c)| c == "前三进一"),
        "{both_fronts:?}"
    );
}

#[test]
fn uci_ranks_are_read_only_on_request() {
    let start = Position::startpos();
    assert_eq!(parse_uci_move(&start, "h3e3"), Ok(mv("h2e2")));
    assert_eq!(
        illegal_reason(&start, "h3e3"),
        IllegalReason::EmptySquare(sq("h3"))
    );
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_eq!(parse_uci_move(&black, "h10g8"), Ok(mv("h9g7")));
}

#[test]
fn a_forced_notation_reads_only_that_notation() {
    let start = Position::startpos();
    assert_eq!(parse_move_as(&start, "C2.5", Notation::Wxf), Ok(mv("h2e2")));
    assert!(matches!(
        parse_move_as(&start, "炮二平五", Notation::Wxf),
        Err(MoveError::Malformed { column: 1, .. })
    ));
    assert!(matches!(
        parse_move_as(&start, "C2.5", Notation::Chinese),
        Err(MoveError::Malformed { column: 1, .. })
    ));
}

#[test]
fn malformed_input_points_at_the_character() {
    let start = Position::startpos();
    for (text, column) in [
        ("", 1),
        ("   ", 1),
        ("炮平五", 2),
        ("炮二平", 4),
        ("炮二走五", 3),
        ("炮 二 x五", 5),
        ("炮二平五六", 5),
        ("C2*5", 3),
        ("C2.", 4),
        ("X2.5", 1),
        ("h2j2", 3),
        ("h2e", 4),
    ] {
        match parse_move(&start, text) {
            Err(e @ MoveError::Malformed { .. }) => {
                assert_eq!(e.column(), Some(column), "{text}: {e}");
                assert!(e.to_string().contains(&format!("column {column}")), "{e}");
            }
            other => panic!("{text}: expected malformed, got {other:?}"),
        }
    }
    // A piece named by place wants its move next: the sign that named it is not one.
    for (text, error) in [
        (
            "P+",
            "'P+': column 3: the move stops too early: expected what 'P+' does: + - . or = and \
             a number",
        ),
        (
            "+C",
            "'+C': column 3: the move stops too early: expected what '+C' does: + - . or = and \
             a number",
        ),
        (
            "C2",
            "'C2': column 3: the move stops too early: expected an operator (+ - . =)",
        ),
    ] {
        let e = parse_move(&start, text).unwrap_err();
        assert_eq!(e.to_string(), error, "{text}");
    }
}

#[test]
fn illegal_input_names_the_piece_and_the_reason() {
    let start = Position::startpos();
    assert_eq!(
        illegal_reason(&start, "马二进四"),
        IllegalReason::HorseLegBlocked(sq("g0"))
    );
    let message = parse_move(&start, "马二进四").unwrap_err().to_string();
    assert!(message.contains("Red horse on h0"), "{message}");
    assert!(message.contains("leg at g0"), "{message}");
    assert_eq!(
        illegal_reason(&start, "车一进五"),
        IllegalReason::PathBlocked(sq("i3"))
    );
    assert_eq!(
        illegal_reason(&start, "马二平三"),
        IllegalReason::CannotMoveThatWay("a horse never moves straight sideways (平)")
    );
    match illegal_reason(&start, "炮一平二") {
        IllegalReason::NoSuchPiece(what) => {
            assert_eq!(what, "Red has no cannon on file 一 (i)")
        }
        other => panic!("{other:?}"),
    }
    // A name by place says what it means and what the pieces are called here.
    let no_such = |text: &str| match illegal_reason(&start, text) {
        IllegalReason::NoSuchPiece(what) => what,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        no_such("前车进一"),
        "no Red chariot is '前车' here (the front one of two on a file): Red's chariots \
         are 车一 and 车九"
    );
    assert_eq!(
        no_such("P+1"),
        "no Red soldier is 'P+' here (the front one of two on a file): Red's soldiers are \
         P1, P3, P5, P7 and P9"
    );
    assert_eq!(
        no_such("C-.5"),
        "no Red cannon is 'C-' here (the rear one of two on a file): Red's cannons are C2 \
         and C8"
    );
    let lone = pos("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1");
    assert_eq!(
        match illegal_reason(&lone, "P+1") {
            IllegalReason::NoSuchPiece(what) => what,
            other => panic!("{other:?}"),
        },
        "no Red soldier is 'P+' here (the front one of two on a file): Red's one soldier \
         is P5"
    );
    assert_eq!(
        illegal_reason(&start, "h7h6"),
        IllegalReason::NotYourPiece(sq("h7"))
    );

    let eye = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3N5/R1BAKABNR w - - 0 1");
    assert_eq!(
        illegal_reason(&eye, "相七进五"),
        IllegalReason::ElephantEyeBlocked(sq("d1"))
    );
    let pinned = pos("4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert_eq!(
        illegal_reason(&pinned, "车五平六"),
        IllegalReason::LeavesGeneralInCheck
    );
    let facing = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(
        illegal_reason(&facing, "帅六平五"),
        IllegalReason::GeneralsWouldFace
    );
    assert_eq!(
        illegal_reason(&facing, "d0e0"),
        IllegalReason::GeneralsWouldFace
    );
    let screened = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_eq!(
        illegal_reason(&screened, "炮二进五"),
        IllegalReason::CannonScreens(0)
    );
}

#[test]
fn wxf_rule_iv_wins_over_a_clashing_fairy_stockfish_index() {
    // Red soldiers: three on file 1 (i7 front, i6 middle, i5 rear) and two on file 3. Rule IV
    // writes the middle one `11`; Fairy-Stockfish writes the front one `11` (first on file 1).
    // The canonical reading is the string's meaning; the index form still reads when it
    // does not clash.
    let p = pos("4k4/9/8P/6P1P/6P1P/9/9/9/4A4/4K4 w - - 0 1");
    assert_eq!(format_move(&p, mv("i6h6"), Notation::Wxf), "11.2");
    reads(&p, "11.2", "i6h6");
    reads(&p, "21=2", "i6h6");
    reads(&p, "1+.2", "i7h7");
    reads(&p, "31=2", "i5h5");
}
