//! Ids: every id used is defined; forward references only where the
//! specification allows them (names, decorations, entry points, branch
//! targets, phi operands, called functions, forward-declared pointers,
//! debug information); types where types are expected, values elsewhere.

use super::peer_opcodes::generates_type;
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::{op, OperandKind};
use crate::module::{Inst, Module};
use rustc_hash::FxHashMap;

/// Whether operand `k` of instruction `i` (counting every operand, result
/// type and result included) may name an id defined later.
fn forward_ok(m: &Module, i: usize, k: usize, forward_pointers: &FxHashMap<u32, usize>, id: u32) -> bool {
    // A result type never: spirv-val asks the opcode's rule about its id
    // operands only, and a type operand must be defined already.
    if m.operands(i)[k].kind == OperandKind::IdResultType {
        return false;
    }
    let inst = &m.insts[i];
    match inst.opcode() {
        op::OpExecutionMode
        | op::OpExecutionModeId
        | op::OpEntryPoint
        | op::OpName
        | op::OpMemberName
        | op::OpSelectionMerge
        | op::OpDecorate
        | op::OpMemberDecorate
        | op::OpDecorateId
        | op::OpDecorateString
        | op::OpMemberDecorateString
        | op::OpBranch
        | op::OpLoopMerge
        | op::OpConditionalEntryPointINTEL
        | op::OpConditionalCapabilityINTEL
        | op::OpConditionalExtensionINTEL => true,
        // The graph an OpGraphEntryPointARM names is defined after it.
        op::OpGraphEntryPointARM => k == 0,
        op::OpGroupDecorate | op::OpGroupMemberDecorate | op::OpBranchConditional | op::OpSwitch => k != 0,
        op::OpFunctionCall => k == 2,
        op::OpPhi => k > 1,
        op::OpEnqueueKernel => k == 8,
        // The Invoke function of the kernel queries.
        op::OpGetKernelNDrangeSubGroupCount | op::OpGetKernelNDrangeMaxSubGroupSize => k == 3,
        op::OpGetKernelWorkGroupSize | op::OpGetKernelPreferredWorkGroupSizeMultiple => k == 2,
        op::OpCooperativeMatrixPerElementOpNV => k == 3,
        op::OpCooperativeMatrixReduceNV => k == 4,
        op::OpCooperativeMatrixLoadTensorNV => k > 6,
        op::OpTypeForwardPointer => k == 0,
        // The older debug information sets may refer ahead from a
        // DebugFunction's Function and a DebugTypeComposite's Members (as
        // spirv-val numbers operands, from the result type);
        // NonSemantic.Shader.DebugInfo needs OpExtInstWithForwardRefsKHR,
        // which no other set may refer ahead with (spirv-val asks the
        // opcode's own rule, which has none for it).
        op::OpExtInst | op::OpExtInstWithForwardRefsKHR => match inst.ext_set() {
            Some(ExtSet::Known(s)) if s.import_name == "NonSemantic.Shader.DebugInfo.100" => {
                inst.opcode() == op::OpExtInstWithForwardRefsKHR
            }
            Some(ExtSet::Known(s)) if matches!(s.import_name, "DebugInfo" | "OpenCL.DebugInfo.100") => {
                let members = if s.import_name == "DebugInfo" { 12 } else { 13 };
                match s.instruction(m.word(i, 3)).map(|e| e.name) {
                    Some("DebugFunction") => k == 13,
                    Some("DebugTypeComposite") => k >= members,
                    _ => false,
                }
            }
            _ => false,
        },
        // In a type declaration, a pointer declared ahead by an earlier
        // OpTypeForwardPointer (spirv-val lets no other instruction name
        // one before its definition).
        o => generates_type(o) && forward_pointers.get(&id).is_some_and(|&at| at < i),
    }
}

/// Whether instruction `i` may name a type among its operands, as spirv-val's
/// InstructionCanHaveTypeOperand decides: in its type declarations,
/// annotations, debug instructions, debug-info and non-semantic extended
/// instructions, and the few instructions it lists (not by operand name:
/// OpTypeVmeImageINTEL's Image Type fails).
fn type_ok(m: &Module, i: usize) -> bool {
    let inst = &m.insts[i];
    let class = inst.info().class;
    // Of extended instructions, spirv-val lets only debug-info and
    // non-semantic ones name a type.
    if matches!(inst.opcode(), op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
        return match inst.ext_set() {
            Some(ExtSet::Known(s)) => s.non_semantic || s.import_name.contains("DebugInfo"),
            Some(ExtSet::UnknownNonSemantic) | None => true,
        };
    }
    // (An execution mode's Target Type, FPFastMathDefault's, names a type
    // declared after it: a forward reference, which the id rules do not
    // look at.)
    generates_type(inst.opcode()) || matches!(class, "Annotation" | "Debug") || measures_type(m, i)
}

/// The instructions spirv-val lets both name a type and name a type-less
/// id (its InstructionCanHaveTypeOperand and InstructionRequiresTypeOperand
/// lists share them): OpFunction, those that measure a type or declare an
/// untyped pointer, inline assembly, and the OpSpecConstantOp of a
/// cooperative matrix length (whose Type follows the embedded opcode).
fn measures_type(m: &Module, i: usize) -> bool {
    let coop_length = [op::OpCooperativeMatrixLengthNV, op::OpCooperativeMatrixLengthKHR];
    match m.opcode(i) {
        op::OpFunction
        | op::OpSizeOf
        | op::OpCooperativeMatrixLengthNV
        | op::OpCooperativeMatrixLengthKHR
        | op::OpUntypedArrayLengthKHR
        | op::OpAsmINTEL
        | op::OpUntypedVariableKHR
        | op::OpUntypedAccessChainKHR
        | op::OpUntypedInBoundsAccessChainKHR
        | op::OpUntypedPtrAccessChainKHR
        | op::OpUntypedInBoundsPtrAccessChainKHR => true,
        op::OpSpecConstantOp => coop_length.map(u32::from).contains(&m.word(i, 2)),
        _ => false,
    }
}

fn non_semantic(set: Option<ExtSet>) -> bool {
    set.is_some_and(ExtSet::is_non_semantic)
}

/// Instructions allowed to name a non-semantic instruction's result (or a
/// decoration group).
pub(super) fn non_semantic_use(inst: &crate::module::Inst) -> bool {
    extended(inst) && non_semantic(inst.ext_set())
}

/// OpExtInst, or its form with forward references.
fn extended(inst: &crate::module::Inst) -> bool {
    matches!(inst.opcode(), op::OpExtInst | op::OpExtInstWithForwardRefsKHR)
}

/// Uses of functions, function types and type-less ids (labels, strings,
/// imports, decoration groups) outside the instructions made for them;
/// whether spirv-val finds the misuse only in its later walk (its function
/// and type checks), not where it checks ids.
fn misused(m: &Module, i: usize, k: usize, def: &Inst) -> Option<(&'static str, bool)> {
    let inst = &m.insts[i];
    let opc = inst.opcode();
    let class = inst.info().class;
    let def_opcode = def.opcode();
    // Only a non-semantic extended instruction may name one (an OpName or
    // OpDecorate names it ahead, before spirv-val knows what it is; an
    // OpLine after it fails).
    if extended(def) && non_semantic(def.ext_set()) && !non_semantic_use(inst) {
        return Some(("Operand {} in semantic instruction cannot be a non-semantic instruction", false));
    }
    let ext_inst = matches!(opc, op::OpExtInst | op::OpExtInstWithForwardRefsKHR);
    // Only non-semantic extended instructions may name a function type.
    if ext_inst && def_opcode == op::OpTypeFunction && !non_semantic(inst.ext_set()) {
        return Some(("Invalid use of function type result id {}.", true));
    }
    if def_opcode == op::OpFunction {
        // spirv-val's list of a function's uses, whatever the operand: of
        // the debug and annotation instructions only OpName, OpDecorate
        // and OpGroupDecorate (not OpDecorateString, say); of the extended
        // instructions only the non-semantic and debug-information ones.
        let ok = matches!(
            opc,
            op::OpEntryPoint
                | op::OpConditionalEntryPointINTEL
                | op::OpExecutionMode
                | op::OpExecutionModeId
                | op::OpFunctionCall
                | op::OpCooperativeMatrixLoadTensorNV
                | op::OpCooperativeMatrixPerElementOpNV
                | op::OpCooperativeMatrixReduceNV
                | op::OpEnqueueKernel
                | op::OpGetKernelNDrangeSubGroupCount
                | op::OpGetKernelNDrangeMaxSubGroupSize
                | op::OpGetKernelWorkGroupSize
                | op::OpGetKernelPreferredWorkGroupSizeMultiple
                | op::OpGetKernelLocalSizeForSubgroupCount
                | op::OpGetKernelMaxNumSubgroups
                | op::OpName
                | op::OpDecorate
                | op::OpGroupDecorate
        ) || (ext_inst && inst.ext_set().is_some_and(ExtSet::is_debug_or_non_semantic));
        return (!ok).then_some(("Invalid use of function result id {}.", true));
    }
    let debug = matches!(class, "Debug" | "Annotation") || ext_inst;
    if debug {
        return None;
    }
    match def_opcode {
        // OpAsmINTEL (SPV_INTEL_inline_assembly) names its function type.
        op::OpTypeFunction => (!matches!(opc, op::OpFunction | op::OpAsmINTEL))
            .then_some(("Invalid use of function type result id {}.", true)),
        _ if m.result_type_at(def) == 0
            && !generates_type(def_opcode)
            && m.operands(i)[k].kind != OperandKind::IdResultType =>
        {
            // spirv-val's InstructionRequiresTypeOperand: every instruction
            // but branches, merges, an import and those of `measures_type`
            // (type declarations too: an OpTypePointer to a label fails).
            let ok = matches!(
                opc,
                op::OpBranch
                    | op::OpBranchConditional
                    | op::OpSwitch
                    | op::OpPhi
                    | op::OpSelectionMerge
                    | op::OpLoopMerge
                    | op::OpExtInstImport
            ) || measures_type(m, i);
            (!ok).then_some(("Operand {} requires a type", false))
        }
        _ => None,
    }
}

/// The uses of functions and function types spirv-val rejects in its
/// per-instruction walk, where it meets the definition: (use, definition,
/// id, message with `{}` for the id's name), in module order of the uses.
/// [`check`] finds them in its walk over the operands; [`check_misuses`]
/// reports them among the walk's passes.
pub(crate) type Misuses = std::sync::OnceLock<Vec<(usize, usize, u32, &'static str)>>;

pub(crate) fn check(m: &Module, r: &mut Report, misuses: &Misuses) {
    // Each forward-declared pointer and where it is first declared.
    let mut forward_pointers: FxHashMap<u32, usize> = FxHashMap::default();
    for i in (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpTypeForwardPointer) {
        forward_pointers.entry(m.word(i, 0)).or_insert(i);
    }
    let mut undefined_forward: Vec<u32> = Vec::new();
    // Misuses spirv-val finds in its later walk (see `Misuses`).
    let mut late_misuses = Vec::new();
    // An id not defined yet where it is used, in spirv-val's words: a type
    // may only name a forward pointer ahead.
    let not_yet_defined = |r: &mut Report, kind: ErrorKind, i: usize, id: u32| {
        let name = r.id(id);
        let message = if generates_type(m.opcode(i)) {
            format!("Operand {name} requires a previous definition")
        } else {
            format!("ID {name} has not been defined")
        };
        r.error(kind, i, message);
    };
    for i in 0..m.insts.len() {
        // Forward references are for non-semantic instructions only
        // (SPV_KHR_relaxed_extended_instruction).
        if m.opcode(i) == op::OpExtInstWithForwardRefsKHR && !non_semantic(m.insts[i].ext_set()) {
            r.error(
                ErrorKind::ForwardReference,
                i,
                "OpExtInstWithForwardRefsKHR is only allowed with non-semantic instructions.",
            );
            continue;
        }
        // OpExtInstWithForwardRefsKHR exists to name what comes later;
        // spirv-val says so once its operands have passed.
        let forward_refs = m.opcode(i) == op::OpExtInstWithForwardRefsKHR;
        let none_ahead = forward_refs && !m.id_operands(i).any(|(_, id)| m.def_index(id).is_none_or(|d| d >= i));
        for (k, id) in m.id_operands(i) {
            let kind = m.operands(i)[k].kind;
            let d = match m.def_index(id) {
                None => {
                    if forward_ok(m, i, k, &forward_pointers, id) {
                        undefined_forward.push(id);
                    } else {
                        not_yet_defined(r, ErrorKind::UndefinedId, i, id);
                    }
                    continue;
                }
                Some(d) => d,
            };
            // An instruction's own result is not defined yet.
            if d == i && !forward_ok(m, i, k, &forward_pointers, id) {
                not_yet_defined(r, ErrorKind::UndefinedId, i, id);
                continue;
            }
            if d > i && !forward_ok(m, i, k, &forward_pointers, id) {
                not_yet_defined(r, ErrorKind::ForwardReference, i, id);
            }
            let def = &m.insts[d];
            // spirv-val checks what an id names where it meets the id, and
            // knows nothing yet of an id defined later: the later passes
            // judge those uses.
            let forward = d > i;
            // A misuse the later passes judge (a function's or a function
            // type's uses) leaves this walk's own checks to run: a function
            // type where no type may stand "cannot be a type" first.
            let result_type = kind == OperandKind::IdResultType;
            if let Some((msg, late)) = misused(m, i, k, def) {
                if late {
                    late_misuses.push((i, d, id, msg));
                } else if !result_type {
                    if !forward {
                        let name = r.id(id);
                        r.error(ErrorKind::TypeValueMismatch, i, msg.replace("{}", &name));
                    }
                    continue;
                }
            }
            if result_type {
                if !generates_type(def.opcode()) {
                    let name = r.id(id);
                    r.error(ErrorKind::TypeValueMismatch, i, format!("ID {name} is not a type id"));
                }
            } else if !forward && generates_type(def.opcode()) && !type_ok(m, i) {
                let name = r.id(id);
                r.error(ErrorKind::TypeValueMismatch, i, format!("Operand {name} cannot be a type"));
            }
        }
        if none_ahead {
            r.error(
                ErrorKind::ForwardReference,
                i,
                "Opcode OpExtInstWithForwardRefsKHR must have at least one forward declared ID.",
            );
        }
    }
    if !undefined_forward.is_empty() {
        undefined_forward.sort_unstable();
        undefined_forward.dedup();
        let list: Vec<String> = undefined_forward.iter().map(|&id| r.id(id)).collect();
        r.module_error(
            ErrorKind::UndefinedId,
            format!("The following forward referenced IDs have not been defined:\n{}", list.join(" ")),
        );
    }
    // Set once: a pass runs once per validation.
    let _ = misuses.set(late_misuses);
}

/// Reports the [`Misuses`] [`check`] found, each where spirv-val meets it:
/// at the definition, whose uses it checks in order.
pub(crate) fn check_misuses(found: &Misuses, r: &mut Report) {
    let Some(found) = found.get() else { return };
    let mut found = found.clone();
    found.sort_by_key(|&(i, d, ..)| (d, i));
    for (i, d, id, message) in found {
        let name = r.id(id);
        r.error_met_at(ErrorKind::TypeValueMismatch, i, d, message.replace("{}", &name));
    }
}
