//! Entry points: a module has one unless it is for linking, and every
//! module-scope variable an entry point's
//! call tree uses is listed in its OpEntryPoint (Input and Output variables
//! before SPIR-V 1.4, every non-Function variable from 1.4 on).

use super::{ErrorKind, Report};
use crate::binary::literal_string_bytes;
use crate::grammar::{op, storage_class};
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

struct EntryPoint {
    inst: usize,
    function: u32,
    name: String,
    interface: FxHashSet<u32>,
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let (major, minor) = m.header.version_parts();
    let all_globals = (major, minor) >= (1, 4);
    let mut is_interface_var: FxHashSet<u32> = FxHashSet::default();
    let mut entry_points = Vec::new();
    // Global-scope results that refer to interface variables (transitively).
    let mut global_refs: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    // Per function: the interface variables it uses, and its callees.
    let mut uses: FxHashMap<u32, FxHashSet<u32>> = FxHashMap::default();
    let mut calls: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut current: Option<u32> = None;
    // Ids that are interface variables or global results referring to one,
    // by id when the bound is reasonable: most operands are neither, and
    // are let go without a hash lookup.
    let bound = m.header.bound as usize;
    let mut marked = if bound <= 4 * m.words.len() + 1024 { vec![false; bound] } else { Vec::new() };
    let unmarked = |marked: &[bool], id: u32| !marked.is_empty() && !marked.get(id as usize).copied().unwrap_or(false);
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpEntryPoint => {
                let ops = m.operands(i);
                let name_op = ops[2];
                let start = inst.offset as usize + name_op.offset as usize;
                let name = literal_string_bytes(&m.words[start..start + name_op.num_words as usize]);
                entry_points.push(EntryPoint {
                    inst: i,
                    function: m.word(i, 1),
                    name: String::from_utf8_lossy(name).into_owned(),
                    interface: (3..ops.len()).map(|k| m.word(i, k)).collect(),
                });
                continue;
            }
            op::OpFunction => current = Some(m.result_id_at(inst)),
            op::OpFunctionEnd => {
                current = None;
                continue;
            }
            op::OpVariable | op::OpUntypedVariableKHR if current.is_none() => {
                let class = m.word(i, 2);
                let listed = if all_globals {
                    class != storage_class::Function
                } else {
                    class == storage_class::Input || class == storage_class::Output
                };
                if listed {
                    is_interface_var.insert(m.result_id_at(inst));
                    if let Some(slot) = marked.get_mut(m.result_id_at(inst) as usize) {
                        *slot = true;
                    }
                }
                continue;
            }
            _ => {}
        }
        let referenced: Vec<u32> = m
            .id_operands(i)
            .filter(|&(_, id)| !unmarked(&marked, id))
            .flat_map(|(_, id)| {
                let direct = is_interface_var.contains(&id).then_some(id);
                direct.into_iter().chain(global_refs.get(&id).into_iter().flatten().copied())
            })
            .collect();
        match current {
            Some(f) => {
                if inst.opcode() == op::OpFunctionCall {
                    calls.entry(f).or_default().push(m.word(i, 2));
                }
                if !referenced.is_empty() {
                    uses.entry(f).or_default().extend(referenced);
                }
            }
            None if m.result_id_at(inst) != 0 && !referenced.is_empty() => {
                if let Some(slot) = marked.get_mut(m.result_id_at(inst) as usize) {
                    *slot = true;
                }
                global_refs.insert(m.result_id_at(inst), referenced);
            }
            None => {}
        }
    }
    // spirv-val walks the variables in module order and, for each, the
    // entry points that reach it by function id: its first error is the
    // first variable's.
    let mut missing: Vec<(usize, u32, usize, u32)> = Vec::new();
    for (k, ep) in entry_points.iter().enumerate() {
        let mut seen = FxHashSet::default();
        let mut stack = vec![ep.function];
        let mut vars: Vec<u32> = Vec::new();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            vars.extend(uses.get(&f).into_iter().flatten().filter(|v| !ep.interface.contains(v)));
            stack.extend(calls.get(&f).into_iter().flatten());
        }
        vars.sort_unstable();
        vars.dedup();
        missing.extend(vars.into_iter().map(|var| (m.def_index(var).unwrap_or(ep.inst), ep.function, k, var)));
    }
    missing.sort_unstable();
    for (at, _, k, var) in missing {
        let ep = &entry_points[k];
        r.error(
            ErrorKind::EntryPoint,
            at,
            format!(
                "Interface variable id <{var}> is used by entry point '{}' id <{}>, but is not listed as an interface",
                ep.name, ep.function
            ),
        );
    }
}
