//! Operand types of GLSL.std.450 extended instructions, in spirv-val's
//! words: the families whose rules are simple type equalities (float
//! functions, integer functions, the 16/32-bit float functions) and the
//! interpolation functions' Interpolant.

use super::module::Module;
use super::operands::{shape, Shape};
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;

/// What one family requires of the result and operands.
#[derive(Copy, Clone, PartialEq)]
enum Family {
    /// A float scalar or vector, with every operand of the result type.
    Float,
    /// A float scalar or vector of 16 or 32 bits, operands of the result
    /// type.
    Float16Or32,
    /// An int scalar or vector, operands ints of its dimension and width.
    Int,
    /// As `Int`, limited to 32-bit components.
    Int32,
    /// A 32-bit float scalar or vector read from an Input pointer.
    Interpolate,
}

fn family(name: &str) -> Option<Family> {
    use Family::*;
    Some(match name {
        "Round" | "RoundEven" | "FAbs" | "Trunc" | "FSign" | "Floor" | "Ceil" | "Fract" | "Sqrt" | "InverseSqrt"
        | "FMin" | "FMax" | "FClamp" | "FMix" | "Step" | "SmoothStep" | "Fma" | "Normalize" | "FaceForward"
        | "Reflect" | "NMin" | "NMax" | "NClamp" => Float,
        "Radians" | "Degrees" | "Sin" | "Cos" | "Tan" | "Asin" | "Acos" | "Atan" | "Sinh" | "Cosh" | "Tanh"
        | "Asinh" | "Acosh" | "Atanh" | "Exp" | "Exp2" | "Log" | "Log2" | "Atan2" | "Pow" => Float16Or32,
        "SAbs" | "SSign" | "UMin" | "SMin" | "UMax" | "SMax" | "UClamp" | "SClamp" | "FindILsb" => Int,
        "FindUMsb" | "FindSMsb" => Int32,
        "InterpolateAtCentroid" | "InterpolateAtSample" | "InterpolateAtOffset" => Interpolate,
        _ => return None,
    })
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        if inst.opcode() != op::OpExtInst {
            continue;
        }
        let Some(ExtSet::Known(set)) = inst.ext_set else { continue };
        if set.import_name != "GLSL.std.450" {
            continue;
        }
        let Some(ei) = set.instruction(m.word(i, 3)) else { continue };
        let Some(family) = family(ei.name) else { continue };
        if let Some(message) = problem(m, i, family) {
            r.error(ErrorKind::OperandType, i, format!("GLSL.std.450 {}: {message}", ei.name));
        }
    }
}

/// The first broken rule of instruction `i`, in spirv-val's order.
fn problem(m: &Module, i: usize, family: Family) -> Option<&'static str> {
    let rt = m.insts[i].result_type;
    let operands = 4..m.operands(i).len();
    let operand_type = |k: usize| m.type_of(m.word(i, k));
    let float = shape(m, rt).filter(|s| s.base == op::OpTypeFloat);
    match family {
        Family::Float | Family::Float16Or32 => {
            let Some(result) = float else {
                return Some(if family == Family::Float {
                    "expected Result Type to be a float scalar or vector type"
                } else {
                    "expected Result Type to be a 16 or 32-bit scalar or vector float type"
                });
            };
            if family == Family::Float16Or32 && !matches!(result.width, 16 | 32) {
                return Some("expected Result Type to be a 16 or 32-bit scalar or vector float type");
            }
            operands
                .into_iter()
                .any(|k| operand_type(k) != rt)
                .then_some("expected types of all operands to be equal to Result Type")
        }
        Family::Int | Family::Int32 => {
            let int = |t: u32| shape(m, t).filter(|s| s.base == op::OpTypeInt);
            let Some(result) = int(rt) else {
                return Some("expected Result Type to be an int scalar or vector type");
            };
            for k in operands {
                let Some(s) = int(operand_type(k)) else {
                    return Some("expected all operands to be int scalars or vectors");
                };
                if s.count != result.count {
                    return Some("expected all operands to have the same dimension as Result Type");
                }
                if s.width != result.width {
                    return Some("expected all operands to have the same bit width as Result Type");
                }
                if family == Family::Int32 && result.width != 32 {
                    return Some("this instruction is currently limited to 32-bit width components");
                }
            }
            None
        }
        Family::Interpolate => {
            if float.is_none_or(|s: Shape| s.width != 32) {
                return Some("expected Result Type to be a 32-bit float scalar or vector type");
            }
            let pointer = operand_type(4);
            if m.def_opcode(pointer) != Some(op::OpTypePointer) {
                return Some("expected Interpolant to be a pointer");
            }
            // The pointer's words: opcode, result, storage class, type.
            if m.def_word(pointer, 3) != Some(rt) {
                return Some("expected Interpolant data type to be equal to Result Type");
            }
            // StorageClass Input is 1.
            if m.def_word(pointer, 2) != Some(1) {
                return Some("expected Interpolant storage class to be Input");
            }
            None
        }
    }
}
