//! What may stand next to what inside functions: a function's variables
//! first in its first block, phis first in the other blocks, a merge
//! instruction right before its branch. spirv-val checks this after its
//! per-instruction walk (`ValidateAdjacency`), so a module that breaks both
//! a walk rule and one of these gets the walk's error.

use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::{op, storage_class};
use crate::module::Module;

/// Where the walk stands, as far as variables and phis go.
#[derive(PartialEq, Eq, Clone, Copy)]
enum Status {
    /// After OpFunction or a parameter.
    NewFunction,
    /// In the run of instructions that opens the first block.
    EntryBlock,
    /// In the run of instructions that opens another block.
    PhiValid,
    /// Anywhere else.
    Invalid,
}

/// The DebugInfo and OpenCL.DebugInfo.100 sets: their instructions may
/// stand among the variables and phis (NonSemantic.Shader.DebugInfo.100's
/// may not).
fn old_debug_info(set: Option<ExtSet>) -> bool {
    matches!(set, Some(ExtSet::Known(s)) if matches!(s.import_name, "DebugInfo" | "OpenCL.DebugInfo.100"))
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut status = Status::Invalid;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let opc = inst.opcode();
        match opc {
            op::OpFunction | op::OpFunctionParameter => status = Status::NewFunction,
            op::OpLabel => {
                status = if status == Status::NewFunction { Status::EntryBlock } else { Status::PhiValid };
            }
            op::OpExtInst | op::OpExtInstWithForwardRefsKHR => {
                if !old_debug_info(inst.ext_set()) {
                    status = Status::Invalid;
                }
            }
            op::OpPhi if status != Status::PhiValid => r.error(
                ErrorKind::FunctionStructure,
                i,
                "OpPhi must appear within a non-entry block before all non-OpPhi instructions \
                 (except for OpLine, which can be mixed with OpPhi).",
            ),
            op::OpPhi | op::OpLine | op::OpNoLine => {}
            op::OpLoopMerge | op::OpSelectionMerge => {
                status = Status::Invalid;
                let next = m.insts.get(i + 1).map(|n| n.opcode());
                let (name, branches, fits) = if opc == op::OpLoopMerge {
                    (
                        "OpLoopMerge",
                        "an OpBranch or OpBranchConditional",
                        matches!(next, Some(op::OpBranch | op::OpBranchConditional)),
                    )
                } else {
                    (
                        "OpSelectionMerge",
                        "an OpBranchConditional or OpSwitch",
                        matches!(next, Some(op::OpBranchConditional | op::OpSwitch)),
                    )
                };
                // The last instruction of the module has nothing to precede.
                if next.is_some() && !fits {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        format!(
                            "{name} must immediately precede either {branches} instruction. \
                             {name} must be the second-to-last instruction in its block."
                        ),
                    );
                }
            }
            op::OpVariable | op::OpUntypedVariableKHR => {
                if m.word(i, 2) == storage_class::Function && status != Status::EntryBlock {
                    let name = inst.info().name;
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        format!(
                            "All {name} instructions in a function must be the first instructions in the first block."
                        ),
                    );
                }
            }
            _ => status = Status::Invalid,
        }
        if r.full() {
            return;
        }
    }
}
