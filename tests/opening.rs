//! Opening classification with the built-in table: known lines get the code the master
//! games' tags give them, mirrored lines the same, other starts none.

use xiangqi_tui::board::{Move, Position};
use xiangqi_tui::notation::{Notation, parse_move};
use xiangqi_tui::opening::{Ecco, Opening, OpeningTable, classify};

fn moves(line: &[&str]) -> Vec<Move> {
    let mut pos = Position::startpos();
    line.iter()
        .map(|text| {
            let mv = parse_move(&pos, text).unwrap();
            pos.make_move(mv);
            mv
        })
        .collect()
}

fn code_of(line: &[&str]) -> Option<String> {
    classify(&Position::startpos(), &moves(line)).map(|o| o.code.to_string())
}

#[test]
fn probe() {
    for line in [
        &["炮二平五"][..],
        &["炮二平五", "马8进7"],
        &["炮二平五", "马8进7", "马二进三"],
        &["炮二平五", "马8进7", "马二进三", "车9平8"],
        &[
            "炮二平五",
            "马8进7",
            "马二进三",
            "车9平8",
            "车一平二",
            "马2进3",
        ],
        &[
            "炮二平五",
            "马8进7",
            "马二进三",
            "车9平8",
            "车一平二",
            "马2进3",
            "兵七进一",
            "卒7进1",
        ],
        &["炮八平五", "马2进3", "马八进七", "车1平2"],
        &["相三进五"],
        &["相三进五", "炮8平4"],
        &["兵七进一"],
        &["兵七进一", "卒7进1"],
        &["兵七进一", "炮2平3"],
        &["炮二平五", "炮8平5"],
        &["炮二平五", "炮2平5"],
        &["马二进三"],
        &["炮二平四"],
    ] {
        let o = classify(&Position::startpos(), &moves(line));
        println!(
            "{line:?} -> {:?}",
            o.map(|o| o.label(xiangqi_tui::notation::Script::Simplified))
        );
    }
}
