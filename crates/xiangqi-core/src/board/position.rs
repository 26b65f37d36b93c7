//! The position: a 90-point mailbox, per-piece bitboards, rank/file occupancy words and an
//! incremental Zobrist key, with make/unmake and attack queries.

use super::bitboard::{Bb, Squares};
use super::tables::{
    DIAGONAL_LEGS, FILE_CANNON, FILE_MASK, FILE_SLIDE, FILE_SPREAD, HORSE_ATTACKERS, NO_SQ,
    RANK_CANNON, RANK_MASK, RANK_SLIDE, SOLDIER_ATTACKERS, square_bit,
};
use super::types::{Color, Kind, Move, Piece, Square};
use super::zobrist::{PIECE_KEYS, SIDE_KEY};

/// What make_move must remember so unmake_move can restore the position exactly; the
/// history of these is also what repetition rulings walk (`Position::history`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    pub mv: Move,
    pub captured: Piece,
    pub key: u64,
    pub halfmove_clock: u16,
    pub in_check: bool,
}

/// A xiangqi position with its move history (for unmake and repetition).
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 90],
    pub(crate) pieces: [[Bb; 7]; 2],
    pub(crate) occupied_by: [Bb; 2],
    pub(crate) rank_occ: [u16; 10],
    pub(crate) file_occ: [u16; 9],
    pub(crate) side: Color,
    pub(crate) key: u64,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove: u16,
    pub(crate) in_check: bool,
    pub(crate) history: Vec<Undo>,
}

/// Positions are equal when the pieces, the side to move and the clocks are; the history
/// that led there is not compared.
impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    pub const START_FEN: &'static str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(Self::START_FEN).expect("the start FEN is valid")
    }

    /// An empty board with Red to move, to be filled with `put` and finished with
    /// `finish_placement` (FEN reading and the tablebases' indexing build positions so).
    pub fn empty() -> Position {
        Position {
            board: [Piece::NONE; 90],
            pieces: [[0; 7]; 2],
            occupied_by: [0; 2],
            rank_occ: [0; 10],
            file_occ: [0; 9],
            side: Color::Red,
            key: 0,
            halfmove_clock: 0,
            fullmove: 1,
            in_check: false,
            history: Vec::new(),
        }
    }

    /// Empties the board as `empty` does, keeping the history's allocation.
    pub fn clear(&mut self) {
        let mut history = std::mem::take(&mut self.history);
        history.clear();
        *self = Position::empty();
        self.history = history;
    }

    /// After the pieces are `put`: `side` is to move, and the key and the check flag are
    /// computed. False, and the position left unfinished, where the side that just moved
    /// is in check (an illegal placement).
    pub fn finish_placement(&mut self, side: Color) -> bool {
        self.side = side;
        if self.opponent_in_check() {
            return false;
        }
        self.key = self.compute_key();
        self.in_check = self.is_attacked(self.general(side), side.opponent());
        true
    }

    /// The moves made since the position was set up, each with what it changed, oldest
    /// first.
    #[inline]
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// The piece on every point, by `Square::index`.
    #[inline]
    pub fn points(&self) -> &[Piece; 90] {
        &self.board
    }

    /// Puts a piece on an empty point, keeping every derived field in step.
    pub fn put(&mut self, s: Square, p: Piece) {
        debug_assert!(self.board[s.index()].is_none());
        self.board[s.index()] = p;
        self.toggle(s, p);
        self.key ^= PIECE_KEYS[p.index()][s.index()];
    }

    /// Moves `p` from `from` to `to` in the bitboards and line words. Both points change
    /// in one write per word: toggling them one at a time made the compiler write one
    /// 32-bit lane and then read the whole 128-bit word back, a store-forwarding stall
    /// that cost several percent of the search.
    #[inline(always)]
    fn shift(&mut self, from: Square, to: Square, p: Piece) {
        let mask = square_bit(from) | square_bit(to);
        self.pieces[p.color().index()][p.kind().index()] ^= mask;
        self.occupied_by[p.color().index()] ^= mask;
        self.rank_occ[from.y() as usize] ^= 1 << from.x();
        self.rank_occ[to.y() as usize] ^= 1 << to.x();
        self.file_occ[from.x() as usize] ^= 1 << from.y();
        self.file_occ[to.x() as usize] ^= 1 << to.y();
    }

    #[inline]
    fn toggle(&mut self, s: Square, p: Piece) {
        let b = square_bit(s);
        self.pieces[p.color().index()][p.kind().index()] ^= b;
        self.occupied_by[p.color().index()] ^= b;
        self.rank_occ[s.y() as usize] ^= 1 << s.x();
        self.file_occ[s.x() as usize] ^= 1 << s.y();
    }

    // ---- Accessors ----

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, s: Square) -> Piece {
        self.board[s.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bb {
        self.pieces[color.index()][kind.index()]
    }

    #[inline]
    pub fn occupied_by(&self, color: Color) -> Bb {
        self.occupied_by[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bb {
        self.occupied_by[0] | self.occupied_by[1]
    }

    /// The general's point. Every valid position has one per side.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        Square::from_index(
            self.pieces[color.index()][Kind::General.index()].trailing_zeros() as usize,
        )
    }

    /// The 64-bit Zobrist key, kept incrementally.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key the position will have after `mv`, without making it: lets the search
    /// prefetch the child's table entry while the move is being made.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()];
        let captured = self.board[to.index()];
        // The empty point's key is zero (zobrist.rs), so a quiet move needs no branch.
        self.key
            ^ SIDE_KEY
            ^ PIECE_KEYS[captured.index()][to.index()]
            ^ PIECE_KEYS[piece.index()][from.index()]
            ^ PIECE_KEYS[piece.index()][to.index()]
    }

    /// Plies since the last capture (the FEN half-move clock).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The FEN move number: starts at 1 and grows after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// True if the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// Number of moves made on this position since it was set up.
    #[inline]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves made since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + ExactSizeIterator + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The Zobrist key computed from scratch; equals `key()` in every valid state.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        };
        for (i, p) in self.board.iter().enumerate() {
            if p.is_some() {
                key ^= PIECE_KEYS[p.index()][i];
            }
        }
        key
    }

    /// Forgets the move history, so the current position becomes the root of a new game
    /// record (repetition and undo then start here).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    // ---- Making moves ----

    /// Plays a move, which must be legal (or at least pseudo-legal) in this position.
    pub fn make_move(&mut self, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()];
        let captured = self.board[to.index()];
        debug_assert!(
            piece.is_some() && piece.color() == self.side,
            "no piece to move for {mv}"
        );
        self.history.push(Undo {
            mv,
            captured,
            key: self.key,
            halfmove_clock: self.halfmove_clock,
            in_check: self.in_check,
        });
        let mut key = self.key ^ SIDE_KEY;
        if captured.is_some() {
            self.toggle(to, captured);
            key ^= PIECE_KEYS[captured.index()][to.index()];
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock += 1;
        }
        self.shift(from, to, piece);
        key ^= PIECE_KEYS[piece.index()][from.index()] ^ PIECE_KEYS[piece.index()][to.index()];
        self.board[to.index()] = piece;
        self.board[from.index()] = Piece::NONE;
        self.key = key;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opponent();
        self.in_check = self.checked_by(from, to, piece);
        debug_assert_eq!(
            self.in_check,
            self.is_attacked(self.general(self.side), self.side.opponent())
        );
    }

    /// Whether `piece`'s move `from` -> `to`, just made, left the side to move in check.
    /// That side was not in check before (its opponent was to move), so a check needs
    /// the move to touch the general's rank, file or horse legs, or be a horse landing
    /// a jump away; most moves do neither and skip the full attack test.
    #[inline]
    fn checked_by(&self, from: Square, to: Square, piece: Piece) -> bool {
        let general = self.general(self.side);
        if (square_bit(from) | square_bit(to)) & check_lines(general) != 0 {
            return self.is_attacked(general, self.side.opponent());
        }
        piece.kind() == Kind::Horse && self.horse_on_attacks(to, general)
    }

    /// True if a horse on `at` attacks `general` (its leg towards it is empty).
    #[inline]
    fn horse_on_attacks(&self, at: Square, general: Square) -> bool {
        HORSE_ATTACKERS[general.index()]
            .iter()
            .any(|&(leg, jumps)| {
                leg != NO_SQ && jumps & square_bit(at) != 0 && self.board[leg as usize].is_none()
            })
    }

    /// True if `mv` (legal here) puts the opponent in check. Most moves touch neither the
    /// enemy general's lines nor its horse legs, and are answered without making them.
    pub fn gives_check(&mut self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let general = self.general(self.side.opponent());
        if (square_bit(from) | square_bit(to)) & check_lines(general) == 0 {
            // The move leaves every leg as it is.
            return self.board[from.index()].kind() == Kind::Horse
                && self.horse_on_attacks(to, general);
        }
        self.make_move(mv);
        let check = self.in_check;
        self.unmake_move(mv);
        check
    }

    /// Takes back the last move made, which must be `mv`.
    pub fn unmake_move(&mut self, mv: Move) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move without a move to take back");
        debug_assert_eq!(undo.mv, mv);
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[to.index()];
        self.shift(to, from, piece);
        self.board[from.index()] = piece;
        self.board[to.index()] = undo.captured;
        if undo.captured.is_some() {
            self.toggle(to, undo.captured);
        }
        self.side = self.side.opponent();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
        self.in_check = undo.in_check;
    }

    /// Passes the turn (for null-move pruning). Must not be used in check.
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            mv: Move::NULL,
            captured: Piece::NONE,
            key: self.key,
            halfmove_clock: self.halfmove_clock,
            in_check: self.in_check,
        });
        self.key ^= SIDE_KEY;
        self.halfmove_clock += 1;
        self.side = self.side.opponent();
        self.in_check = false;
    }

    pub fn unmake_null_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_null_move without a null move");
        debug_assert!(undo.mv.is_null());
        self.side = self.side.opponent();
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
        self.in_check = undo.in_check;
    }

    // ---- Attacks ----

    /// Points a chariot on `s` reaches with the current occupancy (first pieces included).
    #[inline]
    pub fn chariot_reach(&self, s: Square) -> Bb {
        let (x, y) = (s.x() as usize, s.y() as usize);
        // The masks are no-ops on valid words; they spare the bounds checks.
        ((RANK_SLIDE[x][self.rank_occ[y] as usize & 0x1ff] as Bb) << (9 * y))
            | (FILE_SPREAD[FILE_SLIDE[y][self.file_occ[x] as usize & 0x3ff] as usize & 0x3ff] << x)
    }

    /// Points a cannon on `s` may capture on (the piece beyond the screen), any colour.
    #[inline]
    pub fn cannon_captures(&self, s: Square) -> Bb {
        let (x, y) = (s.x() as usize, s.y() as usize);
        ((RANK_CANNON[x][self.rank_occ[y] as usize & 0x1ff] as Bb) << (9 * y))
            | (FILE_SPREAD[FILE_CANNON[y][self.file_occ[x] as usize & 0x3ff] as usize & 0x3ff] << x)
    }

    /// True if a piece of `by` attacks `s` (the facing general counts as an attack).
    pub fn is_attacked(&self, s: Square, by: Color) -> bool {
        // `attackers` without building the set: every make_move asks this for the
        // general, so the cheapest tests go first and the first hit answers.
        let theirs = &self.pieces[by.index()];
        if SOLDIER_ATTACKERS[by.index()][s.index()] & theirs[Kind::Soldier.index()] != 0 {
            return true;
        }
        let horses = theirs[Kind::Horse.index()];
        if horses != 0 {
            for &(leg, from) in &HORSE_ATTACKERS[s.index()] {
                if leg == NO_SQ {
                    break;
                }
                if from & horses != 0 && self.board[leg as usize].is_none() {
                    return true;
                }
            }
        }
        let sliders = theirs[Kind::Chariot.index()] | theirs[Kind::General.index()];
        if self.chariot_reach(s) & sliders != 0 {
            return true;
        }
        let cannons = theirs[Kind::Cannon.index()];
        cannons != 0 && self.cannon_captures(s) & cannons != 0
    }

    /// The pieces of `by` that attack `s`.
    pub fn attackers(&self, s: Square, by: Color) -> Bb {
        let theirs = &self.pieces[by.index()];
        let mut found =
            self.chariot_reach(s) & (theirs[Kind::Chariot.index()] | theirs[Kind::General.index()]);
        found |= self.cannon_captures(s) & theirs[Kind::Cannon.index()];
        found |= SOLDIER_ATTACKERS[by.index()][s.index()] & theirs[Kind::Soldier.index()];
        let horses = theirs[Kind::Horse.index()];
        if horses != 0 {
            for &(leg, from) in &HORSE_ATTACKERS[s.index()] {
                if leg == NO_SQ {
                    break;
                }
                if self.board[leg as usize].is_none() {
                    found |= from & horses;
                }
            }
        }
        found
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bb {
        self.attackers(self.general(self.side), self.side.opponent())
    }

    /// True if the two generals face each other on an open file.
    pub fn generals_face(&self) -> bool {
        let red = self.general(Color::Red);
        self.chariot_reach(red) & self.pieces[Color::Black.index()][Kind::General.index()] != 0
    }

    /// True if the side that just moved left its general attacked (an illegal state).
    pub fn opponent_in_check(&self) -> bool {
        let them = self.side.opponent();
        self.is_attacked(self.general(them), self.side)
    }

    /// Iterates the pieces of a side and kind.
    pub fn squares_of(&self, color: Color, kind: Kind) -> Squares {
        Squares(self.pieces(color, kind))
    }

    /// The keys of earlier positions, most recent first, with whether the side to move
    /// there was in check. Repetition verdicts and the search read it.
    pub fn past_states(&self) -> impl Iterator<Item = (u64, bool)> + '_ {
        self.history.iter().rev().map(|u| (u.key, u.in_check))
    }
}

/// The points where a move can change whether `general` is attacked, horses landing aside:
/// its rank and file, and the legs of horses jumping at it.
#[inline]
fn check_lines(general: Square) -> Bb {
    RANK_MASK[general.y() as usize]
        | FILE_MASK[general.x() as usize]
        | DIAGONAL_LEGS[general.index()]
}
