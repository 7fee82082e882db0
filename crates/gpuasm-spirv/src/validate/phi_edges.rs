//! OpPhi's parents are its block's predecessors (spec OpPhi: "each Parent
//! … must be an immediate predecessor"; spirv-val's control-flow pass):
//! as many pairs as distinct predecessors, each parent a predecessor, none
//! twice. A predecessor is a block whose OpBranch, OpBranchConditional or
//! OpSwitch names the block, once per naming (spirv-val counts repeated
//! targets in its message, and distinct ones in the comparison).

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::op;
use rustc_hash::{FxHashMap, FxHashSet};

/// The branch operands that name a target block, by terminator.
fn targets(m: &Module, i: usize) -> Vec<u32> {
    let n = m.operands(i).len();
    match m.insts[i].opcode() {
        op::OpBranch => vec![m.word(i, 0)],
        op::OpBranchConditional => vec![m.word(i, 1), m.word(i, 2)],
        // Default, then (literal, label) pairs.
        op::OpSwitch => std::iter::once(m.word(i, 1)).chain((3..n).step_by(2).map(|k| m.word(i, k))).collect(),
        _ => Vec::new(),
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    // Block label → the label of each block branching to it.
    let mut preds: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut block = 0;
    for i in 0..m.insts.len() {
        if m.insts[i].opcode() == op::OpLabel {
            block = m.insts[i].result_id;
        }
        for t in targets(m, i) {
            preds.entry(t).or_default().push(block);
        }
    }
    let none = Vec::new();
    for i in 0..m.insts.len() {
        match m.insts[i].opcode() {
            op::OpLabel => block = m.insts[i].result_id,
            op::OpPhi => {
                let all = preds.get(&block).unwrap_or(&none);
                if let Some(message) = problem(m, r, i, block, all) {
                    r.error(ErrorKind::OperandType, i, message);
                    if r.full() {
                        return;
                    }
                }
            }
            _ => {}
        }
    }
}

fn problem(m: &Module, r: &mut Report, i: usize, block: u32, all: &[u32]) -> Option<String> {
    let distinct: FxHashSet<u32> = all.iter().copied().collect();
    let edges = (m.operands(i).len() - 2) / 2;
    if edges != distinct.len() {
        return Some(format!(
            "OpPhi's number of incoming blocks ({edges}) does not match block's predecessor count ({}).",
            all.len()
        ));
    }
    let mut seen = FxHashSet::default();
    for k in (3..m.operands(i).len()).step_by(2) {
        let parent = m.word(i, k);
        if !distinct.contains(&parent) {
            let (p, b) = (r.id(parent), r.id(block));
            return Some(format!("OpPhi's incoming basic block <id> {p} is not a predecessor of <id> {b}."));
        }
        if !seen.insert(parent) {
            return Some(format!("OpPhi references incoming basic block <id> {} multiple times.", r.id(parent)));
        }
    }
    None
}
