//! Operand types of GLSL.std.450 extended instructions, in spirv-val's
//! words: the families whose rules are simple type equalities (float
//! functions, integer functions, the 16/32-bit float functions) and the
//! interpolation functions' Interpolant.

use super::limitations::{Context, Limitation, Models};
use super::shapes::{shape, Shape};
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;
use crate::module::Module;

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
    /// A float scalar: the length of a float vector of that component.
    Length,
    /// A float scalar: the distance of two such vectors.
    Distance,
    /// Three-component float vectors.
    Cross,
    /// Pack: a 32-bit (or for doubles 64-bit float) scalar from a vector.
    Pack { result: Numeric, operand: Numeric },
    /// Unpack: the reverse.
    Unpack { result: Numeric, operand: Numeric },
    /// A struct of two equal float members, and X of their type.
    ModfStruct,
    /// A struct of a float and a 32-bit int of as many components, and X
    /// of the first one's type.
    FrexpStruct,
    /// A float scalar or vector, X of its type and I a pointer to it.
    Modf,
    /// As `Modf`, Exp a pointer to 32-bit ints of as many components.
    Frexp,
    /// A float scalar or vector, X of its type, Exp ints of as many
    /// components.
    Ldexp,
    /// A float scalar: the determinant of a square matrix of it.
    Determinant,
    /// A square matrix, X of its type.
    MatrixInverse,
    /// A float scalar or vector, I and N of its type, Eta a float scalar.
    Refract,
    /// IMix: in the grammar, but spirv-val supports it in no module.
    Unsupported,
}

/// A numeric scalar (`count` 1) or vector type, and how spirv-val names it.
#[derive(Copy, Clone, PartialEq)]
struct Numeric {
    base: u16,
    width: u32,
    count: u32,
    words: &'static str,
}

const fn num(base: u16, width: u32, count: u32, words: &'static str) -> Numeric {
    Numeric { base, width, count, words }
}

const INT32: Numeric = num(op::OpTypeInt, 32, 1, "32-bit int scalar");
const F32X4: Numeric = num(op::OpTypeFloat, 32, 4, "32-bit float vector of size 4");
const F32X2: Numeric = num(op::OpTypeFloat, 32, 2, "32-bit float vector of size 2");
const I32X2: Numeric = num(op::OpTypeInt, 32, 2, "32-bit int vector of size 2");
const F64: Numeric = num(op::OpTypeFloat, 64, 1, "64-bit float scalar");

impl Numeric {
    fn holds(&self, s: Option<Shape>) -> bool {
        s.is_some_and(|s| s.base == self.base && s.width == self.width && s.count == self.count)
    }
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
        "Length" => Length,
        "ModfStruct" => ModfStruct,
        "FrexpStruct" => FrexpStruct,
        "Modf" => Modf,
        "Frexp" => Frexp,
        "Ldexp" => Ldexp,
        "Determinant" => Determinant,
        "MatrixInverse" => MatrixInverse,
        "Refract" => Refract,
        "IMix" => Unsupported,
        "Distance" => Distance,
        "Cross" => Cross,
        "PackSnorm4x8" | "PackUnorm4x8" => Pack { result: INT32, operand: F32X4 },
        "PackSnorm2x16" | "PackUnorm2x16" | "PackHalf2x16" => Pack { result: INT32, operand: F32X2 },
        "PackDouble2x32" => Pack { result: F64, operand: I32X2 },
        "UnpackSnorm4x8" | "UnpackUnorm4x8" => Unpack { result: F32X4, operand: INT32 },
        "UnpackSnorm2x16" | "UnpackUnorm2x16" | "UnpackHalf2x16" => Unpack { result: F32X2, operand: INT32 },
        "UnpackDouble2x32" => Unpack { result: I32X2, operand: F64 },
        _ => return None,
    })
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    // With SPV_AMD_gpu_shader_int16, FrexpStruct's exponent may be 16-bit.
    let amd_int16 = super::capabilities::declared_extensions(m).contains(&b"SPV_AMD_gpu_shader_int16"[..]);
    let interpolation = m.capabilities.contains(&crate::grammar::capability::InterpolationFunction);
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        if inst.opcode() != op::OpExtInst {
            continue;
        }
        let Some(ExtSet::Known(set)) = inst.ext_set() else { continue };
        if set.import_name != "GLSL.std.450" {
            continue;
        }
        let Some(ei) = set.instruction(m.word(i, 3)) else { continue };
        let Some(family) = family(ei.name) else { continue };
        if family == Family::Unsupported {
            r.error(ErrorKind::OperandType, i, format!("Extended instruction GLSLstd450{} is not supported", ei.name));
        } else if family == Family::Interpolate && !interpolation {
            // spirv-val asks for the capability here, before the operands
            // (the grammar's other capabilities, Float64 of PackDouble2x32,
            // it leaves to the types).
            let message = format!("GLSL.std.450 {} requires capability InterpolationFunction", ei.name);
            r.error(ErrorKind::Capability, i, message);
        } else if let Some(message) = problem(m, i, ei.name, family, amd_int16, r.options.before_hlsl_legalization) {
            r.error(ErrorKind::OperandType, i, format!("GLSL.std.450 {}: {message}", ei.name));
        }
    }
}

/// The first broken rule of instruction `i`, in spirv-val's order.
fn problem(m: &Module, i: usize, name: &str, family: Family, amd_int16: bool, before_hlsl: bool) -> Option<String> {
    let rt = m.result_type_word(i);
    let operand_type = |k: usize| m.type_of(m.word(i, k));
    let float = |t: u32| shape(m, t).filter(|s| s.base == op::OpTypeFloat);
    let scalar_float = float(rt).filter(|s| s.count == 1);
    match family {
        Family::Length => {
            let Some(r) = scalar_float else { return Some("expected Result Type to be a float scalar type".into()) };
            let Some(x) = float(operand_type(4)) else {
                return Some("expected operand X to be of float scalar or vector type".into());
            };
            (x.scalar != r.scalar).then(|| "expected operand X component type to be equal to Result Type".into())
        }
        Family::Distance => {
            let Some(r) = scalar_float else { return Some("expected Result Type to be a float scalar type".into()) };
            let mut counts = [0; 2];
            for (n, name) in ["P0", "P1"].iter().enumerate() {
                let Some(p) = float(operand_type(4 + n)) else {
                    return Some(format!("expected operand {name} to be of float scalar or vector type"));
                };
                if p.scalar != r.scalar {
                    return Some(format!("expected operand {name} component type to be equal to Result Type"));
                }
                counts[n] = p.count;
            }
            (counts[0] != counts[1]).then(|| "expected operands P0 and P1 to have the same number of components".into())
        }
        Family::Cross => {
            let Some(r) = float(rt).filter(|s| s.count > 1) else {
                return Some("expected Result Type to be a float vector type".into());
            };
            if r.count != 3 {
                return Some("expected Result Type to have 3 components".into());
            }
            for (k, name) in [(4, "X"), (5, "Y")] {
                if operand_type(k) != rt {
                    return Some(format!("expected operand {name} type to be equal to Result Type"));
                }
            }
            None
        }
        Family::ModfStruct | Family::FrexpStruct => {
            let members: Vec<u32> = if m.def_opcode(rt) == Some(op::OpTypeStruct) {
                (2..=m.operands_len_of(rt)).filter_map(|w| m.def_word(rt, w)).collect()
            } else {
                Vec::new()
            };
            let (first, second) = match members[..] {
                [a, b] => (float(a), shape(m, b)),
                _ => (None, None),
            };
            if family == Family::ModfStruct {
                if first.is_none() || members[1] != members[0] {
                    return Some(
                        "expected Result Type to be a struct with two identical scalar or vector float type members"
                            .into(),
                    );
                }
                return (operand_type(4) != members[0])
                    .then(|| "expected operand X type to be equal to members of Result Type struct".into());
            }
            let int32 = second.filter(|s| s.base == op::OpTypeInt && (s.width == 32 || amd_int16 && s.width == 16));
            if first.is_none() || int32.is_none() || first.map(|f| f.count) != int32.map(|s| s.count) {
                return Some(
                    "expected Result Type to be a struct with two members, first member a float scalar or vector, \
                     second member a 32-bit int scalar or vector with the same number of components as the first member"
                        .into(),
                );
            }
            (operand_type(4) != members[0])
                .then(|| "expected operand X type to be equal to the first member of Result Type struct".into())
        }
        Family::Modf | Family::Frexp | Family::Ldexp => {
            let Some(result) = float(rt) else {
                return Some("expected Result Type to be a scalar or vector float type".into());
            };
            if operand_type(4) != rt {
                return Some("expected operand X type to be equal to Result Type".into());
            }
            let second = operand_type(5);
            // Ldexp takes Exp itself; Modf and Frexp a pointer to I or Exp.
            let ldexp = family == Family::Ldexp;
            let data = if ldexp {
                second
            } else if m.def_opcode(second) == Some(op::OpTypePointer) {
                m.def_word(second, 3).unwrap_or(0)
            } else {
                let name = if family == Family::Modf { "I" } else { "Exp" };
                return Some(format!("expected operand {name} to be a pointer"));
            };
            if family == Family::Modf {
                return (data != rt).then(|| "expected operand I data type to be equal to Result Type".into());
            }
            let int = shape(m, data).filter(|s| s.base == op::OpTypeInt);
            if ldexp && int.is_none() {
                return Some("expected operand Exp to be a 32-bit int scalar or vector type".into());
            }
            if !ldexp && int.is_none_or(|s| !(s.width == 32 || amd_int16 && s.width == 16)) {
                let bits = if amd_int16 { "16-bit or 32-bit" } else { "32-bit" };
                return Some(format!("expected operand Exp data type to be a {bits} int scalar or vector type"));
            }
            let what = if ldexp { "Exp" } else { "Exp data type" };
            (int.map(|s| s.count) != Some(result.count))
                .then(|| format!("expected operand {what} to have the same component number as Result Type"))
        }
        Family::Determinant | Family::MatrixInverse => {
            // A square matrix: its columns' component count is its column count.
            let square = |t: u32| {
                let column = m.def_word(t, 2).unwrap_or(0);
                let component = m.def_word(column, 2).unwrap_or(0);
                (m.def_opcode(t) == Some(op::OpTypeMatrix) && m.def_word(t, 3) == m.def_word(column, 3))
                    .then_some(component)
            };
            if family == Family::MatrixInverse {
                if square(rt).is_none() {
                    return Some("expected Result Type to be a square matrix".into());
                }
                return (operand_type(4) != rt).then(|| "expected operand X type to be equal to Result Type".into());
            }
            let Some(component) = square(operand_type(4)) else {
                return Some("expected operand X to be a square matrix".into());
            };
            (component != rt).then(|| "expected operand X component type to be equal to Result Type".into())
        }
        Family::Refract => {
            if float(rt).is_none() {
                return Some("expected Result Type to be a float scalar or vector type".into());
            }
            if operand_type(4) != rt {
                return Some("expected operand I to be of type equal to Result Type".into());
            }
            if operand_type(5) != rt {
                return Some("expected operand N to be of type equal to Result Type".into());
            }
            float(operand_type(6))
                .is_none_or(|s| s.count != 1 || m.def_opcode(operand_type(6)) != Some(op::OpTypeFloat))
                .then(|| "expected operand Eta to be a float scalar".into())
        }
        Family::Pack { result, operand } | Family::Unpack { result, operand } => {
            if !result.holds(shape(m, rt)) {
                // spirv-val's words: "32-bit int scalar type", "a 32-bit
                // float vector of size 2".
                let (a, t) = if result.count == 1 { ("", " type") } else { ("a ", "") };
                return Some(format!("expected Result Type to be {a}{}{t}", result.words));
            }
            let what = if matches!(family, Family::Pack { .. }) || operand.count > 1 { "V" } else { "P" };
            let what = if matches!(family, Family::Unpack { .. }) && operand.width == 64 { "V" } else { what };
            (!operand.holds(shape(m, operand_type(4))))
                .then(|| format!("expected operand {what} to be a {}", operand.words))
        }
        _ => simple(m, i, name, family, before_hlsl).map(str::to_string),
    }
}

/// The instructions spirv-val lets take cooperative vectors.
const COOP_VECTOR: &[&str] = &[
    "FMin", "FMax", "FClamp", "NMin", "NMax", "NClamp", "Step", "Fma", "UMin", "UMax", "UClamp", "SMin", "SMax",
    "SClamp", "Atan", "Tanh", "Exp", "Log",
];

/// A scalar or vector type's shape; with `coop`, a cooperative vector's
/// too (its component's, with no known count).
fn shape_or_coop(m: &Module, t: u32, coop: bool) -> Option<Shape> {
    if coop && m.def_opcode(t) == Some(op::OpTypeCooperativeVectorNV) {
        let component = m.def_word(t, 2)?;
        return shape(m, component).map(|s| Shape { count: 0, ..s });
    }
    shape(m, t)
}

fn simple(m: &Module, i: usize, name: &str, family: Family, before_hlsl: bool) -> Option<&'static str> {
    let rt = m.result_type_word(i);
    let operands = 4..m.operands(i).len();
    let operand_type = |k: usize| m.type_of(m.word(i, k));
    // Some instructions also take cooperative vectors (SPV_NV_cooperative_vector).
    let coop = COOP_VECTOR.contains(&name);
    let shape = |t: u32| shape_or_coop(m, t, coop);
    let float = shape(rt).filter(|s| s.base == op::OpTypeFloat);
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
            let int = |t: u32| shape(t).filter(|s| s.base == op::OpTypeInt);
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
            // Before HLSL legalization the interpolant may be loaded: its
            // pointer is the lvalue.
            let interpolant = m.word(i, 4);
            let pointer = match m.def_index(interpolant) {
                Some(load) if before_hlsl && m.opcode(load) == op::OpLoad => m.type_of(m.word(load, 2)),
                _ => operand_type(4),
            };
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
            // InterpolateAtSample's Sample, InterpolateAtOffset's Offset.
            if m.operands(i).len() > 5 {
                let t = shape(operand_type(5));
                if name == "InterpolateAtSample" {
                    if !t.is_some_and(|s| s.base == op::OpTypeInt && s.count == 1 && s.width == 32) {
                        return Some("expected Sample to be 32-bit integer");
                    }
                } else if name == "InterpolateAtOffset"
                    && !t.is_some_and(|s| {
                        s.base == op::OpTypeFloat
                            && s.count == 2
                            && s.width == 32
                            && m.def_opcode(operand_type(5)) == Some(op::OpTypeVector)
                    })
                {
                    return Some("expected Offset to be a vector of 2 32-bit floats");
                }
            }
            None
        }
        _ => None,
    }
}

/// The interpolation functions run in fragment shaders only (spirv-val's
/// extended instruction rules).
pub(crate) fn limitations(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    let inst = &cx.m.insts[i];
    let Some(ExtSet::Known(set)) = inst.ext_set() else { return };
    if inst.opcode() != op::OpExtInst || set.import_name != "GLSL.std.450" {
        return;
    }
    if let Some(name) = set.instruction(cx.m.word(i, 3)).map(|e| e.name).filter(|n| n.starts_with("InterpolateAt")) {
        out.push(Limitation::Model(
            Models::Only(&[crate::grammar::execution_model::Fragment]),
            format!("GLSL.std.450 {name} requires Fragment execution model"),
        ));
    }
}
