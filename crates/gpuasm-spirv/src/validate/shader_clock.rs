//! OpReadClockKHR (SPV_KHR_shader_clock): a constant scope is Subgroup or
//! Device in Vulkan (VUID 04652), Subgroup, Workgroup or Device in OpenCL;
//! the result is a 64-bit unsigned integer or two 32-bit unsigned ones.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{op, scope};
use crate::TargetEnv;

/// The value of a 32-bit integer constant (not a specialization constant).
fn constant_u32(m: &Module, id: u32) -> Option<u32> {
    let ty = m.type_of(id);
    let int32 = m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(32);
    match m.def_opcode(id)? {
        op::OpConstant if int32 => m.def_word(id, 3),
        op::OpConstantNull if int32 => Some(0),
        _ => None,
    }
}

/// Whether `ty` is an unsigned integer of `width` bits.
fn unsigned(m: &Module, ty: u32, width: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(width) && m.def_word(ty, 3) == Some(0)
}

pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    for i in 0..m.insts.len() {
        if m.insts[i].opcode() != op::OpReadClockKHR {
            continue;
        }
        let value = constant_u32(m, m.word(i, 2));
        let message = match (env, value) {
            (TargetEnv::Vulkan(_) | TargetEnv::Vulkan11Spv14, Some(s))
                if !matches!(s, scope::Subgroup | scope::Device) =>
            {
                Some("[VUID-StandaloneSpirv-OpReadClockKHR-04652] Scope must be Subgroup or Device")
            }
            (TargetEnv::OpenCl { .. }, Some(s)) if !matches!(s, scope::Subgroup | scope::Workgroup | scope::Device) => {
                Some("Scope must be Subgroup, Workgroup, or Device")
            }
            _ => None,
        };
        let rt = m.insts[i].result_type;
        let pair = m.def_opcode(rt) == Some(op::OpTypeVector)
            && m.def_word(rt, 3) == Some(2)
            && m.def_word(rt, 2).is_some_and(|c| unsigned(m, c, 32));
        let message = message.or((!unsigned(m, rt, 64) && !pair).then_some(
            "Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer",
        ));
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
