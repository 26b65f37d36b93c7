//! Opening classification with the built-in table: known lines get the code the master
//! games' tags give them, mirrored lines the same, other starts none.

use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, parse_move};
use xiangqi_engine::opening::{Ecco, Opening, OpeningTable, classify};

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
fn known_lines_get_the_masters_codes() {
    // The start position alone is no opening.
    assert_eq!(code_of(&[]), None);
    let cases: [(&[&str], &str); 13] = [
        (&["炮二平五"], "B00"),
        (&["炮二平五", "马8进7", "马二进三", "车9平8"], "C00"),
        (&["炮二平五", "炮2平5"], "D50"),
        (&["炮二平五", "炮8平5"], "D00"),
        (&["相三进五"], "A00"),
        (&["相三进五", "炮8平4"], "A30"),
        (&["兵七进一"], "E00"),
        (&["兵七进一", "卒7进1"], "E40"),
        (&["马二进三"], "A40"),
        (&["炮二平四"], "A50"),
        // The mirror image of the 屏风马 line above: the same position, the same code.
        (&["炮八平五", "马2进3", "马八进七", "车1平2"], "C00"),
        // Deeper, on a group of ten codes, then on one code.
        (
            &[
                "炮二平五",
                "马8进7",
                "马二进三",
                "车9平8",
                "车一平二",
                "马2进3",
                "兵七进一",
                "卒7进1",
                "车二进六",
            ],
            "C40",
        ),
        (
            &[
                "炮二平五",
                "马8进7",
                "马二进三",
                "车9平8",
                "车一平二",
                "马2进3",
                "兵七进一",
                "卒7进1",
                "车二进六",
                "炮8平9",
                "车二平三",
                "炮9退1",
            ],
            "C40",
        ),
    ];
    for (line, code) in cases {
        assert_eq!(code_of(line).as_deref(), Some(code), "{line:?}");
    }
}

#[test]
fn names_follow_the_code_and_the_script() {
    let opening = classify(&Position::startpos(), &moves(&["炮二平五", "炮2平5"])).unwrap();
    assert_eq!(opening.code, "D50".parse::<Ecco>().unwrap());
    assert_eq!(opening.name(false), "中炮对列炮");
    assert_eq!(opening.name(true), "中炮對列炮");
    assert_eq!(opening.name_for(Notation::ChineseTraditional), "中炮對列炮");
    assert_eq!(opening.name_for(Notation::Wxf), "中炮对列炮");
    assert_eq!(opening.to_string(), "D50 中炮对列炮");
    assert_eq!(Opening::new("A09".parse().unwrap()), None);
}

#[test]
fn other_starts_are_no_opening() {
    let fen = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    let start = Position::from_fen(fen).unwrap();
    assert_eq!(classify(&start, &[]), None);
    let table = OpeningTable::builtin().unwrap();
    assert_eq!(
        (table.len(), table.size(), table.max_ply()),
        (19324, 193272, 16)
    );
}

/// Where the CCPD full games are: `XIANGQI_CCPD_GAMES`, else /work/ccpd/Dataset/對局.
fn ccpd_games() -> Option<std::path::PathBuf> {
    std::env::var_os("XIANGQI_CCPD_GAMES")
        .map(std::path::PathBuf::from)
        .into_iter()
        .chain([std::path::PathBuf::from("/work/ccpd/Dataset/對局")])
        .find(|p| p.is_dir())
}

fn pgn_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            out.push(path);
        }
    }
}

/// Rebuilds the built-in table from the CCPD games (training and validation parts) and
/// measures it on the held-out tenth: the numbers docs/openings.md gives. Slow (all
/// 48,516 files), so run by hand: `cargo test --test opening -- --ignored`.
#[test]
#[ignore]
fn held_out_agreement_from_ccpd() {
    use xiangqi_engine::opening::corpus::{Agreement, Corpus, Part, agreement};
    use xiangqi_engine::opening::{Decide, TableBuilder};
    let Some(dir) = ccpd_games() else {
        println!("skipped: the CCPD games are not present (set XIANGQI_CCPD_GAMES)");
        return;
    };
    let mut files = Vec::new();
    pgn_files(&dir, &mut files);
    let mut corpus = Corpus::new();
    for file in &files {
        let (text, _) = xiangqi_core::record::decode(&std::fs::read(file).unwrap()).unwrap();
        corpus.add_text(&text, &file.display().to_string());
    }
    assert_eq!((corpus.read, corpus.games.len()), (48512, 26316));
    let mut builder = TableBuilder::new(16);
    for game in corpus.games_in(&[Part::Train, Part::Validation]) {
        if let Some(code) = game.ecco {
            builder.add_game(&game.start, &game.moves, code);
        }
    }
    let bytes = builder.to_bytes(Decide::default());
    let builtin = OpeningTable::builtin().unwrap();
    assert_eq!(
        bytes.len(),
        builtin.size(),
        "the built-in table is this build"
    );
    let table = OpeningTable::from_bytes(bytes).unwrap();
    let held = agreement(&table, corpus.games_in(&[Part::HeldOut]));
    assert_eq!(
        held,
        Agreement {
            games: 2606,
            classified: 2606,
            agree: 2216
        }
    );
}
