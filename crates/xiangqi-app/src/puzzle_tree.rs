//! The proof tree of a puzzle's solution in the trainer (Ctrl-V): each level one
//! defender's turn, every reply with how long it lasts (the prover's work, asked for as
//! effects), walked with the arrows.

use crate::train::{ProofNode, PuzzleRequest, Status};
use xiangqi_core::board::Position;

use super::super::action::{Direction, Effect};
use super::super::app::{App, AppMode};
use super::{mode_mut, record};

/// One level of the proof tree walked: a defender's turn.
#[derive(Debug, Clone)]
pub struct TreeLevel {
    pub position: Position,
    /// The attacker's moves left to mate.
    pub moves_left: u32,
    /// `None` while the prover works (or when its budget ran out: `failed`).
    pub node: Option<ProofNode>,
    pub failed: bool,
    pub selected: usize,
    /// The request it waits for.
    pub request: u64,
}

/// The proof tree of the solution: from the position after the first move, each level
/// one defender's turn further along the reply chosen.
#[derive(Debug, Clone)]
pub struct ProofTreeView {
    pub levels: Vec<TreeLevel>,
    next_id: u64,
}

impl ProofTreeView {
    pub fn level(&self) -> &TreeLevel {
        self.levels.last().expect("a proof tree has a level")
    }
}

/// Ctrl-V: the proof tree on (the solution is then shown: the attempt fails) or off.
pub(super) fn toggle_tree(app: &mut App) -> Vec<Effect> {
    let Some(mode) = mode_mut(app) else {
        return Vec::new();
    };
    if mode.tree.take().is_some() {
        return Vec::new();
    }
    if mode.session.status == Status::Waiting {
        app.alert("the prover is still judging the last move");
        return Vec::new();
    }
    mode.session.show_solution();
    let mut position = mode.session.start.clone();
    position.make_move(mode.session.puzzle.solution[0]);
    let moves_left = mode.session.puzzle.mate_in - 1;
    let mut tree = ProofTreeView {
        levels: Vec::new(),
        next_id: mode.tree_ids,
    };
    let effect = push_level(&mut tree, position, moves_left);
    mode.tree_ids = tree.next_id;
    mode.tree = Some(tree);
    let mut effects = vec![effect];
    let finished = !mode.recorded;
    if finished {
        let AppMode::Puzzle(mut taken) = std::mem::take(&mut app.mode) else {
            return effects;
        };
        record(app, &mut taken, false);
        effects.append(&mut taken.outbox);
        app.mode = AppMode::Puzzle(taken);
    }
    app.notify("the proof tree: Up Down pick a reply, Right goes in, Left out, Ctrl-V closes");
    effects
}

fn push_level(tree: &mut ProofTreeView, position: Position, moves_left: u32) -> Effect {
    tree.next_id += 1;
    let id = tree.next_id;
    tree.levels.push(TreeLevel {
        position: position.clone(),
        moves_left,
        node: None,
        failed: false,
        selected: 0,
        request: id,
    });
    Effect::Puzzle(Box::new(PuzzleRequest::Node {
        id,
        position,
        moves_left,
    }))
}

/// The arrows in the proof tree.
pub(super) fn walk_tree(app: &mut App, direction: Direction) -> Vec<Effect> {
    let Some(tree) = mode_mut(app).and_then(|m| m.tree.as_mut()) else {
        return Vec::new();
    };
    let last = tree.levels.len() - 1;
    let level = &mut tree.levels[last];
    let count = level.node.as_ref().map_or(0, |n| n.replies.len());
    match direction {
        Direction::Up => level.selected = level.selected.saturating_sub(1),
        Direction::Down => level.selected = (level.selected + 1).min(count.saturating_sub(1)),
        Direction::Left => {
            if tree.levels.len() > 1 {
                tree.levels.pop();
            }
        }
        Direction::Right => {
            let Some(chosen) = level
                .node
                .as_ref()
                .and_then(|n| n.replies.get(level.selected))
            else {
                return Vec::new();
            };
            let (Some(k), Some(answer)) = (chosen.mated_in, chosen.answer) else {
                return Vec::new();
            };
            if k <= 1 {
                app.notify("the answer mates: the end of this line");
                return Vec::new();
            }
            let mut position = level.position.clone();
            position.make_move(chosen.reply);
            position.make_move(answer);
            let effect = push_level(tree, position, k - 1);
            let last_id = tree.next_id;
            if let Some(mode) = mode_mut(app) {
                mode.tree_ids = last_id;
            }
            return vec![effect];
        }
    }
    Vec::new()
}
