//! Which rule a ruling cites: the most specific rule of the book that decides the cycle,
//! or, for a draw, that allows what the sides did (docs/rules.md lists them).

use super::arbiter::{Cycle, Decision, Offence, Reading, id_bit, ids_of};
use super::chase::{Attack, Threat};
use super::rulebook::Rule;
use super::types::{Color, Kind};

impl Cycle {
    /// The rule that decides `decision` (made on this cycle, read in full).
    pub(crate) fn cite(&self, decision: &Decision) -> Rule {
        let [red, black] = self.offences();
        let Some(loser) = decision.offender else {
            return match (red, black) {
                (Offence::Check, Offence::Check) => Rule::MutualCheck,
                (Offence::None, Offence::None) => self.draw_rule(),
                _ => Rule::BothOffend,
            };
        };
        let worst = if loser == Color::Red { red } else { black };
        // Check outranks chase (§2.3), but the book cites rule 6 for it too: a perpetual
        // check loses "under any circumstance".
        match worst {
            Offence::Check if self.moves_of(loser.opponent()).any(|r| r.check) => {
                Rule::TwoChecksOneBack
            }
            Offence::Check => Rule::PerpetualCheck,
            Offence::HeldChase => Rule::ChariotHeldByHorse,
            _ => self.chase_rule(loser),
        }
    }

    /// The most specific rule forbidding `side`'s perpetual chase.
    fn chase_rule(&self, side: Color) -> Rule {
        let chased = self.chased_throughout(side);
        let Some(id) = ids_of(chased).next() else {
            return Rule::MustChange;
        };
        let chases: Vec<&Threat> = self
            .attacks_on(side, id)
            .filter(|(_, t)| t.how.chases())
            .map(|(_, t)| t)
            .collect();
        let attackers: Vec<u8> = self
            .attacks_on(side, id)
            .filter(|(_, t)| t.how.chases())
            .map(|(r, t)| r.ids[t.from.index()])
            .collect();
        let offers_exchange = self
            .moves_of(side)
            .flat_map(|r| r.threats.iter().flatten())
            .any(|t| t.how == Attack::Exchange && t.fresh);
        let victim = chases[0].victim;
        let all = |kinds: &[Kind]| chases.iter().all(|t| kinds.contains(&t.attacker));
        if offers_exchange {
            Rule::OfferExchangeWhileChasing
        } else if victim == Kind::Chariot && all(&[Kind::Cannon]) {
            Rule::CannonChasesChariot
        } else if attackers.iter().any(|&a| a != attackers[0]) {
            Rule::TwoChaseOne
        } else if chases.iter().any(|t| t.how == Attack::FalselyProtected) {
            Rule::FalselyProtected
        } else if chases.iter().any(|t| t.confined) {
            Rule::ConfinedChariot
        } else if victim == Kind::Cannon && all(&[Kind::Chariot]) {
            Rule::ChariotChasesCannon
        } else if victim == Kind::Horse && all(&[Kind::Chariot]) {
            Rule::ChariotChasesHorse
        } else if all(&[victim]) {
            Rule::SameKind
        } else if all(&[Kind::Cannon]) && victim != Kind::Chariot {
            Rule::CannonThroughScreen
        } else {
            Rule::MustChange
        }
    }

    /// Why a repetition in which nobody offends is a draw: the most specific rule that
    /// allows what one of the sides did, looking at both sides for each kind of reason
    /// before the next.
    fn draw_rule(&self) -> Rule {
        let first = self.readings[0].side;
        let sides = [first, first.opponent()];
        let steps: [&dyn Fn(Color) -> Option<Rule>; 4] = [
            &|side| self.mixed_checks(side),
            &|side| self.chases_in_turn(side),
            &|side| self.attacks_allowed(side),
            &|side| self.mate_threats(side),
        ];
        for step in steps {
            if let Some(rule) = sides.into_iter().find_map(step) {
                return rule;
            }
        }
        Rule::NoOffence
    }

    /// Checks with some moves, chases or idle moves with the others (rules 12 and 13).
    fn mixed_checks(&self, side: Color) -> Option<Rule> {
        if !self.moves_of(side).any(|r| r.check) {
            return None;
        }
        let rest_chase = self
            .moves_of(side)
            .filter(|r| !r.check)
            .all(|r| r.threats.iter().flatten().any(|t| t.how.chases()));
        Some(if rest_chase {
            Rule::CheckAndChase
        } else {
            Rule::CheckAndIdle
        })
    }

    /// A chase with every move, but of different pieces in turn (rules 16 and 32).
    fn chases_in_turn(&self, side: Color) -> Option<Rule> {
        let chases: Vec<&Threat> = self
            .moves_of(side)
            .flat_map(|r| r.threats.iter().flatten())
            .filter(|t| t.how.chases())
            .collect();
        let every_move = self
            .moves_of(side)
            .all(|r| r.threats.iter().flatten().any(|t| t.how.chases()));
        if !every_move {
            return None;
        }
        let cannons_on_chariots = chases
            .iter()
            .all(|t| t.attacker == Kind::Cannon && t.victim == Kind::Chariot);
        Some(if cannons_on_chariots {
            Rule::CannonChasesTwoChariots
        } else {
            Rule::OneChasesTwo
        })
    }

    /// The same piece attacked by every move, but by attacks the rules exempt.
    fn attacks_allowed(&self, side: Color) -> Option<Rule> {
        let made = |r: &Reading| {
            r.threats
                .iter()
                .flatten()
                .filter(|t| t.fresh)
                .fold(0u32, |acc, t| acc | id_bit(&r.ids, t))
        };
        let throughout = self.moves_of(side).fold(u32::MAX, |set, r| set & made(r));
        let id = ids_of(throughout).next()?;
        let attacks: Vec<&Threat> = self
            .attacks_on(side, id)
            .filter(|(_, t)| t.fresh)
            .map(|(_, t)| t)
            .collect();
        let excuse = attacks.iter().find(|t| !t.how.chases())?;
        let attackers = self
            .attacks_on(side, id)
            .map(|(r, t)| r.ids[t.from.index()])
            .collect::<Vec<u8>>();
        let several = attackers.iter().any(|&a| a != attackers[0]);
        Some(match excuse.how {
            Attack::ByGeneral => Rule::GeneralChases,
            Attack::BySoldier => Rule::SoldierChases,
            Attack::UncrossedSoldier => Rule::CannonThroughScreen,
            Attack::Exchange => Rule::SameKind,
            Attack::Confined => Rule::ConfinedChariot,
            _ if excuse.confined => Rule::ConfinedChariot,
            Attack::Protected
                if !several
                    && excuse.victim == Kind::Cannon
                    && attacks.iter().all(|t| t.attacker == Kind::Chariot) =>
            {
                Rule::ChariotChasesProtectedCannon
            }
            Attack::Protected => Rule::ProtectedPiece,
            _ => Rule::NoOffence,
        })
    }

    /// A threat to mate with every move: never forbidden (rules 9 and 10).
    fn mate_threats(&self, side: Color) -> Option<Rule> {
        let threatens = |side: Color| self.moves_of(side).all(|r| r.mate_threat);
        if !threatens(side) {
            return None;
        }
        Some(if threatens(side.opponent()) {
            Rule::MateThreatBack
        } else {
            Rule::MateThreat
        })
    }
}
