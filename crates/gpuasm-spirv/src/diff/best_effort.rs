//! spirv-diff's last resort for functions not paired by name or signature:
//! every remaining src function against every remaining dst one, by how
//! much of their bodies match (a fuzzy longest common subsequence), pairs
//! matching 60% or more taken best first (ties in src, then dst order).
//!
//! Pair by pair that is quadratic in LCS runs and in memory: thousands of
//! alike functions make millions of pairs. So functions are first grouped
//! into classes whose bodies compare the same way against any function of
//! the other module (see [`Differ::fuzzy_signature`]); the LCS is run once
//! per pair of classes, and the greedy pairing walks classes. The pairs
//! made, and the LCS each is paired with, are those of the pair-by-pair
//! walk. With all bodies distinct it is still quadratic, as spirv-diff is.

use super::candidates::FreeList;
use super::lcs::Matched;
use super::matching::{Differ, Which};
use super::side::is_id;
use super::DiffError;
use crate::grammar::op;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;

/// Functions of one module whose bodies compare alike, with one name.
struct Class {
    /// Positions in the function list, in order.
    members: Vec<usize>,
    name: Vec<u8>,
    /// The members not yet paired (positions in `members`).
    free: FreeList,
}

/// One pair of classes that matched well enough.
struct ClassPair {
    src: usize,
    dst: usize,
    rate: f32,
    matched: Matched,
}

impl Differ<'_> {
    /// Pairs the remaining functions whose bodies match at least 60%, best
    /// first.
    pub(super) fn best_effort(&mut self, src: &[u32], dst: &[u32]) {
        // Mapped functions and ones without a body take part in no pair.
        let src: Vec<u32> =
            src.iter().copied().filter(|&s| !self.map.is_src_mapped(s) && self.src.bodies.contains_key(&s)).collect();
        let dst: Vec<u32> =
            dst.iter().copied().filter(|&t| !self.map.is_dst_mapped(t) && self.dst.bodies.contains_key(&t)).collect();
        if src.is_empty() || dst.is_empty() {
            return;
        }
        let src_classes = self.classes(Which::Src, &src);
        let mut dst_classes = self.classes(Which::Dst, &dst);
        let pairs = self.class_pairs(&src, &dst, &src_classes, &dst_classes);
        self.pair_greedily(&src, &dst, &src_classes, &mut dst_classes, &pairs);
    }

    /// The functions of `list` grouped by name and body signature, classes
    /// in order of their first member.
    fn classes(&self, which: Which, list: &[u32]) -> Vec<Class> {
        let side = self.side(which);
        let mut index: FxHashMap<(Vec<u8>, Vec<u64>), usize> = FxHashMap::default();
        let mut classes: Vec<Class> = Vec::new();
        for (pos, &f) in list.iter().enumerate() {
            let mut signature = Vec::new();
            for &i in &side.bodies[&f] {
                self.fuzzy_signature(which, i, &mut signature);
            }
            let name = side.sanitized_name(f);
            let k = *index.entry((name.clone(), signature)).or_insert_with(|| {
                classes.push(Class { members: Vec::new(), name, free: FreeList::new(0) });
                classes.len() - 1
            });
            classes[k].members.push(pos);
        }
        for class in &mut classes {
            class.free = FreeList::new(class.members.len());
        }
        classes
    }

    /// The LCS of each pair of classes the name rule allows, kept when it
    /// matches 60% or more; records the first pair (in src, then dst
    /// order) too large to compare, as the pair-by-pair walk would.
    fn class_pairs(&mut self, src: &[u32], dst: &[u32], sc: &[Class], dc: &[Class]) -> Vec<ClassPair> {
        let mut pairs = Vec::new();
        let mut too_large: Option<(usize, usize)> = None;
        for (a, s) in sc.iter().enumerate() {
            for (b, t) in dc.iter().enumerate() {
                if !s.name.is_empty() && !t.name.is_empty() && s.name != t.name {
                    continue;
                }
                let (sp, tp) = (s.members[0], t.members[0]);
                let (sb, db) = (&self.src.bodies[&src[sp]], &self.dst.bodies[&dst[tp]]);
                match self.match_bodies(sb, db) {
                    None => too_large = Some(too_large.map_or((sp, tp), |first| first.min((sp, tp)))),
                    Some((matched, rate)) if rate >= 0.6f32 => pairs.push(ClassPair { src: a, dst: b, rate, matched }),
                    Some(_) => {}
                }
            }
        }
        if let Some((sp, tp)) = too_large {
            let (s, d) = (self.src.bodies[&src[sp]].len(), self.dst.bodies[&dst[tp]].len());
            self.failed.get_or_insert(DiffError::TooLarge { src: s, dst: d });
        }
        pairs
    }

    /// The walk of all function pairs best rate first (src, then dst order
    /// among equal rates), pairing those whose functions are both free:
    /// per rate, each free src function takes the first free dst function
    /// of the classes it has that rate with.
    fn pair_greedily(&mut self, src: &[u32], dst: &[u32], sc: &[Class], dc: &mut [Class], pairs: &[ClassPair]) {
        let mut rates: Vec<f32> = pairs.iter().map(|p| p.rate).collect();
        rates.sort_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
        rates.dedup();
        for rate in rates {
            // src class -> its pairs at this rate, in dst class order.
            let mut partners: FxHashMap<usize, Vec<&ClassPair>> = FxHashMap::default();
            for p in pairs.iter().filter(|p| p.rate == rate) {
                partners.entry(p.src).or_default().push(p);
            }
            let mut members: Vec<(usize, usize)> =
                partners.keys().flat_map(|&a| sc[a].members.iter().map(move |&pos| (pos, a))).collect();
            members.sort_unstable();
            for (pos, a) in members {
                let s = src[pos];
                if self.map.is_src_mapped(s) {
                    continue;
                }
                let found = partners[&a]
                    .iter()
                    .filter_map(|p| self.first_free(dst, &mut dc[p.dst]).map(|k| (dc[p.dst].members[k], k, p)))
                    .min_by_key(|&(tp, _, _)| tp);
                let Some((tp, k, p)) = found else { continue };
                dc[p.dst].free.take(k);
                let t = dst[tp];
                self.map.map_ids(s, t);
                self.match_params(s, t);
                let (sb, db) = (self.src.bodies[&s].clone(), self.dst.bodies[&t].clone());
                self.match_ids_in_bodies(&sb, &db, &p.matched);
            }
        }
    }

    /// The first member of `class` not yet paired (its place in
    /// `members`); members found paired otherwise are dropped.
    fn first_free(&self, dst: &[u32], class: &mut Class) -> Option<usize> {
        let n = class.members.len();
        let mut k = class.free.find(0);
        while k < n && self.map.is_dst_mapped(dst[class.members[k]]) {
            class.free.take(k);
            k = class.free.find(k + 1);
        }
        (k < n).then_some(k)
    }

    /// Appends what [`Differ::instructions_match_fuzzy`] reads of
    /// instruction `i`, such that two instructions of one module with the
    /// same signature match the same instructions of the other: opcode, an
    /// OpExtInst's set and number, the word count, each operand's kind, and
    /// for each id (the result type too) [`Self::fuzzy_id`].
    fn fuzzy_signature(&self, which: Which, i: usize, out: &mut Vec<u64>) {
        let side = self.side(which);
        let start = out.len();
        out.push(0);
        let opcode = side.opcode(i);
        out.push(u64::from(opcode));
        if opcode == op::OpExtInst {
            for k in 0..2 {
                self.exact_operand(which, side.in_operand(i, k), out);
            }
        }
        if side.info(i).has_result_type {
            self.fuzzy_id(which, side.type_id(i), out);
        }
        let words = side.num_in_operand_words(i);
        out.push(words as u64);
        for k in 0..words {
            match side.in_operand(i, k) {
                None => out.push(0),
                Some((kind, w)) => {
                    out.push(1 + u64::from(kind as u16));
                    if is_id(kind) {
                        self.fuzzy_id(which, w.first().copied().unwrap_or(0), out);
                    }
                }
            }
        }
        // Its length first, so that signatures of bodies split one way only.
        out[start] = (out.len() - start) as u64;
    }

    /// An operand as [`Differ::operand_matches`] compares it: a src id by
    /// its pairing, a dst id by itself, anything else word for word.
    fn exact_operand(&self, which: Which, o: super::matching::Operand<'_>, out: &mut Vec<u64>) {
        match o {
            None => out.push(0),
            Some((kind, w)) if is_id(kind) => {
                let id = w.first().copied().unwrap_or(0);
                out.push(1);
                out.push(u64::from(if which == Which::Src { self.map.dst_id(id) } else { id }));
            }
            Some((_, w)) => {
                out.push(2);
                out.push(w.len() as u64);
                out.extend(w.iter().map(|&x| u64::from(x)));
            }
        }
    }

    /// An id as [`Differ::ids_match_fuzzy`] compares it: a src id by its
    /// pairing; a dst id by itself when some src id is paired with it (or
    /// it is 0), else by a mark no pairing equals; both with their value
    /// when integer constants.
    fn fuzzy_id(&self, which: Which, id: u32, out: &mut Vec<u64>) {
        let side = self.side(which);
        out.push(match which {
            Which::Src => u64::from(self.map.dst_id(id)),
            Which::Dst if id == 0 || self.map.src_to_dst.is_target(id) => u64::from(id),
            Which::Dst => u64::MAX,
        });
        if side.is_constant_uint(id) {
            out.push(1);
            out.push(u64::from(side.constant_uint(id)));
        } else {
            out.push(0);
        }
    }
}
