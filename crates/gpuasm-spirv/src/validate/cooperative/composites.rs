//! Composites of cooperative types (validate_composites.cpp): a matrix
//! built from one component, a vector from scalars and vectors filling
//! its components, extraction and insertion reaching a component at any
//! index; and SPV_QCOM_cooperative_matrix_conversion, which packs
//! Subgroup matrices to and from arrays whose length fits the matrix's
//! 256-bit rows or columns for its Use.

use super::super::{ErrorKind, Report};
use super::conversions::{int_n_or_f32_f16, length};
use super::{component_type, constant, dimension, int32_constant, is_matrix, is_vector, touches_special, Module};
use crate::grammar::{cooperative_matrix_use as usage, op, scope};
use crate::peer_opcodes::is_spec_constant;

/// OpCompositeConstruct of a cooperative result.
fn construct_problem(m: &Module, i: usize) -> Option<&'static str> {
    let rt = m.result_type_word(i);
    let n = m.operands(i).len();
    let component = m.def_word(rt, 2).unwrap_or(0);
    let operand_type = |k: usize| m.type_of(m.word(i, k));
    if is_matrix(m, rt) {
        if n != 3 {
            return Some(if m.def_opcode(rt) == Some(op::OpTypeCooperativeMatrixKHR) {
                "Must be only one constituent"
            } else {
                "Expected single constituent"
            });
        }
        return (operand_type(2) != component).then_some("Expected Constituent type to be equal to the component type");
    }
    let mut given = 0;
    for k in 2..n {
        let ty = operand_type(k);
        if ty == component {
            given += 1;
        } else if m.def_opcode(ty) != Some(op::OpTypeVector) || component_type(m, ty) != component {
            return Some("Expected Constituents to be scalars or vectors of the same type as Result Type components");
        } else {
            given += dimension(m, ty);
        }
    }
    int32_constant(m, m.def_word(rt, 3).unwrap_or(0))
        .is_some_and(|count| count != given)
        .then_some("Expected total number of given components to be equal to the size of Result Type vector")
}

/// The opcode name of a type, as spirv-val prints it in these messages.
fn opcode_name(m: &Module, ty: u32) -> &'static str {
    m.def_opcode(ty).and_then(crate::grammar::instruction).map_or("Nop", |info| info.name)
}

/// OpCompositeExtract / OpCompositeInsert where a cooperative type is
/// involved: spirv-val's walk of the indices (a cooperative matrix or
/// vector gives its component at any index), then the type it reaches.
fn extract_insert_problem(m: &Module, i: usize) -> Option<String> {
    let insert = m.opcode(i) == op::OpCompositeInsert;
    let rt = m.result_type_word(i);
    let first = if insert { 4 } else { 3 };
    let n = m.operands(i).len();
    if n <= first {
        return None;
    }
    let composite = m.type_of(m.word(i, first - 1));
    if insert && rt != composite {
        return Some(format!(
            "The Result Type must be the same as Composite type in OpCompositeInsert yielding Result Id {rt}."
        ));
    }
    if composite == 0 {
        return Some("Expected Composite to be an object of composite type".into());
    }
    let mut ty = composite;
    for k in first..n {
        let index = m.word(i, k);
        let next = m.def_word(ty, 2).unwrap_or(0);
        match m.def_opcode(ty)? {
            op::OpTypeVector => {
                let size = m.def_word(ty, 3).unwrap_or(0);
                if index >= size {
                    return Some(format!(
                        "Vector access is out of bounds, vector size is {size}, but access index is {index}"
                    ));
                }
                ty = next;
            }
            op::OpTypeMatrix => {
                let cols = m.def_word(ty, 3).unwrap_or(0);
                if index >= cols {
                    return Some(format!(
                        "Matrix access is out of bounds, matrix has {cols} columns, but access index is {index}"
                    ));
                }
                ty = next;
            }
            op::OpTypeArray => {
                let len = m.def_word(ty, 3).unwrap_or(0);
                if !m.def_opcode(len).is_some_and(is_spec_constant) {
                    let size = super::super::memory::constant_u64(m, len)?;
                    if index as u64 >= size {
                        return Some(format!(
                            "Array access is out of bounds, array size is {size}, but access index is {index}"
                        ));
                    }
                }
                ty = next;
            }
            op::OpTypeStruct => {
                let members = m.operands_len_of(ty).saturating_sub(1) as u32;
                if index >= members {
                    return Some(format!(
                        "Index is out of bounds, can not find index {index} in the structure <id> '{ty}'. This \
                         structure has {members} members. Largest valid index is {}.",
                        // spirv-val's count is a size_t: none wraps.
                        u64::from(members).wrapping_sub(1)
                    ));
                }
                ty = m.def_word(ty, 2 + index as usize).unwrap_or(0);
            }
            op::OpTypeRuntimeArray
            | op::OpTypeNodePayloadArrayAMDX
            | op::OpTypeCooperativeVectorNV
            | op::OpTypeCooperativeMatrixKHR
            | op::OpTypeCooperativeMatrixNV => ty = next,
            _ => return Some("Reached non-composite type while indexes still remain to be traversed.".into()),
        }
    }
    if insert {
        let object = m.type_of(m.word(i, 2));
        return (object != ty).then(|| {
            format!(
                "The Object type ({}) does not match the type that results from indexing into the Composite ({}).",
                opcode_name(m, object),
                opcode_name(m, ty)
            )
        });
    }
    (rt != ty).then(|| {
        format!(
            "Result type ({}) does not match the type that results from indexing into the composite ({}).",
            opcode_name(m, rt),
            opcode_name(m, ty)
        )
    })
}

/// A constant operand's value as spirv-val's `GetConstantValueAs`
/// reads it, and whether it is a specialization constant.
fn value(m: &Module, id: u32) -> (Option<u32>, bool) {
    let v = constant(m, id).then(|| super::super::memory::constant_u64(m, id)).flatten();
    (v.map(|v| v as u32), m.def_opcode(id).is_some_and(is_spec_constant))
}

/// A scalar type of `opcode` and `width` (a float with an encoding is
/// none: spirv-val's `ContainsSizedIntOrFloatType` on an element).
fn sized(m: &Module, ty: u32, opcode: u16, width: u32) -> bool {
    m.def_opcode(ty) == Some(opcode)
        && m.def_word(ty, 2) == Some(width)
        && (opcode != op::OpTypeFloat || m.operands_len_of(ty) <= 2)
}

fn uint32(m: &Module, ty: u32) -> bool {
    sized(m, ty, op::OpTypeInt, 32) && m.def_word(ty, 3) == Some(0)
}

/// 256 bits of the element type along a dimension of `n`: 32 8-bit
/// integers, 16 halves or 8 floats.
fn spans_256_bits(m: &Module, element: u32, n: u32) -> bool {
    (sized(m, element, op::OpTypeInt, 8) && n == 32)
        || (sized(m, element, op::OpTypeFloat, 16) && n == 16)
        || (sized(m, element, op::OpTypeFloat, 32) && n == 8)
}

/// The matrix side of the QCOM packing instructions: a KHR matrix of
/// Subgroup scope.
struct Packed {
    element: u32,
    rows: (Option<u32>, bool),
    cols: (Option<u32>, bool),
    usage: (Option<u32>, bool),
}

fn packed(m: &Module, ty: u32) -> Packed {
    let word = |k| m.def_word(ty, k).unwrap_or(0);
    Packed { element: word(2), rows: value(m, word(4)), cols: value(m, word(5)), usage: value(m, word(6)) }
}

fn subgroup_scope(m: &Module, ty: u32) -> bool {
    let (v, spec) = value(m, m.def_word(ty, 3).unwrap_or(0));
    spec || v == Some(scope::Subgroup)
}

/// OpCompositeConstructCoopMatQCOM.
fn construct_qcom(m: &Module, i: usize) -> Option<String> {
    let rt = m.result_type_word(i);
    let fail = |what: &str| Some(format!("Opcode CompositeConstructCoopMatQCOM requires {what}"));
    if m.def_opcode(rt) != Some(op::OpTypeCooperativeMatrixKHR) {
        return fail("the result type be OpTypeCooperativeMatrixKHR");
    }
    let source = m.type_of(m.word(i, 2));
    if m.def_opcode(source) != Some(op::OpTypeArray) {
        return fail("the input operand be an OpTypeArray.");
    }
    if !subgroup_scope(m, rt) {
        return fail("the result type's scope be Subgroup.");
    }
    let (len, len_spec) = length(m, source);
    let src_elt = component_type(m, source);
    let p = packed(m, rt);
    let res_elt = p.element;
    let src_u32 = uint32(m, src_elt);
    if src_elt != res_elt && !src_u32 {
        return fail(
            "ether the input element type is equal to the result element type or it is the unsigned 32-bit integer.",
        );
    }
    match p.usage.0 {
        Some(u @ (usage::MatrixAKHR | usage::MatrixBKHR)) => {
            let a = u == usage::MatrixAKHR;
            let (tag, (n, n_spec)) = if a { ("MatrixAKHR", p.cols) } else { ("MatrixBKHR", p.rows) };
            if !int_n_or_f32_f16(m, res_elt, 8) {
                return fail(&format!(
                    "the result element type is one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat \
                     when result coopmat's use is {tag}"
                ));
            }
            if !n_spec && !n.is_some_and(|n| spans_256_bits(m, res_elt, n)) {
                let what = if a { "columns of the result coopmat" } else { "rows of the result operand" };
                return fail(&format!("the {what} have the bit length of 256 when result coopmat's use is {tag}"));
            }
            let fits = len.is_some_and(|l| (src_u32 && l == 8) || n == Some(l));
            if !len_spec && !fits {
                let dim = if a { "columns" } else { "rows" };
                return fail(&format!(
                    "the source array length be 8 if its elt type is 32-bit unsigned OpTypeInt and be the result's \
                     number of {dim}, otherwise when result coopmat's use is {tag}"
                ));
            }
            None
        }
        Some(usage::MatrixAccumulatorKHR) => {
            if !int_n_or_f32_f16(m, res_elt, 32) {
                return fail(
                    "the result element type is one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat \
                     when result coopmat's use is MatrixAccumulatorKHR",
                );
            }
            let (n, n_spec) = p.cols;
            if n_spec || len_spec {
                return None;
            }
            let fits = match (n, len) {
                (Some(n), Some(l)) => {
                    let packed_len = if sized(m, res_elt, op::OpTypeFloat, 16) { n / 2 } else { n };
                    (src_u32 && packed_len == l) || n == l
                }
                _ => false,
            };
            (!fits).then(|| {
                "Opcode CompositeConstructCoopMatQCOM requires the source array length be a half of the number of \
                 columns of the resulting cooerative matrix if the matrix's componet type is 16-bit OpTypeFloat and \
                 be equal to the number of columns, otherwise, when result coopmat's use is MatrixAccumulatorKHR"
                    .into()
            })
        }
        _ if p.usage.1 && p.usage.0.is_some() => None,
        _ => fail(
            "the the resulting cooerative matrix's use be  one of MatrixAKHR (== 0), MatrixBKHR (== 1), and \
             MatrixAccumulatorKHR (== 2)",
        ),
    }
}

/// OpCompositeExtractCoopMatQCOM.
fn extract_qcom(m: &Module, i: usize) -> Option<String> {
    let rt = m.result_type_word(i);
    let fail = |what: &str| Some(format!("Opcode CompositeExtractCoopMatQCOM requires {what}"));
    if m.def_opcode(rt) != Some(op::OpTypeArray) {
        return fail("the input operand be an OpTypeArray.");
    }
    let source = m.type_of(m.word(i, 2));
    if m.def_opcode(source) != Some(op::OpTypeCooperativeMatrixKHR) {
        return fail("the source type be OpTypeCooperativeMatrixKHR");
    }
    if !subgroup_scope(m, source) {
        return fail("the source type's scope be Subgroup.");
    }
    let (len, len_spec) = length(m, rt);
    let p = packed(m, source);
    let src_elt = component_type(m, source);
    let res_elt = m.def_word(rt, 2).unwrap_or(0);
    let res_u32 = uint32(m, res_elt);
    let either = |dim: &str, tail: &str, tag: &str| {
        format!(
            "Opcode CompositeExtractCoopMatQCOM requires either the result element type be the same as the source \
             cooperative matrix's component type and its length be the same as the number of {dim} of the matrix or \
             the result element type be unsigned 32-bit OpTypeInt and the length be {tail} when source coopmat's use \
             is {tag}"
        )
    };
    match p.usage.0 {
        Some(u @ (usage::MatrixAKHR | usage::MatrixBKHR)) => {
            let a = u == usage::MatrixAKHR;
            let (tag, dim, (n, n_spec)) =
                if a { ("MatrixAKHR", "columns", p.cols) } else { ("MatrixBKHR", "rows", p.rows) };
            if !int_n_or_f32_f16(m, src_elt, 8) {
                return fail(&format!(
                    "the source element type be one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat \
                     when source coopmat's use is {tag}"
                ));
            }
            if !n_spec && !n.is_some_and(|n| spans_256_bits(m, src_elt, n)) {
                return fail(&format!(
                    "the {dim} of the source coopmat have the bit length of 256 when source coopmat's use is {tag}"
                ));
            }
            let same = src_elt == res_elt && n.is_some() && n == len;
            let packed_u32 = res_u32 && len == Some(8);
            (!len_spec && !same && !packed_u32).then(|| either(dim, "8", tag))
        }
        Some(usage::MatrixAccumulatorKHR) => {
            if !int_n_or_f32_f16(m, src_elt, 32) {
                return fail(
                    "the source element type be one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat \
                     when source coopmat's use is MatrixAccumulatorKHR",
                );
            }
            let (n, n_spec) = p.cols;
            if n_spec || len_spec {
                return None;
            }
            let fits = match (n, len) {
                (Some(n), Some(l)) => {
                    let packed_len = if sized(m, src_elt, op::OpTypeFloat, 16) { n / 2 } else { n };
                    (src_elt == res_elt && n == l) || (res_u32 && packed_len == l)
                }
                _ => false,
            };
            (!fits).then(|| {
                either(
                    "columns",
                    "the number of the columns of the matrix if its component type is 32-bit OpTypeFloat and be a \
                     half of the number of the columns of the matrix if its component type is 16-bit OpTypeFloat",
                    "MatrixAccumulatorKHR",
                )
            })
        }
        _ if p.usage.1 && p.usage.0.is_some() => None,
        _ => fail(
            "the the source cooerative matrix's use be  one of MatrixAKHR (== 0), MatrixBKHR (== 1), and \
             MatrixAccumulatorKHR (== 2)",
        ),
    }
}

/// OpExtractSubArrayQCOM: arrays of one 32-bit integer or 16/32-bit float
/// element type, from a 32-bit integer start index.
fn extract_sub_array(m: &Module, i: usize) -> Option<String> {
    let rt = m.result_type_word(i);
    let source = m.type_of(m.word(i, 2));
    let fail = |what: &str| Some(format!("Opcode ExtractSubArrayQCOM requires {what}"));
    if m.def_opcode(rt) != Some(op::OpTypeArray) || m.def_opcode(source) != Some(op::OpTypeArray) {
        return fail("OpTypeArray operands for the input and the result.");
    }
    let element = component_type(m, source);
    if element != component_type(m, rt) {
        return fail("the input and result element types match.");
    }
    if !int_n_or_f32_f16(m, element, 32) {
        return fail(
            "the element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit \
             OpTypeFloat",
        );
    }
    let index = m.type_of(m.word(i, 3));
    (!super::int_of_width(m, index, 32))
        .then(|| "Opcode ExtractSubArrayQCOM requires the type of the start index operand be 32-bit OpTypeInt".into())
}

/// Composite instructions over cooperative types (spirv-val's composite
/// pass).
pub(super) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let message = match inst.opcode() {
            op::OpCompositeConstruct
                if is_matrix(m, m.result_type_at(inst)) || is_vector(m, m.result_type_at(inst)) =>
            {
                construct_problem(m, i).map(String::from)
            }
            op::OpCompositeConstruct if m.def_opcode(m.result_type_at(inst)) == Some(op::OpTypeTensorARM) => {
                Some("Expected Result Type to be a composite type".into())
            }
            op::OpCompositeExtract | op::OpCompositeInsert if touches_special(m, i) => extract_insert_problem(m, i),
            op::OpCompositeConstructCoopMatQCOM => construct_qcom(m, i),
            op::OpCompositeExtractCoopMatQCOM => extract_qcom(m, i),
            op::OpExtractSubArrayQCOM => extract_sub_array(m, i),
            _ => None,
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
