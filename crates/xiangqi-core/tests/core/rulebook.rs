//! The rule book's example diagrams (tests/data/rulebook.tsv, docs/rules.md), each ruled
//! as the book rules it: the position, the moves leading into the cycle and the cycle,
//! played until the third occurrence ends the game; the arbiter's result, offender and
//! rule must be the book's.

use xiangqi_core::board::{Color, Move, MoveKind, Position, Ruling};

struct Row<'a> {
    diagram: &'a str,
    fen: &'a str,
    lead: Vec<Move>,
    cycle: Vec<Move>,
    result: &'a str,
    offender: Option<Color>,
    rule: &'a str,
}

fn moves(text: &str) -> Vec<Move> {
    if text == "-" {
        return Vec::new();
    }
    text.split(' ')
        .map(|m| Move::parse_coords(m).unwrap_or_else(|| panic!("bad move {m}")))
        .collect()
}

fn rows() -> Vec<Row<'static>> {
    include_str!("../../../../tests/data/rulebook.tsv")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 9, "{line}");
            Row {
                diagram: f[0],
                fen: f[2],
                lead: moves(f[3]),
                cycle: moves(f[4]),
                result: f[5],
                offender: match f[6] {
                    "red" => Some(Color::Red),
                    "black" => Some(Color::Black),
                    "-" => None,
                    other => panic!("{}: offender {other}", f[0]),
                },
                rule: f[7],
            }
        })
        .collect()
}

/// Plays the row until the repetition rules end the game: the ruling, and the plies
/// played. Fails if a ruling comes before the third occurrence.
fn play_out(row: &Row) -> (Ruling, Vec<Move>) {
    let mut pos = Position::from_fen(row.fen).unwrap();
    let mut played = Vec::new();
    let script = row
        .lead
        .iter()
        .chain(row.cycle.iter().cycle())
        .take(row.lead.len() + 3 * row.cycle.len());
    for &mv in script {
        assert!(
            pos.is_legal(mv),
            "{}: {mv} illegal in {}",
            row.diagram,
            pos.to_fen()
        );
        pos.make_move(mv);
        played.push(mv);
        let ruling = pos.ruling();
        assert_eq!(
            ruling.is_some(),
            pos.repetitions() >= 3,
            "{}: a ruling only on the third occurrence (ply {})",
            row.diagram,
            played.len()
        );
        if let Some(ruling) = ruling {
            return (ruling, played);
        }
    }
    panic!("{}: no ruling", row.diagram)
}

#[test]
fn every_diagram_is_ruled_as_the_book_rules_it() {
    let rows = rows();
    assert!(rows.len() >= 100, "{} diagrams", rows.len());
    let mut wrong = Vec::new();
    for row in &rows {
        let (ruling, played) = play_out(row);
        assert_eq!(ruling.ply, played.len(), "{}", row.diagram);
        let got = (ruling.result(), ruling.offender, ruling.rule.number());
        if got != (row.result, row.offender, row.rule) {
            wrong.push(format!(
                "{}: book {} {:?} rule {}, arbiter {} {:?} rule {} ({})",
                row.diagram,
                row.result,
                row.offender,
                row.rule,
                got.0,
                got.1,
                got.2,
                ruling.reason()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} diagrams:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_ruling_reports_the_cycle_it_ends() {
    for row in rows() {
        let (ruling, played) = play_out(&row);
        let cycle: Vec<Move> = ruling.cycle.iter().map(|m| m.mv).collect();
        assert_eq!(
            cycle,
            played[played.len() - cycle.len()..],
            "{}: the ruling's cycle ends with the last move",
            row.diagram
        );
        assert!(
            cycle.len() >= 4 && cycle.len().is_multiple_of(2),
            "{}",
            row.diagram
        );
        // A perpetual checker's moves all read as checks.
        if ruling.reason() == "perpetual check" {
            let offender = ruling.offender.unwrap();
            assert!(
                ruling
                    .cycle
                    .iter()
                    .filter(|m| m.side == offender)
                    .all(|m| m.kind == MoveKind::Check),
                "{}",
                row.diagram
            );
        }
    }
}

fn row(diagram: &str) -> Row<'static> {
    rows().into_iter().find(|r| r.diagram == diagram).unwrap()
}

#[test]
fn a_ruling_serialises_for_replay_json() {
    let (ruling, _) = play_out(&row("D1"));
    let json = serde_json::to_value(&ruling).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "ply": 8,
            "result": "0-1",
            "reason": "perpetual check",
            "rule": "6",
            // Black's general, stepping out of check, uncovers its cannon's attack on the
            // checking chariot: a chase, outranked by the perpetual check.
            "cycle": [
                {"move": "h8h9", "kind": "check", "target": "general f9"},
                {"move": "f9f8", "kind": "chase", "target": "chariot h9"},
                {"move": "h9h8", "kind": "check", "target": "general f8"},
                {"move": "f8f9", "kind": "chase", "target": "chariot h8"},
            ]
        })
    );
    assert_eq!(
        ruling.to_string(),
        "0-1 at ply 8: perpetual check by Red (rule 6: perpetual check, with one piece or several, loses)"
    );
}

#[test]
fn a_chase_names_the_piece_chased_and_where() {
    let (ruling, _) = play_out(&row("D33"));
    let chases: Vec<(String, MoveKind, Option<String>)> = ruling
        .cycle
        .iter()
        .map(|m| (m.mv.iccs(), m.kind, m.target_text()))
        .collect();
    assert_eq!(ruling.rule.number(), "18");
    let target = |s: &str| Some(s.to_string());
    assert_eq!(
        chases,
        [
            ("h6i6".to_string(), MoveKind::Chase, target("cannon i0")),
            ("i0h0".to_string(), MoveKind::Idle, None),
            ("i6h6".to_string(), MoveKind::Chase, target("cannon h0")),
            ("h0i0".to_string(), MoveKind::Idle, None),
        ]
    );
}

/// Replays `row` move by move and asks, before each move, what the arbiter warns.
fn warnings(row: &Row) -> Vec<(usize, Color, Option<xiangqi_core::board::Warning>)> {
    let mut pos = Position::from_fen(row.fen).unwrap();
    let mut seen = Vec::new();
    let script = row
        .lead
        .iter()
        .chain(row.cycle.iter().cycle())
        .take(row.lead.len() + 2 * row.cycle.len());
    for (ply, &mv) in script.enumerate() {
        seen.push((ply + 1, pos.side_to_move(), pos.repetition_warning(mv)));
        pos.make_move(mv);
        if pos.ruling().is_some() {
            break;
        }
    }
    seen
}

#[test]
fn the_offender_is_warned_before_each_repetition_and_nobody_else() {
    for row in rows() {
        let (ruling, played) = play_out(&row);
        let mut warned = false;
        for (ply, side, warning) in warnings(&row) {
            let Some(warning) = warning else { continue };
            warned = true;
            assert_eq!(
                Some(side),
                ruling.offender,
                "{} ply {ply}: {warning}",
                row.diagram
            );
            assert_eq!(
                warning.ends_game,
                ply == played.len(),
                "{} ply {ply}",
                row.diagram
            );
        }
        assert_eq!(warned, ruling.offender.is_some(), "{}", row.diagram);
    }
}

#[test]
fn a_warning_says_what_the_move_repeats() {
    let said: Vec<String> = warnings(&row("D33"))
        .into_iter()
        .filter_map(|(_, _, warning)| warning.map(|w| w.to_string()))
        .collect();
    assert_eq!(
        said,
        [
            "this move repeats a perpetual chase of the cannon at i0: a third repetition would lose",
            "this move repeats a perpetual chase of the cannon at h0: a third repetition would lose",
        ]
    );
    // Black's chasing horse makes the third occurrence itself.
    let said: Vec<String> = warnings(&row("D42"))
        .into_iter()
        .filter_map(|(_, _, warning)| warning.map(|w| w.to_string()))
        .collect();
    assert_eq!(
        said.last().unwrap(),
        "this move repeats a perpetual chase of the chariot at g6: it would lose"
    );
}

/// The row's lead and `cycles` times its cycle.
fn script(row: &Row, cycles: usize) -> Vec<Move> {
    row.lead
        .iter()
        .chain(row.cycle.iter().cycle().take(cycles * row.cycle.len()))
        .copied()
        .collect()
}

#[test]
fn a_record_is_ruled_where_the_rules_end_it() {
    let d33 = row("D33");
    let start = Position::from_fen(d33.fen).unwrap();
    let moves = script(&d33, 3);
    // The start occurs a third time after Black's eighth-ply escape; the record may go on.
    for len in [8, 11] {
        let ruling = start.first_ruling(&moves[..len]).unwrap();
        assert_eq!((ruling.ply, ruling.rule.number()), (8, "18"));
    }
    assert_eq!(start.first_ruling(&moves[..7]), None);
    // A game mated first is not ruled by repetition: the board ended it.
    let mate = Position::from_fen("4k4/9/9/2p6/9/9/9/9/R7R/3K5 w - - 0 1").unwrap();
    let moves: Vec<Move> = ["i1i8", "c6c5", "a1a9"]
        .iter()
        .map(|m| Move::parse_coords(m).unwrap())
        .collect();
    assert_eq!(mate.first_ruling(&moves), None);
}

#[test]
fn the_losing_move_is_the_offenders_last_of_the_cycle() {
    // Black's escape makes the third occurrence; Red's chase before it lost.
    let (ruling, _) = play_out(&row("D33"));
    assert_eq!((ruling.ply, ruling.losing_ply()), (8, Some(7)));
    assert_eq!(ruling.termination(), "perpetual chase (rule 18)");
    // Black's chasing horse makes the third occurrence itself.
    let (ruling, played) = play_out(&row("D42"));
    assert_eq!(ruling.offender, Some(Color::Black));
    assert_eq!(ruling.losing_ply(), Some(played.len()));
    // A principle of section 2 is named as such; a draw has no losing move.
    assert_eq!(
        play_out(&row("D45")).0.termination(),
        "perpetual chase (§2.4)"
    );
    let (draw, _) = play_out(&row("D4"));
    assert_eq!(draw.losing_ply(), None);
    assert_eq!(draw.termination(), "mutual perpetual check (rule 7)");
}

#[test]
fn the_cycle_so_far_is_ruled_as_it_would_be_on_a_third_occurrence() {
    let d33 = row("D33");
    let mut pos = Position::from_fen(d33.fen).unwrap();
    let moves = script(&d33, 2);
    let mut pending = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        pos.make_move(mv);
        if let Some(ruling) = pos.pending_ruling() {
            pending.push((ply + 1, ruling.offender, ruling.rule.number()));
        }
    }
    // From the fourth ply every position has occurred twice, until the third occurrence.
    assert_eq!(
        pending,
        [
            (4, Some(Color::Red), "18"),
            (5, Some(Color::Red), "18"),
            (6, Some(Color::Red), "18"),
            (7, Some(Color::Red), "18")
        ]
    );
    assert!(pos.ruling().is_some());
    assert_eq!(pos.pending_ruling(), None);
}

#[test]
fn the_side_to_move_is_warned_of_each_move_that_would_repeat_a_forbidden_cycle() {
    let d33 = row("D33");
    let mut pos = Position::from_fen(d33.fen).unwrap();
    for &mv in &script(&d33, 1) {
        assert_eq!(pos.repetition_warnings(), [], "before {mv}");
        pos.make_move(mv);
    }
    // Red to move with the start back: only the chase that repeats the cycle warns.
    let warnings = pos.repetition_warnings();
    let moves: Vec<String> = warnings.iter().map(|(mv, _)| mv.iccs()).collect();
    assert_eq!(moves, ["h6i6"]);
    assert_eq!(
        warnings[0].1.to_string(),
        "this move repeats a perpetual chase of the cannon at i0: a third repetition would lose"
    );
}
