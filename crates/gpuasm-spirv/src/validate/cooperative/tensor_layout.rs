//! SPV_NV_cooperative_matrix2's tensor layouts and views
//! (validate_tensor_layout.cpp): each instruction makes a layout or a
//! view; the setters take one of the result's type and as many 32-bit
//! integers as the type's Dim asks (twice Dim for a slice, one clamp
//! value, four clip bounds).

use super::super::memory::constant_u64;
use super::super::{ErrorKind, Report};
use super::{int_of_width, Module};
use crate::grammar::op;

/// How many values a setter takes, from the type's Dim.
#[derive(Copy, Clone)]
enum Values {
    Dim,
    TwiceDim,
    Exactly(u64),
}

/// (opcode, whether it makes a view rather than a layout, the values it
/// takes; none for the two create instructions).
const RULES: &[(u16, bool, Option<Values>)] = &[
    (op::OpCreateTensorLayoutNV, false, None),
    (op::OpCreateTensorViewNV, true, None),
    (op::OpTensorLayoutSetBlockSizeNV, false, Some(Values::Dim)),
    (op::OpTensorLayoutSetDimensionNV, false, Some(Values::Dim)),
    (op::OpTensorLayoutSetStrideNV, false, Some(Values::Dim)),
    (op::OpTensorLayoutSliceNV, false, Some(Values::TwiceDim)),
    (op::OpTensorLayoutSetClampValueNV, false, Some(Values::Exactly(1))),
    (op::OpTensorViewSetDimensionNV, true, Some(Values::Dim)),
    (op::OpTensorViewSetStrideNV, true, Some(Values::Dim)),
    (op::OpTensorViewSetClipNV, true, Some(Values::Exactly(4))),
];

fn problem(m: &Module, r: &mut Report, i: usize, view: bool, values: Option<Values>) -> Option<String> {
    let name = &m.insts[i].info().name[2..];
    let rt = m.result_type_word(i);
    let (ty, what) =
        if view { (op::OpTypeTensorViewNV, "TensorView") } else { (op::OpTypeTensorLayoutNV, "TensorLayout") };
    if m.def_opcode(rt) != Some(ty) {
        let kind = if view { "tensor view" } else { "tensor layout" };
        return Some(format!("{name} Result Type <id> {} is not a {kind} type.", r.id(rt)));
    }
    let values = values?;
    if m.type_of(m.word(i, 2)) != rt || m.def(m.word(i, 2)).is_none() {
        return Some(format!("{name} Result Type <id> {} does not match {what} type.", r.id(rt)));
    }
    let n = m.operands(i).len().saturating_sub(3) as u64;
    if let Some(dim) = m.def_word(rt, 2).and_then(|d| constant_u64(m, d)) {
        let expected = match values {
            Values::Dim => dim,
            Values::TwiceDim => dim.wrapping_mul(2),
            Values::Exactly(k) => k,
        };
        if n != expected {
            return Some(format!("{name} unexpected number of operands."));
        }
    }
    let bad = (3..m.operands(i).len()).map(|k| m.word(i, k)).find(|&v| !int_of_width(m, m.type_of(v), 32))?;
    Some(format!("{name} operand <id> {} is not a 32-bit integer.", r.id(bad)))
}

/// The tensor layout and view instructions (spirv-val's tensor layout
/// pass).
pub(super) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        let Some(&(_, view, values)) = RULES.iter().find(|rule| rule.0 == opcode) else { continue };
        if let Some(message) = problem(m, r, i, view, values) {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
