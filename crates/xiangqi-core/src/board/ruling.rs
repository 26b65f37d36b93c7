//! What the arbiter says: a ruling that ends a game by the repetition rules, with the
//! rule and the cycle's moves, and a warning before a move repeats a forbidden cycle.
//! Both serialise for `replay --json` and read as one line of text.

use std::fmt;

use serde::ser::{SerializeMap, Serializer};

use super::position::Position;
use super::rulebook::Rule;
use super::rules::{Outcome, REPETITION_COUNT, WinReason};
use super::types::{Color, Kind, Move, Square};

/// What one move of a cycle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveKind {
    Check,
    Chase,
    Idle,
}

/// A piece a move attacked, where it stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub kind: Kind,
    pub square: Square,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.square)
    }
}

/// One move of the repeated cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleMove {
    pub mv: Move,
    pub side: Color,
    pub kind: MoveKind,
    /// The general checked, or the pieces chased (empty for an idle move).
    pub targets: Vec<Target>,
}

impl CycleMove {
    /// The targets in words: "chariot d7", "cannon b2, horse c7"; `None` when idle.
    pub fn target_text(&self) -> Option<String> {
        (!self.targets.is_empty()).then(|| {
            self.targets
                .iter()
                .map(Target::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        })
    }
}

impl serde::Serialize for CycleMove {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("move", &self.mv)?;
        map.serialize_entry("kind", &self.kind)?;
        map.serialize_entry("target", &self.target_text())?;
        map.end()
    }
}

/// A game ended by the repetition rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    /// The ply (moves since the position was set up) at which the game ends.
    pub ply: usize,
    pub outcome: Outcome,
    pub rule: Rule,
    /// The side that broke the rule; `None` for a draw.
    pub offender: Option<Color>,
    /// The repeated cycle's moves, ending with the one that made the last repetition.
    pub cycle: Vec<CycleMove>,
}

impl Ruling {
    /// The result as PGN writes it.
    pub fn result(&self) -> &'static str {
        self.outcome.pgn_result()
    }

    /// The reason in a word or two: "perpetual chase", "repetition", ...
    pub fn reason(&self) -> &'static str {
        self.outcome.how()
    }

    /// How the game ended, for the PGN `Termination` tag and the server's archive:
    /// "perpetual chase (rule 18)".
    pub fn termination(&self) -> String {
        format!("{} ({})", self.reason(), self.rule.label())
    }

    /// The ply of the move that lost the game by the rules: the offender's last move of
    /// the cycle (the last move is the opponent's when the chased piece's escape makes
    /// the third occurrence). `None` for a draw.
    pub fn losing_ply(&self) -> Option<usize> {
        let offender = self.offender?;
        let from_end = self.cycle.iter().rev().position(|m| m.side == offender)?;
        Some(self.ply - from_end)
    }
}

impl fmt::Display for Ruling {
    /// One line: "0-1 at ply 24: perpetual chase by Red (rule 18: ...)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at ply {}: {}",
            self.result(),
            self.ply,
            self.reason()
        )?;
        if let Some(side) = self.offender {
            write!(f, " by {}", side.name())?;
        }
        write!(f, " ({})", self.rule)
    }
}

impl serde::Serialize for Ruling {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("ply", &self.ply)?;
        map.serialize_entry("result", self.result())?;
        map.serialize_entry("reason", self.reason())?;
        map.serialize_entry("rule", &self.rule)?;
        map.serialize_entry("cycle", &self.cycle)?;
        map.end()
    }
}

/// A warning that a candidate move repeats a cycle the mover would lose by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The piece chased throughout, or `None` for a perpetual check.
    pub chased: Option<Target>,
    pub rule: Rule,
    /// The move makes the third occurrence: the game ends, lost. Otherwise the game ends
    /// when the cycle goes on to a third occurrence.
    pub ends_game: bool,
}

impl Warning {
    /// What is repeated: "perpetual chase of the chariot at d7", "perpetual check".
    pub fn offence(&self) -> String {
        match self.chased {
            Some(target) => format!(
                "perpetual chase of the {} at {}",
                target.kind.name(),
                target.square
            ),
            None => "perpetual check".to_owned(),
        }
    }

    /// The warning said of `mv` (a move's text, or "this move"): "h6i6 repeats a
    /// perpetual chase of the cannon at i0: it would lose".
    pub fn said_of(&self, mv: &str) -> String {
        let then = if self.ends_game {
            "it would lose"
        } else {
            "a third repetition would lose"
        };
        format!("{mv} repeats a {}: {then}", self.offence())
    }

    /// The same in fewer words, for a narrow line: "h6i6 would lose: perpetual chase of
    /// the cannon at i0", or "h6i6 repeats a perpetual chase of the cannon at i0".
    pub fn brief(&self, mv: &str) -> String {
        if self.ends_game {
            format!("{mv} would lose: {}", self.offence())
        } else {
            format!("{mv} repeats a {}", self.offence())
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said_of("this move"))
    }
}

impl Position {
    /// The ruling if the repetition rules end the game in this position: it has occurred
    /// `REPETITION_COUNT` times since the last capture (and the side to move can move:
    /// mate and stalemate end the game first, as `outcome` says).
    pub fn ruling(&self) -> Option<Ruling> {
        let span = self.repetition_span(REPETITION_COUNT)?;
        if !self.has_legal_move() {
            return None;
        }
        self.rule_cycle(span)
    }

    /// What the arbiter reads in the cycle that has just brought this position back a
    /// second time: the ruling it would make if the cycle went on to the third
    /// occurrence. `None` unless the position has occurred exactly twice.
    pub fn pending_ruling(&self) -> Option<Ruling> {
        if self.repetitions() != REPETITION_COUNT - 1 {
            return None;
        }
        self.rule_cycle(self.repetition_span(REPETITION_COUNT - 1)?)
    }

    /// The ruling that ends the game played from this position with `moves` (legal one
    /// after the other), if the repetition rules end it within them: the first ply at
    /// which the game is over, when the arbiter decided it. `None` if the game goes on
    /// to the end of `moves`, or ended otherwise first (mate, the no-capture rule).
    pub fn first_ruling(&self, moves: &[Move]) -> Option<Ruling> {
        let mut pos = self.clone();
        for &mv in moves {
            pos.make_move(mv);
            if let Some(ruling) = pos.ruling() {
                return Some(ruling);
            }
            if pos.outcome().is_some() {
                return None;
            }
        }
        None
    }

    /// Every legal move here that repeats a cycle the mover would lose by, with the
    /// warning: what the status line tells the side to move.
    pub fn repetition_warnings(&self) -> Vec<(Move, Warning)> {
        // A repetition needs two quiet moves by each side at least.
        if self.halfmove_clock() < 3 {
            return Vec::new();
        }
        // A capture starts afresh: only quiet moves can repeat.
        let mut quiets = Vec::new();
        self.legal_quiets(&mut quiets);
        quiets
            .into_iter()
            .filter_map(|mv| Some((mv, self.repetition_warning(mv)?)))
            .collect()
    }

    /// The ruling on the cycle made by the last `span` plies.
    fn rule_cycle(&self, span: usize) -> Option<Ruling> {
        let cycle = self.read_cycle(span)?;
        let decision = cycle.decide();
        Some(Ruling {
            ply: self.ply(),
            outcome: decision.outcome,
            rule: cycle.cite(&decision),
            offender: decision.offender,
            cycle: cycle.last_moves(),
        })
    }

    /// If `mv` (legal here) repeats a position in a cycle the mover breaks a rule in,
    /// what the mover would be doing. Repeating an allowed cycle warns nothing.
    pub fn repetition_warning(&self, mv: Move) -> Option<Warning> {
        let mover = self.side_to_move();
        let mut after = self.clone();
        after.make_move(mv);
        let span = after.repetition_span(2)?;
        let cycle = after.read_cycle(span)?;
        let decision = cycle.decide();
        if decision.offender != Some(mover) {
            return None;
        }
        let chased = match decision.outcome {
            Outcome::Win {
                reason: WinReason::PerpetualCheck,
                ..
            } => None,
            _ => cycle.persistent_target(mover),
        };
        Some(Warning {
            chased,
            rule: cycle.cite(&decision),
            ends_game: after.repetitions() >= REPETITION_COUNT,
        })
    }
}
