//! Conversions between numbers (spec 3.52.11): the result and input kinds
//! each conversion takes (unsigned results for OpConvertFToU and
//! OpUConvert), equal component counts, a different width (or float type)
//! for the width conversions, and OpQuantizeToF16 on 32-bit floats, in
//! spirv-val's words and order (validate_conversion.cpp).

use super::shapes::{shape, Shape};
use crate::grammar::op;
use crate::module::Module;

/// What a conversion takes: a kind of result and of input.
#[derive(Copy, Clone, PartialEq)]
enum Kind {
    Float,
    Int,
    Unsigned,
}

impl Kind {
    fn accepts(self, m: &Module, s: &Shape) -> bool {
        match self {
            Kind::Float => s.base == op::OpTypeFloat,
            Kind::Int => s.base == op::OpTypeInt,
            Kind::Unsigned => s.base == op::OpTypeInt && m.def_word(s.scalar, 3) == Some(0),
        }
    }

    fn result_words(self) -> &'static str {
        match self {
            Kind::Float => "float scalar or vector type",
            Kind::Int => "int scalar or vector type",
            Kind::Unsigned => "unsigned int scalar or vector type",
        }
    }

    fn input_words(self) -> &'static str {
        match self {
            Kind::Float => "float scalar or vector",
            _ => "int scalar or vector",
        }
    }
}

/// (result kind, input kind, whether the widths must differ) per opcode.
const CONVERSIONS: &[(u16, Kind, Kind, bool)] = &[
    (op::OpConvertFToU, Kind::Unsigned, Kind::Float, false),
    (op::OpConvertFToS, Kind::Int, Kind::Float, false),
    (op::OpConvertSToF, Kind::Float, Kind::Int, false),
    (op::OpConvertUToF, Kind::Float, Kind::Int, false),
    (op::OpUConvert, Kind::Unsigned, Kind::Int, true),
    (op::OpSConvert, Kind::Int, Kind::Int, true),
    (op::OpFConvert, Kind::Float, Kind::Float, true),
];

/// Whether this module checks `opcode`.
pub(super) fn covers(opcode: u16) -> bool {
    opcode == op::OpQuantizeToF16 || CONVERSIONS.iter().any(|c| c.0 == opcode)
}

/// What spirv-val says of conversion `i`, if it is wrong.
pub(super) fn problem(m: &Module, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let name = &inst.info().name[2..];
    let rt = m.result_type_at(inst);
    let input = if m.operands(i).len() > 2 { m.type_of(m.word(i, 2)) } else { 0 };
    let fail = |what: &str| Some(format!("{what}: {name}"));
    if opcode == op::OpQuantizeToF16 {
        return if !shape(m, rt).is_some_and(|s| s.base == op::OpTypeFloat && s.width == 32) {
            fail("Expected 32-bit float scalar or vector type as Result Type")
        } else if input != rt {
            fail("Expected input type to be equal to Result Type")
        } else {
            None
        };
    }
    let &(_, out, from, widths) = CONVERSIONS.iter().find(|c| c.0 == opcode)?;
    let Some(r) = shape(m, rt).filter(|s| out.accepts(m, s)) else {
        return fail(&format!("Expected {} as Result Type", out.result_words()));
    };
    let Some(a) = shape(m, input).filter(|s| from.accepts(m, s)) else {
        return fail(&format!("Expected input to be {}", from.input_words()));
    };
    if r.count != a.count {
        return fail("Expected input to have the same dimension as Result Type");
    }
    if !widths {
        None
    } else if opcode == op::OpFConvert {
        // Floats of one width differ by their encoding (bfloat16, fp8).
        (r.scalar == a.scalar).then(|| {
            format!("Expected component type of Value to be different from component type of Result Type: {name}")
        })
    } else if r.width == a.width {
        fail("Expected input to have different bit width from Result Type")
    } else {
        None
    }
}
