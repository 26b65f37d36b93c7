//! Static exchange evaluation: the material balance of the capture sequence on one point
//! when both sides recapture with their least valuable piece and may stop at any time.
//! Cannon screens appear and vanish as pieces come and go, so the exchange is played out
//! on the real board (make/unmake) rather than simulated with attack sets.

use crate::eval::material;
use xiangqi_core::board::{Kind, Move, Position};

/// Recapture order: least valuable first. The general last: it may take only when the
/// point is no longer defended, which legality checks for us.
const RECAPTURE_ORDER: [Kind; 7] = [
    Kind::Soldier,
    Kind::Elephant,
    Kind::Advisor,
    Kind::Horse,
    Kind::Cannon,
    Kind::Chariot,
    Kind::General,
];

/// Value used for exchanges; a captured general never happens in legal play.
#[inline]
pub fn exchange_value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 10_000,
        // A soldier is worth more once across the river; exchanges use its raw value.
        k => material::value(k),
    }
}

/// The least valuable legal capture on `mv.to()` for the side to move.
fn least_valuable_recapture(
    pos: &Position,
    target: xiangqi_core::board::Square,
) -> Option<(Move, Kind)> {
    let us = pos.side_to_move();
    let attackers = pos.attackers(target, us);
    if attackers == 0 {
        return None;
    }
    for kind in RECAPTURE_ORDER {
        for from in xiangqi_core::board::Squares(attackers & pos.pieces(us, kind)) {
            let mv = Move::new(from, target);
            if pos.is_legal(mv) {
                return Some((mv, kind));
            }
        }
    }
    None
}

/// The exchange balance of capture (or quiet move) `mv` for the side making it, in
/// centipawns. `mv` must be legal.
pub fn see(pos: &mut Position, mv: Move) -> i32 {
    let target = mv.to();
    let victim = pos.piece_at(target);
    let mut gains = [0i32; 40];
    gains[0] = if victim.is_some() {
        exchange_value(victim.kind())
    } else {
        0
    };
    let mut on_target = exchange_value(pos.piece_at(mv.from()).kind());
    let mut played = [Move::NULL; 40];
    pos.make_move(mv);
    played[0] = mv;
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let Some((reply, kind)) = least_valuable_recapture(pos, target) else {
            break;
        };
        depth += 1;
        gains[depth] = on_target - gains[depth - 1];
        // Neither side can do better by continuing: stop early.
        if (-gains[depth - 1]).max(gains[depth]) < 0 {
            break;
        }
        on_target = exchange_value(kind);
        pos.make_move(reply);
        played[depth] = reply;
    }
    for i in (0..=depth).rev() {
        if !played[i].is_null() {
            pos.unmake_move(played[i]);
        }
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let mut pos = Position::from_fen(fen).unwrap();
        let mv = Move::parse_coords(mv).unwrap();
        assert!(pos.is_legal(mv));
        let before = pos.to_fen();
        let value = see(&mut pos, mv);
        assert_eq!(pos.to_fen(), before, "see must restore the position");
        value
    }

    #[test]
    fn undefended_piece_wins_its_value() {
        // Red chariot a0 takes the black horse on a5, nothing recaptures.
        // Values come from the (tuned) weights; the tests check the exchange arithmetic.
        let horse = exchange_value(Kind::Horse);
        assert_eq!(see_of("3k5/9/9/9/n8/9/9/9/9/R3K4 w - - 0 1", "a0a5"), horse);
    }

    #[test]
    fn chariot_taking_a_defended_soldier_loses() {
        // The black chariot on e8 guards the soldier on e5.
        let v = see_of("3k5/4r4/9/9/4p4/9/9/9/9/4RK3 w - - 0 1", "e0e5");
        let (soldier, chariot) = (exchange_value(Kind::Soldier), exchange_value(Kind::Chariot));
        assert_eq!(v, soldier - chariot);
    }

    #[test]
    fn cannon_screen_appears_after_the_first_capture() {
        // Red chariot e2 takes the soldier on e5; the black cannon on e9 has no screen
        // between it and e5, so it cannot recapture.
        let (soldier, chariot) = (exchange_value(Kind::Soldier), exchange_value(Kind::Chariot));
        let v = see_of("3kc4/9/9/9/4p4/9/9/4R4/9/5K3 w - - 0 1", "e2e5");
        assert_eq!(v, soldier);
        // With a black horse on e7 as a screen, the cannon recaptures: chariot for soldier.
        let v = see_of("3kc4/9/4n4/9/4p4/9/9/4R4/9/5K3 w - - 0 1", "e2e5");
        assert_eq!(v, soldier - chariot);
    }
}
