//! The edge weights of the Dutch system's matching: one bit field per
//! criterion, the most important highest.

use std::collections::HashMap;

use crate::matching::max_weight_matching;
use crate::state::{Field, Float, State};
use crate::tournament::Colour;
use crate::wide::Wide;

/// The widths of the weight's bit fields for one round.
pub(super) struct Layout {
    /// Bits for counting players of the largest score group.
    pub(super) group_bits: u32,
    /// Where each score's counter sits in a per-score-group field: the lowest
    /// score at the bottom, each as wide as its group's size needs.
    pub(super) score_shift: HashMap<u32, u32>,
    /// The width of such a per-score-group field.
    pub(super) groups_bits: u32,
    pub(super) total_shift: u32,
    pub(super) played_rounds: usize,
    pub(super) total_rounds: usize,
}

fn bits_for(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

impl Layout {
    pub(super) fn new(field: &Field, sorted: &[usize], total_rounds: usize) -> Layout {
        // Each score group gets a field as wide as its size needs, the lowest
        // score at the bottom.
        let mut score_shift = HashMap::new();
        let mut groups_bits = 0;
        let mut largest = 0;
        let mut run = 0;
        for (i, &p) in sorted.iter().enumerate().rev() {
            run += 1;
            let score = field.states[p].score;
            if i == 0 || field.states[sorted[i - 1]].score > score {
                score_shift.insert(score, groups_bits);
                largest = largest.max(run);
                groups_bits += bits_for(run);
                run = 0;
            }
        }
        let group_bits = bits_for(largest);
        let pr = field.played_rounds;
        let mut total = 2 * group_bits + 2 * groups_bits + 2 * group_bits + 4 * group_bits;
        if pr >= 1 {
            total += 2 * group_bits + 2 * groups_bits;
        }
        if pr > 1 {
            total += 2 * group_bits + 2 * groups_bits;
        }
        total += 3 * group_bits + 1;
        Layout {
            group_bits,
            score_shift,
            groups_bits,
            total_shift: total + 2,
            played_rounds: pr,
            total_rounds,
        }
    }
}

pub(super) struct Dutch<'a, const N: usize> {
    pub(super) states: &'a [State],
    pub(super) by_id: &'a [usize],
    /// Indices into `states`, by score then rank: the matching's vertices.
    pub(super) sorted: Vec<usize>,
    pub(super) layout: Layout,
    /// Rematches (played games only) are forbidden.
    pub(super) met: Vec<Vec<bool>>,
    pub(super) weights: Vec<Vec<Wide<N>>>,
    pub(super) max_weight: Wide<N>,
}

pub(super) type W<const N: usize> = Wide<N>;

impl<'a, const N: usize> Dutch<'a, N> {
    pub(super) fn new(field: &'a Field, sorted: Vec<usize>, layout: Layout) -> Self {
        let n = field.states.len();
        let mut met = vec![vec![false; n]; n];
        for s in &field.states {
            for e in s.entries.iter().filter(|e| e.played) {
                let o = field.by_id[e.opponent.expect("played")];
                met[field.by_id[s.id]][o] = true;
                met[o][field.by_id[s.id]] = true;
            }
        }
        let v = sorted.len();
        let max_weight = W::<N>::from_u64(1).shl(layout.total_shift).sub_u64(1);
        Dutch {
            states: &field.states,
            by_id: &field.by_id,
            sorted,
            layout,
            met,
            weights: vec![vec![W::ZERO; v]; v],
            max_weight,
        }
    }

    pub(super) fn st(&self, vertex: usize) -> &State {
        &self.states[self.sorted[vertex]]
    }

    pub(super) fn set(&mut self, a: usize, b: usize, w: W<N>) {
        self.weights[a][b] = w;
        self.weights[b][a] = w;
    }

    pub(super) fn compute(&self) -> Vec<usize> {
        let m = max_weight_matching(self.sorted.len(), |i, j| self.weights[i][j]);
        m.into_iter()
            .enumerate()
            .map(|(v, p)| p.unwrap_or(v))
            .collect()
    }

    /// C.1 and C.3: no rematch; no two players with the same absolute colour
    /// preference, unless one of them is a top scorer in the last round.
    pub(super) fn compatible(&self, a: &State, b: &State) -> bool {
        let top = (self.layout.played_rounds as u32 * 2) / 2;
        let (ia, ib) = (self.by_id[a.id], self.by_id[b.id]);
        !self.met[ia][ib]
            && (!a.absolute()
                || !b.absolute()
                || a.preference != b.preference
                || (self.layout.played_rounds + 1 >= self.layout.total_rounds
                    && (a.score > top || b.score > top)))
    }

    pub(super) fn float(&self, s: &State, back: usize) -> Float {
        s.float(back, self.states, self.by_id)
    }

    pub(super) fn one_at(&self, score: u32) -> W<N> {
        W::from_u64(1).shl(self.layout.score_shift[&score])
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn edge_weight(
        &self,
        hi: &State,
        lo: &State,
        lo_current: bool,
        lo_next: bool,
        bye_score: u32,
        single_df_bye: bool,
        unplayed_ranks: &HashMap<u32, u64>,
    ) -> W<N> {
        if !self.compatible(hi, lo) {
            return W::ZERO;
        }
        let l = &self.layout;
        let (gb, gsb) = (l.group_bits, l.groups_bits);
        let cand = |s: &State| s.bye_eligible() && s.score <= bye_score;
        // C.4, C.5 (completion, bye eligibility).
        let mut r = W::from_u64(1 + u64::from(!cand(hi)) + u64::from(!cand(lo)));
        // C.6: pairs in the current bracket; C.7: their scores.
        r = r.shl(gb).add_u64(u64::from(lo_current));
        r = r.shl(gsb);
        if lo_current {
            r = r.wrapping_add(self.one_at(hi.score));
        }
        // The same for the next bracket (C.4 looks ahead one bracket).
        r = r.shl(gb).add_u64(u64::from(lo_next));
        r = r.shl(gsb);
        if lo_next {
            r = r.wrapping_add(self.one_at(hi.score));
        }
        // C.9: the bye assignee should have played as many games as possible.
        r = r.shl(gb).shl(gb);
        if single_df_bye {
            if hi.score == bye_score {
                r = r.add_u64(unplayed_ranks[&hi.played_games]);
            }
            if lo.score == bye_score {
                r = r.add_u64(unplayed_ranks[&lo.played_games]);
            }
        }
        // C.10-C.13: colours (player = lo, opponent = hi, as bbpPairings).
        let (p, o) = (lo, hi);
        let same = p.preference == o.preference;
        r = r.shl(gb).add_u64(u64::from(
            lo_current && (!p.absolute_imbalance() || !o.absolute_imbalance() || !same),
        ));
        let repeat_ok = if p.imbalance == o.imbalance {
            p.repeated.is_none() || p.repeated != o.repeated
        } else {
            let smaller = if p.imbalance > o.imbalance { o } else { p };
            smaller.repeated != p.preference.map(Colour::opposite)
        };
        r = r.shl(gb).add_u64(u64::from(
            lo_current && (!p.absolute() || !o.absolute() || !same || repeat_ok),
        ));
        r = r.shl(gb).add_u64(u64::from(
            lo_current && (p.preference.is_none() || o.preference.is_none() || !same),
        ));
        r = r.shl(gb).add_u64(u64::from(
            lo_current
                && ((!p.strong && !p.absolute())
                    || (!o.strong && !o.absolute())
                    || (p.absolute() && o.absolute())
                    || !same),
        ));
        // C.14-C.21: repeated floats one and two rounds back.
        for back in [1, 2] {
            if l.played_rounds < back {
                continue;
            }
            r = r.shl(gb);
            if lo_current {
                r = r.add_u64(u64::from(self.float(lo, back) == Float::Down));
                r = r.add_u64(u64::from(
                    hi.score <= lo.score && self.float(hi, back) == Float::Down,
                ));
            }
            r = r.shl(gb);
            if lo_current {
                r = r.add_u64(u64::from(
                    !(hi.score > lo.score && self.float(lo, back) == Float::Up),
                ));
            }
        }
        for back in [1, 2] {
            if l.played_rounds < back {
                continue;
            }
            r = r.shl(gsb);
            if lo_current {
                if self.float(lo, back) == Float::Down {
                    r = r.wrapping_add(self.one_at(lo.score));
                }
                if self.float(hi, back) == Float::Down {
                    r = r.wrapping_add(self.one_at(hi.score));
                }
            }
            r = r.shl(gsb);
            if lo_current && !(self.float(lo, back) == Float::Up && hi.score > lo.score) {
                r = r.wrapping_add(self.one_at(hi.score));
            }
        }
        // Room for the order of transpositions and exchanges (low bits).
        r.shl(3 * gb + 1)
    }

    /// Weights between the bracket's players (`members`, indices into
    /// `sorted`) and everyone before them: indexed `[larger][smaller]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn base_weights(
        &self,
        members: &[usize],
        group_begin: usize,
        next_group_begin: usize,
        bye_score: u32,
        single_df_bye: bool,
        unplayed_ranks: &HashMap<u32, u64>,
    ) -> Vec<Vec<W<N>>> {
        let mut out = vec![Vec::new(); members.len()];
        for larger in group_begin..members.len() {
            for smaller in 0..larger {
                out[larger].push(self.edge_weight(
                    self.st(members[smaller]),
                    self.st(members[larger]),
                    larger < next_group_begin,
                    larger >= next_group_begin,
                    bye_score,
                    single_df_bye,
                    unplayed_ranks,
                ));
            }
        }
        out
    }

    /// Sets `(a, b)` to the maximum weight and every other edge of `a` and
    /// `b` to zero, so later matchings keep the pair.
    pub(super) fn finalize(&mut self, a: usize, b: usize) {
        for v in 0..self.sorted.len() {
            if v != a {
                let w = if v == b { self.max_weight } else { W::ZERO };
                self.set(a, v, w);
            }
            if v != b {
                let w = if v == a { self.max_weight } else { W::ZERO };
                self.set(b, v, w);
            }
        }
    }
}
