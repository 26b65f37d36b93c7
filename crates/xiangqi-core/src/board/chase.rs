//! What a move threatens, by the rule book's definitions (docs/rules.md): after a move,
//! every capture its side could make next is an attack; an attack is a chase unless the
//! rules exempt it, and it counts only if the reply had to answer it.
//!
//! - Not chases: attacks by the general or a soldier, attacks on a soldier that has not
//!   crossed the river, an exchange offered (the attacked piece is of the attacker's kind
//!   and could take back), attacks on a protected piece, and attacks by a chariot that a
//!   cannon confines to a line.
//! - Chases: attacks on an unprotected piece (protectors that cannot legally take back do
//!   not count: the piece is falsely protected), and attacks on a piece worth more than
//!   the attacker whether protected or not: a chariot attacked by a horse or cannon, a
//!   chariot, horse or cannon attacked by an advisor or elephant.
//! - A chase the reply leaves standing (the piece neither moved away nor got protection)
//!   is not counted: the book's "example of a non-perpetual chase".
//!
//! Only the arbiter calls this, when a repetition has been found, so clarity wins over
//! speed: attacks are listed by the legal move generator and tested by making moves.

use super::bitboard::{Bb, Squares};
use super::position::Position;
use super::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, FILE_MASK, GENERAL_STEPS, HORSE_STEPS, NO_SQ, RANK_MASK,
    square_bit,
};
use super::types::{Color, Kind, Move, Square};

/// How an attack counts under the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attack {
    /// A chase: nothing protects the piece.
    Unprotected,
    /// A chase: the piece has protectors, but none can legally take back.
    FalselyProtected,
    /// A chase: the piece is worth more than its attacker, protected or not.
    Outranked,
    /// No chase: the general attacks.
    ByGeneral,
    /// No chase: a soldier attacks.
    BySoldier,
    /// No chase: the piece is a soldier still on its own side of the river.
    UncrossedSoldier,
    /// No chase: the piece is of the attacker's kind and could take back: an exchange
    /// offered.
    Exchange,
    /// No chase: the piece is protected.
    Protected,
    /// No chase: the attacker is a chariot a cannon confines to its line.
    Confined,
    /// Would have been a chase, but the attack was there before the move: the move did
    /// not make it.
    Standing,
    /// Would have been a chase, but the reply left it standing: the piece neither moved
    /// away nor got protection.
    Ignored,
}

impl Attack {
    pub(crate) fn chases(self) -> bool {
        matches!(
            self,
            Attack::Unprotected | Attack::FalselyProtected | Attack::Outranked
        )
    }
}

/// One capture the side that just moved could make next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Threat {
    pub from: Square,
    pub to: Square,
    pub attacker: Kind,
    pub victim: Kind,
    pub how: Attack,
    /// The victim is a chariot that cannot move because an enemy horse would then give
    /// check (rule 19).
    pub held_by_horse: bool,
    /// The victim is a chariot a cannon confines to its line (rule 27).
    pub confined: bool,
    /// The move made this attack: it was not there before (the arbiter sets it when it
    /// explains a ruling).
    pub fresh: bool,
}

/// The attacks of the side that just moved in `after` (its opponent to move, not in
/// check) on the pieces standing on `victims`, each classified, before looking at the
/// reply.
pub(crate) fn threats(after: &Position, victims: Bb) -> Vec<Threat> {
    let mut pos = bare(after);
    pos.make_null_move();
    let mut captures = Vec::new();
    pos.legal_captures(&mut captures);
    captures.retain(|mv| victims & square_bit(mv.to()) != 0);
    let us = pos.side_to_move();
    let them = us.opponent();
    // A chariot a cannon confines to its line attacks off the line too, though it may
    // not take there: rule 27 names those attacks to say they are no chases.
    for chariot in Squares(pos.pieces(us, Kind::Chariot)) {
        if confined(&pos, chariot, us) {
            for to in Squares(pos.chariot_reach(chariot) & pos.occupied_by(them) & victims) {
                let mv = Move::new(chariot, to);
                if !captures.contains(&mv) && pos.piece_at(to).kind() != Kind::General {
                    captures.push(mv);
                }
            }
        }
    }
    let mut found = Vec::with_capacity(captures.len());
    for mv in captures {
        let victim = pos.piece_at(mv.to()).kind();
        if victim == Kind::General {
            continue;
        }
        let held = victim == Kind::Chariot && held_by_horse(&pos, mv.to(), them);
        let confined = victim == Kind::Chariot && confined(&pos, mv.to(), them);
        let how = if pos.is_legal(mv) {
            classify(&mut pos, mv.from(), mv.to())
        } else {
            Attack::Confined
        };
        found.push(Threat {
            from: mv.from(),
            to: mv.to(),
            attacker: pos.piece_at(mv.from()).kind(),
            victim,
            how,
            held_by_horse: held,
            confined,
            fresh: true,
        });
    }
    found
}

/// The captures the side to move has in `pos`.
pub(crate) fn captures(pos: &Position) -> Vec<Move> {
    let mut found = Vec::new();
    pos.legal_captures(&mut found);
    found
}

/// Whether, in `before` (the attacking side to move), the capture `from` -> `to` was
/// already there and a chase: a move that leaves it so did not make it.
pub(crate) fn chased_before(before: &Position, from: Square, to: Square) -> bool {
    let us = before.side_to_move();
    let (attacker, victim) = (before.piece_at(from), before.piece_at(to));
    if attacker.is_none() || attacker.color() != us || victim.is_none() || victim.color() == us {
        return false;
    }
    let mut pos = bare(before);
    pos.is_legal(Move::new(from, to)) && classify(&mut pos, from, to).chases()
}

/// Whether the side that just moved in `after` (its opponent to move, not in check)
/// would mate if it moved again, at once or by two checks: a threat to mate (a "kill"),
/// which the rules never forbid.
pub(crate) fn threatens_mate(after: &Position) -> bool {
    let mut pos = bare(after);
    pos.make_null_move();
    mates_by_checks(&mut pos, 2)
}

/// Whether the side to move mates within `moves` moves, every one a check but a last
/// quiet mate (a stalemate loses too).
fn mates_by_checks(pos: &mut Position, moves: u32) -> bool {
    for mv in pos.legal_move_list() {
        pos.make_move(mv);
        let mated = if !pos.has_legal_move() {
            true
        } else if moves > 1 && pos.in_check() {
            pos.legal_move_list().into_iter().all(|reply| {
                pos.make_move(reply);
                let mated = mates_by_checks(pos, moves - 1);
                pos.unmake_move(reply);
                mated
            })
        } else {
            false
        };
        pos.unmake_move(mv);
        if mated {
            return true;
        }
    }
    false
}

/// Marks the chases of `threats` that the reply `reply` left standing as ignored.
/// `answered` is the position after the reply, the attacking side to move.
pub(crate) fn drop_ignored(threats: &mut [Threat], answered: &Position, reply: Move) {
    let mut pos = bare(answered);
    let us = pos.side_to_move();
    for threat in threats.iter_mut().filter(|t| t.how.chases()) {
        let to = if reply.from() == threat.to {
            reply.to()
        } else {
            threat.to
        };
        let attacker = pos.piece_at(threat.from);
        let victim = pos.piece_at(to);
        let standing = attacker.is_some()
            && attacker.color() == us
            && attacker.kind() == threat.attacker
            && victim.is_some()
            && victim.color() != us
            && victim.kind() == threat.victim
            && pos.is_legal(Move::new(threat.from, to))
            && classify(&mut pos, threat.from, to).chases();
        if standing {
            threat.how = Attack::Ignored;
        }
    }
}

/// How the side to move's capture `from` -> `to` (legal) counts. `pos` is restored.
fn classify(pos: &mut Position, from: Square, to: Square) -> Attack {
    let us = pos.side_to_move();
    let them = us.opponent();
    let attacker = pos.piece_at(from).kind();
    let victim = pos.piece_at(to).kind();
    match attacker {
        Kind::General => return Attack::ByGeneral,
        Kind::Soldier => return Attack::BySoldier,
        _ => {}
    }
    if victim == Kind::Soldier && to.on_own_side(them) {
        return Attack::UncrossedSoldier;
    }
    if attacker == Kind::Chariot && confiners(pos, from, us) & !square_bit(to) != 0 {
        return Attack::Confined;
    }
    // A confined chariot's capture back is no exchange offered (rule 27).
    if attacker == victim
        && !(victim == Kind::Chariot && confined(pos, to, them))
        && can_take_back(pos, to, from)
    {
        return Attack::Exchange;
    }
    if outranks(victim, attacker) {
        return Attack::Outranked;
    }
    let capture = Move::new(from, to);
    pos.make_move(capture);
    let protectors = protectors(pos, to, them);
    let takes_back = Squares(protectors).any(|p| pos.is_legal(Move::new(p, to)));
    pos.unmake_move(capture);
    if takes_back {
        Attack::Protected
    } else if protectors != 0 {
        Attack::FalselyProtected
    } else {
        Attack::Unprotected
    }
}

/// The pieces of `color` that attack `s` by their moves, whether or not they may legally
/// move (`Position::attackers` leaves out advisors and elephants, which never check, and
/// counts a distant general on an open file).
fn protectors(pos: &Position, s: Square, color: Color) -> Bb {
    let general = pos.general(color);
    let mut found = pos.attackers(s, color) & !square_bit(general);
    if GENERAL_STEPS[general.index()] & square_bit(s) != 0 {
        found |= square_bit(general);
    }
    found |= ADVISOR_STEPS[s.index()] & pos.pieces(color, Kind::Advisor);
    let elephants = pos.pieces(color, Kind::Elephant);
    for &(eye, from) in &ELEPHANT_STEPS[s.index()] {
        if eye != NO_SQ && pos.piece_at(Square::from_index(eye as usize)).is_none() {
            found |= (1u128 << from) & elephants;
        }
    }
    found
}

/// Whether a piece of `victim`'s kind is chased by one of `attacker`'s kind even when
/// protected: the victim is worth more.
fn outranks(victim: Kind, attacker: Kind) -> bool {
    match attacker {
        Kind::Horse | Kind::Cannon => victim == Kind::Chariot,
        Kind::Advisor | Kind::Elephant => {
            matches!(victim, Kind::Chariot | Kind::Horse | Kind::Cannon)
        }
        _ => false,
    }
}

/// Whether the piece on `victim` (of the side not to move) could legally take the
/// piece on `attacker` if it were its turn.
fn can_take_back(pos: &Position, victim: Square, attacker: Square) -> bool {
    let mut turned = bare(pos);
    turned.make_null_move();
    turned.is_legal(Move::new(victim, attacker))
}

/// Whether `color`'s chariot on `s` is one of the two pieces between an enemy cannon
/// and `color`'s general on a line: leaving the line would give check (rule 27).
fn confined(pos: &Position, s: Square, color: Color) -> bool {
    confiners(pos, s, color) != 0
}

/// The enemy cannons that confine `color`'s piece on `s` to its line.
fn confiners(pos: &Position, s: Square, color: Color) -> Bb {
    let general = pos.general(color);
    let line = if s.y() == general.y() {
        RANK_MASK[s.y() as usize]
    } else if s.x() == general.x() {
        FILE_MASK[s.x() as usize]
    } else {
        return 0;
    };
    let occupied = pos.occupied();
    Squares(pos.pieces(color.opponent(), Kind::Cannon) & line)
        .filter(|&cannon| {
            let between = between(cannon, general) & line;
            between & square_bit(s) != 0 && (between & occupied).count_ones() == 2
        })
        .fold(0, |acc, cannon| acc | square_bit(cannon))
}

/// Whether `color`'s chariot on `s` stands on the leg of an enemy horse that would
/// otherwise attack `color`'s general: the chariot cannot move (rule 19).
fn held_by_horse(pos: &Position, s: Square, color: Color) -> bool {
    let general = square_bit(pos.general(color));
    Squares(pos.pieces(color.opponent(), Kind::Horse)).any(|horse| {
        HORSE_STEPS[horse.index()].iter().any(|&(leg, targets)| {
            leg != NO_SQ && leg as usize == s.index() && targets & general != 0
        })
    })
}

/// The points strictly between two points of one line (index order is line order on
/// both ranks and files once masked to the line).
fn between(a: Square, b: Square) -> Bb {
    let (lo, hi) = (a.index().min(b.index()), a.index().max(b.index()));
    (1u128 << hi) - (1u128 << (lo + 1))
}

/// A copy of `pos` without its history: the arbiter's scratch positions need none.
pub(crate) fn bare(pos: &Position) -> Position {
    Position {
        history: Vec::new(),
        ..*pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            let mv = Move::parse_coords(m).unwrap();
            assert!(pos.is_legal(mv), "{m}");
            pos.make_move(mv);
        }
        pos
    }

    fn attack_on(pos: &Position, victim: &str) -> Option<Attack> {
        threats(pos, !0)
            .into_iter()
            .find(|t| t.to.iccs() == victim)
            .map(|t| t.how)
    }

    #[test]
    fn a_chariot_attacking_a_lone_cannon_chases_it() {
        let pos = after("4k4/9/9/9/9/9/9/2c6/9/R2K5 w - - 0 1", "a0a2");
        assert_eq!(attack_on(&pos, "c2"), Some(Attack::Unprotected));
    }

    #[test]
    fn a_protector_that_would_expose_its_general_protects_nothing() {
        // The black horse on e7 guards the cannon on d5, but the chariot on e0 pins it.
        let pos = after("4k4/9/4n4/9/3c5/9/9/9/9/R2KR4 w - - 0 1", "a0a5");
        assert_eq!(attack_on(&pos, "d5"), Some(Attack::FalselyProtected));
    }

    #[test]
    fn a_cannon_attacking_a_protected_chariot_still_chases_it() {
        // Over the screen on c2, the cannon attacks the chariot on e2, which c2 guards.
        let pos = after("3k5/9/9/9/9/9/9/2r1r4/9/C4K3 w - - 0 1", "a0a2");
        assert_eq!(attack_on(&pos, "e2"), Some(Attack::Outranked));
    }

    #[test]
    fn chariots_facing_each_other_offer_an_exchange() {
        let pos = after("3k5/9/9/9/9/9/9/2r6/9/R3K4 w - - 0 1", "a0a2");
        assert_eq!(attack_on(&pos, "c2"), Some(Attack::Exchange));
    }

    #[test]
    fn uncrossed_soldiers_and_the_generals_attacks_are_exempt() {
        let pos = after("3k5/9/9/2p6/9/9/9/9/9/R3K4 w - - 0 1", "a0a6");
        assert_eq!(attack_on(&pos, "c6"), Some(Attack::UncrossedSoldier));
        let pos = after("5k3/9/9/9/9/9/9/9/3c5/4K4 w - - 0 1", "e0e1");
        assert_eq!(attack_on(&pos, "d1"), Some(Attack::ByGeneral));
    }

    #[test]
    fn a_reply_that_leaves_the_chase_standing_makes_it_no_chase() {
        let pos = after("4k4/9/9/9/9/9/9/2c6/9/R2K5 w - - 0 1", "a0a2");
        let answer = |reply: &str| {
            let mut found = threats(&pos, !0);
            let reply = Move::parse_coords(reply).unwrap();
            let mut answered = pos.clone();
            answered.make_move(reply);
            drop_ignored(&mut found, &answered, reply);
            found.iter().find(|t| t.victim == Kind::Cannon).unwrap().how
        };
        assert_eq!(answer("e9f9"), Attack::Ignored);
        assert_eq!(answer("c2c5"), Attack::Unprotected, "the cannon moved away");
    }

    #[test]
    fn a_chariot_between_a_cannon_and_its_general_is_confined() {
        let pos = Position::from_fen("4k4/4r4/9/4p4/9/9/9/9/4C4/3K5 w - - 0 1").unwrap();
        assert!(confined(&pos, Square::new(4, 8), Color::Black));
        let pos = Position::from_fen("4k4/4a4/3r5/4p4/9/9/9/9/4C4/3K5 w - - 0 1").unwrap();
        assert!(
            !confined(&pos, Square::new(3, 7), Color::Black),
            "off the line"
        );
    }

    #[test]
    fn a_chariot_on_a_horse_leg_towards_its_general_is_held() {
        // Red horse g8's leg f8 points at the general on e9.
        let pos = Position::from_fen("4k4/5rN2/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert!(held_by_horse(&pos, Square::new(5, 8), Color::Black));
        assert!(!held_by_horse(&pos, Square::new(5, 8), Color::Red));
    }

    #[test]
    fn a_threat_of_mate_by_checks_is_seen() {
        // Two chariots ladder the bare general: Ra9+ and Ra8 mate, or Ra9 mate at once.
        let pos = after("4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1", "a1a2");
        assert!(threatens_mate(&pos));
        let pos = after("4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1", "a1a8");
        assert!(threatens_mate(&pos));
        // A horse cannot.
        let pos = after("4k4/9/9/9/9/9/9/9/9/N2K5 w - - 0 1", "a0b2");
        assert!(!threatens_mate(&pos));
    }
}
