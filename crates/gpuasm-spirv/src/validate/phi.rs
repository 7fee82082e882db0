//! OpPhi (spec 3.49.17 and 2.16.1): operands in (value, parent) pairs, a
//! non-void result, pointers only with variable pointers under Logical
//! addressing, values of the result type, and parents that are exactly
//! the block's predecessors, each named once (spirv-val's control-flow pass).

use super::{ErrorKind, Report};
use crate::grammar::{addressing_model, capability, op};
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

/// Each block's predecessors (with repeats: a branch naming a block twice
/// counts twice) and the block each phi stands in.
pub(super) struct Phis {
    preds: FxHashMap<u32, Vec<u32>>,
    block_of: FxHashMap<usize, u32>,
}

impl Phis {
    pub(super) fn new(m: &Module) -> Phis {
        let mut phis = Phis { preds: FxHashMap::default(), block_of: FxHashMap::default() };
        let mut block = None;
        for i in 0..m.insts.len() {
            let inst = &m.insts[i];
            match inst.opcode() {
                op::OpLabel => block = Some(m.result_id_at(inst)),
                op::OpFunctionEnd => block = None,
                op::OpPhi => {
                    if let Some(b) = block {
                        phis.block_of.insert(i, b);
                    }
                }
                op::OpBranch | op::OpBranchConditional | op::OpSwitch => {
                    let Some(from) = block.take() else { continue };
                    let targets: Vec<u32> = match inst.opcode() {
                        op::OpBranch => vec![m.word(i, 0)],
                        op::OpBranchConditional => vec![m.word(i, 1), m.word(i, 2)],
                        _ => (1..m.operands(i).len()).step_by(2).map(|k| m.word(i, k)).collect(),
                    };
                    for t in targets {
                        phis.preds.entry(t).or_default().push(from);
                    }
                }
                _ => {}
            }
        }
        phis
    }

    pub(super) fn check(&self, m: &Module, r: &mut Report, i: usize) {
        let fail = |r: &mut Report, message: String| r.error(ErrorKind::OperandType, i, message);
        let n = m.operands(i).len();
        if !n.is_multiple_of(2) {
            return fail(r, "OpPhi does not have an equal number of incoming values and basic blocks.".into());
        }
        let rt = m.result_type_word(i);
        if m.def_opcode(rt) == Some(op::OpTypeVoid) {
            return fail(r, "OpPhi must not have void result type".into());
        }
        let pointer = matches!(m.def_opcode(rt), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR));
        let variable_pointers = [capability::VariablePointers, capability::VariablePointersStorageBuffer]
            .iter()
            .any(|c| m.declared_capabilities.contains(c));
        if pointer && m.addressing_model() == Some(addressing_model::Logical) && !variable_pointers {
            return fail(
                r,
                "Using pointers with OpPhi requires capability VariablePointers or VariablePointersStorageBuffer"
                    .into(),
            );
        }
        let Some(&block) = self.block_of.get(&i) else { return };
        let preds = self.preds.get(&block).map_or(&[][..], Vec::as_slice);
        let unique: FxHashSet<u32> = preds.iter().copied().collect();
        let edges = (n - 2) / 2;
        if edges != unique.len() {
            return fail(
                r,
                format!(
                    "OpPhi's number of incoming blocks ({edges}) does not match block's predecessor count ({}).",
                    preds.len()
                ),
            );
        }
        let mut seen = FxHashSet::default();
        for k in (2..n).step_by(2) {
            let (value, parent) = (m.word(i, k), m.word(i, k + 1));
            let ty = m.type_of(value);
            if ty != rt {
                let (rt, id, ty) = (r.id(rt), r.id(value), r.id(ty));
                return fail(
                    r,
                    format!("OpPhi's result type <id> {rt} does not match incoming value <id> {id} type <id> {ty}."),
                );
            }
            if m.def_opcode(parent) != Some(op::OpLabel) {
                let b = r.id(parent);
                return fail(r, format!("OpPhi's incoming basic block <id> {b} is not an OpLabel."));
            }
            if !unique.contains(&parent) {
                let (b, this) = (r.id(parent), r.id(block));
                return fail(r, format!("OpPhi's incoming basic block <id> {b} is not a predecessor of <id> {this}."));
            }
            if !seen.insert(parent) {
                let b = r.id(parent);
                return fail(r, format!("OpPhi references incoming basic block <id> {b} multiple times."));
            }
        }
    }
}
