//! Relational and logical instructions (spec 3.52.15): boolean results of
//! the operands' component count, operands of the kind each compares, and
//! OpSelect's objects (scalars or vectors; any composite from SPIR-V 1.4;
//! pointers with variable pointers; images and samplers with
//! BindlessTextureNV), in spirv-val's words and order (validate_logicals.cpp).

use super::shapes::shape;
use crate::grammar::{addressing_model, capability, op};
use crate::module::Module;
use rustc_hash::FxHashSet;

/// The component count of a scalar or vector type (spirv-val's
/// GetDimension), 0 for other types.
fn dimension(m: &Module, ty: u32) -> u32 {
    match m.def_opcode(ty) {
        Some(op::OpTypeFloat | op::OpTypeInt | op::OpTypeBool) => 1,
        Some(op::OpTypeVector | op::OpTypeMatrix) => m.def_word(ty, 3).unwrap_or(0),
        _ => 0,
    }
}

/// A scalar or vector of `base` (OpTypeBool, OpTypeInt or OpTypeFloat).
fn scalar_or_vector(m: &Module, ty: u32, base: u16) -> bool {
    shape(m, ty).is_some_and(|s| s.base == base)
}

fn bool_scalar(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeBool)
}

fn bool_vector(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeVector) && scalar_or_vector(m, ty, op::OpTypeBool)
}

/// What spirv-val says of relational or logical instruction `i`, if it is
/// wrong; `caps` are the declared and implied capabilities.
pub(super) fn problem(m: &Module, i: usize, caps: &FxHashSet<u32>) -> Option<String> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let name = &inst.info().name[2..];
    let rt = m.result_type_at(inst);
    let operand = |k: usize| if k < m.operands(i).len() { m.type_of(m.word(i, k)) } else { 0 };
    let fail = |what: &str| Some(format!("{what}: {name}"));
    let bool_result = || scalar_or_vector(m, rt, op::OpTypeBool);
    match opcode {
        op::OpAny | op::OpAll => {
            if !bool_scalar(m, rt) {
                fail("Expected bool scalar type as Result Type")
            } else if !bool_vector(m, operand(2)) {
                fail("Expected operand to be vector bool")
            } else {
                None
            }
        }
        op::OpIsNan | op::OpIsInf | op::OpIsFinite | op::OpIsNormal | op::OpSignBitSet => {
            if !bool_result() {
                fail("Expected bool scalar or vector type as Result Type")
            } else if !scalar_or_vector(m, operand(2), op::OpTypeFloat) {
                fail("Expected operand to be scalar or vector float")
            } else if dimension(m, rt) != dimension(m, operand(2)) {
                fail("Expected vector sizes of Result Type and the operand to be equal")
            } else {
                None
            }
        }
        op::OpFOrdEqual
        | op::OpFUnordEqual
        | op::OpFOrdNotEqual
        | op::OpFUnordNotEqual
        | op::OpFOrdLessThan
        | op::OpFUnordLessThan
        | op::OpFOrdGreaterThan
        | op::OpFUnordGreaterThan
        | op::OpFOrdLessThanEqual
        | op::OpFUnordLessThanEqual
        | op::OpFOrdGreaterThanEqual
        | op::OpFUnordGreaterThanEqual
        | op::OpLessOrGreater
        | op::OpOrdered
        | op::OpUnordered => {
            let left = operand(2);
            if !bool_result() {
                fail("Expected bool scalar or vector type as Result Type")
            } else if !scalar_or_vector(m, left, op::OpTypeFloat) {
                fail("Expected operands to be scalar or vector float")
            } else if dimension(m, rt) != dimension(m, left) {
                fail("Expected vector sizes of Result Type and the operands to be equal")
            } else if left != operand(3) {
                fail("Expected left and right operands to have the same type")
            } else {
                None
            }
        }
        op::OpLogicalEqual | op::OpLogicalNotEqual | op::OpLogicalOr | op::OpLogicalAnd => {
            if !bool_result() {
                fail("Expected bool scalar or vector type as Result Type")
            } else if rt != operand(2) || rt != operand(3) {
                fail("Expected both operands to be of Result Type")
            } else {
                None
            }
        }
        op::OpLogicalNot => {
            if !bool_result() {
                fail("Expected bool scalar or vector type as Result Type")
            } else if rt != operand(2) {
                fail("Expected operand to be of Result Type")
            } else {
                None
            }
        }
        op::OpSelect => select(m, i, caps),
        op::OpIEqual
        | op::OpINotEqual
        | op::OpUGreaterThan
        | op::OpUGreaterThanEqual
        | op::OpULessThan
        | op::OpULessThanEqual
        | op::OpSGreaterThan
        | op::OpSGreaterThanEqual
        | op::OpSLessThan
        | op::OpSLessThanEqual => {
            let (left, right) = (operand(2), operand(3));
            let int = |t: u32| scalar_or_vector(m, t, op::OpTypeInt);
            if !bool_result() {
                fail("Expected bool scalar or vector type as Result Type")
            } else if !int(left) {
                fail("Expected operands to be scalar or vector int")
            } else if dimension(m, rt) != dimension(m, left) {
                fail("Expected vector sizes of Result Type and the operands to be equal")
            } else if !int(right) {
                fail("Expected operands to be scalar or vector int")
            } else if dimension(m, rt) != dimension(m, right) {
                fail("Expected vector sizes of Result Type and the operands to be equal")
            } else if shape(m, left).map(|s| s.width) != shape(m, right).map(|s| s.width) {
                fail("Expected both operands to have the same component bit width")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// OpSelect: which result types it picks between, then its condition and
/// objects.
fn select(m: &Module, i: usize, caps: &FxHashSet<u32>) -> Option<String> {
    let rt = m.result_type_word(i);
    let operand = |k: usize| if k < m.operands(i).len() { m.type_of(m.word(i, k)) } else { 0 };
    // SPIR-V 1.4 selects between composites, and with a scalar condition
    // between vectors.
    let composites = m.header.version_parts() >= (1, 4);
    let kind = if composites { "composite" } else { "vector" };
    let mut dim = 1;
    match m.def_opcode(rt) {
        Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR) => {
            if m.addressing_model() == Some(addressing_model::Logical)
                && !caps.contains(&capability::VariablePointersStorageBuffer)
            {
                return Some(
                    "Using pointers with OpSelect requires capability VariablePointers or \
                     VariablePointersStorageBuffer"
                        .into(),
                );
            }
        }
        Some(op::OpTypeSampledImage | op::OpTypeImage | op::OpTypeSampler) => {
            if !caps.contains(&capability::BindlessTextureNV) {
                return Some("Using image/sampler with OpSelect requires capability BindlessTextureNV".into());
            }
        }
        Some(op::OpTypeVector) => dim = m.def_word(rt, 3).unwrap_or(0),
        Some(op::OpTypeBool | op::OpTypeInt | op::OpTypeFloat) => {}
        // Not runtime arrays: they are no values.
        Some(op::OpTypeArray | op::OpTypeMatrix | op::OpTypeStruct) if composites => {}
        _ => return Some(format!("Expected scalar or {kind} type as Result Type: Select")),
    }
    let condition = operand(2);
    if !scalar_or_vector(m, condition, op::OpTypeBool) {
        return Some("Expected bool scalar or vector type as condition: Select".into());
    }
    if dimension(m, condition) != dim && (!composites || bool_vector(m, condition)) {
        return Some("Expected vector sizes of Result Type and the condition to be equal: Select".into());
    }
    if rt != operand(3) || rt != operand(4) {
        return Some("Expected both objects to be of Result Type: Select".into());
    }
    None
}
