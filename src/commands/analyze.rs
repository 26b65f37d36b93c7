//! `xiangqi-tui analyze [--fen FEN] [--moves M...] [--json]`, with limits from the global
//! `--depth`, `--movetime`, `--nodes`, `--hash` and `--algorithm` flags (a one-second
//! search by default).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use xiangqi_tui::board::{Color, Kind, Move, Position};
use xiangqi_tui::engine::{Engine, Limits, SearchResult, Verdict};

use crate::cli::{AnalyzeArgs, GlobalArgs};

/// Search time when no limit is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

pub fn run(args: &AnalyzeArgs, global: &GlobalArgs) -> Result<()> {
    let pos = setup_position(args.fen.as_deref(), &args.moves)?;
    match global.algorithm.as_deref() {
        None | Some("alphabeta") => {}
        Some(other) => {
            bail!("--algorithm {other}: only alphabeta can analyse positions in this build")
        }
    }
    let limits = limits_from(global);
    let mut engine = Engine::new(
        global
            .hash
            .map_or(Engine::DEFAULT_HASH_MB, |mb| mb as usize),
    );
    let stop = AtomicBool::new(false);
    let json = args.json;
    let mut report = |info: &xiangqi_tui::engine::SearchInfo| {
        if !json {
            let pv: Vec<String> = info.pv.iter().map(|m| m.iccs()).collect();
            eprintln!(
                "depth {:>2}  score {:<10} nodes {:>10}  pv {}",
                info.depth,
                info.verdict().to_string(),
                info.nodes,
                pv.join(" ")
            );
        }
    };
    let result = engine.search(&pos, &limits, &stop, &mut report);
    if json {
        println!("{}", json_report(&pos, &result));
    } else {
        print_report(&pos, &result);
    }
    Ok(())
}

/// The position from `--fen` (or the start) after the `--moves` (ICCS, ranks 0-9).
pub fn setup_position(fen: Option<&str>, moves: &[String]) -> Result<Position> {
    let fen = fen.unwrap_or(Position::START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|e| anyhow!("--fen: {e}"))?;
    for (index, text) in moves.iter().enumerate() {
        let mv = Move::parse_coords(text)
            .ok_or_else(|| anyhow!("--moves: move {} '{text}' is not an ICCS move", index + 1))?;
        if !pos.is_legal(mv) {
            bail!(
                "--moves: move {} '{text}' is illegal in {}",
                index + 1,
                pos.to_fen()
            );
        }
        pos.make_move(mv);
    }
    Ok(pos)
}

/// Limits from the global flags; a one-second search when none is given.
pub fn limits_from(global: &GlobalArgs) -> Limits {
    let limits = Limits {
        depth: global.depth,
        nodes: global.nodes,
        movetime: global.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.is_unbounded() {
        Limits::movetime(DEFAULT_MOVETIME)
    } else {
        limits
    }
}

fn json_report(pos: &Position, result: &SearchResult) -> serde_json::Value {
    let (score_cp, mate) = match result.verdict() {
        Verdict::Centipawns(cp) => (Some(cp), None),
        Verdict::Mate(n) => (None, Some(n)),
    };
    serde_json::json!({
        "bestmove": result.best_move.map(|m| m.iccs()),
        "chinese": result.best_move.map(|m| chinese_move_name(pos, m)),
        "score_cp": score_cp,
        "mate": mate,
        "depth": result.depth,
        "nodes": result.nodes,
        "nps": result.nps(),
        "pv": result.pv.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
    })
}

fn print_report(pos: &Position, result: &SearchResult) {
    let Some(best) = result.best_move else {
        println!("no legal move: {} has lost", pos.side_to_move().name());
        return;
    };
    println!("bestmove {} {}", best.iccs(), chinese_move_name(pos, best));
    println!("score {}", result.verdict());
    println!("depth {} seldepth {}", result.depth, result.seldepth);
    println!("nodes {}", result.nodes);
    println!("nps {}", result.nps());
    println!("time {:.3} s", result.time.as_secs_f64());
    let iccs: Vec<String> = result.pv.iter().map(|m| m.iccs()).collect();
    println!("pv {}", iccs.join(" "));
    println!(
        "pv {}",
        chinese_line(pos, &result.pv)
            .context("pv")
            .unwrap_or_default()
    );
}

/// A variation in Chinese notation, move by move from `pos`.
fn chinese_line(pos: &Position, moves: &[Move]) -> Result<String> {
    let mut pos = pos.clone();
    let mut names = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            bail!("{mv} is not legal in {}", pos.to_fen());
        }
        names.push(chinese_move_name(&pos, mv));
        pos.make_move(mv);
    }
    Ok(names.join(" "))
}

/// STAND-IN for the notation module (being written separately): the Chinese name of a
/// legal move, following notation.md §1.6 (R1-R6) closely enough for output. The lead
/// swaps this for `notation::chinese` when it lands.
pub fn chinese_move_name(pos: &Position, mv: Move) -> String {
    let piece = pos.piece_at(mv.from());
    let (us, kind) = (piece.color(), piece.kind());
    let (from, to) = (mv.from(), mv.to());
    let file_number = |x: u8| match us {
        Color::Red => 9 - x,
        Color::Black => x + 1,
    };
    let numeral = |n: u8| match us {
        Color::Red => {
            ['一', '二', '三', '四', '五', '六', '七', '八', '九'][n as usize - 1].to_string()
        }
        Color::Black => n.to_string(),
    };
    let name = match (us, kind) {
        (Color::Red, Kind::General) => '帅',
        (Color::Black, Kind::General) => '将',
        (Color::Red, Kind::Advisor) => '仕',
        (Color::Black, Kind::Advisor) => '士',
        (Color::Red, Kind::Elephant) => '相',
        (Color::Black, Kind::Elephant) => '象',
        (_, Kind::Horse) => '马',
        (_, Kind::Chariot) => '车',
        (_, Kind::Cannon) => '炮',
        (Color::Red, Kind::Soldier) => '兵',
        (Color::Black, Kind::Soldier) => '卒',
    };
    // Pieces of this kind on the mover's file, front (nearest the enemy) first.
    let mut same_file: Vec<u8> = pos
        .squares_of(us, kind)
        .filter(|s| s.x() == from.x())
        .map(|s| s.y())
        .collect();
    same_file.sort_unstable_by_key(|&y| match us {
        Color::Red => 9 - y,
        Color::Black => y,
    });
    let index = same_file.iter().position(|&y| y == from.y()).unwrap_or(0);
    let n = same_file.len();
    let prefix = if matches!(kind, Kind::General | Kind::Advisor | Kind::Elephant) || n == 1 {
        format!("{name}{}", numeral(file_number(from.x())))
    } else {
        let word = match (n, index) {
            (2, 0) | (3, 0) => "前".to_string(),
            (2, _) | (3, 2) => "后".to_string(),
            (3, 1) => "中".to_string(),
            (_, i) => ['一', '二', '三', '四', '五'][i].to_string(),
        };
        let doubled_files = (0..9u8)
            .filter(|&x| {
                pos.squares_of(us, Kind::Soldier)
                    .filter(|s| s.x() == x)
                    .count()
                    >= 2
            })
            .count();
        if kind == Kind::Soldier && doubled_files >= 2 {
            format!("{word}{}", numeral(file_number(from.x())))
        } else {
            format!("{word}{name}")
        }
    };
    let forward = match us {
        Color::Red => to.y() > from.y(),
        Color::Black => to.y() < from.y(),
    };
    let straight = matches!(
        kind,
        Kind::General | Kind::Chariot | Kind::Cannon | Kind::Soldier
    );
    let (action, value) = if from.y() == to.y() {
        ('平', file_number(to.x()))
    } else if straight && from.x() == to.x() {
        (if forward { '进' } else { '退' }, from.y().abs_diff(to.y()))
    } else {
        (if forward { '进' } else { '退' }, file_number(to.x()))
    };
    format!("{prefix}{action}{}", numeral(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(fen: &str, mv: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let mv = Move::parse_coords(mv).unwrap();
        assert!(pos.is_legal(mv));
        chinese_move_name(&pos, mv)
    }

    #[test]
    fn names_the_worked_examples_of_the_notation_spec() {
        let start = Position::START_FEN;
        assert_eq!(name(start, "h2e2"), "炮二平五");
        assert_eq!(name(start, "h0g2"), "马二进三");
        assert_eq!(name(start, "c0e2"), "相七进五");
        let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(name(after, "h9g7"), "马8进7");
        let cannons = "6br1/5k1P1/1C1a3P1/2RN3P1/pC4p2/P4NP2/1n3p1c1/3A1A3/5K3/2p3BR1 w - - 11 79";
        assert_eq!(name(cannons, "b5b4"), "后炮退一");
        assert_eq!(name(cannons, "b5c5"), "后炮平七");
        let pawns = "rnba1abn1/4k2c1/8r/5P1P1/p1p2P3/P1P5p/1C5pp/9/3CA4/RNBK1ABNR b - - 0 21";
        assert_eq!(name(pawns, "i3i2"), "前卒进1");
        assert_eq!(name(pawns, "i4h4"), "后卒平8");
        let doubled = "r1bak1br1/9/2na3Pn/6PP1/p5p2/P4cPp1/9/N1p4C1/4AC2N/R1BAK1BR1 w - - 17 32";
        assert_eq!(name(doubled, "g6f6"), "前三平四");
        assert_eq!(name(doubled, "g4g5"), "后三进一");
        let advisors = "r2a2br1/4k4/2nab1PPn/7P1/p5p2/P4cP1p/7C1/N1pA5/5C2N/R1BAK1BR1 w - - 23 35";
        assert_eq!(name(advisors, "d2e1"), "仕六退五");
    }
}
