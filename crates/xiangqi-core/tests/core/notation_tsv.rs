//! Every row of `tests/data/notation.tsv` (docs/notation.md §7): the move prints exactly as
//! its `chinese` and `wxf` columns, and those strings, the ICCS move, and traditional and
//! full-width spellings of the Chinese string all read back as that move.

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, format_move, parse_move};

struct Row {
    line: usize,
    fen: String,
    iccs: String,
    chinese: String,
    wxf: String,
    category: String,
}

fn rows() -> Vec<Row> {
    include_str!("../../../../tests/data/notation.tsv")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.starts_with("fen\t") && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "line {}: {l}", i + 1);
            Row {
                line: i + 1,
                fen: f[0].into(),
                iccs: f[1].into(),
                chinese: f[2].into(),
                wxf: f[3].into(),
                category: f[4].into(),
            }
        })
        .collect()
}

/// The traditional characters and full-width digits real records use (§1.2, §8).
fn traditional_full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '进' => '進',
            '后' => '後',
            '车' => '車',
            '马' => '馬',
            '帅' => '帥',
            '将' => '將',
            '1'..='9' => char::from_u32(c as u32 - '1' as u32 + '１' as u32).unwrap(),
            other => other,
        })
        .collect()
}

#[test]
fn every_row_prints_and_reads_back() {
    let rows = rows();
    assert_eq!(rows.len(), 600);
    let mut failures = Vec::new();
    for row in &rows {
        let pos = Position::from_fen(&row.fen).unwrap();
        let mv = Move::parse_coords(&row.iccs).unwrap();
        assert!(
            pos.is_legal(mv),
            "line {}: {} not legal",
            row.line,
            row.iccs
        );
        let chinese = format_move(&pos, mv, Notation::Chinese);
        let wxf = format_move(&pos, mv, Notation::Wxf);
        if chinese != row.chinese || wxf != row.wxf {
            failures.push(format!(
                "line {} ({}): printed {chinese} {wxf}, expected {} {}",
                row.line, row.category, row.chinese, row.wxf
            ));
        }
        let traditional = format_move(&pos, mv, Notation::ChineseTraditional);
        for text in [
            row.iccs.clone(),
            row.iccs.to_uppercase(),
            row.chinese.clone(),
            row.wxf.clone(),
            row.wxf.to_lowercase(),
            traditional_full_width(&row.chinese),
            traditional,
        ] {
            match parse_move(&pos, &text) {
                Ok(got) if got == mv => {}
                other => failures.push(format!(
                    "line {} ({}): {text} read as {other:?}, expected {}",
                    row.line, row.category, row.iccs
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
