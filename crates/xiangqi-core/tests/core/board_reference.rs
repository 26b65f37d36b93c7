//! Property tests of the rules core against a slow, obviously-correct reference move
//! generator written here from the rules, independent of the preset tables.

use proptest::prelude::*;
use xiangqi_core::board::{Color, Kind, Move, Position, Square};

type Grid = [[Option<(Color, Kind)>; 10]; 9];

fn grid(pos: &Position) -> Grid {
    let mut g = [[None; 10]; 9];
    for x in 0..9u8 {
        for y in 0..10u8 {
            let p = pos.piece_at(Square::new(x, y));
            if p.is_some() {
                g[x as usize][y as usize] = Some((p.color(), p.kind()));
            }
        }
    }
    g
}

fn in_palace(color: Color, x: i32, y: i32) -> bool {
    (3..=5).contains(&x)
        && if color == Color::Red {
            (0..=2).contains(&y)
        } else {
            (7..=9).contains(&y)
        }
}

fn own_side(color: Color, y: i32) -> bool {
    if color == Color::Red { y <= 4 } else { y >= 5 }
}

fn on_board(x: i32, y: i32) -> bool {
    (0..9).contains(&x) && (0..10).contains(&y)
}

/// Pseudo-legal moves of the piece on (x, y), from the rules of each piece.
fn piece_moves(g: &Grid, x: i32, y: i32) -> Vec<(i32, i32)> {
    let (color, kind) = g[x as usize][y as usize].unwrap();
    let at = |x: i32, y: i32| g[x as usize][y as usize];
    let mut out = Vec::new();
    let add = |tx: i32, ty: i32, out: &mut Vec<(i32, i32)>| {
        if on_board(tx, ty) && at(tx, ty).is_none_or(|(c, _)| c != color) {
            out.push((tx, ty));
        }
    };
    let orth = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    match kind {
        Kind::General => {
            for (dx, dy) in orth {
                if in_palace(color, x + dx, y + dy) {
                    add(x + dx, y + dy, &mut out);
                }
            }
        }
        Kind::Advisor => {
            for (dx, dy) in diag {
                if in_palace(color, x + dx, y + dy) {
                    add(x + dx, y + dy, &mut out);
                }
            }
        }
        Kind::Elephant => {
            for (dx, dy) in diag {
                let (tx, ty) = (x + 2 * dx, y + 2 * dy);
                if on_board(tx, ty) && own_side(color, ty) && at(x + dx, y + dy).is_none() {
                    add(tx, ty, &mut out);
                }
            }
        }
        Kind::Horse => {
            for (dx, dy) in orth {
                if !on_board(x + dx, y + dy) || at(x + dx, y + dy).is_some() {
                    continue;
                }
                let (px, py) = (dy, dx);
                add(x + 2 * dx + px, y + 2 * dy + py, &mut out);
                add(x + 2 * dx - px, y + 2 * dy - py, &mut out);
            }
        }
        Kind::Chariot | Kind::Cannon => {
            for (dx, dy) in orth {
                let (mut tx, mut ty) = (x + dx, y + dy);
                let mut screen = false;
                while on_board(tx, ty) {
                    match (at(tx, ty), screen, kind) {
                        (None, false, _) => out.push((tx, ty)),
                        (Some(_), false, Kind::Chariot) => {
                            add(tx, ty, &mut out);
                            break;
                        }
                        (Some(_), false, _) => screen = true,
                        (None, true, _) => {}
                        (Some(_), true, _) => {
                            add(tx, ty, &mut out);
                            break;
                        }
                    }
                    tx += dx;
                    ty += dy;
                }
            }
        }
        Kind::Soldier => {
            let fwd = if color == Color::Red { 1 } else { -1 };
            add(x, y + fwd, &mut out);
            if !own_side(color, y) {
                add(x - 1, y, &mut out);
                add(x + 1, y, &mut out);
            }
        }
    }
    out
}

/// True if `color`'s general can be captured, or the generals see each other.
fn general_exposed(g: &Grid, color: Color) -> bool {
    let mut general = None;
    let mut enemy_general = None;
    for x in 0..9 {
        for y in 0..10 {
            match g[x as usize][y as usize] {
                Some((c, Kind::General)) if c == color => general = Some((x, y)),
                Some((_, Kind::General)) => enemy_general = Some((x, y)),
                _ => {}
            }
        }
    }
    let (gx, gy) = general.unwrap();
    let (ex, ey) = enemy_general.unwrap();
    if gx == ex {
        let (lo, hi) = (gy.min(ey), gy.max(ey));
        if (lo + 1..hi).all(|y| g[gx as usize][y as usize].is_none()) {
            return true;
        }
    }
    for x in 0..9 {
        for y in 0..10 {
            if let Some((c, _)) = g[x as usize][y as usize]
                && c != color
                && piece_moves(g, x, y).contains(&(gx, gy))
            {
                return true;
            }
        }
    }
    false
}

fn reference_legal_moves(pos: &Position) -> Vec<Move> {
    let g = grid(pos);
    let us = pos.side_to_move();
    let mut moves = Vec::new();
    for x in 0..9 {
        for y in 0..10 {
            if !matches!(g[x as usize][y as usize], Some((c, _)) if c == us) {
                continue;
            }
            for (tx, ty) in piece_moves(&g, x, y) {
                let mut after = g;
                after[tx as usize][ty as usize] = after[x as usize][y as usize].take();
                if !general_exposed(&after, us) {
                    moves.push(Move::new(
                        Square::new(x as u8, y as u8),
                        Square::new(tx as u8, ty as u8),
                    ));
                }
            }
        }
    }
    moves.sort();
    moves
}

fn start_fens() -> Vec<String> {
    include_str!("../../../../tests/data/perft.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

/// Plays a random game of up to `plies` moves chosen by `choices`, checking every
/// invariant at every step, then unwinds it checking that unmake restores each position.
fn check_random_game(fen: &str, choices: &[usize]) {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut trail: Vec<(Move, String, u64)> = Vec::new();
    for &choice in choices {
        let mut moves = pos.legal_move_list();
        moves.sort();
        assert_eq!(
            moves,
            reference_legal_moves(&pos),
            "legal moves of {}",
            pos.to_fen()
        );
        assert_eq!(pos.count_legal(), moves.len() as u64);
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "incremental key of {}",
            pos.to_fen()
        );
        let fen = pos.to_fen();
        let reread = Position::from_fen(&fen).unwrap();
        assert_eq!(reread, pos);
        assert_eq!(reread.to_fen(), fen);
        assert_eq!(reread.key(), pos.key());
        assert_eq!(reread.in_check(), pos.in_check());
        let g = grid(&pos);
        for &mv in &moves {
            assert!(pos.is_legal(mv));
            let (from, to) = (mv.from(), mv.to());
            let mut after = g;
            after[to.x() as usize][to.y() as usize] =
                after[from.x() as usize][from.y() as usize].take();
            assert_eq!(
                pos.gives_check(mv),
                general_exposed(&after, pos.side_to_move().opponent()),
                "{mv} gives check in {}",
                pos.to_fen()
            );
        }
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice % moves.len()];
        trail.push((mv, fen, pos.key()));
        pos.make_move(mv);
    }
    while let Some((mv, fen, key)) = trail.pop() {
        pos.unmake_move(mv);
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(pos.key(), key);
        assert_eq!(pos.in_check(), Position::from_fen(&fen).unwrap().in_check());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_games_agree_with_the_reference(
        start in 0usize..36,
        choices in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        let fens = start_fens();
        let fen = if start == fens.len() { Position::START_FEN.to_string() } else { fens[start].clone() };
        check_random_game(&fen, &choices);
    }
}

#[test]
fn every_reference_position_agrees_with_the_reference_generator() {
    for fen in start_fens() {
        let pos = Position::from_fen(&fen).unwrap();
        let mut moves = pos.legal_move_list();
        moves.sort();
        assert_eq!(moves, reference_legal_moves(&pos), "{fen}");
    }
}

#[test]
fn illegal_moves_are_rejected() {
    let pos = Position::startpos();
    let legal = pos.legal_move_list();
    for from in 0..90 {
        for to in 0..90 {
            let mv = Move::new(Square::from_index(from), Square::from_index(to));
            assert_eq!(pos.is_legal(mv), legal.contains(&mv), "{mv}");
        }
    }
}
