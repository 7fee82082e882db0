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
    // spirv-val's layout: after the first OpFunction, the declarations
    // section lasts until an instruction other than OpFunction,
    // OpFunctionParameter and OpFunctionEnd (a label, but also a line);
    // a function without blocks ending after that is out of place.
    let (mut seen_function, mut in_definitions) = (false, false);
    let mut function_start = 0;
    // The current function's first block and the current block.
    let (mut first_label, mut label) = (0, 0);
    let mut in_graphs = false;
    // Merge blocks the current function named so far; None once a merge
    // instruction failed.
    let mut merge_blocks = Some(rustc_hash::FxHashSet::default());
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let opc = inst.opcode();
        let name = inst.info().name;
        seen_function |= opc == op::OpFunction;
        // From there on spirv-val's layout is in the graph definitions,
        // which reports what stands out of place (not a missing block).
        in_graphs |= super::peer_opcodes::in_graph_section(opc);
        in_definitions |= seen_function && !matches!(opc, op::OpFunction | op::OpFunctionParameter | op::OpFunctionEnd);
        match opc {
            op::OpFunction => {
                if state != State::Outside {
                    r.error(ErrorKind::FunctionStructure, i, "Cannot declare a function in a function body");
                }
                state = State::Header;
                has_blocks = false;
                // spirv-val knows merge blocks per function.
                if let Some(seen) = merge_blocks.as_mut() {
                    seen.clear();
                }
                first_label = 0;
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
                    label = m.result_id_at(inst);
                    if first_label == 0 {
                        first_label = label;
                    }
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
                if !has_blocks && in_definitions {
                    r.error(
                        ErrorKind::FunctionStructure,
                        i,
                        "Function declarations must appear before function definitions.",
                    );
                }
                state = State::Outside;
            }
            _ if TERMINATOR_SET.contains(opc) => {
                // Nothing branches to a function's first block: spirv-val
                // checks at the branch and names the function.
                if state == State::InBlock && first_label != 0 && branches_to(m, i, first_label) {
                    let (e, f, p) = (r.id(first_label), r.id(m.result_id_word(function_start)), r.id(label));
                    r.error_met_at(
                        ErrorKind::FunctionStructure,
                        function_start,
                        i,
                        format!("First block {e} of function {f} is targeted by block {p}"),
                    );
                }
                if state != State::InBlock && !in_graphs {
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
            _ if in_graphs => {}
            _ => match state {
                // Before the first label, only lines and debug or
                // non-semantic extended instructions (placed by the layout
                // pass) may stand.
                State::Header if !matches!(opc, op::OpLine | op::OpNoLine) && !debug_or_non_semantic(inst) => {
                    r.error(ErrorKind::FunctionStructure, i, format!("{} must appear in a block", &name[2..]))
                }
                // Between functions only line and extended instructions may
                // stand.
                // (`first_walk` reports a call outside a function.)
                State::Outside
                    if function_start > 0
                        && !matches!(opc, op::OpLine | op::OpNoLine | op::OpFunctionCall)
                        && !debug_or_non_semantic(inst) =>
                {
                    r.error(ErrorKind::FunctionStructure, i, format!("{} must appear in a block", &name[2..]))
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
        // At the merge instruction itself, as spirv-val's CFG pass checks
        // it (after the layout's place checks).
        if state == State::InBlock && matches!(opc, op::OpSelectionMerge | op::OpLoopMerge) {
            if let Some(seen) = merge_blocks.as_mut() {
                if !merge_instruction(m, r, i, seen) {
                    merge_blocks = None;
                }
            }
        }
    }
    if state != State::Outside {
        r.module_error(ErrorKind::FunctionStructure, "Missing OpFunctionEnd at end of module.");
    }
}

/// Whether branch `i` (OpBranch, OpBranchConditional, OpSwitch) may jump
/// to `label`.
fn branches_to(m: &Module, i: usize, label: u32) -> bool {
    let targets = match m.opcode(i) {
        op::OpBranch => 0..1,
        op::OpBranchConditional => 1..3,
        op::OpSwitch => 1..m.operands(i).len(),
        _ => return false,
    };
    // A switch's operands after the selector: the default, then (literal,
    // label) pairs; only the labels count.
    let switch = m.opcode(i) == op::OpSwitch;
    targets.filter(|k| !switch || k % 2 == 1).any(|k| m.word(i, k) == label)
}

/// OpSelectionMerge or OpLoopMerge `i`: no block the merge block of two
/// headers (`seen`: the merge blocks named before), as spirv-val's CFG pass
/// checks while it reads. (That each stands right before its branch is
/// checked later: `adjacency`; a loop's targets, own block first, by the
/// control-flow rules: `control_flow`.) False once it has reported.
fn merge_instruction(m: &Module, r: &mut Report, i: usize, seen: &mut rustc_hash::FxHashSet<u32>) -> bool {
    if !seen.insert(m.word(i, 0)) {
        let block = r.id(m.word(i, 0));
        r.error(ErrorKind::FunctionStructure, i, format!("Block {block} is already a merge block for another header"));
        return false;
    }
    true
}
