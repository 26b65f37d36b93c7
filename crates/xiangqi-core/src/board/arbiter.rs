//! The arbiter: rules a repetition as the Asian rules do (docs/rules.md). It replays the
//! cycle, reads each move (a check, a chase of which pieces, or neither), finds each
//! side's offence and orders the offences; citation.rs names the rule that decides.
//!
//! One definition serves everyone: `Position::ruling` ends games (and explains why),
//! `Position::judge_cycle` scores repetitions in the engine's search, and
//! `Position::repetition_warning` warns before a move repeats a forbidden cycle.

use super::chase::{self, Attack, Threat};
use super::position::Position;
use super::rules::{DrawReason, Outcome, WinReason};
use super::ruling::{CycleMove, MoveKind, Target};
use super::types::{Color, Kind, Move, Square};

/// What one side did through a cycle, worst first in `Ord`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Offence {
    /// Nothing forbidden.
    None,
    /// Chased the same piece with every move.
    Chase,
    /// Chased a chariot with cannons with every move: forbidden even when the chariot's
    /// answers attack unprotected pieces (rule 15).
    CannonChase,
    /// Chased, with every move, a chariot that an enemy horse holds in place (rule 19
    /// forbids it even against a chase back).
    HeldChase,
    /// Checked with every move.
    Check,
}

/// The arbiter's decision on a cycle (`Ruling` adds the rule and the moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub outcome: Outcome,
    /// The side that broke the rule and loses; `None` for a draw.
    pub offender: Option<Color>,
}

/// Piece identities through a replay, so a chased piece is followed as it moves.
type Ids = [u8; 90];
const NO_ID: u8 = u8::MAX;

/// One move of the cycle as read.
pub(super) struct Reading {
    pub(super) mv: Move,
    pub(super) side: Color,
    pub(super) check: bool,
    /// The attacks the move left, `None` when not looked at (a check, or a side already
    /// cleared when only the decision is wanted).
    pub(super) threats: Option<Vec<Threat>>,
    /// Identities after the move, to follow pieces.
    pub(super) ids: Ids,
    /// Where the general of the side not moving stood after the move.
    pub(super) checked_general: Square,
    /// The move threatens mate in one (read only for a ruling's explanation).
    pub(super) mate_threat: bool,
}

/// A cycle read move by move.
pub(crate) struct Cycle {
    pub(super) readings: Vec<Reading>,
    /// Identities before the first move.
    start_ids: Ids,
    /// Plies of the last cycle (back to the latest earlier occurrence).
    last: usize,
}

impl Position {
    /// Rules on the repetition made by the last `span` plies, which must end in the
    /// position `span` plies back. `None` if a null move lies inside (search only).
    pub fn judge_cycle(&self, span: usize) -> Option<Decision> {
        if let Some(offences) = self.offences_by_checks(span) {
            return Some(decision(offences));
        }
        Cycle::read(self, span, false).map(|cycle| cycle.decide())
    }

    /// The offences, read off the history's check flags alone, when chases cannot change
    /// the decision: a side checked with every move (check outranks any chase), or both
    /// sides checked at least once (so neither chased with every move). The search meets
    /// many such cycles; they need no replay.
    fn offences_by_checks(&self, span: usize) -> Option<[Offence; 2]> {
        let history = &self.history;
        if span < 2 || span > history.len() {
            return None;
        }
        let first = history.len() - span;
        if history[first..].iter().any(|u| u.mv.is_null()) {
            return None;
        }
        let (mut moves, mut checks) = ([0; 2], [0; 2]);
        for j in first..history.len() {
            // The last move was the opponent's of the side to move; they alternate back.
            let mover = if (history.len() - 1 - j).is_multiple_of(2) {
                self.side_to_move().opponent()
            } else {
                self.side_to_move()
            };
            let gave_check = history.get(j + 1).map_or(self.in_check(), |u| u.in_check);
            moves[mover.index()] += 1;
            checks[mover.index()] += usize::from(gave_check);
        }
        let all = |side: usize| checks[side] == moves[side];
        let decided = all(0) || all(1) || (checks[0] > 0 && checks[1] > 0);
        decided.then(|| {
            [0, 1].map(|side| {
                if all(side) {
                    Offence::Check
                } else {
                    Offence::None
                }
            })
        })
    }

    /// Reads the last `span` plies; `detail` reads every move in full (for a ruling's
    /// explanation), otherwise only what the decision needs.
    pub(crate) fn read_cycle(&self, span: usize) -> Option<Cycle> {
        Cycle::read(self, span, true)
    }
}

impl Cycle {
    fn read(pos: &Position, span: usize, detail: bool) -> Option<Cycle> {
        let history = &pos.history;
        if span < 2 || span > history.len() {
            return None;
        }
        let moves: Vec<Move> = history[history.len() - span..]
            .iter()
            .map(|u| u.mv)
            .collect();
        if moves.iter().any(|m| m.is_null()) {
            return None;
        }
        let mut replay = Position {
            history: history[history.len() - span..].to_vec(),
            ..*pos
        };
        for &mv in moves.iter().rev() {
            replay.unmake_move(mv);
        }
        let mut ids = [NO_ID; 90];
        for (i, s) in super::bitboard::Squares(replay.occupied()).enumerate() {
            ids[s.index()] = i as u8;
        }
        let start_ids = ids;
        let mut keys = vec![replay.key()];
        let mut positions = Vec::with_capacity(span + 1);
        positions.push(chase::bare(&replay));
        let mut readings = Vec::with_capacity(span);
        for &mv in &moves {
            let side = replay.side_to_move();
            replay.make_move(mv);
            ids[mv.to().index()] = ids[mv.from().index()];
            ids[mv.from().index()] = NO_ID;
            keys.push(replay.key());
            positions.push(chase::bare(&replay));
            readings.push(Reading {
                mv,
                side,
                check: replay.in_check(),
                threats: None,
                ids,
                checked_general: replay.general(side.opponent()),
                mate_threat: false,
            });
        }
        // The reply to the last move is the one played after the latest earlier
        // occurrence of the final position: the cycle repeats it.
        let repeat = (0..span).rev().find(|&k| keys[k] == keys[span])?;
        let mut cycle = Cycle {
            readings,
            start_ids,
            last: span - repeat,
        };
        cycle.read_threats(&positions, repeat, detail);
        Some(cycle)
    }

    /// Fills in the attacks of the moves that need them. A side that checked at least
    /// once cannot be chasing perpetually, nor one that has stopped chasing some piece:
    /// unless `detail`, their moves are skipped.
    /// `positions` are the cycle's positions, before the first move to after the last.
    fn read_threats(&mut self, positions: &[Position], repeat: usize, detail: bool) {
        let after = &positions[1..];
        let span = self.readings.len();
        let mut chasing: [Option<u32>; 2] = [None, None];
        let mut clear = [false; 2];
        for side in Color::BOTH {
            clear[side.index()] = self.moves_of(side).any(|r| r.check);
        }
        for i in 0..span {
            let reading = &self.readings[i];
            let side = reading.side.index();
            if reading.check || (clear[side] && !detail) {
                continue;
            }
            let (reply, answered) = if i + 1 < span {
                (self.readings[i + 1].mv, &after[i + 1])
            } else {
                (self.readings[repeat].mv, &after[repeat])
            };
            // Only the pieces this side has chased so far can still be chased throughout:
            // unless the whole reading is wanted, attacks on the others are not looked at.
            let ids = self.readings[i].ids;
            let candidates = match chasing[side] {
                Some(set) if !detail => (0..90)
                    .filter(|&s| ids[s] != NO_ID && set & (1 << ids[s]) != 0)
                    .fold(0, |acc, s| acc | 1u128 << s),
                _ => !0,
            };
            let mut threats = chase::threats(&after[i], candidates);
            // An attack the move did not make (the same piece attacked the same piece
            // before it) is no chase by it.
            let mv = self.readings[i].mv;
            for threat in threats.iter_mut().filter(|t| t.how.chases()) {
                let from = if threat.from == mv.to() {
                    mv.from()
                } else {
                    threat.from
                };
                if chase::chased_before(&positions[i], from, threat.to) {
                    threat.how = Attack::Standing;
                }
            }
            if detail {
                // Which attacks the move made, chase or not, for explaining a draw.
                let before = if i == 0 {
                    &self.start_ids
                } else {
                    &self.readings[i - 1].ids
                };
                let old: Vec<(u8, u8)> = chase::captures(&positions[i])
                    .iter()
                    .map(|mv| (before[mv.from().index()], before[mv.to().index()]))
                    .collect();
                for threat in &mut threats {
                    let pair = (ids[threat.from.index()], ids[threat.to.index()]);
                    threat.fresh = !old.contains(&pair);
                }
            }
            chase::drop_ignored(&mut threats, answered, reply);
            if detail {
                self.readings[i].mate_threat = chase::threatens_mate(&after[i]);
            }
            let ids = &self.readings[i].ids;
            let chased = threats
                .iter()
                .filter(|t| t.how.chases())
                .fold(0u32, |set, t| set | id_bit(ids, t));
            let running = chasing[side].map_or(chased, |set| set & chased);
            chasing[side] = Some(running);
            if running == 0 {
                clear[side] = true;
            }
            self.readings[i].threats = Some(threats);
        }
    }

    pub(super) fn moves_of(&self, side: Color) -> impl Iterator<Item = &Reading> + '_ {
        self.readings.iter().filter(move |r| r.side == side)
    }

    /// The pieces (by identity) `side` chased with every one of its moves.
    pub(super) fn chased_throughout(&self, side: Color) -> u32 {
        self.moves_of(side).fold(u32::MAX, |set, r| {
            set & r.threats.as_ref().map_or(0, |threats| {
                threats
                    .iter()
                    .filter(|t| t.how.chases())
                    .fold(0, |acc, t| acc | id_bit(&r.ids, t))
            })
        })
    }

    /// `side`'s attacks on the piece with identity `id`, one list per move.
    pub(super) fn attacks_on(
        &self,
        side: Color,
        id: u8,
    ) -> impl Iterator<Item = (&Reading, &Threat)> + '_ {
        self.moves_of(side).flat_map(move |r| {
            r.threats
                .iter()
                .flatten()
                .filter(move |t| r.ids[t.to.index()] == id)
                .map(move |t| (r, t))
        })
    }

    fn offence(&self, side: Color) -> Offence {
        if self.moves_of(side).all(|r| r.check) {
            return Offence::Check;
        }
        let chased = self.chased_throughout(side);
        if chased == 0 {
            return Offence::None;
        }
        let chases_of = |id: u8| {
            self.attacks_on(side, id)
                .filter(|(_, t)| t.how.chases())
                .map(|(_, t)| *t)
                .collect::<Vec<Threat>>()
        };
        ids_of(chased)
            .map(|id| {
                let chases = chases_of(id);
                if chases.iter().all(|t| t.held_by_horse) {
                    Offence::HeldChase
                } else if chases
                    .iter()
                    .all(|t| t.attacker == Kind::Cannon && t.victim == Kind::Chariot)
                {
                    Offence::CannonChase
                } else {
                    Offence::Chase
                }
            })
            .max()
            .unwrap_or(Offence::None)
    }

    /// Each side's offence, Red's first.
    pub(super) fn offences(&self) -> [Offence; 2] {
        [self.offence(Color::Red), self.offence(Color::Black)]
    }

    /// The decision on the cycle: who loses, if anyone. The worse offence loses (check,
    /// then a chase of a held chariot, then a cannon's chase of a chariot, then any
    /// chase); equal offences draw.
    pub(crate) fn decide(&self) -> Decision {
        decision(self.offences())
    }

    /// The moves of the last cycle, each with what it did.
    pub(crate) fn last_moves(&self) -> Vec<CycleMove> {
        self.readings[self.readings.len() - self.last..]
            .iter()
            .map(|r| {
                if r.check {
                    return CycleMove {
                        mv: r.mv,
                        side: r.side,
                        kind: MoveKind::Check,
                        targets: vec![Target {
                            kind: Kind::General,
                            square: r.checked_general,
                        }],
                    };
                }
                let targets: Vec<Target> = r
                    .threats
                    .iter()
                    .flatten()
                    .filter(|t| t.how.chases())
                    .map(|t| Target {
                        kind: t.victim,
                        square: t.to,
                    })
                    .collect();
                CycleMove {
                    mv: r.mv,
                    side: r.side,
                    kind: if targets.is_empty() {
                        MoveKind::Idle
                    } else {
                        MoveKind::Chase
                    },
                    targets,
                }
            })
            .collect()
    }

    /// The piece `side` chased throughout, where it stood after `side`'s last move.
    pub(crate) fn persistent_target(&self, side: Color) -> Option<Target> {
        let id = ids_of(self.chased_throughout(side)).next()?;
        let (_, threat) = self
            .attacks_on(side, id)
            .filter(|(_, t)| t.how.chases())
            .last()?;
        Some(Target {
            kind: threat.victim,
            square: threat.to,
        })
    }
}

/// The decision from each side's offence (Red's first): the worse offence loses (check,
/// then a chase of a held chariot, then a cannon's chase of a chariot, then any chase);
/// equal offences draw.
fn decision([red, black]: [Offence; 2]) -> Decision {
    let draw = |reason| Decision {
        outcome: Outcome::Draw(reason),
        offender: None,
    };
    match (red, black) {
        (Offence::Check, Offence::Check) => draw(DrawReason::MutualPerpetualCheck),
        (Offence::None, Offence::None) => draw(DrawReason::Repetition),
        (a, b) if a == b => draw(DrawReason::MutualPerpetualChase),
        (a, b) => {
            let (loser, worst) = if a > b {
                (Color::Red, a)
            } else {
                (Color::Black, b)
            };
            Decision {
                outcome: Outcome::Win {
                    winner: loser.opponent(),
                    reason: if worst == Offence::Check {
                        WinReason::PerpetualCheck
                    } else {
                        WinReason::PerpetualChase
                    },
                },
                offender: Some(loser),
            }
        }
    }
}

pub(super) fn id_bit(ids: &Ids, threat: &Threat) -> u32 {
    match ids[threat.to.index()] {
        NO_ID => 0,
        id => 1 << id,
    }
}

pub(super) fn ids_of(set: u32) -> impl Iterator<Item = u8> {
    (0..32u8).filter(move |&id| set & (1 << id) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every repetition met replaying `moves` from `fen`: the quick decisions (the
    /// search's, and the one read off check flags) must be the full reading's.
    fn check_repetitions(fen: &str, moves: &[Move], name: &str) -> usize {
        let mut checked = 0;
        let mut pos = Position::from_fen(fen).unwrap();
        for &mv in moves {
            pos.make_move(mv);
            for count in [2, 3] {
                let Some(span) = pos.repetition_span(count) else {
                    continue;
                };
                let full = Cycle::read(&pos, span, true).unwrap().decide();
                let quick = Cycle::read(&pos, span, false).unwrap().decide();
                assert_eq!(quick, full, "{name} after {mv}");
                assert_eq!(pos.judge_cycle(span), Some(full), "{name} after {mv}");
                checked += 1;
            }
        }
        checked
    }

    /// The search reads only what the decision needs; it must decide as the full reading
    /// does, at every repetition of every rule-book diagram and of the repetition set.
    #[test]
    fn the_quick_reading_decides_as_the_full_one() {
        let mut checked = 0;
        for line in include_str!("../../../../tests/data/rulebook.tsv").lines() {
            if line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let parse = |m: &str| Move::parse_coords(m).unwrap();
            let lead: Vec<Move> = f[3].split(' ').filter(|m| *m != "-").map(parse).collect();
            let cycle: Vec<Move> = f[4].split(' ').map(parse).collect();
            let moves: Vec<Move> = lead
                .iter()
                .chain(cycle.iter().cycle())
                .take(lead.len() + 2 * cycle.len())
                .copied()
                .collect();
            checked += check_repetitions(f[2], &moves, f[0]);
        }
        // The repetition set writes moves with ranks 1-10.
        for (number, line) in include_str!("../../../../tests/data/chase_cases.tsv")
            .lines()
            .enumerate()
        {
            let f: Vec<&str> = line.split('\t').collect();
            let moves: Vec<Move> = f[1]
                .split(' ')
                .map(|m| {
                    let split = m[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
                    let (from, to) = m.split_at(split);
                    let square = |s: &str| {
                        let rank: u32 = s[1..].parse().unwrap();
                        format!("{}{}", &s[..1], rank - 1)
                    };
                    Move::parse_coords(&(square(from) + &square(to))).unwrap()
                })
                .collect();
            checked += check_repetitions(f[0], &moves, &format!("line {}", number + 1));
        }
        assert!(checked > 1500, "{checked}");
    }
}
