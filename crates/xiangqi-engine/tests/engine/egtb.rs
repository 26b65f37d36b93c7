//! Endgame tablebases: tables generated here (small endings, in a temporary folder) agree
//! with an independent exhaustive search, are self-consistent and symmetric, drive the
//! engine to mate in exactly the stated number of plies, and damaged files are refused.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use xiangqi_core::board::{Move, Position};
use xiangqi_core::rng::SplitMix64;
use xiangqi_engine::egtb::{self, EgtbError, Indexer, Material, Probe, Silent, Tablebases, Wdl};
use xiangqi_engine::engine::{Engine, Limits};

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// One folder of tables shared by the tests: KRK and KHKA (with their sub-endings) and
/// KRKA, KCKA, KPK, KAKA for the whole-table checks.
fn tables() -> &'static (tempfile::TempDir, Arc<Tablebases>) {
    static TABLES: OnceLock<(tempfile::TempDir, Arc<Tablebases>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let wanted: Vec<Material> = ["KRK", "KHKA", "KRKA", "KCKA", "KPK", "KAKA"]
            .iter()
            .map(|n| material(n))
            .collect();
        egtb::generate(&wanted, dir.path(), 2, &Silent).unwrap();
        let tb = Arc::new(Tablebases::open(dir.path()));
        (dir, tb)
    })
}

// ---- An independent exhaustive search ----

/// Every legal position with the given pieces (FEN letters; the squares each may stand
/// on), both sides to move, built through FEN.
fn enumerate(pieces: &[(char, Vec<(u8, u8)>)]) -> Vec<Position> {
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    fn rec(
        pieces: &[(char, Vec<(u8, u8)>)],
        chosen: &mut Vec<(char, (u8, u8))>,
        out: &mut Vec<Position>,
    ) {
        let Some(((letter, squares), rest)) = pieces.split_first() else {
            for side in ["w", "b"] {
                let mut board = [['.'; 9]; 10];
                for &(c, (x, y)) in chosen.iter() {
                    if board[y as usize][x as usize] != '.' {
                        return;
                    }
                    board[y as usize][x as usize] = c;
                }
                let ranks: Vec<String> = (0..10)
                    .rev()
                    .map(|y| {
                        let mut s = String::new();
                        let mut empty = 0;
                        for &c in &board[y] {
                            if c == '.' {
                                empty += 1;
                            } else {
                                if empty > 0 {
                                    s.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                s.push(c);
                            }
                        }
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                        }
                        s
                    })
                    .collect();
                if let Ok(pos) = Position::from_fen(&format!("{} {side}", ranks.join("/"))) {
                    out.push(pos);
                }
            }
            return;
        };
        for &sq in squares {
            chosen.push((*letter, sq));
            rec(rest, chosen, out);
            chosen.pop();
        }
    }
    rec(pieces, &mut chosen, &mut out);
    out
}

fn palace(red: bool) -> Vec<(u8, u8)> {
    let ys = if red { 0..3 } else { 7..10 };
    ys.flat_map(|y| (3..6).map(move |x| (x, y))).collect()
}

fn advisor_points(red: bool) -> Vec<(u8, u8)> {
    let pts = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
    pts.iter()
        .map(|&(x, y)| if red { (x, y) } else { (x, 9 - y) })
        .collect()
}

fn everywhere() -> Vec<(u8, u8)> {
    (0..10).flat_map(|y| (0..9).map(move |x| (x, y))).collect()
}

/// Mate distances by forward levels over a closed set of positions (all endings captures
/// can reach included): level n decides wins in n (a move to a loss in n-1) when n is
/// odd, losses in n (every move to a win, the longest n-1) when even. No unmoves, no
/// indexes: nothing shared with the retrograde solver but the move generator.
fn brute_force(positions: &[Position]) -> HashMap<u64, Probe> {
    let index: HashMap<u64, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key(), i))
        .collect();
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.legal_move_list()
                .into_iter()
                .map(|mv| {
                    p.make_move(mv);
                    let child = index[&p.key()];
                    p.unmake_move(mv);
                    child
                })
                .collect()
        })
        .collect();
    let mut dtm: Vec<Option<u32>> = vec![None; positions.len()];
    for level in 0..400u32 {
        let mut changed = Vec::new();
        for i in 0..positions.len() {
            if dtm[i].is_some() {
                continue;
            }
            let kids = &children[i];
            let decided = if level % 2 == 1 {
                kids.iter().any(|&c| dtm[c] == Some(level - 1))
            } else {
                kids.iter().all(|&c| dtm[c].is_some_and(|d| d % 2 == 1))
                    && kids
                        .iter()
                        .filter_map(|&c| dtm[c])
                        .max()
                        .map_or(0, |m| m + 1)
                        == level
            };
            if decided {
                changed.push(i);
            }
        }
        for i in changed {
            dtm[i] = Some(level);
        }
    }
    positions
        .iter()
        .zip(dtm)
        .map(|(p, d)| {
            let probe = match d {
                None => Probe {
                    wdl: Wdl::Draw,
                    plies: None,
                },
                Some(d) => Probe {
                    wdl: if d % 2 == 1 { Wdl::Win } else { Wdl::Loss },
                    plies: Some(d),
                },
            };
            (p.key(), probe)
        })
        .collect()
}

/// Pieces to place: FEN letter and the points it may stand on.
type Pieces = [(char, Vec<(u8, u8)>)];

fn agree_with_brute_force(pieces: &[&Pieces], checked: &str) {
    let (_, tb) = tables();
    let positions: Vec<Position> = pieces.iter().flat_map(|p| enumerate(p)).collect();
    let truth = brute_force(&positions);
    let mut count = 0;
    for pos in &positions {
        let (m, _) = Material::of(pos);
        if m.to_string() != checked {
            continue;
        }
        assert_eq!(
            tb.probe_checked(pos).unwrap(),
            truth[&pos.key()],
            "{}",
            pos.to_fen()
        );
        count += 1;
    }
    assert!(count > 5_000, "{checked}: only {count} positions");
}

#[test]
fn krk_agrees_with_exhaustive_search() {
    let kk = [('K', palace(true)), ('k', palace(false))];
    let krk = [
        ('K', palace(true)),
        ('k', palace(false)),
        ('R', everywhere()),
    ];
    agree_with_brute_force(&[&kk, &krk], "KRK");
}

#[test]
fn khka_agrees_with_exhaustive_search() {
    let kk = [('K', palace(true)), ('k', palace(false))];
    let khk = [
        ('K', palace(true)),
        ('k', palace(false)),
        ('N', everywhere()),
    ];
    let kka = [
        ('K', palace(true)),
        ('k', palace(false)),
        ('a', advisor_points(false)),
    ];
    let khka = [
        ('K', palace(true)),
        ('k', palace(false)),
        ('N', everywhere()),
        ('a', advisor_points(false)),
    ];
    agree_with_brute_force(&[&kk, &khk, &kka, &khka], "KHKA");
}

// ---- Whole-table consistency and symmetry ----

/// Every legal position of a table's material, built through its index.
fn all_positions(name: &str) -> Vec<Position> {
    let ix = Indexer::new(material(name));
    (0..2 * ix.per_side)
        .filter_map(|i| ix.build(&ix.decode(i)))
        .collect()
}

fn value_for_mover(child: Probe) -> (Wdl, u32) {
    match child.wdl {
        Wdl::Win => (Wdl::Loss, child.plies.unwrap()),
        Wdl::Loss => (Wdl::Win, child.plies.unwrap()),
        Wdl::Draw => (Wdl::Draw, 0),
    }
}

#[test]
fn tables_are_consistent_move_by_move() {
    let (_, tb) = tables();
    // Wins, draws and losses over every legal position (both sides to move).
    let expected = [
        ("KRKA", [18507, 732, 22074]),
        ("KCKA", [0, 45120, 0]),
        ("KPK", [2862, 978, 2937]),
        ("KHKA", [21366, 876, 21990]),
        ("KAKA", [0, 2378, 0]),
    ];
    for (name, counts) in expected {
        let mut seen = [0usize; 3];
        for pos in all_positions(name) {
            let probe = tb.probe_checked(&pos).unwrap();
            let moves = tb.move_values(&pos).unwrap();
            let values: Vec<(Wdl, u32)> = moves.iter().map(|&(_, c)| value_for_mover(c)).collect();
            let fen = pos.to_fen();
            match (probe.wdl, probe.plies) {
                (Wdl::Win, Some(n)) => {
                    seen[0] += 1;
                    assert!(values.contains(&(Wdl::Win, n - 1)), "{name} {fen}");
                    assert!(
                        values.iter().all(|&(w, d)| w != Wdl::Win || d >= n - 1),
                        "{name} {fen}: a faster mate exists"
                    );
                }
                (Wdl::Loss, Some(n)) => {
                    seen[2] += 1;
                    if n == 0 {
                        assert!(moves.is_empty(), "{name} {fen}");
                    } else {
                        assert!(
                            values.iter().all(|&(w, d)| w == Wdl::Loss && d < n),
                            "{name} {fen}"
                        );
                        assert!(values.contains(&(Wdl::Loss, n - 1)), "{name} {fen}");
                    }
                }
                (Wdl::Draw, None) => {
                    seen[1] += 1;
                    assert!(values.iter().all(|&(w, _)| w != Wdl::Win), "{name} {fen}");
                    assert!(values.iter().any(|&(w, _)| w == Wdl::Draw), "{name} {fen}");
                }
                other => panic!("{name} {fen}: {other:?}"),
            }
        }
        assert_eq!(seen, counts, "{name}");
    }
}

/// The FEN mirrored left to right.
fn mirror_fen(fen: &str) -> String {
    let (board, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

/// The FEN rotated by 180 degrees with the colours (and the side to move) swapped.
fn swap_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .rev()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    format!("{} {side}", ranks.join("/"))
}

#[test]
fn mirrored_and_colour_swapped_positions_agree() {
    let (_, tb) = tables();
    for name in ["KHKA", "KPK", "KAKA", "KCKA"] {
        for pos in all_positions(name).iter().step_by(7) {
            let fen = pos.to_fen();
            let probe = tb.probe_checked(pos).unwrap();
            for other in [
                mirror_fen(&fen),
                swap_fen(&fen),
                mirror_fen(&swap_fen(&fen)),
            ] {
                let p = Position::from_fen(&other).unwrap();
                assert_eq!(tb.probe_checked(&p).unwrap(), probe, "{fen} vs {other}");
            }
        }
    }
}

// ---- The engine plays the tables ----

#[test]
fn engine_mates_in_the_stated_number_of_plies() {
    let (_, tb) = tables();
    let mut engine = Engine::new(8);
    engine.set_tablebases(Some(tb.clone()));
    let stop = AtomicBool::new(false);
    // Seeded, so the sample is the same every run.
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let mut played = 0;
    for name in ["KRKA", "KHKA", "KRK", "KPK"] {
        let positions: Vec<Position> = all_positions(name)
            .into_iter()
            .filter(|p| tb.probe_checked(p).unwrap().wdl == Wdl::Win)
            .collect();
        for _ in 0..5 {
            let mut pos = positions[rng.below(positions.len())].clone();
            let stated = tb.probe_checked(&pos).unwrap().plies.unwrap();
            let mut plies = 0;
            while pos.has_legal_move() {
                let result = engine.search(&pos, &Limits::depth(3), &stop, &mut |_| {});
                let mv: Move = result.best_move.unwrap();
                assert!(pos.is_legal(mv));
                pos.make_move(mv);
                plies += 1;
                assert!(plies <= stated, "{name}: no mate after {stated} plies");
            }
            assert_eq!(plies, stated, "{name}");
            played += 1;
        }
    }
    assert_eq!(played, 20);
}

#[test]
fn engine_search_scores_covered_positions_exactly() {
    let (_, tb) = tables();
    let mut engine = Engine::new(8);
    engine.set_tablebases(Some(tb.clone()));
    let stop = AtomicBool::new(false);
    // KRK, Red to move: mate in 1 ply (a0d0 or a0a8).
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
    let result = engine.search(&pos, &Limits::depth(5), &stop, &mut |_| {});
    assert_eq!(result.score, xiangqi_engine::engine::score::mate_in(1));
    assert_eq!(result.best_move.unwrap().iccs(), "a0d0");
}

// ---- Damaged files ----

#[test]
fn damaged_or_truncated_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    egtb::generate(&[material("KRK")], dir.path(), 1, &Silent).unwrap();
    let path = egtb::file::table_path(dir.path(), &material("KRK"));
    let good = std::fs::read(&path).unwrap();
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
    let check = |bytes: &[u8], expected: &str| {
        std::fs::write(&path, bytes).unwrap();
        let tb = Tablebases::open(dir.path());
        let err = tb.probe_checked(&pos).unwrap_err();
        assert!(matches!(err, EgtbError::Corrupt { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!("{}: damaged tablebase file: {expected}", path.display())
        );
        assert!(tb.probe(&pos).is_none());
    };
    check(
        &good[..good.len() - 3],
        &format!(
            "truncated or padded: {} data bytes, header says {}",
            good.len() - 3 - 51,
            good.len() - 51
        ),
    );
    check(&good[..20], "truncated header");
    let mut bad = good.clone();
    bad[0] = b'Y';
    check(&bad, "not a tablebase file (bad magic)");
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x55;
    let tb_err = {
        std::fs::write(&path, &bad).unwrap();
        Tablebases::open(dir.path())
            .probe_checked(&pos)
            .unwrap_err()
    };
    assert!(matches!(tb_err, EgtbError::Corrupt { .. }), "{tb_err}");
    // A damaged table is generated again, a valid one kept.
    let solved = egtb::generate(&[material("KRK")], dir.path(), 1, &Silent).unwrap();
    assert_eq!(solved, vec![material("KRK")]);
    assert_eq!(std::fs::read(&path).unwrap(), good);
    let solved = egtb::generate(&[material("KRK")], dir.path(), 1, &Silent).unwrap();
    assert!(solved.is_empty());
    assert!(Path::new(&path).exists());
}
