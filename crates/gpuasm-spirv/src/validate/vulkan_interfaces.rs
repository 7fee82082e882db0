//! Vulkan rules on what stage interfaces hold (spirv-val's interface pass):
//! - an Input or Output variable contains no PhysicalStorageBuffer pointer
//!   (VUID-StandaloneSpirv-Input-09557; pass addresses as uint64 or uvec2);
//!
//! (At most one PushConstant, IncomingRayPayloadKHR, HitAttributeKHR and
//! IncomingCallableDataKHR variable per entry point, and no bfloat16 or
//! 8-bit floats in Input or Output, are `entry_points.rs`'s.)

use super::{ErrorKind, Report};
use crate::grammar::{op, storage_class as sc};
use crate::module::Module;

/// The pointee of a typed variable (untyped ones give none).
fn pointee(m: &Module, var: usize) -> Option<u32> {
    let ty = m.result_type_word(var);
    (m.def_opcode(ty)? == op::OpTypePointer).then(|| m.def_word(ty, 3)).flatten()
}

fn is_input_output(class: u32) -> bool {
    class == sc::Input || class == sc::Output
}

/// Input and Output variables, in module order.
pub(crate) fn check_variables(m: &Module, vulkan: bool, r: &mut Report) {
    if !vulkan {
        return;
    }
    let forward = super::memory::forward_pointers(m);
    let psb =
        |t: u32| m.def_opcode(t) == Some(op::OpTypePointer) && m.def_word(t, 2) == Some(sc::PhysicalStorageBuffer);
    for i in 0..m.insts.len() {
        if !matches!(m.opcode(i), op::OpVariable | op::OpUntypedVariableKHR) || !is_input_output(m.word(i, 2)) {
            continue;
        }
        let Some(data) = pointee(m, i) else { continue };
        if super::memory::contains_in(m, &forward, data, true, &|_, t| psb(t), 0) {
            let id = m.result_id_word(i);
            r.error(
                ErrorKind::EntryPoint,
                i,
                format!(
                    "[VUID-StandaloneSpirv-Input-09557] Input/Output interface variable id <{id}> contains a \
                     PhysicalStorageBuffer pointer, which is not allowed. If you want to interface shader stages \
                     with a PhysicalStorageBuffer, cast to a uint64 or uvec2 instead."
                ),
            );
            return;
        }
    }
}
