//! Retrograde analysis of one ending.
//!
//! Every index gets a value byte: `d` <= `MAX_DTM` is a decided position, a win in `d`
//! plies for the side to move when `d` is odd, a loss in `d` plies when even (0: no
//! legal move, checkmate or stalemate, both lost in xiangqi); `DRAW`; `ILLEGAL`.
//!
//! 1. A scan (split over threads) builds each position with the rules core, generates
//!    its legal moves and reads every capture's result from the smaller tables. Quiet
//!    moves stay in the ending: they are only counted.
//! 2. Levels n = 0, 1, 2, ... decide positions in order of distance. A loss at n makes
//!    every predecessor (found by un-moving a piece of the side that just moved) a win
//!    at n+1 unless already decided; a win at n takes one from each predecessor's count
//!    of undecided quiet moves, and a predecessor left with none, no capture that draws
//!    or wins, is lost at one more than its longest move. Wins and losses found through
//!    captures wait in per-level buckets until their level comes.
//!
//! Whatever is undecided at the end can avoid losing forever without winning: a draw (a
//! cycle counts as a draw; repetition rules are out of the tables' scope).

use xiangqi_core::board::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_ATTACKERS, NO_SQ, SOLDIER_ATTACKERS,
    legal_points,
};
use xiangqi_core::board::{Bb, Kind, Move, Position, Squares};

use super::EgtbError;
use super::index::Indexer;

pub const DRAW: u8 = 255;
pub const ILLEGAL: u8 = 254;
/// Longest distance a table can record.
pub const MAX_DTM: u8 = 253;

const NONE: u8 = u8::MAX;

/// Per-position bookkeeping while solving.
#[derive(Clone, Copy)]
struct Cell {
    value: u8,
    /// Quiet moves whose result is not yet known to be a win for the opponent.
    remaining: u8,
    /// Shortest win through a capture, or `NONE`.
    win_at: u8,
    /// Loss distance if every move loses (so far the longest), or `NONE` when a capture
    /// draws: then the position can never be lost.
    loss_at: u8,
}

/// Reports progress: (positions done, positions in all).
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// Solves the ending of `ix`. `sub` gives the value byte of a position one capture away
/// (from its side to move). Returns the value of every index.
pub fn solve(
    ix: &Indexer,
    sub: &(dyn Fn(&Position) -> u8 + Sync),
    threads: usize,
    progress: Progress,
) -> Result<Vec<u8>, EgtbError> {
    let total = 2 * ix.per_side;
    let mut cells = vec![
        Cell {
            value: DRAW,
            remaining: 0,
            win_at: NONE,
            loss_at: 0,
        };
        total as usize
    ];
    scan(ix, sub, threads.max(1), &mut cells, progress)?;

    // Buckets of positions decided by captures (or by having no move), by distance.
    let mut wins: Vec<Vec<u64>> = vec![Vec::new(); 256];
    let mut losses: Vec<Vec<u64>> = vec![Vec::new(); 256];
    for (i, c) in cells.iter().enumerate() {
        if c.value == 0 {
            losses[0].push(i as u64);
        } else if c.value == DRAW {
            if c.win_at != NONE {
                wins[usize::from(c.win_at)].push(i as u64);
            } else if c.remaining == 0 && c.loss_at != NONE {
                losses[usize::from(c.loss_at)].push(i as u64);
            }
        }
    }
    // The value byte 0 doubles as "decided at level 0"; clear it so level 0 decides it.
    for &i in &losses[0] {
        cells[i as usize].value = DRAW;
    }

    let mut pos = Position::empty();
    let mut pred = Position::empty();
    let mut decided = 0u64;
    let mut frontier: Vec<u64> = Vec::new();
    let mut next: Vec<u64> = Vec::new();
    for level in 0..=usize::from(MAX_DTM) {
        let bucket = if level % 2 == 1 {
            std::mem::take(&mut wins[level])
        } else {
            std::mem::take(&mut losses[level])
        };
        for i in bucket {
            let c = &mut cells[i as usize];
            if c.value == DRAW {
                c.value = level as u8;
                frontier.push(i);
            }
        }
        frontier.append(&mut next);
        if frontier.is_empty() {
            if wins[level..]
                .iter()
                .chain(&losses[level..])
                .all(Vec::is_empty)
            {
                break;
            }
            continue;
        }
        if level == usize::from(MAX_DTM) {
            return Err(EgtbError::TooDeep(ix.material.to_string()));
        }
        let child_level = (level + 1) as u8;
        for &i in &frontier {
            let lost_here = level % 2 == 0;
            for_each_predecessor(ix, i, &mut pos, &mut pred, |p| {
                let c = &mut cells[p as usize];
                if c.value != DRAW {
                    return;
                }
                if lost_here {
                    c.value = child_level;
                    next.push(p);
                } else {
                    c.remaining -= 1;
                    if c.loss_at != NONE {
                        c.loss_at = c.loss_at.max(child_level);
                        if c.remaining == 0 && c.win_at == NONE {
                            if c.loss_at == child_level {
                                c.value = child_level;
                                next.push(p);
                            } else {
                                losses[usize::from(c.loss_at)].push(p);
                            }
                        }
                    }
                }
            });
        }
        decided += frontier.len() as u64;
        progress(decided, total);
        frontier.clear();
    }
    Ok(cells.into_iter().map(|c| c.value).collect())
}

/// Step 1, split over `threads` threads by index range.
fn scan(
    ix: &Indexer,
    sub: &(dyn Fn(&Position) -> u8 + Sync),
    threads: usize,
    cells: &mut [Cell],
    progress: Progress,
) -> Result<(), EgtbError> {
    let total = cells.len() as u64;
    let chunk = cells.len().div_ceil(threads).max(1);
    let done = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = cells
            .chunks_mut(chunk)
            .enumerate()
            .map(|(t, part)| {
                let done = &done;
                scope.spawn(move || {
                    let start = (t * chunk) as u64;
                    let mut pos = Position::empty();
                    let mut moves = Vec::with_capacity(64);
                    for (offset, cell) in part.iter_mut().enumerate() {
                        *cell = analyse(ix, start + offset as u64, sub, &mut pos, &mut moves)?;
                        if offset % 65536 == 65535 {
                            let d = done.fetch_add(65536, std::sync::atomic::Ordering::Relaxed);
                            progress(d + 65536, total);
                        }
                    }
                    Ok::<(), EgtbError>(())
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("a solver thread panicked"))
    })
}

/// The starting bookkeeping of one index.
fn analyse(
    ix: &Indexer,
    index: u64,
    sub: &(dyn Fn(&Position) -> u8 + Sync),
    pos: &mut Position,
    moves: &mut Vec<Move>,
) -> Result<Cell, EgtbError> {
    let mut cell = Cell {
        value: DRAW,
        remaining: 0,
        win_at: NONE,
        loss_at: 0,
    };
    if !ix.build_into(&ix.decode(index), pos) {
        cell.value = ILLEGAL;
        return Ok(cell);
    }
    moves.clear();
    pos.legal_moves(moves);
    if moves.is_empty() {
        cell.value = 0;
        return Ok(cell);
    }
    for &mv in moves.iter() {
        if pos.piece_at(mv.to()).is_none() {
            cell.remaining += 1;
            continue;
        }
        pos.make_move(mv);
        let v = sub(pos);
        pos.unmake_move(mv);
        match v {
            DRAW => cell.loss_at = NONE,
            ILLEGAL => return Err(EgtbError::Inconsistent(ix.material.to_string())),
            d if d % 2 == 0 => cell.win_at = cell.win_at.min(d + 1),
            d => {
                if cell.loss_at != NONE {
                    cell.loss_at = cell.loss_at.max(d + 1);
                }
            }
        }
    }
    Ok(cell)
}

/// Calls `found` with the index of every position from which a quiet legal move leads to
/// index `index` (once per such move).
fn for_each_predecessor(
    ix: &Indexer,
    index: u64,
    pos: &mut Position,
    pred: &mut Position,
    mut found: impl FnMut(u64),
) {
    let placement = ix.decode(index);
    let built = ix.build_into(&placement, pos);
    debug_assert!(built, "a decided index is a legal position");
    let mover = placement.side.opponent();
    let empty = !pos.occupied();
    let pieces = ix.pieces();
    for (slot, piece) in pieces.iter().enumerate() {
        if piece.color() != mover {
            continue;
        }
        let to = placement.squares[slot];
        let kind = piece.kind();
        let origins = origins(pos, kind, mover, to) & empty & legal_points(kind, mover);
        for from in Squares(origins) {
            let mut before = placement;
            before.squares[slot] = from;
            before.side = mover;
            if !ix.build_into(&before, pred) || !pred.is_legal(Move::new(from, to)) {
                continue;
            }
            if let Some(p) = ix.encode(&before) {
                found(p);
            }
        }
    }
}

/// Points a piece of `kind` may have come from to reach `to` with a quiet move (a
/// superset for horses and elephants, whose legs and eyes `is_legal` then checks).
fn origins(
    pos: &Position,
    kind: Kind,
    color: xiangqi_core::board::Color,
    to: xiangqi_core::board::Square,
) -> Bb {
    let t = to.index();
    match kind {
        Kind::General => GENERAL_STEPS[t],
        Kind::Advisor => ADVISOR_STEPS[t],
        Kind::Elephant => ELEPHANT_STEPS[t]
            .iter()
            .take_while(|&&(eye, _)| eye != NO_SQ)
            .fold(0, |acc, &(_, sq)| acc | 1u128 << sq),
        Kind::Horse => HORSE_ATTACKERS[t]
            .iter()
            .take_while(|&&(leg, _)| leg != NO_SQ)
            .fold(0, |acc, &(_, from)| acc | from),
        Kind::Chariot | Kind::Cannon => pos.chariot_reach(to),
        Kind::Soldier => SOLDIER_ATTACKERS[color.index()][t],
    }
}
