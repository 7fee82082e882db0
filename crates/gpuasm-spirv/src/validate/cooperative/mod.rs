//! Cooperative matrices (SPV_KHR/NV_cooperative_matrix, SPV_NV_cooperative_
//! matrix2, SPV_QCOM_cooperative_matrix_conversion) and cooperative vectors
//! (SPV_NV_cooperative_vector): their type declarations and constants, and
//! the arithmetic, conversion, composite and memory instructions over them,
//! in spirv-val 2025.5's words and order. The general operand rules leave
//! every instruction touching these types to this module.

mod arithmetic;
mod composites;
mod conversions;
mod memory_ops;
mod tensor_layout;
mod tensor_memory;
mod types;

use super::tensors::component_type;
use super::Report;
use crate::grammar::op;
use crate::module::opcode_set::OpcodeSet;
use crate::module::{is_constant, Module};

pub(crate) use types::check as check_types;

/// The instruction passes (spirv-val's memory, function, conversion,
/// composite, arithmetic and tensor layout passes), each stopping at its first error.
pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    // Every rule here is about an instruction of these extensions or a value
    // of one of their types, which their type declarations make.
    static AREA: OpcodeSet =
        OpcodeSet::named(&[], &["Cooperative", "CoopMat", "Tensor", "BitCastArrayQCOM", "ExtractSubArrayQCOM"]);
    if !m.uses_any(&AREA) {
        return;
    }
    memory_ops::check(m, vulkan, r);
    if r.errors.is_empty() {
        conversions::check(m, r);
    }
    if r.errors.is_empty() {
        composites::check(m, r);
    }
    if r.errors.is_empty() {
        arithmetic::check(m, r);
    }
    if r.errors.is_empty() {
        tensor_layout::check(m, r);
    }
}

/// OpTypeCooperativeMatrixNV or OpTypeCooperativeMatrixKHR.
fn is_matrix(m: &Module, ty: u32) -> bool {
    matches!(m.def_opcode(ty), Some(op::OpTypeCooperativeMatrixNV | op::OpTypeCooperativeMatrixKHR))
}

fn is_khr(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeCooperativeMatrixKHR)
}

fn is_nv(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeCooperativeMatrixNV)
}

fn is_vector(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeCooperativeVectorNV)
}

/// Whether a type is a cooperative matrix or vector.
fn is_cooperative(m: &Module, ty: u32) -> bool {
    is_matrix(m, ty) || is_vector(m, ty)
}

/// A cooperative type or a tensor: the types the general operand rules
/// leave alone, whose arithmetic, conversions and composites are checked
/// here (a tensor is none of spirv-val's numeric or composite kinds).
fn is_special(m: &Module, ty: u32) -> bool {
    is_cooperative(m, ty) || m.def_opcode(ty) == Some(op::OpTypeTensorARM)
}

/// Whether the instruction's result or one of its operands is of a
/// cooperative type or a tensor.
fn touches_special(m: &Module, i: usize) -> bool {
    is_special(m, m.result_type_word(i))
        || m.id_operands(i).any(|(_, id)| m.def(id).is_some_and(|d| is_special(m, m.result_type_at(d))))
}

/// The scalar kinds spirv-val asks of a component.
#[derive(Copy, Clone, PartialEq)]
enum Kind {
    Float,
    Int,
    Uint,
}

fn is_kind(m: &Module, scalar: u32, kind: Kind) -> bool {
    match kind {
        Kind::Float => m.def_opcode(scalar) == Some(op::OpTypeFloat),
        Kind::Int => m.def_opcode(scalar) == Some(op::OpTypeInt),
        Kind::Uint => m.def_opcode(scalar) == Some(op::OpTypeInt) && m.def_word(scalar, 3) == Some(0),
    }
}

/// A scalar, or a vector of scalars, of `kind`.
fn scalar_or_vector(m: &Module, ty: u32, kind: Kind) -> bool {
    let scalar = if m.def_opcode(ty) == Some(op::OpTypeVector) { m.def_word(ty, 2).unwrap_or(0) } else { ty };
    is_kind(m, scalar, kind)
}

/// A cooperative matrix (NV or KHR) whose component is of `kind`.
fn matrix_of(m: &Module, ty: u32, kind: Kind) -> bool {
    is_matrix(m, ty) && is_kind(m, m.def_word(ty, 2).unwrap_or(0), kind)
}

/// A cooperative vector whose component is of `kind`.
fn vector_of(m: &Module, ty: u32, kind: Kind) -> bool {
    is_vector(m, ty) && is_kind(m, m.def_word(ty, 2).unwrap_or(0), kind)
}

/// spirv-val's `GetBitWidth`: its component's width (a bool is 1).
fn bit_width(m: &Module, ty: u32) -> u32 {
    let c = component_type(m, ty);
    match m.def_opcode(c) {
        Some(op::OpTypeInt | op::OpTypeFloat) => m.def_word(c, 2).unwrap_or(0),
        Some(op::OpTypeBool) => 1,
        Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR) => 64,
        _ => 0,
    }
}

/// spirv-val's `GetDimension`: 1 for a scalar, the count of a vector or
/// matrix, 0 for a cooperative type (unknown).
fn dimension(m: &Module, ty: u32) -> u32 {
    match m.def_opcode(ty) {
        Some(op::OpTypeFloat | op::OpTypeInt | op::OpTypeBool) => 1,
        Some(op::OpTypeVector | op::OpTypeMatrix) => m.def_word(ty, 3).unwrap_or(0),
        _ => 0,
    }
}

/// spirv-val's `EvalInt32IfConst`: the value of a 32-bit integer constant
/// that is not a specialization constant (OpConstantNull is 0).
fn int32_constant(m: &Module, id: u32) -> Option<u32> {
    let ty = m.type_of(id);
    if m.def_opcode(ty) != Some(op::OpTypeInt) || m.def_word(ty, 2) != Some(32) {
        return None;
    }
    match m.def_opcode(id)? {
        op::OpConstantNull => Some(0),
        op::OpConstant => m.def_word(id, 3),
        _ => None,
    }
}

/// Two evaluated values that are both known and differ.
fn differ(a: Option<u32>, b: Option<u32>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a != b)
}

/// Word `k` of a cooperative type's declaration, evaluated (scope 3,
/// rows 4, columns 5, use 6).
fn param(m: &Module, ty: u32, k: usize) -> Option<u32> {
    int32_constant(m, m.def_word(ty, k)?)
}

/// The Use of a cooperative matrix KHR type, if known.
fn matrix_use(m: &Module, ty: u32) -> Option<u64> {
    if !is_khr(m, ty) {
        return None;
    }
    super::memory::constant_u64(m, m.def_word(ty, 6)?)
}

/// spirv-val's `CooperativeMatrixShapesMatch`: same kind of matrix, then
/// scope, rows and columns (rows against columns when transposing) and the
/// Use, where known; a conversion may turn an accumulator into A or B with
/// CooperativeMatrixConversionsNV.
fn shapes_match(m: &Module, result: u32, other: u32, conversion: bool, transpose: bool) -> Option<&'static str> {
    if m.def_opcode(result) != m.def_opcode(other) {
        return Some("Expected cooperative matrix types");
    }
    if differ(param(m, result, 3), param(m, other, 3)) {
        return Some("Expected scopes of Matrix and Result Type to be identical");
    }
    let (rows, cols) = if transpose { (5, 4) } else { (4, 5) };
    if differ(param(m, result, rows), param(m, other, 4)) {
        return Some(if transpose {
            "Expected rows of Matrix type and Result Type to be swapped with columns"
        } else {
            "Expected rows of Matrix type and Result Type to be identical"
        });
    }
    if differ(param(m, result, cols), param(m, other, 5)) {
        return Some(if transpose {
            "Expected columns of Matrix type and Result Type to be swapped with rows"
        } else {
            "Expected columns of Matrix type and Result Type to be identical"
        });
    }
    if is_khr(m, result) {
        let (a, b) = (param(m, result, 6), param(m, other, 6));
        let relaxed = conversion
            && m.declared_capabilities.contains(&crate::grammar::capability::CooperativeMatrixConversionsNV)
            && b == Some(crate::grammar::cooperative_matrix_use::MatrixAccumulatorKHR);
        if differ(a, b) && !relaxed {
            return Some("Expected Use of Matrix type and Result Type to be identical");
        }
    }
    None
}

/// spirv-val's `CooperativeVectorDimensionsMatch`.
fn vector_dimensions_match(m: &Module, a: u32, b: u32) -> Option<&'static str> {
    if m.def_opcode(a) != m.def_opcode(b) {
        return Some("Expected cooperative vector types");
    }
    differ(param(m, a, 3), param(m, b, 3)).then_some("Expected number of components to be identical")
}

/// Whether `id` is defined by a constant instruction.
fn constant(m: &Module, id: u32) -> bool {
    m.def_opcode(id).is_some_and(is_constant)
}

/// An integer scalar type of exactly `width` bits.
fn int_of_width(m: &Module, ty: u32, width: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(width)
}
