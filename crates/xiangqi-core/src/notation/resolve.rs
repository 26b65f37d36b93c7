//! Resolving a written move against the position (§1.8): the pieces whose canonical or
//! accepted selector matches, the point the action and value send each of them to, and
//! which of those moves are legal. One legal move is an answer; several are ambiguous; none
//! is explained.
//!
//! This is "render every legal move and keep the matches" with the rendering split in two:
//! a move's string is its piece's selector followed by its action and value, and the
//! action and value of a piece name exactly one point. So the selectors of the side's
//! pieces are rendered, and the one point each matching piece would go to is checked for
//! legality, instead of rendering whole strings.

use crate::board::{Kind, Move, Position, Square};

use super::chinese::{self, Script};
use super::diagnose::explain;
use super::error::{Candidate, IllegalReason, MoveError};
use super::layout::{
    Convention, Layout, PieceFacts, Selector, Tier, Written, action_value, file_x, kind_of_letter,
    target,
};
use super::wxf;

/// How a selector relates to a piece under a convention, if it names it at all.
fn selector_tier(convention: Convention, facts: &PieceFacts, selector: Selector) -> Option<Tier> {
    let (canonical, mut alternative_hit) = match convention {
        Convention::Chinese => (chinese::canonical_selector(facts), false),
        Convention::Wxf => (wxf::canonical_selector(facts), false),
    };
    if canonical == selector {
        return Some(Tier::Canonical);
    }
    let mut check = |s: Selector| alternative_hit |= s == selector;
    match convention {
        Convention::Chinese => chinese::alternative_selectors(facts, &mut check),
        Convention::Wxf => wxf::alternative_selectors(facts, &mut check),
    }
    alternative_hit.then_some(Tier::Alternative)
}

/// A piece the text names whose move is not legal, kept to explain the failure.
struct Failure {
    from: Square,
    tier: Tier,
    to: Result<Square, &'static str>,
}

impl Failure {
    /// Failures with a point to go to explain more than ones without; canonical readings
    /// come before alternative ones.
    fn rank(&self) -> (bool, Tier) {
        (self.to.is_err(), self.tier)
    }
}

/// Finds the one legal move a written move names.
pub(crate) fn resolve(
    pos: &Position,
    input: &str,
    convention: Convention,
    written: Written,
) -> Result<Move, MoveError> {
    let layout = Layout::new(pos);
    let side = layout.side();
    let mut canonical: Vec<Move> = Vec::new();
    let mut alternative: Vec<Move> = Vec::new();
    let mut failure: Option<Failure> = None;
    for (kind, from) in layout.pieces() {
        let facts = layout.facts(kind, from);
        let Some(tier) = selector_tier(convention, &facts, written.selector) else {
            continue;
        };
        let to = target(side, kind, from, written.action, written.value);
        if let Ok(to) = to {
            let mv = Move::new(from, to);
            if pos.is_legal(mv) {
                match tier {
                    Tier::Canonical => canonical.push(mv),
                    Tier::Alternative => alternative.push(mv),
                }
                continue;
            }
        }
        let candidate = Failure { from, tier, to };
        if failure.as_ref().is_none_or(|f| candidate.rank() < f.rank()) {
            failure = Some(candidate);
        }
    }
    // A canonical reading is the string's defined meaning; alternatives are consulted only
    // when it names no legal move (they can coincide only in Fairy-Stockfish's `11`/`33`
    // WXF indexes, which rule IV already uses for the middle soldier).
    for found in [canonical, alternative] {
        match found.len() {
            0 => {}
            1 => return Ok(found[0]),
            _ => {
                return Err(MoveError::Ambiguous {
                    input: input.to_string(),
                    candidates: candidates(pos, &layout, &found),
                });
            }
        }
    }
    Err(match failure {
        Some(Failure { from, to, .. }) => {
            let piece = Some(pos.piece_at(from));
            match to {
                Ok(to) => MoveError::Illegal {
                    input: input.to_string(),
                    piece,
                    from: Some(from),
                    to: Some(to),
                    reason: explain(pos, from, to).unwrap_or(IllegalReason::LeavesGeneralInCheck),
                },
                Err(why) => MoveError::Illegal {
                    input: input.to_string(),
                    piece,
                    from: Some(from),
                    to: None,
                    reason: IllegalReason::CannotMoveThatWay(why),
                },
            }
        }
        None => MoveError::Illegal {
            input: input.to_string(),
            piece: None,
            from: None,
            to: None,
            reason: IllegalReason::NoSuchPiece(describe_missing(
                pos,
                &layout,
                convention,
                written.selector,
            )),
        },
    })
}

/// Checks a coordinate move and explains it when it is not legal.
pub(crate) fn resolve_coords(pos: &Position, input: &str, mv: Move) -> Result<Move, MoveError> {
    if pos.is_legal(mv) {
        return Ok(mv);
    }
    let (from, to) = (mv.from(), mv.to());
    let reason = explain(pos, from, to).unwrap_or(IllegalReason::LeavesGeneralInCheck);
    let names_piece = !matches!(
        reason,
        IllegalReason::EmptySquare(_) | IllegalReason::NotYourPiece(_)
    );
    Err(MoveError::Illegal {
        input: input.to_string(),
        piece: names_piece.then(|| pos.piece_at(from)),
        from: names_piece.then_some(from),
        to: names_piece.then_some(to),
        reason,
    })
}

/// The canonical written form of a move of the side to move.
pub(crate) fn written_form(
    pos: &Position,
    layout: &Layout,
    mv: Move,
    convention: Convention,
) -> Option<Written> {
    let piece = pos.piece_at(mv.from());
    if piece.is_none() || piece.color() != layout.side() {
        return None;
    }
    let facts = layout.facts(piece.kind(), mv.from());
    let (action, value) = action_value(layout.side(), piece.kind(), mv.from(), mv.to());
    let selector = match convention {
        Convention::Chinese => chinese::canonical_selector(&facts),
        Convention::Wxf => wxf::canonical_selector(&facts),
    };
    Some(Written {
        selector,
        action,
        value,
    })
}

fn candidates(pos: &Position, layout: &Layout, moves: &[Move]) -> Vec<Candidate> {
    moves
        .iter()
        .map(|&mv| Candidate {
            mv,
            chinese: written_form(pos, layout, mv, Convention::Chinese)
                .map(|w| chinese::spell(&w, layout.side(), Script::Simplified))
                .unwrap_or_else(|| mv.iccs()),
        })
        .collect()
}

/// Says what piece the text asked for when the side has none that fits, in a player's
/// words: what a name by place means (`P+`, 前兵), and what the side's pieces of that
/// kind are called here.
fn describe_missing(
    pos: &Position,
    layout: &Layout,
    convention: Convention,
    selector: Selector,
) -> String {
    let side = layout.side();
    let bytes = selector.bytes();
    // Selectors without a letter (前三, 3+, ++) name soldiers.
    let kind = bytes
        .iter()
        .find_map(|&b| kind_of_letter(b))
        .unwrap_or(Kind::Soldier);
    if pos.pieces(side, kind) == 0 {
        return format!("{} has no {}s left", side.name(), kind.name());
    }
    let spell = |selector: Selector| match convention {
        Convention::Chinese => chinese::spell_selector(selector, side, Script::Simplified),
        Convention::Wxf => selector.bytes().iter().map(|&b| char::from(b)).collect(),
    };
    let written = spell(selector);
    if let [first, file @ b'1'..=b'9'] = bytes
        && kind_of_letter(*first).is_some()
    {
        let n = file - b'0';
        let name = match convention {
            Convention::Chinese => chinese::numeral(side, n).to_string(),
            Convention::Wxf => n.to_string(),
        };
        let x = file_x(side, n);
        return format!(
            "{} has no {} on file {name} ({})",
            side.name(),
            kind.name(),
            char::from(b'a' + x)
        );
    }
    // A name by place among pieces sharing a file.
    let meaning = match bytes {
        [b'+', b'+'] | [b'-', b'-'] => " (one of four or five on a file)",
        [letter, b'+'] | [chinese::FRONT, letter] if kind_of_letter(*letter).is_some() => {
            " (the front one of two on a file)"
        }
        [letter, b'-'] | [chinese::REAR, letter] if kind_of_letter(*letter).is_some() => {
            " (the rear one of two on a file)"
        }
        _ => "",
    };
    let mut named: Vec<(u8, u8, String)> = layout
        .pieces()
        .filter(|&(k, _)| k == kind)
        .map(|(k, at)| {
            let facts = layout.facts(k, at);
            let canonical = match convention {
                Convention::Chinese => chinese::canonical_selector(&facts),
                Convention::Wxf => wxf::canonical_selector(&facts),
            };
            (facts.file, facts.index, spell(canonical))
        })
        .collect();
    named.sort();
    let names: Vec<String> = named.into_iter().map(|(_, _, name)| name).collect();
    let list = match names.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let (side_name, kinds) = (side.name(), kind.name());
    let theirs = if names.len() == 1 {
        format!("{side_name}'s one {kinds} is {list}")
    } else {
        format!("{side_name}'s {kinds}s are {list}")
    };
    format!("no {side_name} {kinds} is '{written}' here{meaning}: {theirs}")
}
