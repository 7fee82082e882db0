//! Vulkan forbids recursion: no entry point's static call graph may hold a
//! cycle (VUID-StandaloneSpirv-None-04634), as spirv-val checks with its
//! entry points.

use super::module::{entry_points_reaching, Module};
use super::{ErrorKind, Report};
use crate::grammar::op;
use rustc_hash::{FxHashMap, FxHashSet};

pub(crate) fn check(m: &Module, r: &mut Report) {
    // Each function's callees.
    let mut calls: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut current = 0;
    for (i, inst) in m.insts.iter().enumerate() {
        match inst.opcode() {
            op::OpFunction => current = inst.result_id,
            op::OpFunctionCall => calls.entry(current).or_default().push(m.word(i, 2)),
            _ => {}
        }
    }
    let entries: Vec<(usize, u32)> =
        (0..m.insts.len()).filter(|&i| m.insts[i].opcode() == op::OpEntryPoint).map(|i| (i, m.word(i, 1))).collect();
    let ids: Vec<u32> = entries.iter().map(|e| e.1).collect();
    let reached_by = entry_points_reaching(&ids, &calls);
    // The entry points that reach a function that reaches itself.
    let mut recursive: FxHashSet<u32> = FxHashSet::default();
    for &f in calls.keys() {
        if reaches(&calls, f, f) {
            recursive.extend(reached_by.get(&f).into_iter().flatten().copied());
        }
    }
    for (_, entry) in entries {
        if recursive.contains(&entry) {
            let at = m.def_index(entry).unwrap_or(0);
            r.error(
                ErrorKind::EntryPoint,
                at,
                "[VUID-StandaloneSpirv-None-04634] Entry points may not have a call graph with cycles.",
            );
            return;
        }
    }
}

/// Whether a call chain from `from` reaches `to`.
fn reaches(calls: &FxHashMap<u32, Vec<u32>>, from: u32, to: u32) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<u32> = calls.get(&from).cloned().unwrap_or_default();
    while let Some(f) = stack.pop() {
        if f == to {
            return true;
        }
        if seen.insert(f) {
            stack.extend(calls.get(&f).into_iter().flatten().copied());
        }
    }
    false
}
