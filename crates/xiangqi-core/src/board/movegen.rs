//! Legal move generation, legal move counting and perft.
//!
//! Moves are generated per piece from the preset tables. A move can only expose the own
//! general if it leaves or enters the general's rank or file (chariots, cannons, the
//! flying general), vacates one of the general's diagonal neighbours (a horse leg), or
//! moves the general itself. When not in check, a per-piece "lift" test and the set of
//! points that would screen an enemy cannon decide most moves at once, so counting at
//! the last ply is mostly a popcount.

use super::bitboard::{Bb, Squares};
use super::position::Position;
use super::tables::{
    ADVISOR_STEPS, DIAGONAL_LEGS, ELEPHANT_STEPS, FILE_CANNON, FILE_MASK, FILE_SLIDE, FILE_SPREAD,
    GENERAL_STEPS, HORSE_ATTACKERS, HORSE_STEPS, NO_SQ, RANK_CANNON, RANK_MASK, RANK_SLIDE,
    SOLDIER_ATTACKERS, SOLDIER_STEPS, square_bit,
};
use super::types::{Color, Kind, Move, Square};

/// Receives generated moves: a list collects them, a counter only counts.
trait MoveSink {
    fn push(&mut self, mv: Move);
    /// All moves from `from` to the points of `targets`, known to be legal.
    fn push_all(&mut self, from: Square, targets: Bb);
    /// True once the sink needs no more moves: generation may stop early.
    #[inline]
    fn full(&self) -> bool {
        false
    }
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }

    #[inline]
    fn push_all(&mut self, from: Square, targets: Bb) {
        for to in Squares(targets) {
            Vec::push(self, Move::new(from, to));
        }
    }
}

struct Counter(u64);

impl MoveSink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_all(&mut self, _: Square, targets: Bb) {
        self.0 += u64::from(targets.count_ones());
    }
}

/// Only asks whether there is a move: full after the first.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }

    #[inline]
    fn push_all(&mut self, _: Square, targets: Bb) {
        self.0 |= targets != 0;
    }

    #[inline]
    fn full(&self) -> bool {
        self.0
    }
}

const KINDS_BUT_GENERAL: [Kind; 6] = [
    Kind::Chariot,
    Kind::Cannon,
    Kind::Horse,
    Kind::Soldier,
    Kind::Advisor,
    Kind::Elephant,
];

impl Position {
    /// Pseudo-legal destinations of a piece of `kind` and colour `us` on `from`, before
    /// removing points held by its own side.
    #[inline]
    fn reach(&self, kind: Kind, from: Square, us: Color) -> Bb {
        match kind {
            Kind::Chariot => self.chariot_reach(from),
            Kind::Cannon => {
                (self.chariot_reach(from) & !self.occupied()) | self.cannon_captures(from)
            }
            Kind::Horse => {
                let mut t = 0;
                for &(leg, targets) in &HORSE_STEPS[from.index()] {
                    if leg == NO_SQ {
                        break;
                    }
                    if self.board[leg as usize].is_none() {
                        t |= targets;
                    }
                }
                t
            }
            Kind::Soldier => SOLDIER_STEPS[us.index()][from.index()],
            Kind::Advisor => ADVISOR_STEPS[from.index()],
            Kind::Elephant => {
                let mut t = 0;
                for &(eye, to) in &ELEPHANT_STEPS[from.index()] {
                    if eye == NO_SQ {
                        break;
                    }
                    if self.board[eye as usize].is_none() {
                        t |= 1u128 << to;
                    }
                }
                t
            }
            Kind::General => GENERAL_STEPS[from.index()],
        }
    }

    /// True if the side to move's general is safe after moving `from` -> `to` (a
    /// pseudo-legal move), or after only lifting the piece on `from` when `to` is `None`.
    /// Works on the would-be occupancy without changing the position.
    #[inline(always)]
    fn safe_with(&self, from: Square, to: Option<Square>) -> bool {
        let us = self.side;
        let them = &self.pieces[us.opponent().index()];
        let mut general = self.general(us);
        if let Some(to) = to
            && general == from
        {
            general = to;
        }
        let (gx, gy) = (general.x() as usize, general.y() as usize);
        let to_bit = to.map_or(0, square_bit);

        let mut rank = self.rank_occ[gy];
        let mut file = self.file_occ[gx];
        if from.y() as usize == gy {
            rank &= !(1 << from.x());
        }
        if from.x() as usize == gx {
            file &= !(1 << from.y());
        }
        if let Some(to) = to {
            if to.y() as usize == gy {
                rank |= 1 << to.x();
            }
            if to.x() as usize == gx {
                file |= 1 << to.y();
            }
        }
        let slide = ((RANK_SLIDE[gx][rank as usize] as Bb) << (9 * gy))
            | (FILE_SPREAD[FILE_SLIDE[gy][file as usize] as usize] << gx);
        if slide & (them[Kind::Chariot.index()] | them[Kind::General.index()]) & !to_bit != 0 {
            return false;
        }
        let cannon = ((RANK_CANNON[gx][rank as usize] as Bb) << (9 * gy))
            | (FILE_SPREAD[FILE_CANNON[gy][file as usize] as usize] << gx);
        if cannon & them[Kind::Cannon.index()] & !to_bit != 0 {
            return false;
        }
        let soldiers = them[Kind::Soldier.index()] & !to_bit;
        if SOLDIER_ATTACKERS[us.opponent().index()][general.index()] & soldiers != 0 {
            return false;
        }
        let horses = them[Kind::Horse.index()] & !to_bit;
        if horses != 0 {
            let to_index = to.map_or(usize::MAX, Square::index);
            for &(leg, attackers) in &HORSE_ATTACKERS[general.index()] {
                if leg == NO_SQ {
                    break;
                }
                let leg = leg as usize;
                let empty = leg == from.index() || (self.board[leg].is_none() && leg != to_index);
                if empty && attackers & horses != 0 {
                    return false;
                }
            }
        }
        true
    }

    #[inline]
    fn safe_after(&self, from: Square, to: Square) -> bool {
        self.safe_with(from, Some(to))
    }

    /// Empty points where a piece would become the screen of an enemy cannon aimed at
    /// `general`: the points between the general and a cannon that is the first piece on
    /// one of its lines.
    #[inline]
    fn cannon_screen_points(&self, general: Square) -> Bb {
        let cannons = self.pieces[self.side.opponent().index()][Kind::Cannon.index()];
        let mut points = 0;
        for cannon in Squares(self.chariot_reach(general) & cannons) {
            let (lo, hi) = (
                general.index().min(cannon.index()),
                general.index().max(cannon.index()),
            );
            let between = (1u128 << hi) - (1u128 << (lo + 1));
            points |= between
                & if cannon.y() == general.y() {
                    RANK_MASK[general.y() as usize]
                } else {
                    FILE_MASK[general.x() as usize]
                };
        }
        points
    }

    #[inline]
    fn emit_tested<S: MoveSink>(&self, from: Square, targets: Bb, sink: &mut S) {
        for to in Squares(targets) {
            if self.safe_after(from, to) {
                sink.push(Move::new(from, to));
            }
        }
    }

    /// Generates the legal moves whose destination lies in `allowed`.
    fn generate<S: MoveSink>(&self, allowed: Bb, sink: &mut S) {
        let us = self.side;
        let allowed = allowed & !self.occupied_by[us.index()];
        let general = self.general(us);

        if self.in_check {
            for kind in KINDS_BUT_GENERAL {
                for from in self.squares_of(us, kind) {
                    self.emit_tested(from, self.reach(kind, from, us) & allowed, sink);
                    if sink.full() {
                        return;
                    }
                }
            }
        } else {
            // Not in check, a piece off the general's lines and diagonal neighbours can
            // only endanger it by becoming a cannon's screen. A piece on them whose
            // lifting alone is safe is in the same case: lifting it opens no line (and a
            // cannon it screens alone would already give check), so landing anywhere but
            // on a screen point is safe too. Only the rest need a test per move.
            let exposing = RANK_MASK[general.y() as usize]
                | FILE_MASK[general.x() as usize]
                | DIAGONAL_LEGS[general.index()];
            let screens = self.cannon_screen_points(general);
            for kind in KINDS_BUT_GENERAL {
                for from in self.squares_of(us, kind) {
                    let targets = self.reach(kind, from, us) & allowed;
                    // Most pieces have no capture when only captures are asked for: then
                    // the lift test would be wasted.
                    if targets == 0 {
                        continue;
                    }
                    if exposing & square_bit(from) != 0 && !self.safe_with(from, None) {
                        self.emit_tested(from, targets, sink);
                    } else {
                        sink.push_all(from, targets & !screens);
                    }
                    if sink.full() {
                        return;
                    }
                }
            }
        }
        self.emit_tested(general, GENERAL_STEPS[general.index()] & allowed, sink);
    }

    /// Appends every legal move to `out`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(!0, out);
    }

    /// Appends the legal captures to `out`.
    pub fn legal_captures(&self, out: &mut Vec<Move>) {
        self.generate(self.occupied_by[self.side.opponent().index()], out);
    }

    /// Appends the legal non-captures to `out`.
    pub fn legal_quiets(&self, out: &mut Vec<Move>) {
        self.generate(!self.occupied(), out);
    }

    /// The legal moves as a new list.
    pub fn legal_move_list(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves(&mut moves);
        moves
    }

    /// Number of legal moves, without listing them.
    pub fn count_legal(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(!0, &mut counter);
        counter.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        // The quiescence search asks this at every node of a side without chariot,
        // horse or cannon, so it stops at the first piece with a move.
        let mut any = AnyMove(false);
        self.generate(!0, &mut any);
        any.0
    }

    /// True if `mv` is legal here: the side to move has a piece on its origin that can
    /// reach its destination, and the move leaves that side's general safe.
    pub fn is_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()];
        if from == to || piece.is_none() || piece.color() != self.side {
            return false;
        }
        let reach =
            self.reach(piece.kind(), from, self.side) & !self.occupied_by[self.side.index()];
        reach & square_bit(to) != 0 && self.safe_after(from, to)
    }

    /// Counts the leaf nodes of the legal move tree to `depth` plies (bulk counting at the
    /// last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal(),
            _ => {
                let moves = self.legal_move_list();
                let mut nodes = 0;
                for mv in moves {
                    self.make_move(mv);
                    nodes += self.perft(depth - 1);
                    self.unmake_move(mv);
                }
                nodes
            }
        }
    }

    /// Perft split by root move, in generation order.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_move_list();
        moves
            .into_iter()
            .map(|mv| {
                self.make_move(mv);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake_move(mv);
                (mv, n)
            })
            .collect()
    }
}
