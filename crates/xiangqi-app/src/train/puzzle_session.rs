//! One attempt at a puzzle: the position reached, the moves played with their marks,
//! whose turn it is, and what the last move was worth. No I/O and no waiting: where the
//! prover must answer, the session hands out a [`PuzzleRequest`] and takes the
//! [`PuzzleAnswer`] back.

use xiangqi_core::board::{Move, Position, Square};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_engine::puzzle::Puzzle;

use super::prover_work::{Judgement, PuzzleAnswer, PuzzleRequest};

/// Where the attempt stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The solver's turn.
    YourMove,
    /// The prover is judging the solver's move (or finding a hint).
    Waiting,
    /// Mated.
    Solved,
    /// A wrong move was played and refuted: retry takes it back.
    Refuted,
}

/// How a move of the attempt is marked in the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// The stored solution's move.
    Solution,
    /// Another move that mates in time.
    AlsoMates,
    /// A move that does not mate in time.
    Wrong,
    /// The defender's reply.
    Reply,
    /// The defender's reply to a wrong move.
    Refutation,
}

impl Mark {
    /// The sign after the move: `!`, `!?` (also mates), `?`, none for replies.
    pub fn sign(self) -> &'static str {
        match self {
            Mark::Solution => "!",
            Mark::AlsoMates => "!?",
            Mark::Wrong => "?",
            Mark::Reply | Mark::Refutation => "",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub mark: Mark,
}

/// What the last move of the solver was worth, for the pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Solved,
    /// Another mate in time: the line goes on.
    AlsoMates {
        mv: Move,
    },
    Wrong {
        mv: Move,
        refutation: Option<Move>,
        mates_solver: bool,
        /// The attacker's moves left when it was played.
        moves_left: u32,
        slower_mate: Option<u32>,
    },
    /// The prover could not judge the move within its budget: it was not played.
    Unproven {
        mv: Move,
    },
}

/// One attempt at `puzzle`.
#[derive(Debug, Clone)]
pub struct PuzzleSession {
    pub puzzle: Puzzle,
    pub start: Position,
    pub moves: Vec<PlayedMove>,
    pub status: Status,
    /// Wrong moves played (each one refuted).
    pub mistakes: u32,
    pub hint_used: bool,
    /// The piece the hint marks.
    pub hint: Option<Square>,
    pub solution_shown: bool,
    pub verdict: Option<Verdict>,
    /// The last request handed out; older answers are dropped.
    pending: Option<u64>,
    next_id: u64,
}

impl PuzzleSession {
    pub fn new(puzzle: Puzzle) -> PuzzleSession {
        let start = puzzle.position();
        PuzzleSession {
            puzzle,
            start,
            moves: Vec::new(),
            status: Status::YourMove,
            mistakes: 0,
            hint_used: false,
            hint: None,
            solution_shown: false,
            verdict: None,
            pending: None,
            next_id: 0,
        }
    }

    /// Numbers this attempt's requests from `base` on, so the answers to an earlier
    /// attempt's requests (still on their way) are told apart and dropped.
    pub fn with_request_ids_from(mut self, base: u64) -> PuzzleSession {
        self.next_id = base;
        self
    }

    /// The position now.
    pub fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for played in &self.moves {
            pos.make_move(played.mv);
        }
        pos
    }

    /// The moves played with their signs (`!`, `!?`, `?`), for a list.
    pub fn moves_marked(&self) -> Vec<(Move, &'static str)> {
        self.moves.iter().map(|m| (m.mv, m.mark.sign())).collect()
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The solver's moves left to mate in.
    pub fn moves_left(&self) -> u32 {
        self.puzzle.mate_in.saturating_sub(self.ply() as u32 / 2)
    }

    /// Whether the moves so far are the stored line's.
    pub fn on_line(&self) -> bool {
        self.moves
            .iter()
            .zip(&self.puzzle.solution)
            .all(|(played, stored)| played.mv == *stored)
    }

    /// The rated result once known: solved cleanly is a win; a wrong move, a hint or the
    /// solution shown is a loss (as on lichess). `None` while it can still go either way.
    pub fn result(&self) -> Option<bool> {
        if self.mistakes > 0 || self.hint_used || self.solution_shown {
            Some(false)
        } else if self.status == Status::Solved {
            Some(true)
        } else {
            None
        }
    }

    /// The solver plays `mv`: on the stored line the stored reply follows at once;
    /// otherwise the prover must judge it (the request to run). An error says why the
    /// move is not taken.
    pub fn play(&mut self, mv: Move) -> Result<Option<PuzzleRequest>, String> {
        match self.status {
            Status::YourMove => {}
            Status::Waiting => return Err("the prover is still judging the last move".into()),
            Status::Solved => return Err("solved: Ctrl-N for the next puzzle".into()),
            Status::Refuted => {
                return Err("refuted: Ctrl-Z takes the wrong move back, Ctrl-N next".into());
            }
        }
        let before = self.position();
        if !before.is_legal(mv) {
            return Err(format!("{} is not legal here", mv.iccs()));
        }
        self.hint = None;
        let ply = self.ply();
        if self.on_line() && self.puzzle.solution.get(ply) == Some(&mv) {
            self.moves.push(PlayedMove {
                mv,
                mark: Mark::Solution,
            });
            match self.puzzle.solution.get(ply + 1) {
                Some(&reply) => {
                    self.moves.push(PlayedMove {
                        mv: reply,
                        mark: Mark::Reply,
                    });
                    self.verdict = None;
                }
                None => self.solve(),
            }
            return Ok(None);
        }
        let id = self.next_request();
        self.status = Status::Waiting;
        Ok(Some(PuzzleRequest::Judge {
            id,
            before,
            mv,
            moves_left: self.moves_left(),
            // Certification proved every other first move fails.
            certified_wrong: ply == 0,
        }))
    }

    /// A hint: the piece to move is marked (the attempt then counts as failed). On the
    /// stored line it is known at once; off it the prover finds a mating move.
    pub fn ask_hint(&mut self) -> Result<Option<PuzzleRequest>, String> {
        if self.status != Status::YourMove {
            return Err("no hint now: it is not your move".into());
        }
        self.hint_used = true;
        if self.on_line() {
            self.hint = self.puzzle.solution.get(self.ply()).map(|mv| mv.from());
            return Ok(None);
        }
        let id = self.next_request();
        self.status = Status::Waiting;
        Ok(Some(PuzzleRequest::Hint {
            id,
            before: self.position(),
            moves_left: self.moves_left(),
        }))
    }

    /// The request whose answer the attempt waits for.
    pub fn pending(&self) -> Option<u64> {
        self.pending
    }

    /// Takes back the refuted move and its refutation (the attempt stays failed).
    pub fn retry(&mut self) {
        if let Some(at) = self.moves.iter().position(|m| m.mark == Mark::Wrong) {
            self.moves.truncate(at);
        }
        if self.status != Status::Solved {
            self.status = Status::YourMove;
        }
        self.pending = None;
        self.verdict = None;
        self.hint = None;
    }

    /// Shows the stored solution: the attempt counts as failed.
    pub fn show_solution(&mut self) {
        self.solution_shown = true;
    }

    /// Takes the prover's answer; answers to an older request are dropped.
    pub fn apply(&mut self, answer: PuzzleAnswer) {
        if self.pending != Some(answer.id()) {
            return;
        }
        self.pending = None;
        self.status = Status::YourMove;
        match answer {
            PuzzleAnswer::Judged { mv, judgement, .. } => self.judged(mv, judgement),
            PuzzleAnswer::Hint { mv, .. } => self.hint = mv.map(|mv| mv.from()),
            PuzzleAnswer::Node { .. } => {}
        }
    }

    fn judged(&mut self, mv: Move, judgement: Judgement) {
        match judgement {
            Judgement::AlsoMates { reply } => {
                self.moves.push(PlayedMove {
                    mv,
                    mark: Mark::AlsoMates,
                });
                self.verdict = Some(Verdict::AlsoMates { mv });
                match reply {
                    Some(reply) => self.moves.push(PlayedMove {
                        mv: reply,
                        mark: Mark::Reply,
                    }),
                    None => self.solve(),
                }
            }
            Judgement::Wrong {
                refutation,
                mates_solver,
                slower_mate,
            } => {
                let moves_left = self.moves_left();
                self.moves.push(PlayedMove {
                    mv,
                    mark: Mark::Wrong,
                });
                if let Some(reply) = refutation {
                    self.moves.push(PlayedMove {
                        mv: reply,
                        mark: Mark::Refutation,
                    });
                }
                self.mistakes += 1;
                self.status = Status::Refuted;
                self.verdict = Some(Verdict::Wrong {
                    mv,
                    refutation,
                    mates_solver,
                    moves_left,
                    slower_mate,
                });
            }
            Judgement::Unproven => self.verdict = Some(Verdict::Unproven { mv }),
        }
    }

    fn solve(&mut self) {
        self.status = Status::Solved;
        self.verdict = Some(Verdict::Solved);
    }

    fn next_request(&mut self) -> u64 {
        self.next_id += 1;
        self.pending = Some(self.next_id);
        self.next_id
    }

    /// The last verdict in words, moves in `notation`: "wrong: 车二进一 is met by 将5平6
    /// and there is no mate in 2; that also mates, but in 4".
    pub fn describe(&self, notation: Notation) -> Option<String> {
        let verdict = self.verdict.as_ref()?;
        Some(match verdict {
            Verdict::Solved if self.result() == Some(true) => "solved!".to_owned(),
            Verdict::Solved => "mate (the attempt counts as failed)".to_owned(),
            Verdict::AlsoMates { mv } => {
                let text = self.write_at(self.index_of(*mv, Mark::AlsoMates), *mv, notation);
                format!("{text} also mates in time: go on")
            }
            Verdict::Unproven { mv } => {
                let pos = self.position();
                format!(
                    "{} could not be judged in time; try another move",
                    format_move(&pos, *mv, notation)
                )
            }
            Verdict::Wrong {
                mv,
                refutation,
                mates_solver,
                moves_left,
                slower_mate,
            } => {
                let at = self.index_of(*mv, Mark::Wrong);
                let played = self.write_at(at, *mv, notation);
                let mut text = format!("wrong: {played}");
                if let Some(reply) = refutation {
                    let reply = self.write_at(at.map(|i| i + 1), *reply, notation);
                    if *mates_solver {
                        text.push_str(&format!(" is met by {reply}, which mates"));
                        return Some(text);
                    }
                    text.push_str(&format!(" is met by {reply}"));
                    text.push_str(&format!(" and there is no mate in {moves_left}"));
                } else {
                    text.push_str(&format!(" does not mate in {moves_left}"));
                }
                if let Some(k) = slower_mate {
                    text.push_str(&format!("; that also mates, but in {k}"));
                }
                text
            }
        })
    }

    /// Where the last move `mv` marked `mark` stands in the list.
    fn index_of(&self, mv: Move, mark: Mark) -> Option<usize> {
        self.moves
            .iter()
            .rposition(|played| played.mv == mv && played.mark == mark)
    }

    /// Move `mv` as written in the position before move `index` of the list.
    fn write_at(&self, index: Option<usize>, mv: Move, notation: Notation) -> String {
        let mut pos = self.start.clone();
        for played in self.moves.iter().take(index.unwrap_or(0)) {
            pos.make_move(played.mv);
        }
        format_move(&pos, mv, notation)
    }
}
