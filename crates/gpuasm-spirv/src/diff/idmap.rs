//! The pairing between the two modules: ids (src to dst and back), and
//! instructions without a result id, by their index in their module.

use rustc_hash::FxHashMap;

/// "Not paired" in the instruction tables.
const NONE: u32 = u32::MAX;

/// One direction of the pairing.
pub(crate) struct IdMap {
    /// id -> the other module's id, 0 when unpaired. Its length is the id
    /// bound, grown by [`IdMap::fresh_id`].
    ids: Vec<u32>,
    /// instruction index -> the other module's instruction index.
    insts: Vec<u32>,
    /// How many ids map to each id (of the other module), to tell at once
    /// whether any does.
    targets: FxHashMap<u32, u32>,
}

impl IdMap {
    fn new(bound: u32, inst_count: usize) -> IdMap {
        IdMap { ids: vec![0; bound as usize], insts: vec![NONE; inst_count], targets: FxHashMap::default() }
    }

    /// The paired id, 0 when none (or out of range, as in a module whose
    /// ids pass its bound).
    pub fn id(&self, from: u32) -> u32 {
        self.ids.get(from as usize).copied().unwrap_or(0)
    }

    pub fn is_mapped(&self, from: u32) -> bool {
        self.id(from) != 0
    }

    /// The paired instruction of an instruction without a result id.
    pub fn inst(&self, from: usize) -> Option<usize> {
        self.insts.get(from).copied().filter(|&i| i != NONE).map(|i| i as usize)
    }

    pub fn bound(&self) -> u32 {
        self.ids.len() as u32
    }

    fn set(&mut self, from: u32, to: u32) {
        // spirv-diff assumes ids below the bound; others are left unpaired.
        if from != 0 {
            if let Some(slot) = self.ids.get_mut(from as usize) {
                let old = std::mem::replace(slot, to);
                self.untarget(old);
                if to != 0 {
                    *self.targets.entry(to).or_default() += 1;
                }
            }
        }
    }

    fn untarget(&mut self, to: u32) {
        if let Some(count) = self.targets.get_mut(&to) {
            *count -= 1;
            if *count == 0 {
                self.targets.remove(&to);
            }
        }
    }

    /// Whether some id maps to `to`.
    pub fn is_target(&self, to: u32) -> bool {
        self.targets.contains_key(&to)
    }

    /// A new id past the bound, for an id the other module has no match of.
    fn fresh_id(&mut self) -> u32 {
        self.ids.push(0);
        self.ids.len() as u32 - 1
    }
}

/// Both directions, kept in step.
pub(crate) struct SrcDstIdMap {
    pub src_to_dst: IdMap,
    pub dst_to_src: IdMap,
}

impl SrcDstIdMap {
    pub fn new(src_bound: u32, src_insts: usize, dst_bound: u32, dst_insts: usize) -> Self {
        SrcDstIdMap { src_to_dst: IdMap::new(src_bound, src_insts), dst_to_src: IdMap::new(dst_bound, dst_insts) }
    }

    pub fn map_ids(&mut self, src: u32, dst: u32) {
        self.src_to_dst.set(src, dst);
        self.dst_to_src.set(dst, src);
    }

    pub fn dst_id(&self, src: u32) -> u32 {
        self.src_to_dst.id(src)
    }

    pub fn src_id(&self, dst: u32) -> u32 {
        self.dst_to_src.id(dst)
    }

    pub fn is_src_mapped(&self, src: u32) -> bool {
        self.src_to_dst.is_mapped(src)
    }

    pub fn is_dst_mapped(&self, dst: u32) -> bool {
        self.dst_to_src.is_mapped(dst)
    }

    /// Pairs two instructions: by result id when they have one, else by
    /// index.
    pub fn map_insts(&mut self, src: usize, src_result: u32, dst: usize, dst_result: u32) {
        if src_result != 0 {
            self.map_ids(src_result, dst_result);
        } else {
            if let Some(slot) = self.src_to_dst.insts.get_mut(src) {
                *slot = dst as u32;
            }
            if let Some(slot) = self.dst_to_src.insts.get_mut(dst) {
                *slot = src as u32;
            }
        }
    }

    /// Gives every defined id still unpaired a fresh id on the other side:
    /// src ids first, in order, then dst ids.
    pub fn map_unmatched(&mut self, src_defined: impl Fn(u32) -> bool, dst_defined: impl Fn(u32) -> bool) {
        let src_bound = self.src_to_dst.bound();
        let dst_bound = self.dst_to_src.bound();
        for src in 1..src_bound {
            if !self.src_to_dst.is_mapped(src) && src_defined(src) {
                let fresh = self.dst_to_src.fresh_id();
                self.map_ids(src, fresh);
            }
        }
        for dst in 1..dst_bound {
            if !self.dst_to_src.is_mapped(dst) && dst_defined(dst) {
                let fresh = self.src_to_dst.fresh_id();
                self.map_ids(fresh, dst);
            }
        }
    }
}
