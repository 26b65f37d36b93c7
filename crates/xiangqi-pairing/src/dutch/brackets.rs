//! Pairing bracket by bracket: the matching keeps the whole round pairable
//! while each bracket's pairs are fixed in the order the rules prescribe.

use std::collections::HashMap;

use super::PairingError;
use super::weights::{Dutch, W};

impl<const N: usize> Dutch<'_, N> {
    // Indices are vertices of the matching, used across several tables.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn run(mut self) -> Result<Vec<(usize, Option<usize>)>, PairingError> {
        let v = self.sorted.len();
        let l_gb = self.layout.group_bits;
        let l_gsb = self.layout.groups_bits;
        let top_score = self.st(0).score;
        let no_ranks = HashMap::new();
        // Completability first: can everyone (but one) be paired at all?
        for a in 0..v {
            for b in 0..a {
                let w = if v % 2 == 1 {
                    let (pa, pb) = (self.st(a).clone(), self.st(b).clone());
                    if self.compatible(&pa, &pb) {
                        let lead =
                            1 + u64::from(!pa.bye_eligible()) + u64::from(!pb.bye_eligible());
                        let shifts = u64::from(self.layout.score_shift[&pa.score])
                            + u64::from(self.layout.score_shift[&pb.score]);
                        W::from_u64(lead)
                            .shl(l_gsb)
                            .add_u64(shifts)
                            .shl(l_gb)
                            .add_u64(u64::from(pa.score >= top_score))
                    } else {
                        W::ZERO
                    }
                } else {
                    let (pb, pa) = (self.st(b), self.st(a));
                    self.edge_weight(pb, pa, false, false, 0, false, &no_ranks)
                };
                self.set(a, b, w);
            }
        }
        let matching = self.compute();
        let mut unmatched = 0;
        for (vertex, &m) in matching.iter().enumerate() {
            if m == vertex {
                unmatched += 1;
                if unmatched > 1 || !self.st(vertex).bye_eligible() {
                    return Err(PairingError::Impossible);
                }
            }
        }
        let mut bye_score = 0;
        let mut single_df_bye = false;
        let mut unplayed_ranks: HashMap<u32, u64> = HashMap::new();
        if v % 2 == 1 {
            let bye_vertex = (0..v).find(|&x| matching[x] == x).expect("odd field");
            bye_score = self.st(bye_vertex).score;
            if bye_score >= top_score {
                single_df_bye = true;
                for x in 0..v {
                    if self.st(x).score < top_score {
                        break;
                    }
                    if self.st(matching[x]).score < top_score {
                        single_df_bye = false;
                        break;
                    }
                }
            }
            let mut counts: Vec<u32> = (0..v)
                .filter(|&x| self.st(x).score == bye_score)
                .map(|x| self.st(x).played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, c) in counts.into_iter().enumerate() {
                unplayed_ranks.insert(c, rank as u64);
            }
            for a in 0..v {
                for b in 0..a {
                    let w = self.edge_weight(
                        self.st(b),
                        self.st(a),
                        false,
                        false,
                        bye_score,
                        single_df_bye,
                        &unplayed_ranks,
                    );
                    self.set(a, b, w);
                }
            }
        }

        // `partner[x]`: the final opponent of vertex x (x itself for the bye).
        let mut partner: Vec<Option<usize>> = vec![None; v];
        // The bracket: moved-down players, then the score group; vertices.
        let mut members: Vec<usize> = Vec::new();
        let mut next = 0;
        while next < v && self.st(next).score >= top_score {
            members.push(next);
            next += 1;
        }
        let mut matched = vec![false; v];
        let mut group_begin = 0; // moved-down players in the bracket
        let mut group_begin_vertex = 0;
        while members.len() > 1 || next < v {
            let next_group_begin = members.len();
            let next_group_begin_vertex = group_begin_vertex + (next_group_begin - group_begin);
            let group_start = next;
            if group_start < v {
                let score = self.st(group_start).score;
                while next < v && self.st(next).score >= score {
                    members.push(next);
                    next += 1;
                }
            }
            let mut base = self.base_weights(
                &members,
                group_begin,
                next_group_begin,
                bye_score,
                single_df_bye,
                &unplayed_ranks,
            );
            for larger in 0..base.len() {
                for smaller in 0..base[larger].len() {
                    let w = base[larger][smaller];
                    self.set(members[larger], members[smaller], w);
                }
            }
            let with_exchanges = |base: &Vec<Vec<W<N>>>,
                                  smaller: usize,
                                  larger: usize,
                                  s_index: usize,
                                  pairs: usize| {
                let mut r = base[larger][smaller];
                if !r.is_zero() {
                    // Fewer exchanges, then the smallest difference of the
                    // exchanged players' numbers (C.04.3 D.3).
                    let addend = W::<N>::from_u64(u64::from(s_index < pairs))
                        .shl(l_gb)
                        .shl(l_gb)
                        .sub_u64(s_index as u64)
                        .shl(1);
                    r = r.wrapping_add(addend);
                }
                r
            };
            let mut stable = self.compute();
            let in_group = |x: usize| x >= group_begin_vertex && x < next_group_begin_vertex;

            // Which moved-down players to pair in this bracket: the highest.
            let mut md_score = 0;
            let mut remaining = 0;
            let mut remaining_matched = 0;
            for pi in 0..group_begin {
                let score = self.st(members[pi]).score;
                if pi == 0 || score < md_score {
                    md_score = score;
                    remaining = 0;
                    remaining_matched = 0;
                    let mut q = pi;
                    while q < members.len() && self.st(members[q]).score >= md_score {
                        remaining += 1;
                        if in_group(stable[members[q]]) {
                            remaining_matched += 1;
                        }
                        q += 1;
                    }
                }
                if remaining_matched == 0 {
                    continue;
                }
                let pv = members[pi];
                if remaining <= remaining_matched {
                    matched[pv] = true;
                    continue;
                }
                remaining -= 1;
                if !in_group(stable[pv]) {
                    for oi in group_begin..next_group_begin {
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            self.set(pv, members[oi], w.or_u64(1));
                        }
                    }
                    stable = self.compute();
                }
                if in_group(stable[pv]) {
                    matched[pv] = true;
                    remaining_matched -= 1;
                    for oi in group_begin..next_group_begin {
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            let w = w.or_u64((next_group_begin - group_begin) as u64).add_u64(1);
                            self.set(pv, members[oi], w);
                        }
                    }
                }
            }

            // Their opponents: the highest possible resident.
            for pi in 0..group_begin {
                let pv = members[pi];
                if !matched[pv] {
                    continue;
                }
                let mut addend = members.len() as u64;
                for oi in (group_begin..next_group_begin).rev() {
                    let ov = members[oi];
                    if matched[ov] {
                        continue;
                    }
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        self.set(pv, ov, w.add_u64(addend));
                        addend += 1;
                    }
                }
                stable = self.compute();
                let mv = stable[pv];
                matched[mv] = true;
                self.finalize(pv, mv);
            }

            // The remainder: residents not paired with moved-down players.
            let mut remainder: Vec<usize> = Vec::new();
            let mut remainder_pairs = 0;
            for pi in group_begin..next_group_begin {
                let pv = members[pi];
                if stable[pv] < group_begin_vertex {
                    continue;
                }
                remainder.push(pi);
                if stable[pv] < pv {
                    remainder_pairs += 1;
                }
            }
            let first_group_end = remainder_pairs;
            for (oi_pos, &oi) in remainder.iter().enumerate() {
                let ov = members[oi];
                for (p_pos, &pi) in remainder.iter().enumerate() {
                    if p_pos >= oi_pos {
                        break;
                    }
                    let w = with_exchanges(&base, pi, oi, p_pos, remainder_pairs);
                    self.set(members[pi], ov, w);
                }
            }
            stable = self.compute();
            let is_exchanged_s1 = |stable: &Vec<usize>, pv: usize| {
                stable[pv] <= pv || stable[pv] >= next_group_begin_vertex
            };
            let exchange_count = remainder[..first_group_end]
                .iter()
                .filter(|&&pi| is_exchanged_s1(&stable, members[pi]))
                .count();

            // Exchange the lowest players of S1 first.
            let mut left = exchange_count;
            let mut pos = first_group_end;
            while pos > 0 && left > 0 {
                pos -= 1;
                let pi = remainder[pos];
                let pv = members[pi];
                if stable[pv] > pv && stable[pv] < next_group_begin_vertex {
                    for &oi in &remainder[pos + 1..] {
                        let w = with_exchanges(&base, pi, oi, pos, remainder_pairs);
                        if !w.is_zero() {
                            self.set(pv, members[oi], w.sub_u64(1));
                        }
                    }
                    stable = self.compute();
                }
                let exchange = is_exchanged_s1(&stable, pv);
                left -= usize::from(exchange);
                for &oi in &remainder[pos + 1..] {
                    if exchange {
                        base[oi][pi] = W::ZERO;
                    }
                    let w = with_exchanges(&base, pi, oi, pos, remainder_pairs);
                    self.set(pv, members[oi], w);
                }
            }

            // Then the highest players of S2.
            let mut left = exchange_count;
            let mut index = remainder_pairs;
            let mut pos = first_group_end;
            while pos < remainder.len() && left > 1 {
                let pi = remainder[pos];
                let pv = members[pi];
                let already = stable[pv] > pv && stable[pv] < next_group_begin_vertex;
                if !already {
                    for &oi in &remainder[pos + 1..] {
                        let w = with_exchanges(&base, pi, oi, index, remainder_pairs);
                        if !w.is_zero() {
                            self.set(pv, members[oi], w.add_u64(1));
                        }
                    }
                    stable = self.compute();
                }
                let exchange = stable[pv] > pv && stable[pv] < next_group_begin_vertex;
                if exchange {
                    left -= 1;
                    for &oi in &remainder[..pos] {
                        base[pi][oi] = W::ZERO;
                        self.set(pv, members[oi], W::ZERO);
                    }
                    for oi in next_group_begin..members.len() {
                        base[oi][pi] = W::ZERO;
                        self.set(pv, members[oi], W::ZERO);
                    }
                }
                if !already {
                    for &oi in &remainder[pos + 1..] {
                        let w = with_exchanges(&base, pi, oi, index, remainder_pairs);
                        self.set(pv, members[oi], w);
                    }
                }
                index += 1;
                pos += 1;
            }

            // Fix who is in S1 and who in S2; drop the exchange bits.
            for (pos, &pi) in remainder.iter().enumerate() {
                let pv = members[pi];
                for &oi in &remainder[pos + 1..] {
                    let ov = members[oi];
                    if stable[pv] <= pv
                        || stable[pv] >= next_group_begin_vertex
                        || (stable[ov] > ov && stable[ov] < next_group_begin_vertex)
                    {
                        base[oi][pi] = W::ZERO;
                    }
                    self.set(pv, ov, base[oi][pi]);
                }
            }

            // S1's players take the highest S2 player they can, in order.
            for &pi in &remainder {
                let pv = members[pi];
                if stable[pv] > pv && stable[pv] < next_group_begin_vertex {
                    let mut addend = 0u64;
                    for &oi in remainder.iter().rev() {
                        let ov = members[oi];
                        if oi <= pi || matched[ov] {
                            continue;
                        }
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            self.set(pv, ov, w.add_u64(addend));
                        }
                        addend += 1;
                    }
                    stable = self.compute();
                    let mv = stable[pv];
                    matched[pv] = true;
                    matched[mv] = true;
                    self.finalize(pv, mv);
                }
            }

            // The next bracket: the unpaired (downfloaters) and the next group.
            let mut new_members = Vec::new();
            group_begin = 0;
            single_df_bye =
                v % 2 == 1 && group_start < v && bye_score >= self.st(group_start).score;
            for (pi, &pv) in members.iter().enumerate() {
                if pi < next_group_begin && matched[pv] {
                    partner[pv] = Some(stable[pv]);
                    partner[stable[pv]] = Some(pv);
                } else {
                    new_members.push(pv);
                    if pi < next_group_begin {
                        group_begin += 1;
                    }
                    if single_df_bye
                        && group_start < v
                        && self.st(stable[pv]).score < self.st(group_start).score
                    {
                        single_df_bye = false;
                    }
                }
            }
            members = new_members;
            group_begin_vertex = next_group_begin_vertex;
        }

        let mut out = Vec::new();
        for x in 0..v {
            match partner[x] {
                Some(y) if y != x => {
                    if x < y {
                        out.push((self.sorted[x], Some(self.sorted[y])));
                    }
                }
                _ => out.push((self.sorted[x], None)),
            }
        }
        Ok(out)
    }
}
