//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with
//! the primal-dual method, in Galil's O(n³) formulation).
//!
//! The Dutch system is a lexicographic optimisation over pairings; encoding
//! each criterion as a bit field of an edge weight turns it into one
//! maximum-weight matching, which is how bbpPairings (the implementation FIDE
//! endorses) works, and how this crate stays in step with it.
//!
//! Dual variables are kept doubled so that integer weights give integer
//! arithmetic throughout; every quantity stays non-negative, so an unsigned
//! weight type is enough.

use crate::wide::Wide;

/// What the matching needs from a weight: an unsigned integer.
pub(crate) trait Weight: Copy + Ord {
    const ZERO: Self;
    fn plus(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn half(self) -> Self;
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide::ZERO;
    fn plus(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    fn minus(self, other: Self) -> Self {
        self.wrapping_sub(other)
    }
    fn half(self) -> Self {
        Wide::half(self)
    }
}

impl Weight for u64 {
    const ZERO: Self = 0;
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn minus(self, other: Self) -> Self {
        self - other
    }
    fn half(self) -> Self {
        self / 2
    }
}

const NONE: usize = usize::MAX;

/// Labels of top-level blossoms during a stage.
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;
/// A breadcrumb left by `scan_blossom` on an S-blossom.
const CRUMB: u8 = 5;

/// Returns, for each vertex, its partner in a matching of maximum total
/// weight. `weight(i, j)` (called with `i < j`) is the weight of the edge
/// between `i` and `j`; zero means no edge.
pub(crate) fn max_weight_matching<W: Weight>(
    vertices: usize,
    weight: impl Fn(usize, usize) -> W,
) -> Vec<Option<usize>> {
    let mut edges = Vec::new();
    for i in 0..vertices {
        for j in i + 1..vertices {
            let w = weight(i, j);
            if w != W::ZERO {
                edges.push((i, j, w));
            }
        }
    }
    Blossoms::new(vertices, edges).solve()
}

/// The state of the algorithm. Vertices are `0..n`, non-trivial blossoms
/// `n..2n`; an edge `k` has endpoints `2k` (its first vertex) and `2k + 1`.
struct Blossoms<W> {
    n: usize,
    edges: Vec<(usize, usize, W)>,
    /// Remote endpoints of each vertex's edges.
    neighbours: Vec<Vec<usize>>,
    /// The remote endpoint of a vertex's matched edge.
    mate: Vec<usize>,
    label: Vec<u8>,
    /// The remote endpoint of the edge through which a blossom got its label.
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// `ends[b][i]`: endpoint of `children[b][i]` on the edge to the next child.
    ends: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    blossom_best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    /// Twice the vertex duals; the blossom duals.
    dual: Vec<W>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> Blossoms<W> {
    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let mut neighbours = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            neighbours[i].push(2 * k + 1);
            neighbours[j].push(2 * k);
        }
        let max = edges.iter().map(|e| e.2).max().unwrap_or(W::ZERO);
        let mut dual = vec![max; n];
        dual.extend(std::iter::repeat_n(W::ZERO, n));
        let mut base: Vec<usize> = (0..n).collect();
        base.extend(std::iter::repeat_n(NONE, n));
        let edge_count = edges.len();
        Blossoms {
            n,
            edges,
            neighbours,
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base,
            ends: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            blossom_best_edges: vec![None; 2 * n],
            unused: (n..2 * n).collect(),
            dual,
            allowed: vec![false; edge_count],
            queue: Vec::new(),
        }
    }

    fn endpoint(&self, p: usize) -> usize {
        let (i, j, _) = self.edges[p / 2];
        if p.is_multiple_of(2) { i } else { j }
    }

    /// Twice the slack of edge `k` (valid between top-level blossoms).
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dual[i].plus(self.dual[j]).minus(w.plus(w))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &child in &self.children[b] {
                self.leaves(child, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = NONE;
        self.best_edge[b] = NONE;
        if t == S {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint(m), S, m ^ 1);
        }
    }

    /// Traces back from `v` and `w`; returns the base of a new blossom, or
    /// `NONE` when the paths end at two single vertices (augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = CRUMB;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.label_end[b]);
                b = self.in_blossom[v];
                v = self.endpoint(self.label_end[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused.pop().expect("at most n blossoms");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.label_end[bv]);
            v = self.endpoint(self.label_end[bv]);
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.label_end[bw] ^ 1);
            w = self.endpoint(self.label_end[bw]);
            bw = self.in_blossom[w];
        }
        self.label[b] = S;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::ZERO;
        self.children[b] = path.clone();
        self.ends[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.in_blossom[leaf]] == T {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        let mut best_to = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.blossom_best_edges[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(sub)
                    .into_iter()
                    .map(|leaf| self.neighbours[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.in_blossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == S
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[sub] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &k in &list {
            if self.best_edge[b] == NONE || self.slack(k) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = k;
            }
        }
        self.blossom_best_edges[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        for s in self.children[b].clone() {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_stage && self.dual[s] == W::ZERO {
                self.expand_blossom(s, end_stage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_stage && self.label[b] == T {
            let entry = self.in_blossom[self.endpoint(self.label_end[b] ^ 1)];
            let len = self.children[b].len() as isize;
            let mut j = self.children[b]
                .iter()
                .position(|&c| c == entry)
                .expect("entry child") as isize;
            let (step, trick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |v: &Vec<usize>, j: isize| v[j.rem_euclid(len) as usize];
            let mut p = self.label_end[b];
            while j != 0 {
                let e1 = self.endpoint(p ^ 1);
                self.label[e1] = FREE;
                let q = at(&self.ends[b], j - trick as isize) ^ trick ^ 1;
                let e2 = self.endpoint(q);
                self.label[e2] = FREE;
                self.assign_label(e1, T, p);
                self.allowed[at(&self.ends[b], j - trick as isize) / 2] = true;
                j += step;
                p = at(&self.ends[b], j - trick as isize) ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = at(&self.children[b], j);
            let e = self.endpoint(p ^ 1);
            self.label[e] = T;
            self.label[bv] = T;
            self.label_end[e] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while at(&self.children[b], j) != entry {
                let bv = at(&self.children[b], j);
                if self.label[bv] == S {
                    j += step;
                    continue;
                }
                let reached = self
                    .leaves_of(bv)
                    .into_iter()
                    .find(|&v| self.label[v] != FREE);
                if let Some(v) = reached {
                    self.label[v] = FREE;
                    let m = self.endpoint(self.mate[self.base[bv]]);
                    self.label[m] = FREE;
                    let end = self.label_end[v];
                    self.assign_label(v, T, end);
                }
                j += step;
            }
        }
        self.label[b] = FREE;
        self.label_end[b] = NONE;
        self.children[b].clear();
        self.ends[b].clear();
        self.base[b] = NONE;
        self.blossom_best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let i = self.children[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (step, trick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let idx = |j: isize| j.rem_euclid(len) as usize;
        while j != 0 {
            j += step;
            let t = self.children[b][idx(j)];
            let p = self.ends[b][idx(j - trick as isize)] ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p));
            }
            j += step;
            let t = self.children[b][idx(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p ^ 1));
            }
            let (a, c) = (self.endpoint(p), self.endpoint(p ^ 1));
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        let i = i as usize;
        self.children[b].rotate_left(i);
        self.ends[b].rotate_left(i);
        self.base[b] = self.base[self.children[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.label_end[bs]);
                let bt = self.in_blossom[t];
                s = self.endpoint(self.label_end[bt]);
                let j = self.endpoint(self.label_end[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn solve(mut self) -> Vec<Option<usize>> {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|l| *l = FREE);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossom_best_edges[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.in_blossom[v]] == FREE {
                    self.assign_label(v, S, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    for pi in 0..self.neighbours[v].len() {
                        let p = self.neighbours[v][pi];
                        let k = p / 2;
                        let w = self.endpoint(p);
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut kslack = W::ZERO;
                        if !self.allowed[k] {
                            kslack = self.slack(k);
                            if kslack == W::ZERO {
                                self.allowed[k] = true;
                            }
                        }
                        if self.allowed[k] {
                            if self.label[self.in_blossom[w]] == FREE {
                                self.assign_label(w, T, p ^ 1);
                            } else if self.label[self.in_blossom[w]] == S {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == FREE {
                                self.label[w] = T;
                                self.label_end[w] = p ^ 1;
                            }
                        } else if self.label[self.in_blossom[w]] == S {
                            let b = self.in_blossom[v];
                            if self.best_edge[b] == NONE || kslack < self.slack(self.best_edge[b]) {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == FREE
                            && (self.best_edge[w] == NONE || kslack < self.slack(self.best_edge[w]))
                        {
                            self.best_edge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the allowed edges: move the duals.
                let mut delta_type = 1;
                let mut delta = *self.dual[..n].iter().min().expect("vertices");
                let mut delta_edge = NONE;
                let mut delta_blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == FREE && self.best_edge[v] != NONE {
                        let d = self.slack(self.best_edge[v]);
                        if d < delta {
                            delta = d;
                            delta_type = 2;
                            delta_edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE && self.label[b] == S && self.best_edge[b] != NONE {
                        let d = self.slack(self.best_edge[b]).half();
                        if d < delta {
                            delta = d;
                            delta_type = 3;
                            delta_edge = self.best_edge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == T
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        delta_type = 4;
                        delta_blossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        S => self.dual[v] = self.dual[v].minus(delta),
                        T => self.dual[v] = self.dual[v].plus(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            S => self.dual[b] = self.dual[b].plus(delta),
                            T => self.dual[b] = self.dual[b].minus(delta),
                            _ => {}
                        }
                    }
                }
                match delta_type {
                    1 => break,
                    2 => {
                        self.allowed[delta_edge] = true;
                        let (mut i, j, _) = self.edges[delta_edge];
                        if self.label[self.in_blossom[i]] == FREE {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowed[delta_edge] = true;
                        let (i, _, _) = self.edges[delta_edge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == S
                    && self.dual[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        (0..n)
            .map(|v| (self.mate[v] != NONE).then(|| self.endpoint(self.mate[v])))
            .collect()
    }
}

#[cfg(test)]
#[path = "matching_tests.rs"]
mod tests;
