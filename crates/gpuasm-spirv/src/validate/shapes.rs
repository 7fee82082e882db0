//! The numeric shape of a type (a scalar or vector of floats, integers or
//! booleans: base, width, component count) and the value of a 32-bit
//! integer constant: what the operand rules (`operands`), the passes they
//! call (`arithmetics`, `bit_fields`, `logicals`, ...) and a few other rule
//! areas ask of most operands. Kept apart from `operands` so that those
//! passes need not import the module that calls them.

use crate::grammar::op;
use crate::module::Module;

/// A scalar or vector of numbers or booleans.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct Shape {
    /// OpTypeFloat, OpTypeInt or OpTypeBool.
    pub base: u16,
    pub width: u32,
    pub count: u32,
    /// The scalar (component) type id.
    pub scalar: u32,
    /// Floats with an explicit encoding (bfloat16, fp8...).
    pub encoded: bool,
}

/// The shape of type `ty`; None unless it is a scalar or vector of numbers
/// or booleans.
pub(super) fn shape(m: &Module, ty: u32) -> Option<Shape> {
    let (scalar, count) = match m.def_opcode(ty)? {
        op::OpTypeVector => (m.def_word(ty, 2)?, m.def_word(ty, 3)?),
        _ => (ty, 1),
    };
    let base = m.def_opcode(scalar)?;
    let width = match base {
        op::OpTypeFloat | op::OpTypeInt => m.def_word(scalar, 2)?,
        op::OpTypeBool => 1,
        _ => return None,
    };
    let encoded = base == op::OpTypeFloat && m.operands_len_of(scalar) > 2;
    Some(Shape { base, width, count, scalar, encoded })
}
