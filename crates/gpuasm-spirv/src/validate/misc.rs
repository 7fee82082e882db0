//! Miscellaneous instructions spirv-val checks in its MiscPass
//! (validate_misc.cpp): no void OpUndef, the shader clock's scope and
//! result (SPV_KHR_shader_clock), the boolean of OpIsHelperInvocationEXT,
//! and the operands of OpAssumeTrueKHR and OpExpectKHR
//! (SPV_KHR_expect_assume).

use super::module::Module;
use super::operands::shape;
use crate::grammar::{op, scope};
use crate::TargetEnv;

/// What spirv-val says of instruction `i`, if it covers it and it is wrong.
pub(super) fn problem(m: &Module, i: usize, env: TargetEnv) -> Option<String> {
    let inst = &m.insts[i];
    let rt = inst.result_type;
    let operand = |k: usize| if k < m.operands(i).len() { m.type_of(m.word(i, k)) } else { 0 };
    let bool_scalar = |t: u32| m.def_opcode(t) == Some(op::OpTypeBool);
    match inst.opcode() {
        op::OpUndef if m.def_opcode(rt) == Some(op::OpTypeVoid) => {
            Some("Cannot create undefined values with void type".into())
        }
        op::OpReadClockKHR => read_clock(m, i, env),
        op::OpIsHelperInvocationEXT if !bool_scalar(rt) => {
            Some("Expected bool scalar type as Result Type: IsHelperInvocationEXT".into())
        }
        op::OpAssumeTrueKHR if !bool_scalar(operand(0)) => {
            Some("Value operand of OpAssumeTrueKHR must be a boolean scalar".into())
        }
        op::OpExpectKHR => {
            if !shape(m, rt).is_some_and(|s| s.base == op::OpTypeBool || s.base == op::OpTypeInt) {
                Some("Result of OpExpectKHR must be a scalar or vector of integer type or boolean type".into())
            } else if operand(2) != rt {
                Some("Type of Value operand of OpExpectKHR does not match the result type ".into())
            } else if operand(3) != rt {
                Some("Type of ExpectedValue operand of OpExpectKHR does not match the result type ".into())
            } else {
                None
            }
        }
        _ => None,
    }
}

/// OpReadClockKHR: a scope the environment allows (the generic scope
/// rules are checked with every scope operand), and a 64-bit unsigned
/// integer or a vector of two 32-bit unsigned integers.
fn read_clock(m: &Module, i: usize, env: TargetEnv) -> Option<String> {
    let value = m.def(m.word(i, 2)).filter(|d| d.opcode() == op::OpConstant).and_then(|_| m.def_word(m.word(i, 2), 3));
    match (env, value) {
        (TargetEnv::Vulkan(_) | TargetEnv::Vulkan11Spv14, Some(v)) if v != scope::Subgroup && v != scope::Device => {
            return Some("[VUID-StandaloneSpirv-OpReadClockKHR-04652] Scope must be Subgroup or Device".into());
        }
        (TargetEnv::OpenCl { .. }, Some(v)) if v != scope::Workgroup && v != scope::Subgroup && v != scope::Device => {
            return Some("Scope must be Subgroup, Workgroup, or Device".into());
        }
        _ => {}
    }
    let rt = m.insts[i].result_type;
    let handle = shape(m, rt).is_some_and(|s| {
        s.base == op::OpTypeInt
            && m.def_word(s.scalar, 3) == Some(0)
            && ((s.count == 1 && s.width == 64) || (s.count == 2 && s.width == 32))
    });
    (!handle)
        .then(|| "Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer".into())
}
