//! Pointers crossing a function call under Logical (or
//! PhysicalStorageBuffer64) addressing, in spirv-val's words (its function
//! pass): which storage classes a call may return a pointer in or pass one
//! in, and that a pointer argument be a memory object declaration (an
//! OpVariable or an OpFunctionParameter) unless a variable pointers
//! capability covers its storage class (SPIR-V 2.16.1, "Logical pointer"
//! rules). Pointers into PhysicalStorageBuffer are exempt, and
//! `--relax-logical-pointer` turns the rules off.

use super::{ErrorKind, Report, ValOptions};
use crate::grammar::{addressing_model, capability, op, storage_class as sc};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// Storage classes any pointer argument may have.
const ALWAYS_PASSABLE: &[u32] = &[
    sc::UniformConstant,
    sc::Function,
    sc::Private,
    sc::Workgroup,
    sc::AtomicCounter,
    sc::TileImageEXT,
    sc::ShaderRecordBufferKHR,
];

/// Instructions that declare a memory object (a call may pass their result).
const MEMORY_OBJECT_DECLARATIONS: &[u16] = &[op::OpVariable, op::OpUntypedVariableKHR, op::OpFunctionParameter];

pub(crate) fn check(m: &Module, options: &ValOptions, r: &mut Report) {
    let logical =
        matches!(m.addressing_model(), Some(addressing_model::Logical | addressing_model::PhysicalStorageBuffer64));
    if !logical || options.relax_logical_pointer {
        return;
    }
    let caps = super::capabilities::with_implied(m);
    for i in 0..m.insts.len() {
        if m.opcode(i) != op::OpFunctionCall {
            continue;
        }
        if let Some(message) = call_problem(m, caps, r, i) {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}

/// The storage class of a (typed or untyped) pointer type other than
/// PhysicalStorageBuffer.
fn logical_pointer_class(m: &Module, ty: u32) -> Option<u32> {
    matches!(m.def_opcode(ty)?, op::OpTypePointer | op::OpTypeUntypedPointerKHR)
        .then(|| m.def_word(ty, 2))
        .flatten()
        .filter(|&c| c != sc::PhysicalStorageBuffer)
}

fn call_problem(m: &Module, caps: &FxHashSet<u32>, r: &mut Report, i: usize) -> Option<String> {
    let function = m.word(i, 2);
    if m.def_opcode(function) != Some(op::OpFunction) {
        return None;
    }
    if let Some(class) = logical_pointer_class(m, m.result_type_word(i)) {
        let message = match class {
            sc::StorageBuffer if !caps.contains(&capability::VariablePointersStorageBuffer) => {
                "In Logical addressing, functions may only return a storage buffer pointer if the \
                 VariablePointersStorageBuffer capability is declared"
            }
            sc::Workgroup if !caps.contains(&capability::VariablePointers) => {
                "In Logical addressing, functions may only return a workgroup pointer if the VariablePointers \
                 capability is declared"
            }
            sc::StorageBuffer | sc::Workgroup => "",
            _ => "In Logical addressing, functions may not return a pointer in this storage class",
        };
        if !message.is_empty() {
            return Some(message.into());
        }
    }
    let fn_type = m.def_word(function, 4)?;
    if m.def_opcode(fn_type) != Some(op::OpTypeFunction) {
        return None;
    }
    let args = m.operands(i).len() - 3;
    for a in 0..args {
        let arg = m.word(i, 3 + a);
        let Some(class) = m.def_word(fn_type, 3 + a).and_then(|t| logical_pointer_class(m, t)) else { continue };
        let variable_pointers =
            caps.contains(&capability::VariablePointersStorageBuffer) || caps.contains(&capability::VariablePointers);
        if class == sc::StorageBuffer && !variable_pointers {
            return Some(format!(
                "StorageBuffer pointer operand {} requires a variable pointers capability",
                r.id(arg)
            ));
        }
        if class != sc::StorageBuffer && !ALWAYS_PASSABLE.contains(&class) {
            return Some(format!("Invalid storage class for pointer operand {}", r.id(arg)));
        }
        let declared = m.def_opcode(arg).is_some_and(|o| MEMORY_OBJECT_DECLARATIONS.contains(&o));
        // A variable pointer may stand where its capability covers the class.
        let covered = match class {
            sc::StorageBuffer => caps.contains(&capability::VariablePointersStorageBuffer),
            sc::Workgroup => caps.contains(&capability::VariablePointers),
            sc::UniformConstant => true,
            _ => false,
        };
        if !declared && !covered {
            return Some(format!("Pointer operand {} must be a memory object declaration", r.id(arg)));
        }
    }
    None
}
