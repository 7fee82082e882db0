//! Entry-point rules of the module as a whole (spec 2.16.1; Vulkan's
//! VUID-StandaloneSpirv-None-04634):
//! - there is one, unless the module is for linking or a graph module;
//! - no two OpEntryPoint share both a name and an execution model
//!   (OpConditionalEntryPointINTEL may);
//! - in Vulkan, no entry point's static call graph has a cycle;
//! - NoContraction and FPFastMathMode Fast stay out of the functions of
//!   entry points with the FPFastMathDefault mode.

use super::{ErrorKind, Report};
use crate::binary::literal_string_bytes;
use crate::grammar::{
    capability, decoration, execution_mode, fp_encoding, fp_fast_math_mode, op, storage_class, Category, OperandKind,
};
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

/// Two OpEntryPoint with the same name and execution model (spirv-val
/// checks this at the second one in its first walk, before its ids).
pub(crate) fn check_names(m: &Module, r: &mut Report) {
    let mut seen: FxHashSet<(u32, &[u8])> = FxHashSet::default();
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint) {
        let name = m.operands(i)[2];
        let start = m.insts[i].offset as usize + name.offset as usize;
        let name = literal_string_bytes(&m.words[start..start + name.num_words as usize]);
        if !seen.insert((m.word(i, 0), name)) {
            r.error(ErrorKind::EntryPoint, i, "2 Entry points cannot share the same name and ExecutionMode.");
            return;
        }
    }
}

/// An entry point, unless the module is for linking or a graph module
/// (SPV_ARM_graph has graph entry points instead). spirv-val checks it
/// first among its entry-point rules, after its per-instruction passes.
pub(crate) fn check_present(m: &Module, r: &mut Report) {
    let caps = &m.declared_capabilities;
    if !m.uses(op::OpEntryPoint) && !caps.contains(&capability::Linkage) && !caps.contains(&capability::GraphARM) {
        r.module_error(
            ErrorKind::EntryPoint,
            "No OpEntryPoint instruction was found. This is only allowed if the Linkage or GraphARM capability is being \
             used.",
        );
    }
}

/// Each entry point in turn, as spirv-val checks them after its
/// per-instruction passes: no OpFunctionCall may call it, and in Vulkan it
/// may not reach a function that calls itself, directly or not (both
/// reported at the entry point's OpFunction).
pub(crate) fn check_calls(m: &Module, vulkan: bool, r: &mut Report) {
    let called: FxHashSet<u32> =
        (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpFunctionCall).map(|i| m.word(i, 2)).collect();
    let recursive = vulkan.then(|| reaching_cycles(m));
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint) {
        let entry = m.word(i, 1);
        let at = m.def_index(entry).unwrap_or(i);
        if called.contains(&entry) {
            let message = format!(
                "A function ({entry}) may not be targeted by both an OpEntryPoint instruction and an OpFunctionCall \
                 instruction."
            );
            r.error(ErrorKind::EntryPoint, at, message);
            return;
        }
        if recursive.as_ref().is_some_and(|reaches| reaches(entry)) {
            r.error(
                ErrorKind::EntryPoint,
                at,
                "[VUID-StandaloneSpirv-None-04634] Entry points may not have a call graph with cycles.",
            );
            return;
        }
    }
}

/// Whether a function reaches a cycle of calls.
fn reaching_cycles(m: &Module) -> impl Fn(u32) -> bool {
    let calls = crate::module::callees(m);
    // Peel functions whose callees are all peeled: what remains reaches a
    // cycle.
    let mut pending: FxHashMap<u32, usize> = calls.iter().map(|(&f, c)| (f, c.len())).collect();
    let mut callers: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (&f, callees) in &calls {
        for &g in callees {
            callers.entry(g).or_default().push(f);
        }
    }
    let mut leaves: Vec<u32> = callers.keys().copied().filter(|g| !pending.contains_key(g)).collect();
    while let Some(g) = leaves.pop() {
        for &f in callers.get(&g).into_iter().flatten() {
            let left = pending.get_mut(&f).expect("a caller has calls");
            *left -= 1;
            if *left == 0 {
                leaves.push(f);
            }
        }
    }
    move |f: u32| pending.get(&f).is_some_and(|&left| left > 0)
}

/// Storage classes of which a Vulkan entry point's interface holds at most
/// one variable, with the VUID and name spirv-val reports.
const ONE_PER_ENTRY_POINT: &[(u32, &str)] = &[
    (storage_class::PushConstant, "OpVariable-06673] Entry-point has more than one variable with the PushConstant"),
    (
        storage_class::IncomingRayPayloadKHR,
        "IncomingRayPayloadKHR-04700] Entry-point has more than one variable with the IncomingRayPayloadKHR",
    ),
    (
        storage_class::HitAttributeKHR,
        "HitAttributeKHR-04702] Entry-point has more than one variable with the HitAttributeKHR",
    ),
    (
        storage_class::IncomingCallableDataKHR,
        "IncomingCallableDataKHR-04706] Entry-point has more than one variable with the IncomingCallableDataKHR",
    ),
];

/// Vulkan: an entry point's interface has at most one push-constant,
/// incoming ray payload, hit attribute and incoming callable data variable
/// (VUID-StandaloneSpirv-OpVariable-06673, -04700, -04702, -04706), and no
/// Input or Output variable holds bfloat16 (-10370) or 8-bit floats.
pub(crate) fn check_interface_classes(m: &Module, r: &mut Report) {
    let forward = super::memory::forward_pointers(m);
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint) {
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        for k in 3..m.operands(i).len() {
            let Some(v) = m.def_index(m.word(i, k)) else { continue };
            if !matches!(m.opcode(v), op::OpVariable | op::OpUntypedVariableKHR) {
                continue;
            }
            let class = m.word(v, 2);
            if let Some((_, what)) = ONE_PER_ENTRY_POINT.iter().find(|(c, _)| *c == class) {
                if !seen.insert(class) {
                    r.error(
                        ErrorKind::EntryPoint,
                        i,
                        format!("[VUID-StandaloneSpirv-{what} storage class in the interface"),
                    );
                    return;
                }
            }
            if class != storage_class::Input && class != storage_class::Output {
                continue;
            }
            let pointee = m.def_word(m.result_type_word(v), 3).unwrap_or(0);
            let encoded = |encodings: &[u32]| {
                super::memory::contains_in(
                    m,
                    &forward,
                    pointee,
                    true,
                    &|opcode, t| {
                        opcode == op::OpTypeFloat
                            && m.def(t).is_some_and(|d| d.word_count > 3)
                            && m.def_word(t, 3).is_some_and(|e| encodings.contains(&e))
                    },
                    0,
                )
            };
            let var = m.result_id_word(v);
            if encoded(&[fp_encoding::BFloat16KHR]) {
                let name = r.id(var);
                r.error(
                    ErrorKind::EntryPoint,
                    v,
                    format!(
                        "[VUID-StandaloneSpirv-OpTypeFloat-10370] Bfloat16 OpVariable <id> {name} must not be declared with a Storage Class of Input or Output."
                    ),
                );
                return;
            }
            if encoded(&[fp_encoding::Float8E4M3EXT, fp_encoding::Float8E5M2EXT]) {
                let name = r.id(var);
                r.error(
                    ErrorKind::EntryPoint,
                    v,
                    format!(
                        "FP8 E4M3/E5M2 OpVariable <id> {name} must not be declared with a Storage Class of Input or Output."
                    ),
                );
                return;
            }
        }
    }
}

/// SPV_KHR_float_controls2 (spirv-val's ValidateFloatControls2): an
/// instruction decorated NoContraction, or FPFastMathMode with Fast, in a
/// function an entry point with the FPFastMathDefault mode reaches. A
/// decorated result outside functions passes the question to its users,
/// walked as spirv-val walks them (last pushed first), so that the same
/// instruction is reported.
pub(crate) fn check_fast_math_defaults(m: &Module, r: &mut Report) {
    let is_entry = |i: usize| matches!(m.opcode(i), op::OpEntryPoint | op::OpConditionalEntryPointINTEL);
    let entry_at = |i: usize| if m.opcode(i) == op::OpEntryPoint { 1 } else { 2 };
    let entries: Vec<u32> = (0..m.insts.len()).filter(|&i| is_entry(i)).map(|i| m.word(i, entry_at(i))).collect();
    let is_entry_point: FxHashSet<u32> = entries.iter().copied().collect();
    let with_default: FxHashSet<u32> = (0..m.insts.len())
        .filter(|&i| matches!(m.opcode(i), op::OpExecutionMode | op::OpExecutionModeId))
        .filter(|&i| m.word(i, 1) == execution_mode::FPFastMathDefault && is_entry_point.contains(&m.word(i, 0)))
        .map(|i| m.word(i, 0))
        .collect();
    if with_default.is_empty() {
        return;
    }
    let mut work: Vec<(usize, bool)> = Vec::new();
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpDecorate) {
        let no_contraction = m.word(i, 1) == decoration::NoContraction;
        let fast = m.word(i, 1) == decoration::FPFastMathMode
            && m.operands(i).len() > 2
            && m.word(i, 2) & fp_fast_math_mode::Fast != 0;
        if let (true, Some(target)) = (no_contraction || fast, m.def_index(m.word(i, 0))) {
            work.push((target, no_contraction));
        }
    }
    // The function each instruction is in, as spirv-val files them: from
    // the one after OpFunction to OpFunctionEnd.
    let mut function_of = vec![0u32; m.insts.len()];
    let mut current = 0;
    for (i, slot) in function_of.iter_mut().enumerate() {
        *slot = current;
        match m.opcode(i) {
            op::OpFunction => current = m.result_id_word(i),
            op::OpFunctionEnd => current = 0,
            _ => {}
        }
    }
    let reached_by = crate::module::entry_points_reaching(&entries, &crate::module::callees(m));
    let mut users: Option<FxHashMap<usize, Vec<usize>>> = None;
    let mut visited = FxHashSet::default();
    while let Some((i, no_contraction)) = work.pop() {
        if !visited.insert(i) {
            continue;
        }
        let function = function_of[i];
        if function != 0 {
            if reached_by.get(&function).is_some_and(|e| e.iter().any(|e| with_default.contains(e))) {
                let dec = if no_contraction { "NoContraction" } else { "FPFastMathMode Fast" };
                r.error(
                    ErrorKind::EntryPoint,
                    i,
                    format!("{dec} cannot be used by an entry point with the FPFastMathDefault execution mode"),
                );
                return;
            }
        } else {
            let users = users.get_or_insert_with(|| id_users(m));
            work.extend(users.get(&i).into_iter().flatten().map(|&u| (u, no_contraction)));
        }
    }
}

/// For each instruction defining an id, the instructions using it as an id
/// operand (a result id is no use), once per operand, in module order.
fn id_users(m: &Module) -> FxHashMap<usize, Vec<usize>> {
    let mut users: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for i in 0..m.insts.len() {
        for (k, o) in m.operands(i).iter().enumerate() {
            if o.kind.info().category == Category::Id && o.kind != OperandKind::IdResult {
                if let Some(def) = m.def_index(m.word(i, k)) {
                    users.entry(def).or_default().push(i);
                }
            }
        }
    }
    users
}
