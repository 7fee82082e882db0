//! Functions and blocks: OpFunction, parameters, labels, terminators and
//! OpFunctionEnd in their places; branch targets are labels; returns match
//! the function's return type; declarations before definitions.

use super::{ErrorKind, Report};
use crate::grammar::op;
use crate::module::Module;

pub(super) use crate::module::functions::TERMINATOR_SET;

#[derive(PartialEq, Eq, Clone, Copy)]
enum State {
    Outside,
    Header,
    InBlock,
    AfterTerminator,
}

/// The DebugInfo and OpenCL.DebugInfo.100 sets: spirv-val lets their
/// instructions stand before a function's variables and among phis.
fn old_debug_info(set: Option<crate::binary::ExtSet>) -> bool {
    matches!(set, Some(crate::binary::ExtSet::Known(s)) if matches!(s.import_name, "DebugInfo" | "OpenCL.DebugInfo.100"))
}

/// An extended instruction of a debug-information or non-semantic set:
/// the layout pass places these; any other instruction outside a block is
/// out of place.
fn debug_or_non_semantic(inst: &crate::module::Inst) -> bool {
    matches!(inst.opcode(), op::OpExtInst | op::OpExtInstWithForwardRefsKHR)
        && inst.ext_set().is_some_and(|s| s.is_debug_or_non_semantic())
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut state = State::Outside;
    let mut void_return = true;
    let mut has_blocks = false;
    let mut seen_definition = false;
    let mut function_start = 0;
    // Still in the leading run of OpVariable of the function's first block.
    let mut variable_section = false;
    // Still in the leading run of OpPhi of a block.
    let mut phi_section = false;
    let mut blocks = 0;
    // An extended instruction between OpFunction and the first label: the
    // first block's variables no longer come first.
    let mut ext_before_label = false;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let opc = inst.opcode();
        let name = inst.info().name;
        match opc {
            op::OpFunction => {
                ext_before_label = false;
                if state != State::Outside {
                    r.error(ErrorKind::FunctionStructure, i, "Cannot declare a function in a function body");
                }
                state = State::Header;
                has_blocks = false;
                blocks = 0;
                function_start = i;
                void_return = m.def_opcode(m.result_type_at(inst)) == Some(op::OpTypeVoid);
            }
            op::OpFunctionParameter => {
                if state == State::Outside {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        "Function parameter instructions must be in a function body",
                    );
                } else if state != State::Header {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        "Function parameters must only appear immediately after the function definition",
                    );
                }
            }
            op::OpLabel => match state {
                State::Outside => {
                    r.error(ErrorKind::FunctionStructure, i, "Label instructions must be in a function body")
                }
                State::InBlock => {
                    r.error(ErrorKind::FunctionStructure, i, "A block must end with a branch instruction.")
                }
                _ => {
                    state = State::InBlock;
                    has_blocks = true;
                    blocks += 1;
                    variable_section = blocks == 1 && !ext_before_label;
                    phi_section = true;
                }
            },
            op::OpFunctionEnd => {
                match state {
                    State::Outside => {
                        r.error(ErrorKind::FunctionStructure, i, "Function end instructions must be in a function body")
                    }
                    State::InBlock => {
                        r.error(ErrorKind::FunctionStructure, i, "Function end cannot be called in blocks")
                    }
                    _ => {}
                }
                if has_blocks {
                    seen_definition = true;
                } else if seen_definition {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        "Function declarations must appear before function definitions.",
                    );
                }
                state = State::Outside;
            }
            _ if TERMINATOR_SET.contains(opc) => {
                if state != State::InBlock {
                    r.error(ErrorKind::FunctionStructure, i, format!("{} must appear in a block", &name[2..]));
                }
                if opc == op::OpReturn && !void_return {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        "OpReturn can only be called from a function with void return type.",
                    );
                }
                state = State::AfterTerminator;
            }
            op::OpVariable | op::OpUntypedVariableKHR if state == State::InBlock => {
                if !variable_section && m.word(i, 2) == crate::grammar::storage_class::Function {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        format!(
                            "All {name} instructions in a function must be the first instructions in the first block."
                        ),
                    );
                }
            }
            op::OpPhi if state == State::InBlock => {
                if blocks == 1 || !phi_section {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi).",
                    );
                }
                variable_section = false;
            }
            // Line instructions, and the older debug information sets'
            // instructions, may sit among the variables and phis; other
            // extended instructions (even non-semantic ones) end both runs.
            op::OpLine | op::OpNoLine if state == State::InBlock => {}
            op::OpExtInst | op::OpExtInstWithForwardRefsKHR if state == State::InBlock => {
                if !old_debug_info(inst.ext_set()) {
                    variable_section = false;
                    phi_section = false;
                }
            }
            _ if state == State::InBlock => {
                variable_section = false;
                phi_section = false;
            }
            _ => match state {
                // Before the first label, only lines and debug or
                // non-semantic extended instructions (placed by the layout
                // pass) may stand.
                State::Header if !matches!(opc, op::OpLine | op::OpNoLine) && !debug_or_non_semantic(inst) => {
                    r.error(ErrorKind::FunctionStructure, i, format!("{} must appear in a block", &name[2..]))
                }
                State::Header if !matches!(opc, op::OpLine | op::OpNoLine) && !old_debug_info(inst.ext_set()) => {
                    ext_before_label = true
                }
                // Between functions only line and extended instructions may
                // stand.
                State::Outside
                    if function_start > 0
                        && !matches!(opc, op::OpLine | op::OpNoLine)
                        && !debug_or_non_semantic(inst) =>
                {
                    let message = if opc == op::OpFunctionCall {
                        "A FunctionCall must happen within a function body.".to_string()
                    } else {
                        format!("{} must appear in a block", &name[2..])
                    };
                    r.error(ErrorKind::FunctionStructure, i, message)
                }
                // Line information and non-semantic instructions (such as
                // DebugLine) may follow a block's terminator.
                // So may debug information (DebugScope, DebugNoScope...).
                State::AfterTerminator if !matches!(opc, op::OpLine | op::OpNoLine) && !debug_or_non_semantic(inst) => {
                    r.error(ErrorKind::FunctionStructure, i, format!("{} must appear in a block", &name[2..]))
                }
                _ => {}
            },
        }
    }
    if state != State::Outside {
        r.module_error(ErrorKind::FunctionStructure, "Missing OpFunctionEnd at end of module.");
    }
    merge_instructions(m, r);
}

/// OpSelectionMerge and OpLoopMerge: right before the branch they qualify,
/// a loop's merge block and continue target distinct, and no block the
/// merge block of two headers.
fn merge_instructions(m: &Module, r: &mut Report) {
    let mut merge_blocks = rustc_hash::FxHashSet::default();
    for i in 0..m.insts.len() {
        let opc = m.opcode(i);
        let next = m.insts.get(i + 1).map(|n| n.opcode());
        let misplaced = match opc {
            op::OpSelectionMerge => (!matches!(next, Some(op::OpBranchConditional | op::OpSwitch)))
                .then_some(("OpSelectionMerge", "an OpBranchConditional or OpSwitch")),
            op::OpLoopMerge => (!matches!(next, Some(op::OpBranch | op::OpBranchConditional)))
                .then_some(("OpLoopMerge", "an OpBranch or OpBranchConditional")),
            _ => None,
        };
        if let Some((name, branches)) = misplaced {
            r.error(
                ErrorKind::FunctionStructure,
                i,
                format!(
                    "{name} must immediately precede either {branches} instruction. \
                     {name} must be the second-to-last instruction in its block."
                ),
            );
            return;
        }
        if opc == op::OpLoopMerge && m.word(i, 0) == m.word(i, 1) {
            r.error(ErrorKind::FunctionStructure, i, "Merge Block and Continue Target must be different ids");
            return;
        }
        if matches!(opc, op::OpSelectionMerge | op::OpLoopMerge) && !merge_blocks.insert(m.word(i, 0)) {
            let block = r.id(m.word(i, 0));
            r.error(
                ErrorKind::FunctionStructure,
                i,
                format!("Block {block} is already a merge block for another header"),
            );
            return;
        }
    }
}
