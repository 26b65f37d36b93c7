//! Colour allocation for a pair (FIDE C.04.3 E).

use crate::dutch::higher;
use crate::state::State;
use crate::tournament::Colour;

/// The colour `p` gets against `q`. In order (E.1-E.5): grant both
/// preferences when they differ; else the stronger preference wins (absolute
/// over strong over mild; between two absolute ones the larger imbalance);
/// else alternate from the most recent round in which their colours differed;
/// else the higher-ranked player gets their preference; with no preference
/// at all, the higher-ranked player gets `first` when their rank is odd
/// (counting from 1) and the other colour when it is even, which is how the
/// round-1 colours alternate down the boards.
pub(crate) fn allocate(p: &State, q: &State, first: Colour) -> Colour {
    if let Some(c) = neutral(p, q) {
        return c;
    }
    let p_lower = higher(q, p);
    match p.preference {
        None => {
            let (top, top_is_p) = if p_lower { (q, false) } else { (p, true) };
            let top_colour = if top.rank % 2 == 0 {
                first
            } else {
                first.opposite()
            };
            if top_is_p {
                top_colour
            } else {
                top_colour.opposite()
            }
        }
        Some(pref) => {
            if p_lower {
                q.preference.map_or(pref, Colour::opposite)
            } else {
                pref
            }
        }
    }
}

fn compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none()
}

/// E.1-E.3: the colour decided by the preferences and history alone.
fn neutral(p: &State, q: &State) -> Option<Colour> {
    if compatible(p.preference, q.preference) {
        return p.preference.or(q.preference.map(Colour::opposite));
    }
    if p.absolute() && (p.imbalance > q.imbalance || !q.absolute()) {
        return p.preference;
    }
    if q.absolute() && (q.imbalance > p.imbalance || !p.absolute()) {
        return q.preference.map(Colour::opposite);
    }
    if p.strong && !q.strong {
        return p.preference;
    }
    if q.strong && !p.strong {
        return q.preference.map(Colour::opposite);
    }
    // E.3: the latest round in which they had different colours; each
    // takes the colour the other had then.
    let mut pc = p
        .entries
        .iter()
        .rev()
        .filter(|e| e.played)
        .filter_map(|e| e.colour);
    let mut qc = q
        .entries
        .iter()
        .rev()
        .filter(|e| e.played)
        .filter_map(|e| e.colour);
    loop {
        match (pc.next(), qc.next()) {
            (Some(a), Some(b)) if a != b => return Some(b),
            (Some(_), Some(_)) => {}
            _ => return None,
        }
    }
}
