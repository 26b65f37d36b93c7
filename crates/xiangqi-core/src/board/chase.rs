//! Perpetual chase (长捉): under the Asian rules a side that attacks the same unprotected
//! piece with every one of its moves through a repetition loses, like a perpetual checker.
//!
//! A move "chases" the opponent's pieces that it newly attacks, directly or by
//! discovery, when they cannot simply be defended: an unprotected piece (defenders that
//! are pinned to their general do not count), or a chariot attacked by a horse or cannon,
//! or a chariot, horse or cannon attacked by an advisor or elephant. Attacks by the
//! general and soldiers, attacks on the general (checks) and on soldiers that have not
//! crossed the river, and mutual attacks between pieces of the same kind are not chases.
//! A move that pins a defender, or sets up a capture with discovered check, also chases
//! what it exposes. These are the criteria the Fairy-Stockfish referee applies, so games
//! judged by it and by us end the same way.
//!
//! This code runs only when a repetition has been found, but the search finds thousands
//! in an endgame, so the attack queries are table lookups. Attacks are computed for any
//! occupancy near the position's, not just the position's own.

use super::bitboard::{Bb, Squares};
use super::position::Position;
use super::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_CANNON, FILE_MASK, FILE_SLIDE, FILE_SPREAD, GENERAL_STEPS,
    HORSE_ATTACKERS, HORSE_STEPS, NO_SQ, OWN_HALF, RANK_CANNON, RANK_MASK, RANK_SLIDE,
    SOLDIER_ATTACKERS, SOLDIER_STEPS, square_bit,
};
use super::types::{Color, Kind, Move, Square};

/// Which sides chased some piece with every one of their moves through a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CycleChases {
    pub side_to_move: bool,
    pub opponent: bool,
}

impl Position {
    /// Who chased perpetually through the last `span` plies, which must end in a
    /// repetition of the position `span` plies ago and hold no null move. The move that
    /// led to the first occurrence counts for the side that moved last, as the
    /// Fairy-Stockfish referee counts it.
    pub fn cycle_chases(&self, span: usize) -> CycleChases {
        let played: Vec<Move> = self.moves_played().rev().take(span + 1).collect();
        let counted = if played.len() > span && !played[span].is_null() {
            span + 1
        } else {
            span
        };
        if played[..span].iter().any(|m| m.is_null()) {
            return CycleChases::default();
        }
        // Replaying needs only the cycle's part of the history: cloning all of it cost
        // more than the replay.
        let mut pos = Position {
            history: self.history[self.history.len() - counted..].to_vec(),
            ..*self
        };
        for &mv in &played[..counted] {
            pos.unmake_move(mv);
        }
        // Replay the cycle, noting what each move chased. `chased` holds, per side, the
        // squares of the opponent's pieces that every move of that side so far chased,
        // carried along as those pieces move.
        let mut chased: [Option<Bb>; 2] = [None, None];
        for &mv in played[..counted].iter().rev() {
            // Both sides cleared: nothing can chase any more.
            if chased == [Some(0), Some(0)] {
                break;
            }
            let mover = pos.side_to_move();
            // Once a move of a side chased nothing that side is cleared: skip the work.
            let open = chased[mover.index()] != Some(0);
            let blockers_before = if open {
                king_blockers(&pos, mover.opponent())
            } else {
                0
            };
            pos.make_move(mv);
            if open {
                let victims = chased_by_last_move(&pos, mv, blockers_before);
                let own = &mut chased[mover.index()];
                *own = Some(own.map_or(victims, |set| set & victims));
            }
            let theirs = &mut chased[mover.opponent().index()];
            if let Some(set) = theirs
                && *set & square_bit(mv.from()) != 0
            {
                *set ^= square_bit(mv.from()) | square_bit(mv.to());
            }
        }
        let us = self.side_to_move();
        CycleChases {
            side_to_move: chased[us.index()].is_some_and(|set| set != 0),
            opponent: chased[us.opponent().index()].is_some_and(|set| set != 0),
        }
    }
}

/// The side to move's pieces chased by the move just made (`mv`). `blockers_before` is
/// `king_blockers` of the side to move before the move.
fn chased_by_last_move(pos: &Position, mv: Move, blockers_before: Bb) -> Bb {
    let victim = pos.side_to_move();
    let chaser = victim.opponent();
    let occupied = pos.occupied();
    let theirs = pos.occupied_by(victim);
    // Only a move next to the general or on its lines can change what shields it.
    let general = pos.general(victim);
    let near = |p: Square| {
        p.x() == general.x()
            || p.y() == general.y()
            || (p.x().abs_diff(general.x()) <= 2 && p.y().abs_diff(general.y()) <= 2)
    };
    let blockers = if near(mv.from()) || near(mv.to()) {
        king_blockers(pos, victim)
    } else {
        blockers_before
    };
    let pins = blockers | flying_general_pin(pos, victim);
    let (from, to) = (mv.from(), mv.to());
    // A capture restarts the halfmove clock; the captured piece's point stayed occupied.
    let occupied_before = if pos.halfmove_clock() == 0 {
        occupied ^ square_bit(from)
    } else {
        occupied ^ square_bit(from) ^ square_bit(to)
    };
    // Soldiers still on their own side and the general are never chased.
    let unchaseable = pos.pieces(victim, Kind::General)
        | (pos.pieces(victim, Kind::Soldier) & OWN_HALF[victim.index()]);

    let mut chased: Bb = 0;
    let mut add = |attacker: Square, kind: Kind, mut attacks: Bb| {
        if attacks & !chased == 0 {
            return;
        }
        attacks &= !unchaseable;
        // Attacks on stronger pieces chase even if the target is defended.
        if matches!(kind, Kind::Horse | Kind::Cannon) {
            chased |= attacks & pos.pieces(victim, Kind::Chariot);
        }
        if matches!(kind, Kind::Elephant | Kind::Advisor) {
            chased |= attacks
                & (pos.pieces(victim, Kind::Chariot)
                    | pos.pieces(victim, Kind::Cannon)
                    | pos.pieces(victim, Kind::Horse));
        }
        // A piece of the same kind could take back: no chase, unless it is pinned or is
        // a horse whose own leg is blocked.
        if kind == Kind::Horse && diagonal_neighbours(attacker) & occupied != 0 {
            for horse in Squares(attacks & pos.pieces(victim, Kind::Horse)) {
                if attacks_with(pos, Kind::Horse, victim, horse, occupied) & square_bit(attacker)
                    != 0
                {
                    attacks ^= square_bit(horse);
                }
            }
        } else {
            attacks &= !pos.pieces(victim, kind) | pins;
        }
        for target in Squares(attacks) {
            let without_attacker = occupied ^ square_bit(attacker);
            let defenders = attackers_with(pos, target, without_attacker, victim) & !pins;
            let only_general_defends = defenders == pos.pieces(victim, Kind::General)
                && attacks_with(
                    pos,
                    Kind::Chariot,
                    chaser,
                    pos.general(chaser),
                    without_attacker,
                ) & square_bit(target)
                    != 0;
            if defenders == 0 || only_general_defends {
                chased |= square_bit(target);
            }
        }
    };

    // Direct attacks of the moved piece. A chariot or cannon keeps attacking along the
    // line it moved on, so only its new line counts.
    let moved = pos.piece_at(to).kind();
    if moved != Kind::General && moved != Kind::Soldier {
        let mut direct = attacks_with(pos, moved, chaser, to, occupied) & theirs;
        if matches!(moved, Kind::Chariot | Kind::Cannon) {
            direct &= !line_through(from, to);
        }
        add(to, moved, direct);
    }

    // Attacks discovered by moving off a horse leg, an elephant eye or a line, or by
    // becoming a cannon's screen.
    let lines_from = RANK_MASK[from.y() as usize] | FILE_MASK[from.x() as usize];
    let lines_to = RANK_MASK[to.y() as usize] | FILE_MASK[to.x() as usize];
    let candidates = (orthogonal_neighbours(from) & pos.pieces(chaser, Kind::Horse))
        | (diagonal_neighbours(from) & pos.pieces(chaser, Kind::Elephant))
        | (lines_from
            & !square_bit(from)
            & (pos.pieces(chaser, Kind::Chariot) | pos.pieces(chaser, Kind::Cannon)))
        | (lines_to & !square_bit(to) & pos.pieces(chaser, Kind::Cannon));
    for s in Squares(candidates) {
        let kind = pos.piece_at(s).kind();
        let discovered = theirs
            & attacks_with(pos, kind, chaser, s, occupied)
            & !attacks_with(pos, kind, chaser, s, occupied_before);
        add(s, kind, discovered);
    }

    if !pos.last_move().is_some_and(|m| m.is_null()) {
        // A defender newly pinned to its general no longer defends: what it guarded
        // and the chaser attacks is chased.
        let new_blockers = blockers & !blockers_before;
        let newly_pinned = new_blockers & theirs;
        let chaser_pinned = if newly_pinned != 0 {
            king_blockers(pos, chaser)
        } else {
            0
        };
        for pinned in Squares(newly_pinned) {
            let kind = pos.piece_at(pinned).kind();
            let guarded = theirs & !unchaseable & attacks_with(pos, kind, victim, pinned, occupied);
            for s in Squares(guarded) {
                if attackers_with(pos, s, occupied, chaser) & !chaser_pinned != 0 {
                    chased |= square_bit(s);
                }
            }
        }
        // A chaser piece that now screens a check can take with discovered check:
        // everything it attacks is chased, unless the general can take back.
        let general_reach = GENERAL_STEPS[general.index()];
        for discoverer in Squares(new_blockers & pos.occupied_by(chaser)) {
            let kind = pos.piece_at(discoverer).kind();
            let attacks = attacks_with(pos, kind, chaser, discoverer, occupied) & theirs;
            chased |= attacks & !general_reach;
            for s in Squares(attacks & general_reach) {
                let after = occupied ^ square_bit(discoverer) ^ square_bit(general);
                if attackers_with(pos, s, after, chaser) & !square_bit(discoverer) != 0 {
                    chased |= square_bit(s);
                }
            }
        }
    }
    chased
}

/// Pieces of either colour whose removal would expose `color`'s general to a new attack
/// (a chariot, horse or cannon of the opponent, or the facing general).
///
/// Read off the lines from the general: removing the first piece on a line brings in the
/// second if it is a chariot or the general, and the third if it is a cannon; removing
/// the second brings in the third if it is a cannon. A piece on a diagonal neighbour
/// opens the horses (and, in theory, elephants) whose leg or eye it blocks. Nothing else
/// depends on one point's occupancy. Generals are never counted as blockers.
fn king_blockers(pos: &Position, color: Color) -> Bb {
    let general = pos.general(color);
    let enemy = color.opponent();
    let occupied = pos.occupied();
    let generals = pos.pieces(Color::Red, Kind::General) | pos.pieces(Color::Black, Kind::General);
    let sliders = pos.pieces(enemy, Kind::Chariot) | pos.pieces(enemy, Kind::General);
    let cannons = pos.pieces(enemy, Kind::Cannon);
    let mut blockers = 0;
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let mut line = [0 as Bb; 3];
        let mut n = 0;
        let (mut x, mut y) = (i32::from(general.x()) + dx, i32::from(general.y()) + dy);
        while n < 3
            && let Some(s) = Square::try_new(x, y)
        {
            if occupied & square_bit(s) != 0 {
                line[n] = square_bit(s);
                n += 1;
            }
            x += dx;
            y += dy;
        }
        let [first, second, third] = line;
        if first & generals == 0 && (second & sliders != 0 || third & cannons != 0) {
            blockers |= first;
        }
        if second & generals == 0 && third & cannons != 0 {
            blockers |= second;
        }
    }
    let horses = pos.pieces(enemy, Kind::Horse);
    for &(leg, from) in &HORSE_ATTACKERS[general.index()] {
        if leg != NO_SQ && from & horses != 0 {
            blockers |= (1u128 << leg) & occupied & !generals;
        }
    }
    let elephants = pos.pieces(enemy, Kind::Elephant);
    for &(eye, from) in &ELEPHANT_STEPS[general.index()] {
        if eye != NO_SQ && (1u128 << from) & elephants != 0 {
            blockers |= (1u128 << eye) & occupied & !generals;
        }
    }
    blockers
}

/// `color`'s lone piece between the generals on the chaser's general's file: it cannot
/// leave the file (the referee treats it as pinned even when the files differ).
fn flying_general_pin(pos: &Position, color: Color) -> Bb {
    let file = FILE_MASK[pos.general(color.opponent()).x() as usize];
    let on_file = file & pos.occupied_by(color);
    let others = on_file & !pos.pieces(color, Kind::General);
    if on_file & pos.pieces(color, Kind::General) != 0 && others.count_ones() == 1 {
        others
    } else {
        0
    }
}

/// The pieces of `by` standing in `occupied` that attack `target` given that occupancy.
/// Every attack but the soldier's is symmetric, so each kind is looked for from the
/// target (a cannon only ever attacks an occupied point).
fn attackers_with(pos: &Position, target: Square, occupied: Bb, by: Color) -> Bb {
    let of = |kind: Kind| pos.pieces(by, kind) & occupied;
    let t = target.index();
    let mut found = (line_attacks(pos, target, occupied, false) & of(Kind::Chariot))
        | (SOLDIER_ATTACKERS[by.index()][t] & of(Kind::Soldier))
        | (ADVISOR_STEPS[t] & of(Kind::Advisor))
        | (GENERAL_STEPS[t] & of(Kind::General));
    if occupied & square_bit(target) != 0 {
        found |= line_attacks(pos, target, occupied, true) & of(Kind::Cannon);
    }
    let horses = of(Kind::Horse);
    if horses != 0 {
        for &(leg, from) in &HORSE_ATTACKERS[t] {
            if leg != NO_SQ && occupied & (1u128 << leg) == 0 {
                found |= from & horses;
            }
        }
    }
    let elephants = of(Kind::Elephant);
    if elephants != 0 {
        for &(eye, from) in &ELEPHANT_STEPS[t] {
            if eye != NO_SQ && occupied & (1u128 << eye) == 0 {
                found |= (1u128 << from) & elephants;
            }
        }
    }
    found
}

/// Points a piece of `kind` and `color` on `s` attacks when the board's occupancy is
/// `occupied` (the general by its steps only).
fn attacks_with(pos: &Position, kind: Kind, color: Color, s: Square, occupied: Bb) -> Bb {
    match kind {
        Kind::General => GENERAL_STEPS[s.index()],
        Kind::Advisor => ADVISOR_STEPS[s.index()],
        Kind::Soldier => SOLDIER_STEPS[color.index()][s.index()],
        Kind::Elephant => ELEPHANT_STEPS[s.index()]
            .iter()
            .filter(|&&(eye, _)| eye != NO_SQ && occupied & (1u128 << eye) == 0)
            .fold(0, |acc, &(_, to)| acc | (1u128 << to)),
        Kind::Horse => HORSE_STEPS[s.index()]
            .iter()
            .filter(|&&(leg, _)| leg != NO_SQ && occupied & (1u128 << leg) == 0)
            .fold(0, |acc, &(_, targets)| acc | targets),
        Kind::Chariot => line_attacks(pos, s, occupied, false),
        Kind::Cannon => line_attacks(pos, s, occupied, true),
    }
}

/// Along the rank and file of `s`: the first piece each way (`cannon` false: a chariot,
/// with the empty points before it), or the first piece beyond a screen (a cannon).
/// `occupied` differs from the position's occupancy by a point or two, so the file's
/// occupancy word is the position's with those points flipped.
fn line_attacks(pos: &Position, s: Square, occupied: Bb, cannon: bool) -> Bb {
    let (x, y) = (s.x() as usize, s.y() as usize);
    let rank_occ = ((occupied >> (9 * y)) & 0x1ff) as usize;
    let mut file_occ = pos.file_occ[x] as usize;
    for p in Squares((occupied ^ pos.occupied()) & FILE_MASK[x]) {
        file_occ ^= 1 << p.y();
    }
    let file_occ = file_occ & 0x3ff;
    let (rank, file) = if cannon {
        (RANK_CANNON[x][rank_occ], FILE_CANNON[y][file_occ])
    } else {
        (RANK_SLIDE[x][rank_occ], FILE_SLIDE[y][file_occ])
    };
    (Bb::from(rank) << (9 * y)) | (FILE_SPREAD[file as usize] << x)
}

fn line_through(a: Square, b: Square) -> Bb {
    if a.y() == b.y() {
        RANK_MASK[a.y() as usize]
    } else {
        FILE_MASK[a.x() as usize]
    }
}

fn neighbours(s: Square, steps: [(i32, i32); 4]) -> Bb {
    steps
        .iter()
        .filter_map(|&(dx, dy)| Square::try_new(i32::from(s.x()) + dx, i32::from(s.y()) + dy))
        .fold(0, |acc, p| acc | square_bit(p))
}

fn orthogonal_neighbours(s: Square) -> Bb {
    neighbours(s, [(1, 0), (-1, 0), (0, 1), (0, -1)])
}

fn diagonal_neighbours(s: Square) -> Bb {
    neighbours(s, [(1, 1), (1, -1), (-1, 1), (-1, -1)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attackers by definition: every piece of `by` in `occupied` whose own attacks
    /// reach `target`.
    fn attackers_by_definition(pos: &Position, target: Square, occupied: Bb, by: Color) -> Bb {
        Squares(pos.occupied_by(by) & occupied)
            .filter(|&s| {
                let kind = pos.piece_at(s).kind();
                attacks_with(pos, kind, by, s, occupied) & square_bit(target) != 0
            })
            .fold(0, |acc, s| acc | square_bit(s))
    }

    /// Both generals if they face each other with occupancy `occupied`.
    fn facing(pos: &Position, occupied: Bb) -> Bb {
        let red = pos.general(Color::Red);
        let black = pos.pieces(Color::Black, Kind::General);
        if attacks_with(pos, Kind::Chariot, Color::Red, red, occupied) & black != 0 {
            black | square_bit(red)
        } else {
            0
        }
    }

    /// The blockers by definition: remove each piece near the general in turn and see
    /// whether a new attacker (or the facing general) appears.
    fn blockers_by_definition(pos: &Position, color: Color) -> Bb {
        let general = pos.general(color);
        let enemy = color.opponent();
        let occupied = pos.occupied();
        let generals =
            pos.pieces(Color::Red, Kind::General) | pos.pieces(Color::Black, Kind::General);
        let now = attackers_by_definition(pos, general, occupied, enemy) | facing(pos, occupied);
        Squares(occupied & !generals)
            .filter(|&s| {
                let without = occupied ^ square_bit(s);
                let after =
                    attackers_by_definition(pos, general, without, enemy) | facing(pos, without);
                after & without & !now != 0
            })
            .fold(0, |acc, s| acc | square_bit(s))
    }

    /// Positions of the perft set and pseudo-random playouts from them.
    fn sample_positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut seed = 0x9e37_79b9_u64;
        for line in include_str!("../../../../tests/data/perft.epd").lines() {
            let Some(fen) = line.split(';').next().filter(|_| !line.starts_with('#')) else {
                continue;
            };
            let Ok(mut pos) = Position::from_fen(fen.trim()) else {
                continue;
            };
            for _ in 0..60 {
                out.push(pos.clone());
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        out
    }

    #[test]
    fn fast_attack_queries_match_their_definitions() {
        let positions = sample_positions();
        assert!(positions.len() > 1000);
        for pos in &positions {
            let occupied = pos.occupied();
            for color in Color::BOTH {
                assert_eq!(
                    king_blockers(pos, color),
                    blockers_by_definition(pos, color),
                    "{color:?} blockers in {}",
                    pos.to_fen()
                );
                // Every point, with the occupancy as is and with one piece lifted.
                for lifted in [
                    0,
                    pos.occupied_by(color) & !pos.pieces(color, Kind::General),
                ] {
                    let occupied = occupied ^ (lifted & lifted.wrapping_neg());
                    for i in 0..Square::COUNT {
                        let s = Square::from_index(i);
                        assert_eq!(
                            attackers_with(pos, s, occupied, color),
                            attackers_by_definition(pos, s, occupied, color),
                            "{color:?} attackers of {s} in {}",
                            pos.to_fen()
                        );
                    }
                }
            }
        }
    }
}
