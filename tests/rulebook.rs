//! The rule book's example diagrams (tests/data/rulebook.tsv, docs/rules.md), each ruled
//! as the book rules it: the position, the moves leading into the cycle and the cycle,
//! played until the third occurrence ends the game; the arbiter's result, offender and
//! rule must be the book's.

use xiangqi_tui::board::{Color, Move, MoveKind, Position, Ruling};

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
    include_str!("data/rulebook.tsv")
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
        assert!(cycle.len() >= 4 && cycle.len().is_multiple_of(2), "{}", row.diagram);
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
