//! Control-flow rules outside the structured constructs:
//! - OpLoopMerge's Loop Control: Unroll, PeelCount and PartialCount each
//!   exclude DontUnroll, and IterationMultiple's operand is not zero
//!   (spec 3.23, "Loop Control");
//! - SPV_KHR_maximal_reconvergence: in functions an entry point with
//!   MaximallyReconvergesKHR reaches, a conditional branch has two different
//!   labels, and only loop headers and blocks named by a merge instruction
//!   or a switch have more than one predecessor.

use super::{ErrorKind, Report};
use crate::grammar::{execution_mode, loop_control as lc, op};
use crate::module::{entry_points_reaching, Module};
use rustc_hash::{FxHashMap, FxHashSet};

/// Loop controls that may not be combined with DontUnroll, and spirv-val's
/// name for each.
const EXCLUDE_DONT_UNROLL: &[(u32, &str)] =
    &[(lc::Unroll, "Unroll"), (lc::PeelCount, "PeelCount"), (lc::PartialCount, "PartialCount")];

/// Loop controls whose literal operand comes before IterationMultiple's.
const BEFORE_ITERATION_MULTIPLE: &[u32] = &[lc::DependencyLength, lc::MinIterations, lc::MaxIterations];

/// The branch and merge instructions' own operands, in instruction order
/// (spirv-val's control-flow pass): targets are labels, a boolean condition
/// with 0 or 2 branch weights, an integer selector, and the loop merge's
/// blocks and controls.
pub(crate) fn check_instructions(m: &Module, r: &mut Report) {
    let mut block = 0;
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        if opcode == op::OpLabel {
            block = m.result_id_word(i);
        }
        if let Some(message) = problem(m, i, opcode, block, r) {
            r.error(ErrorKind::StructuredControlFlow, i, message);
            return;
        }
    }
}

fn problem(m: &Module, i: usize, opcode: u16, block: u32, r: &mut Report) -> Option<String> {
    let label = |k: usize| m.def_opcode(m.word(i, k)) == Some(op::OpLabel);
    let n = m.operands(i).len();
    match opcode {
        op::OpBranch if !label(0) => {
            Some("'Target Label' operands for OpBranch must be the ID of an OpLabel instruction".into())
        }
        op::OpBranchConditional => {
            if n != 3 && n != 5 {
                return Some("OpBranchConditional requires either 3 or 5 parameters".into());
            }
            let condition = m.type_of(m.word(i, 0));
            let boolean = m.def_opcode(condition) == Some(op::OpTypeBool);
            if !boolean {
                return Some("Condition operand for OpBranchConditional must be of boolean type".into());
            }
            if !label(1) {
                return Some(
                    "The 'True Label' operand for OpBranchConditional must be the ID of an OpLabel instruction".into(),
                );
            }
            if !label(2) {
                return Some(
                    "The 'False Label' operand for OpBranchConditional must be the ID of an OpLabel instruction".into(),
                );
            }
            (m.header.version_parts() >= (1, 6) && m.word(i, 1) == m.word(i, 2))
                .then(|| "In SPIR-V 1.6 or later, True Label and False Label must be different labels".into())
        }
        op::OpSwitch => {
            if m.def_opcode(m.type_of(m.word(i, 0))) != Some(op::OpTypeInt) {
                return Some("Selector type must be OpTypeInt".into());
            }
            if !label(1) {
                return Some("Default must be an OpLabel instruction".into());
            }
            (3..n)
                .step_by(2)
                .any(|k| !label(k))
                .then(|| "'Target Label' operands for OpSwitch must be IDs of an OpLabel instruction".into())
        }
        op::OpLoopMerge => {
            let (merge, cont) = (m.word(i, 0), m.word(i, 1));
            if !label(0) {
                return Some(format!("Merge Block {} must be an OpLabel", r.id(merge)));
            }
            if merge == block {
                return Some("Merge Block may not be the block containing the OpLoopMerge\n".into());
            }
            if !label(1) {
                return Some(format!("Continue Target {} must be an OpLabel", r.id(cont)));
            }
            if merge == cont {
                return Some("Merge Block and Continue Target must be different ids".into());
            }
            loop_control_problem(m, i)
        }
        _ => None,
    }
}

/// The Loop Control operand of an OpLoopMerge.
fn loop_control_problem(m: &Module, i: usize) -> Option<String> {
    let control = m.word(i, 2);
    if control & lc::DontUnroll != 0 {
        if let Some((_, name)) = EXCLUDE_DONT_UNROLL.iter().find(|(bit, _)| control & bit != 0) {
            return Some(format!("{name} and DontUnroll loop controls must not both be specified"));
        }
    }
    if control & lc::IterationMultiple != 0 {
        let k = 3 + BEFORE_ITERATION_MULTIPLE.iter().filter(|&&bit| control & bit != 0).count();
        if k >= m.operands(i).len() || m.word(i, k) == 0 {
            return Some("IterationMultiple loop control operand must be greater than zero".into());
        }
    }
    None
}

/// SPV_KHR_maximal_reconvergence's rules (after the structured checks, as
/// spirv-val runs them).
pub(crate) fn check_maximal_reconvergence(m: &Module, r: &mut Report) {
    let maximal: Vec<u32> = (0..m.insts.len())
        .filter(|&i| {
            matches!(m.opcode(i), op::OpExecutionMode | op::OpExecutionModeId)
                && m.word(i, 1) == execution_mode::MaximallyReconvergesKHR
        })
        .map(|i| m.word(i, 0))
        .collect();
    if maximal.is_empty() {
        return;
    }
    let calls = crate::module::callees(m);
    let reached: FxHashSet<u32> = entry_points_reaching(&maximal, &calls).into_keys().collect();
    // Each function's blocks: (label instruction, terminator).
    let mut blocks: Vec<(u32, usize, usize)> = Vec::new();
    let mut function = 0;
    let mut label = None;
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        match opcode {
            op::OpFunction => function = m.result_id_word(i),
            op::OpLabel => label = Some(i),
            _ if super::cfg::TERMINATOR_SET.contains(opcode) => {
                if let Some(l) = label.take() {
                    blocks.push((function, l, i));
                }
            }
            _ => {}
        }
    }
    for &(f, _, t) in &blocks {
        if reached.contains(&f) && m.opcode(t) == op::OpBranchConditional && m.word(t, 1) == m.word(t, 2) {
            r.error(
                ErrorKind::StructuredControlFlow,
                t,
                "In entry points using the MaximallyReconvergesKHR execution mode, True Label and False Label must be \
                 different labels",
            );
            return;
        }
    }
    // Labels a merge instruction or a switch names may join paths.
    let mut joins: FxHashSet<u32> = FxHashSet::default();
    let mut preds: FxHashMap<u32, FxHashSet<u32>> = FxHashMap::default();
    for &(_, l, t) in &blocks {
        let label = m.result_id_word(l);
        for (_, id) in m.id_operands(t) {
            preds.entry(id).or_default().insert(label);
        }
        if t > 0 && matches!(m.opcode(t - 1), op::OpSelectionMerge | op::OpLoopMerge) {
            joins.extend(m.id_operands(t - 1).map(|(_, id)| id));
        }
        if m.opcode(t) == op::OpSwitch {
            joins.extend(m.id_operands(t).skip(1).map(|(_, id)| id));
        }
    }
    for &(f, l, t) in &blocks {
        let label = m.result_id_word(l);
        if !reached.contains(&f) || preds.get(&label).map_or(0, |p| p.len()) < 2 {
            continue;
        }
        let loop_header = t > 0 && m.opcode(t - 1) == op::OpLoopMerge;
        if !loop_header && !joins.contains(&label) {
            r.error(
                ErrorKind::StructuredControlFlow,
                l,
                "In entry points using the MaximallyReconvergesKHR execution mode, this basic block must not have \
                 multiple unique predecessors",
            );
            return;
        }
    }
}
