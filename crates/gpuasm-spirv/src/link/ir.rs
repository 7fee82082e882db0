//! The linker's working form: each instruction's words with the places of
//! its ids, grouped in the sections of the logical layout, and the merge of
//! the input modules into one such form with disjoint ids.

use super::{LinkError, LinkOptions};
use crate::grammar::{op, Category, OperandKind};
use crate::module::Module;

/// One instruction: its words and where its ids (result type and result
/// included) sit among them.
#[derive(Debug, Clone)]
pub(super) struct Ins {
    pub words: Vec<u32>,
    pub ids: Vec<u16>,
    pub result: Option<u16>,
    pub result_type: Option<u16>,
}

impl Ins {
    pub fn opcode(&self) -> u16 {
        self.words[0] as u16
    }

    pub fn result_id(&self) -> Option<u32> {
        self.result.map(|p| self.words[p as usize])
    }

    /// Rewrites every id (result included) through `f`.
    pub fn map_ids(&mut self, mut f: impl FnMut(u32) -> u32) {
        for &p in &self.ids {
            self.words[p as usize] = f(self.words[p as usize]);
        }
    }

    /// The ids this instruction uses, neither its result nor its type.
    pub fn used_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.ids
            .iter()
            .filter(move |&&p| Some(p) != self.result && Some(p) != self.result_type)
            .map(move |&p| self.words[p as usize])
    }
}

/// The sections of a module, in layout order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    Capabilities,
    Extensions,
    ExtInstImports,
    MemoryModel,
    EntryPoints,
    ExecutionModes,
    Debug1,
    Debug2,
    Debug3,
    Annotations,
    TypesValues,
    Functions,
}

pub(super) const SECTIONS: usize = 12;

/// The merged module.
pub(super) struct Linked {
    pub version: u32,
    /// The next free id.
    pub bound: u32,
    pub sections: [Vec<Ins>; SECTIONS],
    /// For each input module, the amount its ids were shifted by.
    pub offsets: Vec<u32>,
}

impl Linked {
    pub fn section(&mut self, s: Section) -> &mut Vec<Ins> {
        &mut self.sections[s as usize]
    }

    pub fn get(&self, s: Section) -> &[Ins] {
        &self.sections[s as usize]
    }

    /// Every instruction, in layout order.
    pub fn all_mut(&mut self) -> impl Iterator<Item = &mut Ins> {
        self.sections.iter_mut().flatten()
    }

    /// Replaces every use (not definitions) of a key of `map` by its value.
    pub fn replace_uses_by(&mut self, map: &std::collections::HashMap<u32, u32>) {
        for ins in self.all_mut() {
            for &p in &ins.ids {
                if Some(p) != ins.result {
                    if let Some(&to) = map.get(&ins.words[p as usize]) {
                        ins.words[p as usize] = to;
                    }
                }
            }
        }
    }

    /// Removes the names and decorations of `ids`, in that order, as the
    /// peer's `KillNamesAndDecorates` does: an id leaves a group decoration's
    /// targets by taking the last target's place, and a group decoration
    /// left without targets goes.
    pub fn kill_names_and_decorations(&mut self, ids: &[u32]) {
        let dead: std::collections::HashSet<u32> = ids.iter().copied().collect();
        self.section(Section::Debug2).retain(|i| !dead.contains(&i.words[1]));
        let annotations = self.section(Section::Annotations);
        annotations.retain(|i| !(is_decoration(i.opcode()) && dead.contains(&i.words[1])));
        // Where each id first comes in `ids`: the order the peer removes them in.
        let mut rank: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        for (r, &id) in ids.iter().enumerate() {
            rank.entry(id).or_insert(r);
        }
        for g in annotations.iter_mut().filter(|g| matches!(g.opcode(), 74 | 75)) {
            let stride = if g.opcode() == 74 { 1 } else { 2 };
            remove_group_targets(&mut g.words, stride, &rank);
            g.words[0] = (g.words.len() as u32) << 16 | u32::from(g.opcode());
            let len = g.words.len() as u16;
            g.ids.retain(|&p| p < len);
        }
        annotations.retain(|g| !matches!(g.opcode(), 74 | 75) || g.words.len() > 2);
    }

    /// "%N (module K's %M)" for the notes of an error.
    pub fn origin(&self, id: u32) -> String {
        let k = self.offsets.iter().rposition(|&o| o < id).unwrap_or(0);
        format!("%{id} is %{} of input module {}", id - self.offsets[k], k + 1)
    }
}

/// Removes the targets of a group decoration (`words`, targets every
/// `stride` words from word 2) that `rank` holds, as the peer does: id by id
/// in rank order, each occurrence from the first on replaced by the last
/// target. The peer rescans the group for every dead id; here the
/// positions of the dead targets are kept in ordered sets, so that the
/// smallest (the one its scan would reach next) is found without a scan.
fn remove_group_targets(words: &mut Vec<u32>, stride: usize, rank: &std::collections::HashMap<u32, usize>) {
    use std::collections::{BTreeSet, HashMap};
    let mut at: HashMap<u32, BTreeSet<usize>> = HashMap::new();
    for k in (2..words.len()).step_by(stride) {
        if rank.contains_key(&words[k]) {
            at.entry(words[k]).or_default().insert(k);
        }
    }
    let mut order: Vec<u32> = at.keys().copied().collect();
    order.sort_by_key(|id| rank[id]);
    for id in order {
        while let Some(k) = at.get_mut(&id).and_then(BTreeSet::pop_first) {
            let last = words.len() - stride;
            let moved = words[last];
            // The last target takes the place of the removed one.
            if let Some(positions) = at.get_mut(&moved) {
                positions.remove(&last);
                if last != k {
                    positions.insert(k);
                }
            }
            words.copy_within(last..last + stride, k);
            words.truncate(last);
        }
    }
}

/// Decorations that name their target in their first operand.
pub(super) fn is_decoration(opcode: u16) -> bool {
    matches!(opcode, 71 | 72 | 332 | 5632 | 5633)
}

/// A literal string's text from its words.
pub(super) fn string_at(words: &[u32]) -> (String, usize) {
    let mut bytes = Vec::new();
    for (n, w) in words.iter().enumerate() {
        for b in w.to_le_bytes() {
            if b == 0 {
                return (String::from_utf8_lossy(&bytes).into_owned(), n + 1);
            }
            bytes.push(b);
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), words.len())
}

fn section_of(opcode: u16, in_functions: bool) -> Section {
    use Section::*;
    if in_functions {
        return Functions;
    }
    match opcode {
        op::OpCapability | op::OpConditionalCapabilityINTEL => Capabilities,
        op::OpExtension | op::OpConditionalExtensionINTEL => Extensions,
        op::OpExtInstImport => ExtInstImports,
        op::OpMemoryModel => MemoryModel,
        op::OpEntryPoint | op::OpConditionalEntryPointINTEL => EntryPoints,
        op::OpExecutionMode | op::OpExecutionModeId => ExecutionModes,
        op::OpSourceContinued | op::OpSource | op::OpSourceExtension | op::OpString => Debug1,
        op::OpName | op::OpMemberName => Debug2,
        op::OpModuleProcessed => Debug3,
        op::OpDecorate
        | op::OpMemberDecorate
        | op::OpDecorationGroup
        | op::OpGroupDecorate
        | op::OpGroupMemberDecorate
        | op::OpDecorateId
        | op::OpDecorateString
        | op::OpMemberDecorateString => Annotations,
        _ => TypesValues,
    }
}

fn addressing_name(kind: OperandKind, v: u32) -> &'static str {
    kind.enumerant(v).map_or("", |e| e.name)
}

/// One input module, read into sections with its own ids.
pub(super) struct Input {
    pub version: u32,
    /// The module's id bound (the next free id).
    pub bound: u32,
    pub sections: [Vec<Ins>; SECTIONS],
}

/// Reads every module into sections (the peer's module building, before
/// any phase): a non-zero schema or an unreadable module is rejected here.
pub(super) fn read(inputs: &[&[u32]]) -> Result<Vec<Input>, LinkError> {
    let n = inputs.len();
    let mut out = Vec::with_capacity(n);
    for (i, words) in inputs.iter().enumerate() {
        if words.get(4).is_some_and(|&s| s != 0) {
            let mut e = LinkError::new(format!("Schema is non-zero for module {}.", i + 1));
            e.index = 4;
            return Err(e);
        }
        let m = Module::read(words).map_err(|err| {
            let mut e = LinkError::new(format!("Failed to build module {} out of {n}.", i + 1));
            e.notes.push(format!("input module {}: {err}", i + 1));
            e
        })?;
        let mut sections: [Vec<Ins>; SECTIONS] = Default::default();
        let mut in_functions = false;
        for (i, inst) in m.insts().iter().enumerate() {
            let at = inst.offset();
            let words = m.words()[at..at + inst.word_count()].to_vec();
            let mut ids = Vec::new();
            let mut result = None;
            let mut result_type = None;
            for o in m.operands(i) {
                if o.kind.info().category == Category::Id {
                    ids.push(o.offset);
                    if o.kind == OperandKind::IdResult {
                        result = Some(o.offset);
                    } else if o.kind == OperandKind::IdResultType {
                        result_type = Some(o.offset);
                    }
                }
            }
            in_functions |= inst.opcode() == op::OpFunction;
            sections[section_of(inst.opcode(), in_functions) as usize].push(Ins { words, ids, result, result_type });
        }
        out.push(Input { version: m.header().version, bound: m.header().bound, sections });
    }
    Ok(out)
}

/// Shifts each module's ids past the previous modules' and concatenates
/// the sections after `leading` (instructions the linker puts first), the
/// peer's phases 1 to 3.
pub(super) fn merge(
    modules: Vec<Input>,
    options: &LinkOptions,
    leading: [Vec<Ins>; SECTIONS],
) -> Result<Linked, LinkError> {
    let n = modules.len();
    let bound: u64 = 1 + modules.iter().map(|m| u64::from(m.bound).saturating_sub(1)).sum::<u64>();
    if bound > u64::from(u32::MAX) {
        return Err(LinkError::new(format!(
            "Too many IDs ({bound}): combining all modules would overflow the 32-bit word of the SPIR-V header."
        )));
    }
    let mut version = modules[0].version;
    for (i, m) in modules.iter().enumerate().skip(1) {
        let v = m.version;
        if options.use_highest_version {
            version = version.max(v);
        } else if v != version {
            let mut e = LinkError::new(format!(
                "Conflicting SPIR-V versions: {}.{} (input modules 1 through {i}) vs {}.{} (input module {}).",
                version >> 16 & 0xff,
                version >> 8 & 0xff,
                v >> 16 & 0xff,
                v >> 8 & 0xff,
                i + 1
            ));
            e.index = 1;
            return Err(e);
        }
    }
    let mut linked = Linked { version, bound: bound as u32, sections: leading, offsets: Vec::with_capacity(n) };
    let mut per_module: Vec<[Vec<Ins>; SECTIONS]> = Vec::with_capacity(n);
    let mut offset = 0u32;
    for m in modules {
        linked.offsets.push(offset);
        let mut secs = m.sections;
        for ins in secs.iter_mut().flatten() {
            ins.map_ids(|id| id.wrapping_add(offset));
        }
        per_module.push(secs);
        offset = offset.wrapping_add(m.bound.saturating_sub(1));
    }

    // The memory models must agree; the first module's is kept.
    let model = |k: usize| per_module[k][Section::MemoryModel as usize].first().map(|i| (i.words[1], i.words[2]));
    let Some((addressing, memory)) = model(0) else {
        return Err(LinkError::new("Input module 1 is lacking an OpMemoryModel instruction."));
    };
    for k in 1..n {
        let Some((a, mm)) = model(k) else {
            return Err(LinkError::new(format!("Input module {} is lacking an OpMemoryModel instruction.", k + 1)));
        };
        if a != addressing {
            return Err(LinkError::new(format!(
                "Conflicting addressing models: {} (input modules 1 through {k}) vs {} (input module {}).",
                addressing_name(OperandKind::AddressingModel, addressing),
                addressing_name(OperandKind::AddressingModel, a),
                k + 1
            )));
        }
        if mm != memory {
            return Err(LinkError::new(format!(
                "Conflicting memory models: {} (input modules 1 through {k}) vs {} (input module {}).",
                addressing_name(OperandKind::MemoryModel, memory),
                addressing_name(OperandKind::MemoryModel, mm),
                k + 1
            )));
        }
    }

    // Hashed: thousands of entry points are legal.
    let mut entry_names: std::collections::HashSet<(u32, String)> = std::collections::HashSet::new();
    for (k, secs) in per_module.iter_mut().enumerate() {
        for (s, list) in secs.iter_mut().enumerate() {
            if s == Section::MemoryModel as usize {
                if k == 0 {
                    linked.sections[s].push(list.remove(0));
                }
                continue;
            }
            if s == Section::EntryPoints as usize {
                for e in list.iter() {
                    // The peer keys an entry point by its first operand and
                    // name: for a conditional one, the condition stands in
                    // for the execution model.
                    let name_at = if e.opcode() == op::OpConditionalEntryPointINTEL { 4 } else { 3 };
                    let model = e.words[1];
                    let (name, _) = string_at(&e.words[name_at..]);
                    if entry_names.contains(&(model, name.clone())) {
                        let mut err = LinkError::new(format!(
                            "The entry point \"{name}\", with execution model {}, was already defined.",
                            addressing_name(OperandKind::ExecutionModel, model)
                        ));
                        err.notes.push(format!("defined again in input module {}", k + 1));
                        return Err(err);
                    }
                    entry_names.insert((model, name));
                }
            }
            linked.sections[s].append(list);
        }
    }
    if version >= 0x0001_0100 {
        let text = b"Linked by SPIR-V Tools Linker";
        let mut words = vec![0u32];
        for chunk in text.chunks(4) {
            let mut b = [0u8; 4];
            b[..chunk.len()].copy_from_slice(chunk);
            words.push(u32::from_le_bytes(b));
        }
        if text.len().is_multiple_of(4) {
            words.push(0);
        }
        words[0] = (words.len() as u32) << 16 | 330;
        linked.section(Section::Debug3).push(Ins { words, ids: Vec::new(), result: None, result_type: None });
    }
    Ok(linked)
}

#[cfg(test)]
mod tests {
    use super::remove_group_targets;
    use std::collections::HashMap;

    /// The peer's way: a rescan of the group for each dead id in turn.
    fn rescanning(words: &mut Vec<u32>, stride: usize, ids: &[u32]) {
        for &id in ids {
            let mut k = 2;
            while k < words.len() {
                if words[k] != id {
                    k += stride;
                    continue;
                }
                let last = words.len() - stride;
                words.copy_within(last..last + stride, k);
                words.truncate(last);
            }
        }
    }

    proptest::proptest! {
        /// Same survivors in the same order as the rescan, repeated and
        /// moved targets included (member literals tagged to follow them).
        #[test]
        fn removal_matches_the_rescan(
            targets in proptest::collection::vec(1u32..12, 0..40),
            ids in proptest::collection::vec(1u32..12, 0..8),
            member in proptest::bool::ANY,
        ) {
            let stride = if member { 2 } else { 1 };
            let mut words = vec![0, 99];
            for (n, &t) in targets.iter().enumerate() {
                words.push(t);
                if member {
                    words.push(1000 + n as u32);
                }
            }
            let mut rank = HashMap::new();
            for (r, &id) in ids.iter().enumerate() {
                rank.entry(id).or_insert(r);
            }
            let mut expected = words.clone();
            rescanning(&mut expected, stride, &ids);
            remove_group_targets(&mut words, stride, &rank);
            proptest::prop_assert_eq!(words, expected);
        }
    }
}
