//! Pairing ids and instructions between the two modules, section by
//! section, as spirv-diff does: preamble instructions by value, types and
//! constants by their operands (strictly, then loosely), variables by name
//! or decorations, functions by name, then signature, then by how much of
//! their bodies match (a longest common subsequence of their
//! instructions), and finally debug and annotation instructions of paired
//! ids. Every loop and tie-break follows spirv-diff's order, so the same
//! pairs come out.

use super::candidates::{key_of, Candidates, Want};
use super::idmap::SrcDstIdMap;
use super::layout::Layout;
use super::lcs::{longest_common_subsequence, Matched};
use super::side::{is_id, Side};
use super::{DiffError, DiffOptions};
use crate::binary::literal_string_bytes;
use crate::grammar::{op, OperandKind};
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::{BTreeMap, VecDeque};

const BUILT_IN: u32 = 11;
const SPEC_ID: u32 = 1;
const LOCATION: u32 = 30;
const BINDING: u32 = 33;
const DESCRIPTOR_SET: u32 = 34;
const INPUT: u32 = 1;
const OUTPUT: u32 = 3;
const PRIVATE: u32 = 6;
/// spirv-diff's "no group" key for storage classes and opcodes.
const INVALID_KEY: u32 = 0x7fff_ffff;

pub(super) type Operand<'m> = Option<(OperandKind, &'m [u32])>;

/// Which module an id or instruction is from.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Which {
    Src,
    Dst,
}

pub(crate) struct Differ<'m> {
    pub src: Side<'m>,
    pub dst: Side<'m>,
    pub map: SrcDstIdMap,
    pub options: DiffOptions,
    /// Set when two functions were too large to compare.
    pub failed: Option<DiffError>,
}

impl<'m> Differ<'m> {
    pub fn new(src: Side<'m>, dst: Side<'m>, options: DiffOptions) -> Self {
        let map = SrcDstIdMap::new(src.bound, src.inst_count(), dst.bound, dst.inst_count());
        Differ { src, dst, map, options, failed: None }
    }

    pub(super) fn side(&self, which: Which) -> &Side<'m> {
        match which {
            Which::Src => &self.src,
            Which::Dst => &self.dst,
        }
    }

    fn is_mapped(&self, which: Which, id: u32) -> bool {
        match which {
            Which::Src => self.map.is_src_mapped(id),
            Which::Dst => self.map.is_dst_mapped(id),
        }
    }

    /// Runs every matching step in spirv-diff's order.
    pub fn match_all(&mut self) {
        let (s, d) = (self.src.layout.capabilities.clone(), self.dst.layout.capabilities.clone());
        self.match_preamble(&s, &d);
        let (s, d) = (self.src.layout.extensions.clone(), self.dst.layout.extensions.clone());
        self.match_preamble(&s, &d);
        self.match_ext_inst_imports();
        let (s, d) = (self.src.layout.memory_model.unwrap_or(0), self.dst.layout.memory_model.unwrap_or(0));
        self.map.map_insts(s, 0, d, 0);
        self.match_entry_points();
        let (s, d) = (self.src.layout.execution_modes.clone(), self.dst.layout.execution_modes.clone());
        self.match_preamble(&s, &d);
        self.match_forward_pointers();
        self.match_types();
        self.match_constants();
        self.match_variables();
        self.match_functions();
        for section in [
            |l: &super::layout::Layout| l.debugs1.clone(),
            |l: &super::layout::Layout| l.debugs2.clone(),
            |l: &super::layout::Layout| l.debugs3.clone(),
            |l: &super::layout::Layout| l.ext_inst_debuginfo.clone(),
            |l: &super::layout::Layout| l.annotations.clone(),
        ] {
            let (s, d) = (section(&self.src.layout), section(&self.dst.layout));
            self.match_debug_and_annotations(&s, &d);
        }
    }

    // ---- instruction comparisons ----

    /// The dst instruction paired with src instruction `i`.
    pub fn mapped_dst_inst(&self, i: usize) -> Option<usize> {
        let r = self.src.result_id(i);
        if r != 0 {
            let other = self.map.dst_id(r);
            return if other != 0 { self.dst.inst(other) } else { None };
        }
        self.map.src_to_dst.inst(i)
    }

    /// The src instruction paired with dst instruction `i`.
    pub fn mapped_src_inst(&self, i: usize) -> Option<usize> {
        let r = self.dst.result_id(i);
        if r != 0 {
            let other = self.map.src_id(r);
            return if other != 0 { self.src.inst(other) } else { None };
        }
        self.map.dst_to_src.inst(i)
    }

    fn ids_match(&self, src: u32, dst: u32) -> bool {
        self.map.dst_id(src) == dst
    }

    /// Operands equal: ids paired, strings and other words identical.
    fn operand_matches(&self, s: Operand<'_>, d: Operand<'_>) -> bool {
        let (Some((kind, sw)), Some((_, dw))) = (s, d) else { return false };
        if is_id(kind) {
            return self.ids_match(sw.first().copied().unwrap_or(0), dw.first().copied().unwrap_or(0));
        }
        if kind == OperandKind::LiteralString {
            return literal_string_bytes(sw) == literal_string_bytes(dw);
        }
        sw == dw
    }

    /// In operands `start..start + count` all match.
    fn operands_match(&self, si: usize, di: usize, start: usize, count: usize) -> bool {
        (start..start + count).all(|k| self.operand_matches(self.src.in_operand(si, k), self.dst.in_operand(di, k)))
    }

    /// The two instructions are paired and identical through the pairing.
    pub fn instructions_match(&self, si: usize, di: usize) -> bool {
        if self.mapped_dst_inst(si) != Some(di) {
            return false;
        }
        let n = self.src.num_operands(si);
        n == self.dst.num_operands(di)
            && (0..n).all(|k| self.operand_matches(self.src.operand(si, k), self.dst.operand(di, k)))
    }

    pub(super) fn ids_match_fuzzy(&self, src: u32, dst: u32) -> bool {
        let mapped = self.map.dst_id(src);
        mapped == 0 || mapped == dst || self.identical_uint_constants(src, dst)
    }

    fn operand_matches_fuzzy(&self, s: Operand<'_>, d: Operand<'_>) -> bool {
        // Past the last operand spirv-diff reads beyond its operand list
        // (undefined behaviour); what it reads there has not been seen to
        // match.
        let (Some((sk, sw)), Some((dk, dw))) = (s, d) else { return false };
        if sk != dk {
            return false;
        }
        !is_id(sk) || self.ids_match_fuzzy(sw.first().copied().unwrap_or(0), dw.first().copied().unwrap_or(0))
    }

    /// Same opcode, and every id already paired is paired with its
    /// counterpart (unpaired ids and other operands may differ).
    fn instructions_match_fuzzy(&self, si: usize, di: usize) -> bool {
        let opcode = self.src.opcode(si);
        if opcode != self.dst.opcode(di) {
            return false;
        }
        if opcode == op::OpExtInst && !self.operands_match(si, di, 0, 2) {
            return false;
        }
        if self.src.info(si).has_result_type && !self.ids_match_fuzzy(self.src.type_id(si), self.dst.type_id(di)) {
            return false;
        }
        let words = self.src.num_in_operand_words(si);
        if words != self.dst.num_in_operand_words(di) {
            return false;
        }
        // spirv-diff counts operands up to the word count, so an instruction
        // with a multi-word literal (a string, a 64-bit number) is compared
        // past its last operand.
        (0..words).all(|k| self.operand_matches_fuzzy(self.src.in_operand(si, k), self.dst.in_operand(di, k)))
    }

    fn identical_uint_constants(&self, src: u32, dst: u32) -> bool {
        self.src.is_constant_uint(src)
            && self.dst.is_constant_uint(dst)
            && self.src.constant_uint(src) == self.dst.constant_uint(dst)
    }

    // ---- preamble ----

    fn match_preamble(&mut self, src: &[usize], dst: &[usize]) {
        let mut s = src.to_vec();
        s.sort_by(|&a, &b| compare_preamble(&self.src, a, &self.src, b));
        let mut d = dst.to_vec();
        d.sort_by(|&a, &b| compare_preamble(&self.dst, a, &self.dst, b));
        let (mut i, mut j) = (0, 0);
        while i < s.len() && j < d.len() {
            let order = compare_preamble(&self.src, s[i], &self.dst, d[j]);
            if order == Ordering::Equal {
                self.map.map_insts(s[i], 0, d[j], 0);
            }
            if order != Ordering::Greater {
                i += 1;
            }
            if order != Ordering::Less {
                j += 1;
            }
        }
    }

    // ---- ids by section ----

    /// The unpaired result ids of `section` that `accept` takes.
    /// [`Self::pool`] on both sides, over the same section of each.
    fn pools(
        &self,
        section: impl Fn(&Layout) -> &Vec<usize>,
        get: impl Fn(&Side<'m>, usize) -> Option<u32> + Copy,
    ) -> (Vec<u32>, Vec<u32>) {
        (self.pool(Which::Src, section(&self.src.layout), get), self.pool(Which::Dst, section(&self.dst.layout), get))
    }

    fn pool(&self, which: Which, section: &[usize], get: impl Fn(&Side<'m>, usize) -> Option<u32>) -> Vec<u32> {
        let side = self.side(which);
        let mut out = Vec::new();
        for &i in section {
            if let Some(id) = get(side, i) {
                if id != 0 && !self.is_mapped(which, id) {
                    out.push(id);
                }
            }
        }
        out
    }

    /// Pairs each src id with the first dst id still free that `matches`
    /// accepts; paired ids leave the pools. Only dst ids whose `dst_key`
    /// is what `want` asks of the src id are tried (`matches` must reject
    /// the others), so alike pools are not scanned over and over.
    fn match_ids(
        &mut self,
        pools: &mut (Vec<u32>, Vec<u32>),
        want: impl Fn(&Self, usize) -> Want,
        dst_key: impl Fn(&Self, usize) -> u64,
        matches: impl Fn(&Self, usize, usize) -> bool,
    ) {
        let dst_insts: Vec<Option<usize>> = pools.1.iter().map(|&id| self.dst.inst(id)).collect();
        let mut candidates = Candidates::new(dst_insts.iter().map(|di| di.map(|di| dst_key(self, di))));
        for s in 0..pools.0.len() {
            let src_id = pools.0[s];
            let Some(si) = self.src.inst(src_id) else { continue };
            let found = candidates.take_first(want(self, si), |d| dst_insts[d].is_some_and(|di| matches(self, si, di)));
            if let Some(d) = found {
                self.map.map_ids(src_id, pools.1[d]);
                pools.0[s] = 0;
                pools.1[d] = 0;
            }
        }
        pools.0.retain(|&id| id != 0);
        pools.1.retain(|&id| id != 0);
    }

    /// A key of an operand for bucketing: equal for a src and a dst operand
    /// whenever [`Self::operand_matches`] accepts them (a src id is keyed by
    /// its current pairing, a dst id by itself). `None` when absent.
    fn operand_key(&self, which: Which, o: Operand<'_>) -> Option<u64> {
        let (kind, words) = o?;
        Some(if is_id(kind) {
            let id = words.first().copied().unwrap_or(0);
            key_of((0u8, if which == Which::Src { self.map.dst_id(id) } else { id }))
        } else if kind == OperandKind::LiteralString {
            key_of((1u8, literal_string_bytes(words)))
        } else {
            key_of((2u8, words))
        })
    }

    /// The key of `parts` (opcode and operand keys) as a src asks for it:
    /// an absent operand never matches.
    fn src_want(parts: &[Option<u64>]) -> Want {
        if parts.iter().any(Option::is_none) {
            return Want::Never;
        }
        Want::Key(key_of(parts))
    }

    /// The key of `parts` for a dst entry: an absent operand gets a key of
    /// its own (no src asks for it).
    fn dst_key(parts: &[Option<u64>]) -> u64 {
        key_of(parts)
    }

    fn match_ext_inst_imports(&mut self) {
        let result = |s: &Side<'m>, i: usize| Some(s.result_id(i));
        let mut pools = self.pools(|l| &l.ext_inst_imports, result);
        let name = |s: &Side<'m>, i| s.operand(i, 1).map(|(_, w)| literal_string_bytes(w));
        self.match_ids(
            &mut pools,
            |d, si| Want::Key(key_of(name(&d.src, si))),
            |d, di| key_of(name(&d.dst, di)),
            |d, si, di| name(&d.src, si) == name(&d.dst, di),
        );
    }

    fn match_entry_points(&mut self) {
        let mut by_model: BTreeMap<u32, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for &i in &self.src.layout.entry_points {
            by_model.entry(self.src.single_word_operand(i, 0)).or_default().0.push(i);
        }
        for &i in &self.dst.layout.entry_points {
            by_model.entry(self.dst.single_word_operand(i, 0)).or_default().1.push(i);
        }
        for (src, dst) in by_model.into_values() {
            if src.len() == 1 && dst.len() == 1 {
                let (s, d) = (src[0], dst[0]);
                self.map.map_ids(self.src.single_word_operand(s, 1), self.dst.single_word_operand(d, 1));
                self.map.map_insts(s, 0, d, 0);
                continue;
            }
            // Each src entry point takes the first dst one of its name not
            // yet paired: the dst ones queued by name, in order, so that
            // many entry points are not scanned once per entry point.
            let name = |side: &Side<'m>, i| side.operand(i, 2).map(|(_, w)| literal_string_bytes(w));
            let mut by_name: FxHashMap<Option<&[u8]>, VecDeque<usize>> = FxHashMap::default();
            for &d in &dst {
                by_name.entry(name(&self.dst, d)).or_default().push_back(d);
            }
            for &s in &src {
                let Some(queue) = by_name.get_mut(&name(&self.src, s)) else { continue };
                // A paired one leaves the queue when next met: the scan
                // would pass over it from then on.
                while let Some(&d) = queue.front() {
                    if self.map.dst_to_src.inst(d).is_some() {
                        queue.pop_front();
                        continue;
                    }
                    self.map.map_ids(self.src.single_word_operand(s, 1), self.dst.single_word_operand(d, 1));
                    self.map.map_insts(s, 0, d, 0);
                    break;
                }
            }
        }
    }

    /// Buckets the unpaired `ids` by `key`.
    fn group<K: Ord>(&self, which: Which, ids: &[u32], key: impl Fn(&Side<'m>, u32) -> K) -> BTreeMap<K, Vec<u32>> {
        let mut groups: BTreeMap<K, Vec<u32>> = BTreeMap::new();
        for &id in ids {
            if !self.is_mapped(which, id) {
                groups.entry(key(self.side(which), id)).or_default().push(id);
            }
        }
        groups
    }

    /// Calls `f` with the src and dst buckets of each key but `invalid`.
    fn group_and_match<K: Ord + Clone>(
        &mut self,
        src: &[u32],
        dst: &[u32],
        invalid: K,
        key: impl Fn(&Side<'m>, u32) -> K,
        mut f: impl FnMut(&mut Self, &[u32], &[u32]),
    ) {
        let src_groups = self.group(Which::Src, src, &key);
        let dst_groups = self.group(Which::Dst, dst, &key);
        for (k, s) in &src_groups {
            if *k == invalid {
                continue;
            }
            let d = dst_groups.get(k).map_or(&[][..], Vec::as_slice);
            f(self, s, d);
        }
    }

    /// Calls `f` with the src and dst buckets whose keys (ids) are paired.
    fn group_and_match_by_mapped_id(
        &mut self,
        src: &[u32],
        dst: &[u32],
        key: impl Fn(&Side<'m>, u32) -> u32,
        mut f: impl FnMut(&mut Self, &[u32], &[u32]),
    ) {
        let src_groups = self.group(Which::Src, src, &key);
        let dst_groups = self.group(Which::Dst, dst, &key);
        for (&k, s) in &src_groups {
            if k == 0 || !self.map.is_src_mapped(k) {
                continue;
            }
            let d = dst_groups.get(&self.map.dst_id(k)).map_or(&[][..], Vec::as_slice);
            f(self, s, d);
        }
    }

    fn match_forward_pointers(&mut self) {
        let pointer =
            |s: &Side<'m>, i: usize| (s.opcode(i) == op::OpTypeForwardPointer).then(|| s.single_word_operand(i, 0));
        let src_ids = self.pool(Which::Src, &self.src.layout.types_values, pointer);
        let dst_ids = self.pool(Which::Dst, &self.dst.layout.types_values, pointer);
        let storage_class = |s: &Side<'m>, id: u32| s.inst(id).map_or(INVALID_KEY, |i| s.single_word_in_operand(i, 0));
        self.group_and_match(&src_ids, &dst_ids, INVALID_KEY, storage_class, |d, s, t| {
            let type_op = |side: &Side<'m>, id: u32| {
                side.inst(id)
                    .and_then(|i| side.id_opcode(side.single_word_in_operand(i, 1)))
                    .map_or(INVALID_KEY, u32::from)
            };
            d.group_and_match(s, t, INVALID_KEY, type_op, |d, s, t| {
                d.group_and_match(
                    s,
                    t,
                    Vec::new(),
                    |side, id| side.sanitized_name(id),
                    |d, s, t| {
                        if s.len() == 1 && t.len() == 1 {
                            d.map.map_ids(s[0], t[0]);
                        }
                    },
                );
                let s: Vec<u32> = s.iter().copied().filter(|&id| !d.map.is_src_mapped(id)).collect();
                let t: Vec<u32> = t.iter().copied().filter(|&id| !d.map.is_dst_mapped(id)).collect();
                if s.len() == 1 && t.len() == 1 && (d.src.name(s[0]).is_none() || d.dst.name(t[0]).is_none()) {
                    d.map.map_ids(s[0], t[0]);
                }
            });
        });
        for &s in &src_ids {
            let t = self.map.dst_id(s);
            if t == 0 {
                continue;
            }
            if let (Some(si), Some(di)) = (self.src.forward_pointer(s), self.dst.forward_pointer(t)) {
                self.map.map_insts(si, 0, di, 0);
            }
        }
    }

    fn match_types(&mut self) {
        let accept = |s: &Side<'m>, i: usize| s.info(i).declares_type.then(|| s.result_id(i));
        let mut pools = self.pools(|l| &l.types_values, accept);
        for flexibility in 0..2 {
            self.match_ids(&mut pools, Self::type_want, Self::type_dst_key, |d, si, di| {
                let opcode = d.src.opcode(si);
                if opcode != d.dst.opcode(di) {
                    return false;
                }
                let words = d.src.num_in_operand_words(si);
                match (Self::type_rule(opcode), opcode) {
                    (None, _) => false,
                    (Some(false), op::OpTypeStruct) => d.match_struct(si, di, flexibility),
                    (Some(false), _) => true,
                    (Some(true), op::OpTypeFunction | op::OpTypeImage) => {
                        words == d.dst.num_in_operand_words(di) && d.operands_match(si, di, 0, words)
                    }
                    (Some(true), op::OpTypeArray) => {
                        d.operands_match(si, di, 0, 1)
                            && (d.identical_uint_constants(
                                d.src.single_word_in_operand(si, 1),
                                d.dst.single_word_in_operand(di, 1),
                            ) || d.operands_match(si, di, 1, 1))
                    }
                    (Some(true), _) => d.operands_match(si, di, 0, words),
                }
            });
        }
    }

    /// Whether the type rule compares a type's first operand (then a key),
    /// only its opcode, or rejects it.
    fn type_rule(opcode: u16) -> Option<bool> {
        match opcode {
            op::OpTypeVoid
            | op::OpTypeBool
            | op::OpTypeSampler
            | op::OpTypeAccelerationStructureKHR
            | op::OpTypeRayQueryKHR
            | op::OpTypeStruct => Some(false),
            op::OpTypeInt
            | op::OpTypeFloat
            | op::OpTypeVector
            | op::OpTypeMatrix
            | op::OpTypeSampledImage
            | op::OpTypeRuntimeArray
            | op::OpTypePointer
            | op::OpTypeFunction
            | op::OpTypeImage
            | op::OpTypeArray => Some(true),
            _ => None,
        }
    }

    /// What a src type may match: its opcode, and its first operand when
    /// the rule compares it (with no operands, the rule compares none but
    /// an array's).
    fn type_want(&self, si: usize) -> Want {
        let opcode = self.src.opcode(si);
        match Self::type_rule(opcode) {
            None => Want::Never,
            Some(false) => Want::Key(key_of([Some(u64::from(opcode))])),
            Some(true) if opcode != op::OpTypeArray && self.src.num_in_operand_words(si) == 0 => Want::Any,
            Some(true) => {
                Self::src_want(&[Some(u64::from(opcode)), self.operand_key(Which::Src, self.src.in_operand(si, 0))])
            }
        }
    }

    fn type_dst_key(&self, di: usize) -> u64 {
        let opcode = self.dst.opcode(di);
        if Self::type_rule(opcode) == Some(true) {
            Self::dst_key(&[Some(u64::from(opcode)), self.operand_key(Which::Dst, self.dst.in_operand(di, 0))])
        } else {
            key_of([Some(u64::from(opcode))])
        }
    }

    fn match_struct(&self, si: usize, di: usize, flexibility: u32) -> bool {
        let (s, d) = (self.src.result_id(si), self.dst.result_id(di));
        if let (Some(sn), Some(dn)) = (self.src.name(s), self.dst.name(d)) {
            if sn != dn {
                return false;
            }
            return sn != b"gl_PerVertex" || self.per_vertex_types_match(s, d);
        }
        let (sp, dp) = (self.src.is_per_vertex_type(s), self.dst.is_per_vertex_type(d));
        if sp != dp {
            return false;
        }
        if sp {
            return self.per_vertex_types_match(s, d);
        }
        let words = self.src.num_in_operand_words(si);
        flexibility == 0 && words == self.dst.num_in_operand_words(di) && self.operands_match(si, di, 0, words)
    }

    fn per_vertex_types_match(&self, s: u32, d: u32) -> bool {
        self.src.per_vertex_storage_class(s) == self.dst.per_vertex_storage_class(d)
    }

    fn match_constants(&mut self) {
        let accept = |s: &Side<'m>, i: usize| {
            let info = s.info(i);
            (info.class == "Constant-Creation" && info.has_result).then(|| s.result_id(i))
        };
        let mut pools = self.pools(|l| &l.types_values, accept);
        for flexibility in 0..2 {
            self.match_ids(&mut pools, Self::constant_want, Self::constant_dst_key, |d, si, di| {
                let opcode = d.src.opcode(si);
                if opcode != d.dst.opcode(di) {
                    return false;
                }
                let words = d.src.num_in_operand_words(si);
                match opcode {
                    op::OpConstantTrue | op::OpConstantFalse => true,
                    op::OpConstant => d.match_constant(si, di, flexibility),
                    op::OpConstantComposite | op::OpSpecConstantComposite => {
                        words == d.dst.num_in_operand_words(di)
                            && d.operand_matches(d.src.operand(si, 0), d.dst.operand(di, 0))
                            && d.operands_match(si, di, 0, words)
                    }
                    op::OpConstantSampler => d.operands_match(si, di, 0, words),
                    op::OpConstantNull => d.operand_matches(d.src.operand(si, 0), d.dst.operand(di, 0)),
                    op::OpSpecConstantTrue | op::OpSpecConstantFalse | op::OpSpecConstant | op::OpSpecConstantOp => {
                        d.match_spec_constant(si, di)
                    }
                    _ => false,
                }
            });
        }
    }

    fn match_constant(&self, si: usize, di: usize, flexibility: u32) -> bool {
        let (st, dt) = (self.src.type_id(si), self.dst.type_id(di));
        let typed = match flexibility {
            0 => self.operand_matches(self.src.operand(si, 0), self.dst.operand(di, 0)),
            _ => self.src.is_op(st, op::OpTypeInt) && self.dst.is_op(dt, op::OpTypeInt),
        };
        if !typed {
            return false;
        }
        let ((sv, len), (dv, _)) = (constant_value(&self.src, si), constant_value(&self.dst, di));
        if sv == dv {
            return true;
        }
        if self.src.is_op(st, op::OpTypeFloat) && flexibility == 1 {
            let tolerance = if len == 1 { 16 } else { 64 };
            return sv.wrapping_sub(dv) < tolerance || dv.wrapping_sub(sv) < tolerance;
        }
        false
    }

    /// The parts of a constant the constant rule requires equal: always the
    /// opcode; an OpConstant's value (its float tolerance needs a float
    /// type where the loose pass requires integers, so it never applies);
    /// a composite's operand word count and type; a null's type.
    fn constant_parts(&self, which: Which, i: usize) -> Option<Vec<Option<u64>>> {
        let side = self.side(which);
        let opcode = side.opcode(i);
        let mut parts = vec![Some(u64::from(opcode))];
        match opcode {
            op::OpConstantTrue
            | op::OpConstantFalse
            | op::OpConstantSampler
            | op::OpSpecConstantTrue
            | op::OpSpecConstantFalse
            | op::OpSpecConstant
            | op::OpSpecConstantOp => {}
            op::OpConstant => parts.push(Some(constant_value(side, i).0)),
            op::OpConstantComposite | op::OpSpecConstantComposite => {
                parts.push(Some(side.num_in_operand_words(i) as u64));
                parts.push(self.operand_key(which, side.operand(i, 0)));
            }
            op::OpConstantNull => parts.push(self.operand_key(which, side.operand(i, 0))),
            _ => return None,
        }
        Some(parts)
    }

    fn constant_want(&self, si: usize) -> Want {
        if self.spec_constant_unmatchable(si) {
            return Want::Never;
        }
        self.constant_parts(Which::Src, si).map_or(Want::Never, |parts| Self::src_want(&parts))
    }

    /// A src spec constant [`Self::match_spec_constant`] rejects against
    /// every dst one, known without trying them (a chain of unmatched
    /// `OpSpecConstantOp`s tried every dst constant for each): unnamed,
    /// without SpecId, and either not an `OpSpecConstantOp` or with an id
    /// operand still unpaired (a dst one of the same spec opcode has an id
    /// there, never 0, so the ids cannot match).
    fn spec_constant_unmatchable(&self, si: usize) -> bool {
        let s = self.src.result_id(si);
        match self.src.opcode(si) {
            op::OpSpecConstantTrue | op::OpSpecConstantFalse | op::OpSpecConstant | op::OpSpecConstantOp => {}
            _ => return false,
        }
        if self.src.name(s).is_some() || self.src.decoration(s, SPEC_ID).is_some() {
            return false;
        }
        if self.src.opcode(si) != op::OpSpecConstantOp {
            return true;
        }
        (0..self.src.num_in_operand_words(si)).any(|k| {
            matches!(self.src.in_operand(si, k), Some((kind, w)) if is_id(kind) && self.map.dst_id(w.first().copied().unwrap_or(0)) == 0)
        })
    }

    fn constant_dst_key(&self, di: usize) -> u64 {
        self.constant_parts(Which::Dst, di).map_or(key_of(u64::MAX), |parts| Self::dst_key(&parts))
    }

    fn match_spec_constant(&self, si: usize, di: usize) -> bool {
        let (s, d) = (self.src.result_id(si), self.dst.result_id(di));
        if let (Some(sn), Some(dn)) = (self.src.name(s), self.dst.name(d)) {
            return sn == dn;
        }
        if let (Some(sv), Some(dv)) = (self.src.decoration(s, SPEC_ID), self.dst.decoration(d, SPEC_ID)) {
            return sv == dv;
        }
        if self.src.opcode(si) == op::OpSpecConstantOp {
            let words = self.src.num_in_operand_words(si);
            if words == self.dst.num_in_operand_words(di) {
                return self.operands_match(si, di, 0, words);
            }
        }
        false
    }

    fn match_variables(&mut self) {
        let accept = |s: &Side<'m>, i: usize| (s.opcode(i) == op::OpVariable).then(|| s.result_id(i));
        let mut pools = self.pools(|l| &l.types_values, accept);
        for flexibility in 0..2 {
            // Every pool entry is a variable: one bucket.
            self.match_ids(
                &mut pools,
                |d, si| if d.variable_unmatchable(si) { Want::Never } else { Want::Key(0) },
                |_, _| 0,
                |d, si, di| d.match_variable(si, di, flexibility),
            );
        }
    }

    fn match_variable(&self, si: usize, di: usize, flexibility: u32) -> bool {
        let (s, d) = (self.src.result_id(si), self.dst.result_id(di));
        let (sp, dp) = (self.src.is_per_vertex_variable(s), self.dst.is_per_vertex_variable(d));
        if sp != dp {
            return false;
        }
        if sp {
            return self.src.single_word_in_operand(si, 0) == self.dst.single_word_in_operand(di, 0);
        }
        if let (Some(sn), Some(dn)) = (self.src.name(s), self.dst.name(d)) {
            return sn == dn;
        }
        if self.src.decoration(s, BUILT_IN).is_some() && self.variables_matchable(s, d, flexibility) {
            return true;
        }
        if self.src.var_type(s).1 != self.dst.var_type(d).1 {
            return false;
        }
        if !self.options.ignore_set_binding {
            let sets = (self.src.decoration(s, DESCRIPTOR_SET), self.dst.decoration(d, DESCRIPTOR_SET));
            let bindings = (self.src.decoration(s, BINDING), self.dst.decoration(d, BINDING));
            if let ((Some(_), Some(_)), (Some(sb), Some(db))) = (sets, bindings) {
                // spirv-diff reads each binding into the set's variable and
                // compares those, so only the bindings decide.
                return sb == db;
            }
        }
        if !self.options.ignore_location {
            if let (Some(sl), Some(dl)) = (self.src.decoration(s, LOCATION), self.dst.decoration(d, LOCATION)) {
                return sl == dl;
            }
        }
        false
    }

    /// A src variable [`Self::match_variable`] rejects against every dst
    /// one, known without trying them (thousands of unnamed variables
    /// tried every dst variable for each): not per-vertex, unnamed, and
    /// without the decorations a rule reads on the src side (BuiltIn, both
    /// DescriptorSet and Binding, Location).
    fn variable_unmatchable(&self, si: usize) -> bool {
        let s = self.src.result_id(si);
        let has = |decoration| self.src.decoration(s, decoration).is_some();
        let read = self.src.is_per_vertex_variable(s)
            || self.src.name(s).is_some()
            || has(BUILT_IN)
            || (has(DESCRIPTOR_SET) && has(BINDING))
            || has(LOCATION);
        !read
    }

    fn variables_matchable(&self, s: u32, d: u32, flexibility: u32) -> bool {
        let (sb, db) = (self.src.decoration(s, BUILT_IN), self.dst.decoration(d, BUILT_IN));
        if sb.is_some() != db.is_some() || sb != db {
            return false;
        }
        let ((st, sc), (dt, dc)) = (self.src.var_type(s), self.dst.var_type(d));
        if !self.ids_match(st, dt) {
            return false;
        }
        if sc == dc {
            return true;
        }
        let io = |c: u32| c == INPUT || c == OUTPUT;
        flexibility == 1 && ((io(sc) && dc == PRIVATE) || (sc == PRIVATE && io(dc)))
    }

    // ---- functions ----

    fn match_functions(&mut self) {
        let src_ids: Vec<u32> = self.src.funcs.keys().copied().collect();
        let dst_ids: Vec<u32> = self.dst.funcs.keys().copied().collect();
        let function_type = |s: &Side<'m>, id: u32| s.inst(id).map_or(0, |i| s.single_word_operand(i, 3));
        let return_type = |s: &Side<'m>, id: u32| s.inst(id).map_or(0, |i| s.type_id(i));

        self.group_and_match(
            &src_ids,
            &dst_ids,
            Vec::new(),
            |s, id| s.sanitized_name(id),
            |d, s, t| {
                if s.len() == 1 && t.len() == 1 {
                    d.map.map_ids(s[0], t[0]);
                    return;
                }
                d.group_and_match_by_mapped_id(s, t, return_type, |d, s, t| {
                    if s.len() == 1 && t.len() == 1 {
                        d.map.map_ids(s[0], t[0]);
                    }
                });
            },
        );

        for &s in &src_ids {
            let t = self.map.dst_id(s);
            if t == 0 {
                continue;
            }
            self.match_params(s, t);
            let (Some(sb), Some(db)) = (self.src.bodies.get(&s), self.dst.bodies.get(&t)) else { continue };
            let (sb, db) = (sb.clone(), db.clone());
            let Some((m, _)) = self.match_bodies_or_fail(&sb, &db) else { continue };
            self.match_ids_in_bodies(&sb, &db, &m);
        }

        self.group_and_match_by_mapped_id(&src_ids, &dst_ids, function_type, |d, s, t| d.best_effort(s, t));
        self.group_and_match_by_mapped_id(&src_ids, &dst_ids, return_type, |d, s, t| d.best_effort(s, t));
        self.best_effort(&src_ids, &dst_ids);
    }

    /// Pairs parameters by name, then by type in order.
    pub(super) fn match_params(&mut self, s: u32, t: u32) {
        let params = |side: &Side<'m>, id: u32| -> Vec<u32> {
            side.funcs
                .get(&id)
                .map_or(Vec::new(), |&k| side.layout.functions[k].params.iter().map(|&i| side.result_id(i)).collect())
        };
        let (sp, tp) = (params(&self.src, s), params(&self.dst, t));
        self.group_and_match(
            &sp,
            &tp,
            Vec::new(),
            |side, id| side.sanitized_name(id),
            |d, s, t| {
                if s.len() == 1 && t.len() == 1 {
                    d.map.map_ids(s[0], t[0]);
                }
            },
        );
        let type_of = |side: &Side<'m>, id: u32| side.inst(id).map_or(0, |i| side.type_id(i));
        self.group_and_match_by_mapped_id(&sp, &tp, type_of, |d, s, t| {
            for (&a, &b) in s.iter().zip(t) {
                d.map.map_ids(a, b);
            }
        });
    }

    /// The fuzzy LCS of two bodies and its similarity, 2 * matched / total;
    /// `None` when they are too large to compare.
    pub(super) fn match_bodies(&self, src: &[usize], dst: &[usize]) -> Option<(Matched, f32)> {
        let m = longest_common_subsequence(src.len(), dst.len(), |i, j| self.instructions_match_fuzzy(src[i], dst[j]))?;
        let rate = m.length as f32 * 2.0f32 / (src.len() + dst.len()) as f32;
        Some((m, rate))
    }

    /// [`Self::match_bodies`], recording the failure.
    fn match_bodies_or_fail(&mut self, src: &[usize], dst: &[usize]) -> Option<(Matched, f32)> {
        let found = self.match_bodies(src, dst);
        if found.is_none() {
            self.failed.get_or_insert(DiffError::TooLarge { src: src.len(), dst: dst.len() });
        }
        found
    }

    /// Pairs the instructions the LCS matched, and the variables they
    /// access.
    pub(super) fn match_ids_in_bodies(&mut self, src: &[usize], dst: &[usize], m: &Matched) {
        let (mut i, mut j) = (0, 0);
        while i < src.len() && j < dst.len() {
            if m.src[i] && m.dst[j] {
                let (si, di) = (src[i], dst[j]);
                i += 1;
                j += 1;
                self.map.map_insts(si, self.src.result_id(si), di, self.dst.result_id(di));
                self.match_accessed_variables(si, di);
                continue;
            }
            if !m.src[i] {
                i += 1;
            }
            if !m.dst[j] {
                j += 1;
            }
        }
    }

    fn match_accessed_variables(&mut self, si: usize, di: usize) {
        match self.src.opcode(si) {
            op::OpAccessChain
            | op::OpInBoundsAccessChain
            | op::OpPtrAccessChain
            | op::OpInBoundsPtrAccessChain
            | op::OpLoad
            | op::OpStore => {
                let (s, d) = (self.src.single_word_in_operand(si, 0), self.dst.single_word_in_operand(di, 0));
                if self.src.is_op(s, op::OpVariable)
                    && self.dst.is_op(d, op::OpVariable)
                    && !self.map.is_src_mapped(s)
                    && !self.map.is_dst_mapped(d)
                    && self.variables_matchable(s, d, 0)
                {
                    self.map.map_ids(s, d);
                }
            }
            _ => {}
        }
    }

    // ---- debug and annotations ----

    /// Pairs each src instruction with the first dst one not yet paired
    /// that matches. Pairing one pairs no other dst instruction, so which
    /// are free is known from the start.
    fn match_debug_and_annotations(&mut self, src: &[usize], dst: &[usize]) {
        let keys = dst.iter().map(|&d| {
            self.mapped_src_inst(d)
                .is_none()
                .then(|| self.debug_parts(Which::Dst, d).map_or(key_of(u64::MAX), |parts| Self::dst_key(&parts)))
        });
        let mut candidates = Candidates::new(keys.collect::<Vec<_>>().into_iter());
        for &s in src {
            // The key reads the pairing of s's ids as it is now.
            let want = self.debug_parts(Which::Src, s).map_or(Want::Never, |parts| Self::src_want(&parts));
            if let Some(k) = candidates.take_first(want, |k| self.debug_or_annotation_matches(s, dst[k])) {
                let d = dst[k];
                self.map.map_insts(s, self.src.result_id(s), d, self.dst.result_id(d));
            }
        }
    }

    /// The opcode and the operands [`Self::debug_or_annotation_matches`]
    /// compares; `None` for an instruction it never matches.
    fn debug_parts(&self, which: Which, i: usize) -> Option<Vec<Option<u64>>> {
        let side = self.side(which);
        let opcode = side.opcode(i);
        let (in_operands, count) = match opcode {
            op::OpString | op::OpSourceExtension | op::OpModuleProcessed => (false, 1),
            op::OpSource => (true, 2),
            op::OpSourceContinued => (true, 0),
            op::OpName => (true, 1),
            op::OpMemberName | op::OpDecorate => (true, 2),
            op::OpMemberDecorate => (true, 3),
            _ => return None,
        };
        let mut parts = vec![Some(u64::from(opcode))];
        for k in 0..count {
            let o = if in_operands { side.in_operand(i, k) } else { side.operand(i, k) };
            parts.push(self.operand_key(which, o));
        }
        Some(parts)
    }

    fn debug_or_annotation_matches(&self, s: usize, d: usize) -> bool {
        let opcode = self.src.opcode(s);
        if opcode != self.dst.opcode(d) {
            return false;
        }
        match opcode {
            op::OpString | op::OpSourceExtension | op::OpModuleProcessed => {
                self.operand_matches(self.src.operand(s, 0), self.dst.operand(d, 0))
            }
            op::OpSource => self.operands_match(s, d, 0, 2),
            op::OpSourceContinued => true,
            op::OpName => self.operands_match(s, d, 0, 1),
            op::OpMemberName | op::OpDecorate => self.operands_match(s, d, 0, 2),
            op::OpMemberDecorate => self.operands_match(s, d, 0, 3),
            _ => false,
        }
    }
}

/// An OpConstant's value as the constant rule reads it (its first two
/// value words), and its word count.
fn constant_value(side: &Side<'_>, i: usize) -> (u64, usize) {
    let w = side.operand(i, 2).map_or(&[][..], |(_, w)| w);
    let lo = w.first().copied().unwrap_or(0) as u64;
    let hi = w.get(1).copied().unwrap_or(0) as u64;
    (lo | hi << 32, w.len())
}

/// spirv-diff's order of preamble instructions: operand count, then (for
/// OpExecutionMode) the entry point's execution model, then each operand's
/// kind and value (ids are not compared).
fn compare_preamble(a_side: &Side<'_>, a: usize, b_side: &Side<'_>, b: usize) -> Ordering {
    let n = a_side.num_operands(a);
    match n.cmp(&b_side.num_operands(b)) {
        Ordering::Equal => {}
        other => return other,
    }
    if a_side.opcode(a) == op::OpExecutionMode {
        let am = a_side.execution_model(a_side.single_word_operand(a, 0));
        let bm = b_side.execution_model(b_side.single_word_operand(b, 0));
        match am.cmp(&bm) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    for k in 0..n {
        let (Some((ak, aw)), Some((bk, bw))) = (a_side.operand(a, k), b_side.operand(b, k)) else { continue };
        match (ak as u16).cmp(&(bk as u16)) {
            Ordering::Equal => {}
            other => return other,
        }
        if is_id(ak) {
            continue;
        }
        let order = if ak == OperandKind::LiteralString {
            literal_string_bytes(aw).cmp(literal_string_bytes(bw))
        } else {
            aw.first().cmp(&bw.first())
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}
