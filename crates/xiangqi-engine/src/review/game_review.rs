//! A game's review: every move's loss of winning chance, its class and the engine's
//! better line, each side's accuracy; and the game annotated with them for PGN.

use crate::engine::Verdict;
use crate::service::Searcher;
use xiangqi_core::board::{Color, Move, Position, Ruling};
use xiangqi_core::notation::{Notation, format_move};
use xiangqi_core::record::{GameRecord, Line};

use super::accuracy::side_accuracy;
use super::class::MoveClass;
use super::curve::win_percent;
use super::evaluate::{Evaluation, ReviewError, ReviewLimits, evaluate_positions};

/// One move as the review sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReview {
    /// The move's place in the game, from 1.
    pub ply: usize,
    pub mv: Move,
    /// The side that played it.
    pub side: Color,
    /// The best play's score before the move, from Red's view.
    pub before: Verdict,
    /// The score after the move, from Red's view; `Mate(0)` when it mated.
    pub after: Verdict,
    /// Points of winning chance (0..100) the mover gave away; 0 for the engine's move.
    pub loss: f64,
    pub class: MoveClass,
    /// The engine's line from the position before the move, best move first.
    pub best_line: Vec<Move>,
}

impl MoveReview {
    pub fn best_move(&self) -> Option<Move> {
        self.best_line.first().copied()
    }
}

/// The review of a whole game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameReview {
    pub moves: Vec<MoveReview>,
    /// Red's and Black's accuracy, 0..100 (`None`: the side did not move).
    pub red_accuracy: Option<f64>,
    pub black_accuracy: Option<f64>,
    /// The arbiter's ruling when the repetition rules ended the game within the record.
    pub ruling: Option<Ruling>,
}

/// Reviews `record`: evaluates every position (see [`evaluate_positions`]) and judges
/// each move.
pub fn review_game(
    record: &GameRecord,
    limits: &ReviewLimits,
    searcher: &dyn Fn() -> Box<dyn Searcher>,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<GameReview, ReviewError> {
    let positions = positions(record);
    let evaluations = evaluate_positions(&positions, limits, searcher, progress)?;
    Ok(GameReview::new(record, &evaluations))
}

/// The position before each move and after the last, each with the moves before it in
/// its history (repetition verdicts see them).
pub fn positions(record: &GameRecord) -> Vec<Position> {
    let mut pos = record.start.clone();
    let mut positions = Vec::with_capacity(record.moves.len() + 1);
    positions.push(pos.clone());
    for &mv in &record.moves {
        pos.make_move(mv);
        positions.push(pos.clone());
    }
    positions
}

/// The moves of `line` that are legal one after the other from `pos` (a search's line
/// is cut where a table entry's move no longer fits).
fn legal_prefix(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut legal = Vec::with_capacity(line.len());
    for &mv in line {
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        legal.push(mv);
    }
    legal
}

impl GameReview {
    /// Judges the moves of `record` from the evaluations of its positions
    /// (`evaluations[i]`: before move `i`; one more for the final position).
    pub fn new(record: &GameRecord, evaluations: &[Evaluation]) -> GameReview {
        assert_eq!(
            evaluations.len(),
            record.moves.len() + 1,
            "one per position"
        );
        let mut pos = record.start.clone();
        let mut moves = Vec::with_capacity(record.moves.len());
        for (i, &mv) in record.moves.iter().enumerate() {
            let side = pos.side_to_move();
            let (before, after) = (&evaluations[i], &evaluations[i + 1]);
            // The mover's chance after the move: the opponent's score turned round, and
            // a position the opponent cannot move in is won.
            let after_chance = match after.verdict {
                Verdict::Mate(0) => 100.0,
                verdict => win_percent(verdict.flipped()),
            };
            let best = before.best_move() == Some(mv);
            let loss = if best {
                0.0
            } else {
                (win_percent(before.verdict) - after_chance).max(0.0)
            };
            let after_red = match after.verdict {
                Verdict::Mate(0) => Verdict::Mate(0),
                verdict => verdict.red_view(side.opponent()),
            };
            moves.push(MoveReview {
                ply: i + 1,
                mv,
                side,
                before: before.verdict.red_view(side),
                after: after_red,
                loss,
                class: MoveClass::of(loss, best),
                best_line: legal_prefix(&pos, &before.line),
            });
            pos.make_move(mv);
        }
        let accuracy =
            |side: Color| side_accuracy(moves.iter().filter(|m| m.side == side).map(|m| m.loss));
        GameReview {
            red_accuracy: accuracy(Color::Red),
            black_accuracy: accuracy(Color::Black),
            moves,
            ruling: record.start.first_ruling(&record.moves),
        }
    }

    /// The move that lost the game by the repetition rules (the offender's last move of
    /// the cycle), if the arbiter ended the game so.
    pub fn lost_by_rules(&self) -> Option<&MoveReview> {
        let ply = self.ruling.as_ref()?.losing_ply()?;
        self.moves.iter().find(|m| m.ply == ply)
    }

    /// What the losing move did, in a sentence: "Loses by the rules: perpetual chase
    /// (rule 18: a chariot may not chase an unprotected cannon perpetually)."
    pub fn lost_by_rules_text(&self) -> Option<String> {
        let ruling = self.ruling.as_ref()?;
        ruling.offender?;
        Some(format!(
            "Loses by the rules: {} ({}).",
            ruling.reason(),
            ruling.rule
        ))
    }

    /// The inaccuracies, mistakes and blunders, in game order.
    pub fn errors(&self) -> impl Iterator<Item = &MoveReview> {
        self.moves.iter().filter(|m| m.class.is_error())
    }

    /// `record` annotated: every move gets its score after it as `[%eval 0.35]` (Red's
    /// view; `#3`/`#-3` a mate, `#0` mated) at the front of its comment, and each
    /// inaccuracy, mistake or blunder its NAG (`$6`, `$2`, `$4`), a comment naming the
    /// better move and the engine's line as a variation. NAGs, evals and lines of an
    /// earlier review are replaced, other notes kept.
    pub fn annotate(&self, record: &GameRecord) -> GameRecord {
        let mut annotated = record.clone();
        let mut pos = record.start.clone();
        for review in &self.moves {
            let note = annotated.note_mut(review.ply - 1);
            note.nags.retain(|&n| MoveClass::from_nag(n).is_none());
            let kept = note
                .comment
                .as_deref()
                .map(strip_eval)
                .filter(|c| !c.is_empty());
            let mut comment = format!("[%eval {}]", eval_text(review.after));
            if let Some(value) = review.class.nag() {
                note.nags.push(value);
                let class = review.class.name();
                let mut name = class[..1].to_uppercase();
                name.push_str(&class[1..]);
                comment.push_str(&format!(" {name}."));
                if let Some(best) = review.best_move() {
                    let best = format_move(&pos, best, Notation::Chinese);
                    comment.push_str(&format!(" {best} was best."));
                }
                let line = Line::new(review.best_line.clone());
                if !line.moves.is_empty() && !note.variations.iter().any(|v| v.moves == line.moves)
                {
                    note.variations.push(line);
                }
            }
            if self.lost_by_rules().is_some_and(|m| m.ply == review.ply)
                && let Some(text) = self.lost_by_rules_text()
            {
                comment.push(' ');
                comment.push_str(&text);
            }
            if let Some(kept) = kept {
                comment.push(' ');
                comment.push_str(&kept);
            }
            note.comment = Some(comment);
            pos.make_move(review.mv);
        }
        annotated
    }
}

/// A verdict from Red's view as `[%eval]` writes it: the pawns players write
/// (`Verdict::pawns`) without a plus sign: `0.35`, `-1.20`, `#3`, `#-3`.
pub fn eval_text(verdict: Verdict) -> String {
    let text = verdict.pawns().to_string();
    text.strip_prefix('+').map_or(text.clone(), str::to_owned)
}

/// A comment without the `[%eval ...]` and class words an earlier review put first.
fn strip_eval(comment: &str) -> String {
    let mut rest = comment.trim_start();
    if let Some(after) = rest.strip_prefix("[%eval ")
        && let Some(end) = after.find(']')
    {
        rest = after[end + 1..].trim_start();
        for class in ["Inaccuracy.", "Mistake.", "Blunder."] {
            if let Some(after) = rest.strip_prefix(class) {
                rest = after.trim_start();
                if let Some(end) = rest.find(" was best.") {
                    rest = rest[end + " was best.".len()..].trim_start();
                }
            }
        }
    }
    rest.to_string()
}
