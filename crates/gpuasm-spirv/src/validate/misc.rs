//! Miscellaneous instructions spirv-val checks in its MiscPass
//! (validate_misc.cpp): no void OpUndef (the shader clock is `scopes.rs`'s),
//! the boolean of OpIsHelperInvocationEXT,
//! and the operands of OpAssumeTrueKHR and OpExpectKHR
//! (SPV_KHR_expect_assume).

use super::shapes::shape;
use crate::grammar::op;
use crate::module::Module;

/// What spirv-val says of instruction `i`, if it covers it and it is wrong.
pub(super) fn problem(m: &Module, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    let operand = |k: usize| if k < m.operands(i).len() { m.type_of(m.word(i, k)) } else { 0 };
    let bool_scalar = |t: u32| m.def_opcode(t) == Some(op::OpTypeBool);
    match inst.opcode() {
        op::OpUndef if m.def_opcode(rt) == Some(op::OpTypeVoid) => {
            Some("Cannot create undefined values with void type".into())
        }
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
