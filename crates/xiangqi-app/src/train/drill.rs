//! A drill of the endgame school: the student plays one side of a tablebase ending
//! against the table's perfect play, and every move is graded against the table's best.
//!
//! - Attacking (a won ending): the table defends with the longest resistance
//!   (`Tablebases::best_move`); a move is graded by the plies it adds to the mate
//!   (`+0` the best, `+4` four plies slower), `draw!` when it throws the win away,
//!   `loses!` when it even walks into a loss. The lesson is passed when the mate comes
//!   within `margin(optimum)` plies of the optimum; plies lost by moves taken back count.
//! - Defending (a drawn ending): the table attacks with the move that leaves the
//!   defender the fewest drawing replies; a move "holds" or "loses in N". The lesson is
//!   passed after `HOLD_MOVES` moves held.
//!
//! A thrown win or a lost defence ends the drill at once (failed): taking back is the
//! way on.

use xiangqi_core::board::{Color, Move, Position};
use xiangqi_engine::egtb::{EgtbError, Tablebases, Wdl};

/// Moves a defender must hold to pass a drawn ending.
pub const HOLD_MOVES: usize = 20;

/// Plies over the optimum a passed attack may use: a fifth of the optimum, at least 4.
pub fn margin(optimum: u32) -> u32 {
    (optimum / 5).max(4)
}

/// How a student's move compares with the table's best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grade {
    /// Still winning, this many plies slower than the fastest mate (0: a best move).
    Slower(u32),
    /// A win thrown away: a draw now.
    ThrowsWin,
    /// A won or drawn position turned into a loss, mated in this many plies.
    Loses { plies: u32, was_won: bool },
    /// Defending: the draw holds.
    Holds,
}

impl Grade {
    /// `+0`, `+4`, `draw!`, `loses!`, `holds`, `loses in 5` (moves).
    pub fn text(&self) -> String {
        match self {
            Grade::Slower(n) => format!("+{n}"),
            Grade::ThrowsWin => "draw!".to_owned(),
            Grade::Loses { was_won: true, .. } => "loses!".to_owned(),
            Grade::Loses { plies, .. } => format!("loses in {}", plies.div_ceil(2)),
            Grade::Holds => "holds".to_owned(),
        }
    }

    /// Plies lost against the table's best (0 when the result changed).
    pub fn lost(&self) -> u32 {
        match self {
            Grade::Slower(n) => *n,
            _ => 0,
        }
    }

    /// Whether the move keeps the result the table promised.
    pub fn keeps(&self) -> bool {
        matches!(self, Grade::Slower(_) | Grade::Holds)
    }
}

/// A student's move, its grade and the table's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub mv: Move,
    pub grade: Grade,
    /// The table's answer (none after a mate or a failed move).
    pub reply: Option<Move>,
}

/// How the drill stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Playing,
    Passed,
    /// The mate came, but later than the margin allows.
    TooSlow,
    /// The win was thrown away, or the defence lost.
    Failed,
}

impl Status {
    pub fn text(&self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Passed => "passed",
            Status::TooSlow => "failed: mate too slow",
            Status::Failed => "failed",
        }
    }

    pub fn over(&self) -> bool {
        *self != Status::Playing
    }
}

/// One attempt at a lesson.
#[derive(Debug, Clone)]
pub struct Drill {
    pub start: Position,
    pub student: Color,
    /// The student plays the won side (else defends a draw).
    pub attack: bool,
    /// Plies to mate from the start with best play (attacking).
    pub optimum: Option<u32>,
    pub position: Position,
    /// The table's first move when it moves first.
    pub opening_reply: Option<Move>,
    pub steps: Vec<Step>,
    pub takebacks: u32,
    /// Plies lost by moves since taken back: they still count.
    pub penalty: u32,
    pub status: Status,
}

impl Drill {
    /// A drill from `start`; if the table's side is to move, it moves first.
    pub fn new(
        start: Position,
        student: Color,
        attack: bool,
        tables: &Tablebases,
    ) -> Result<Drill, EgtbError> {
        let mut drill = Drill {
            start: start.clone(),
            student,
            attack,
            optimum: None,
            position: start,
            opening_reply: None,
            steps: Vec::new(),
            takebacks: 0,
            penalty: 0,
            status: Status::Playing,
        };
        if drill.position.side_to_move() != student {
            drill.opening_reply = drill.reply(tables)?;
            if let Some(mv) = drill.opening_reply {
                drill.position.make_move(mv);
            }
        }
        let probe = tables.probe_checked(&drill.position)?;
        if attack && probe.wdl == Wdl::Win {
            drill.optimum = probe.plies.map(|p| p + drill.plies_used());
        }
        Ok(drill)
    }

    /// Plies played since the start (the table's moves included).
    pub fn plies_used(&self) -> u32 {
        let replies = self.steps.iter().filter(|s| s.reply.is_some()).count();
        (usize::from(self.opening_reply.is_some()) + self.steps.len() + replies) as u32
    }

    /// Plies lost against the table's best, taken-back moves included.
    pub fn lost(&self) -> u32 {
        self.penalty + self.steps.iter().map(|s| s.grade.lost()).sum::<u32>()
    }

    /// Whether the student may move now.
    pub fn student_to_move(&self) -> bool {
        !self.status.over() && self.position.side_to_move() == self.student
    }

    /// Plays the student's `mv` (legal), grades it, and lets the table answer.
    pub fn play(&mut self, mv: Move, tables: &Tablebases) -> Result<Step, EgtbError> {
        let grade = grade(tables, &self.position, mv)?;
        self.position.make_move(mv);
        let mut step = Step {
            mv,
            grade,
            reply: None,
        };
        if !grade.keeps() {
            self.status = Status::Failed;
        } else if self.position.legal_move_list().is_empty() {
            // Mate (or stalemate: a loss too) delivered.
            self.steps.push(step);
            self.status = self.judge_mate();
            return Ok(step);
        } else {
            step.reply = self.reply(tables)?;
            if let Some(reply) = step.reply {
                self.position.make_move(reply);
            }
        }
        self.steps.push(step);
        if self.status == Status::Playing && !self.attack && self.steps.len() >= HOLD_MOVES {
            self.status = Status::Passed;
        }
        Ok(step)
    }

    fn judge_mate(&self) -> Status {
        let used = self.plies_used() + self.penalty;
        match self.optimum {
            Some(best) if used > best + margin(best) => Status::TooSlow,
            _ => Status::Passed,
        }
    }

    /// Takes back the student's last move (and the table's answer); the plies it lost
    /// still count. False when there is none.
    pub fn take_back(&mut self) -> bool {
        let Some(step) = self.steps.pop() else {
            return false;
        };
        if let Some(reply) = step.reply {
            self.position.unmake_move(reply);
        }
        self.position.unmake_move(step.mv);
        self.takebacks += 1;
        self.penalty += step.grade.lost();
        self.status = Status::Playing;
        true
    }

    /// The table's best move for the student here: the fastest mate attacking, a
    /// move that keeps the draw defending.
    pub fn best(&self, tables: &Tablebases) -> Result<Option<Move>, EgtbError> {
        tables.best_move(&self.position)
    }

    /// The table's move: the longest resistance when defending, the hardest attack on
    /// a draw (see `hardest_attack`).
    fn reply(&self, tables: &Tablebases) -> Result<Option<Move>, EgtbError> {
        if self.attack {
            tables.best_move(&self.position)
        } else {
            hardest_attack(tables, &self.position)
        }
    }
}

/// Grades `mv` in `pos` against the table's best for the side to move.
pub fn grade(tables: &Tablebases, pos: &Position, mv: Move) -> Result<Grade, EgtbError> {
    let before = tables.probe_checked(pos)?;
    let mut after_pos = pos.clone();
    after_pos.make_move(mv);
    let after = tables.probe_checked(&after_pos)?;
    let plies = |p: Option<u32>| p.unwrap_or(0);
    Ok(match (before.wdl, after.wdl) {
        (Wdl::Win, Wdl::Loss) => {
            Grade::Slower((plies(after.plies) + 1).saturating_sub(plies(before.plies)))
        }
        (Wdl::Win, Wdl::Draw) => Grade::ThrowsWin,
        (before_wdl, Wdl::Win) => Grade::Loses {
            plies: plies(after.plies),
            was_won: before_wdl == Wdl::Win,
        },
        // A draw (or a loss) that stays as it was.
        _ => Grade::Holds,
    })
}

/// The attacker's move in a drawn position: of the moves that keep the draw, the one
/// leaving the defender the fewest drawing replies (the first generated on a tie); a
/// win if the defender erred.
pub fn hardest_attack(tables: &Tablebases, pos: &Position) -> Result<Option<Move>, EgtbError> {
    let moves = tables.move_values(pos)?;
    if moves.iter().any(|(_, child)| child.wdl == Wdl::Loss) {
        return tables.best_move(pos);
    }
    let mut best: Option<(Move, usize)> = None;
    let mut p = pos.clone();
    for (mv, child) in moves {
        if child.wdl != Wdl::Draw {
            continue;
        }
        p.make_move(mv);
        let holding = tables
            .move_values(&p)
            .map(|replies| replies.iter().filter(|(_, g)| g.wdl == Wdl::Draw).count());
        p.unmake_move(mv);
        let holding = holding?;
        if best.is_none_or(|(_, n)| holding < n) {
            best = Some((mv, holding));
        }
    }
    match best {
        Some((mv, _)) => Ok(Some(mv)),
        None => tables.best_move(pos),
    }
}
