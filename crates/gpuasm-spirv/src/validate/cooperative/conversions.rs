//! Conversions over cooperative types (validate_conversion.cpp): the
//! numeric conversions and OpBitcast keep a matrix's shape or a vector's
//! size; OpCooperativeMatrixConvertNV and OpCooperativeMatrixTransposeNV
//! (rows and columns swapped, into a Use B matrix); OpBitCastArrayQCOM
//! between arrays of the same total bit length.

use super::super::{ErrorKind, Report};
use super::{
    bit_width, component_type, is_cooperative, is_khr, is_matrix, is_special, is_vector, matrix_of, matrix_use,
    scalar_or_vector, shapes_match, vector_dimensions_match, vector_of, Kind, Module,
};
use crate::grammar::{cooperative_matrix_use as usage, op};
use crate::peer_opcodes::is_spec_constant;

/// A scalar, vector, cooperative matrix or cooperative vector of `kind`.
fn numeric(m: &Module, ty: u32, kind: Kind) -> bool {
    scalar_or_vector(m, ty, kind) || matrix_of(m, ty, kind) || vector_of(m, ty, kind)
}

/// The numeric conversions: (result kind, input kind, whether the bit
/// width must change, whether the component type must change).
fn numeric_rule(opcode: u16) -> Option<(Kind, Kind, bool, bool)> {
    Some(match opcode {
        op::OpConvertFToU => (Kind::Uint, Kind::Float, false, false),
        op::OpConvertFToS => (Kind::Int, Kind::Float, false, false),
        op::OpConvertSToF | op::OpConvertUToF => (Kind::Float, Kind::Int, false, false),
        op::OpUConvert => (Kind::Uint, Kind::Int, true, false),
        op::OpSConvert => (Kind::Int, Kind::Int, true, false),
        op::OpFConvert => (Kind::Float, Kind::Float, false, true),
        _ => return None,
    })
}

fn kind_words(kind: Kind) -> &'static str {
    match kind {
        Kind::Float => "float",
        Kind::Int => "int",
        Kind::Uint => "unsigned int",
    }
}

fn numeric_problem(m: &Module, i: usize, rule: (Kind, Kind, bool, bool)) -> Option<String> {
    let (result_kind, input_kind, width_changes, component_changes) = rule;
    let name = &m.insts[i].info().name[2..];
    let rt = m.result_type_word(i);
    if !numeric(m, rt, result_kind) {
        return Some(format!("Expected {} scalar or vector type as Result Type: {name}", kind_words(result_kind)));
    }
    let input = m.type_of(m.word(i, 2));
    if input == 0 || !numeric(m, input, input_kind) {
        return Some(format!("Expected input to be {} scalar or vector: {name}", kind_words(input_kind)));
    }
    let shape = if is_vector(m, rt) || is_vector(m, input) {
        vector_dimensions_match(m, rt, input)
    } else if is_matrix(m, rt) || is_matrix(m, input) {
        shapes_match(m, rt, input, true, false)
    } else {
        None
    };
    if let Some(p) = shape {
        return Some(p.into());
    }
    if width_changes && bit_width(m, rt) == bit_width(m, input) {
        return Some(format!("Expected input to have different bit width from Result Type: {name}"));
    }
    (component_changes && component_type(m, rt) == component_type(m, input))
        .then(|| format!("Expected component type of Value to be different from component type of Result Type: {name}"))
}

fn is_pointer(m: &Module, ty: u32) -> bool {
    matches!(m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR))
}

/// OpBitcast where a cooperative type is involved: both sides are
/// cooperative of the same kind and shape.
fn bitcast_problem(m: &Module, i: usize) -> Option<String> {
    let rt = m.result_type_word(i);
    let input = m.type_of(m.word(i, 2));
    if input == 0 {
        return Some("Expected input to have a type: Bitcast".into());
    }
    let castable = |t: u32| {
        is_pointer(m, t)
            || is_cooperative(m, t)
            || scalar_or_vector(m, t, Kind::Int)
            || scalar_or_vector(m, t, Kind::Float)
    };
    if !castable(rt) {
        return Some("Expected Result Type to be a pointer or int or float vector or scalar type: Bitcast".into());
    }
    if !castable(input) {
        return Some("Expected input to be a pointer or int or float vector or scalar: Bitcast".into());
    }
    if is_vector(m, rt) != is_vector(m, input) {
        return Some("Cooperative vector can only be cast to another cooperative vector: Bitcast".into());
    }
    if is_matrix(m, rt) != is_matrix(m, input) {
        return Some("Cooperative matrix can only be cast to another cooperative matrix: Bitcast".into());
    }
    let shape =
        if is_vector(m, rt) { vector_dimensions_match(m, rt, input) } else { shapes_match(m, rt, input, false, false) };
    shape.map(String::from)
}

/// OpCooperativeMatrixConvertNV / OpCooperativeMatrixTransposeNV.
fn matrix_problem(m: &Module, i: usize) -> Option<String> {
    let name = &m.insts[i].info().name[2..];
    let rt = m.result_type_word(i);
    if !is_matrix(m, rt) {
        return Some(format!("Expected cooperative matrix Result Type: {name}"));
    }
    let input = m.type_of(m.word(i, 2));
    if !is_matrix(m, input) {
        return Some(format!("Expected cooperative matrix type for Matrix input: {name}"));
    }
    let transpose = m.opcode(i) == op::OpCooperativeMatrixTransposeNV;
    if let Some(p) = shapes_match(m, rt, input, true, transpose) {
        return Some(p.into());
    }
    // spirv-val 2025.5 asks the two component types to be the same.
    if !transpose && m.def_word(rt, 2) != m.def_word(input, 2) {
        return Some(format!("Result Type and Matrix component types mismatch: {name}"));
    }
    (transpose && !(is_khr(m, rt) && matrix_use(m, rt) == Some(usage::MatrixBKHR as u64)))
        .then(|| format!("Result Type must have UseB: {name}"))
}

/// spirv-val's `IsIntNOrFP32OrFP16<N>`: an N-bit integer or an IEEE 16-
/// or 32-bit float (no other encoding).
pub(super) fn int_n_or_f32_f16(m: &Module, ty: u32, n: u32) -> bool {
    match m.def_opcode(ty) {
        Some(op::OpTypeInt) => m.def_word(ty, 2) == Some(n),
        Some(op::OpTypeFloat) => m.operands_len_of(ty) <= 2 && matches!(m.def_word(ty, 2), Some(16 | 32)),
        Some(op::OpTypeArray | op::OpTypeRuntimeArray | op::OpTypeVector | op::OpTypeMatrix) => {
            m.def_word(ty, 2).is_some_and(|e| e != ty && int_n_or_f32_f16(m, e, n))
        }
        _ => false,
    }
}

/// An array length's value (spirv-val's `GetConstantValueAs<unsigned>`),
/// and whether it is a specialization constant.
pub(super) fn length(m: &Module, array: u32) -> (Option<u32>, bool) {
    let Some(len) = m.def_word(array, 3) else { return (None, false) };
    let value = super::constant(m, len).then(|| super::super::memory::constant_u64(m, len)).flatten();
    (value.map(|v| v as u32), m.def_opcode(len).is_some_and(is_spec_constant))
}

/// OpBitCastArrayQCOM: arrays of 32-bit integers or 16/32-bit floats of
/// the same total bit length.
fn bitcast_array_problem(m: &Module, i: usize) -> Option<String> {
    const NAME: &str = "Opcode BitCastArrayQCOM";
    let rt = m.result_type_word(i);
    let input = m.type_of(m.word(i, 2));
    if m.def_opcode(rt) != Some(op::OpTypeArray) || m.def_opcode(input) != Some(op::OpTypeArray) {
        return Some(format!("{NAME} requires OpTypeArray operands for the input and the result."));
    }
    let (src_elt, res_elt) = (component_type(m, input), component_type(m, rt));
    let kinds = "32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat";
    if !int_n_or_f32_f16(m, src_elt, 32) {
        return Some(format!("{NAME} requires the source element type be one of {kinds}"));
    }
    if !int_n_or_f32_f16(m, res_elt, 32) {
        return Some(format!("{NAME} requires the result element type be one of {kinds}"));
    }
    let ((src_len, src_spec), (res_len, res_spec)) = (length(m, input), length(m, rt));
    if src_spec || res_spec {
        return None;
    }
    let compatible = match (src_len, res_len) {
        (Some(s), Some(r)) => bit_width(m, src_elt).wrapping_mul(s) == bit_width(m, res_elt).wrapping_mul(r),
        _ => false,
    };
    (!compatible).then(|| format!("{NAME} requires source and result types be compatible for conversion."))
}

/// Conversions with cooperative types (spirv-val's conversion pass).
pub(super) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        let touches = || {
            is_special(m, m.result_type_word(i)) || m.operands(i).len() > 2 && is_special(m, m.type_of(m.word(i, 2)))
        };
        let message = match opcode {
            op::OpCooperativeMatrixConvertNV | op::OpCooperativeMatrixTransposeNV => matrix_problem(m, i),
            op::OpBitCastArrayQCOM => bitcast_array_problem(m, i),
            op::OpBitcast if touches() => bitcast_problem(m, i),
            _ => match numeric_rule(opcode) {
                Some(rule) if touches() => numeric_problem(m, i, rule),
                _ => None,
            },
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
