//! SPV_ARM_tensors: the tensor type (Rank and Shape constants), tensor
//! constants built from tensors of one rank less (null only when shaped),
//! and OpTensorReadARM / OpTensorWriteARM / OpTensorQuerySizeARM with their
//! Tensor Operands, in spirv-val's words and order (validate_type.cpp, validate_constants.cpp,
//! validate_tensor.cpp).

use super::memory::constant_u64;
use super::{ErrorKind, Report};
use crate::grammar::{op, tensor_operands as to};
use crate::module::{is_constant, Module};

fn is_int(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeInt)
}

fn is_scalar(m: &Module, ty: u32) -> bool {
    matches!(m.def_opcode(ty), Some(op::OpTypeInt | op::OpTypeFloat | op::OpTypeBool))
}

/// spirv-val's `GetComponentType`: a scalar (or pointer) is its own
/// component; arrays, vectors, cooperative types and tensors give their
/// element; a value gives its type's; anything else 0.
pub(super) fn component_type(m: &Module, id: u32) -> u32 {
    let Some(d) = m.def(id) else { return 0 };
    match d.opcode() {
        op::OpTypeFloat | op::OpTypeInt | op::OpTypeBool | op::OpTypePointer | op::OpTypeUntypedPointerKHR => id,
        op::OpTypeArray
        | op::OpTypeRuntimeArray
        | op::OpTypeVector
        | op::OpTypeCooperativeMatrixNV
        | op::OpTypeCooperativeMatrixKHR
        | op::OpTypeCooperativeVectorNV
        | op::OpTypeTensorARM => m.def_word(id, 2).unwrap_or(0),
        op::OpTypeMatrix => m.def_word(id, 2).map_or(0, |c| component_type(m, c)),
        _ => match m.result_type_at(d) {
            0 => 0,
            ty if ty == id => 0,
            ty => component_type(m, ty),
        },
    }
}

/// spirv-val's `IsIntArrayType(ty, length)`: an OpTypeArray of integers
/// whose Length is a constant equal to `length` (any, when 0 or not
/// evaluable).
pub(super) fn is_int_array(m: &Module, ty: u32, length: u64) -> bool {
    if m.def_opcode(ty) != Some(op::OpTypeArray) {
        return false;
    }
    if length != 0 {
        let len = m.def_word(ty, 3).unwrap_or(0);
        if !m.def_opcode(len).is_some_and(is_constant) || constant_u64(m, len).is_some_and(|v| v != length) {
            return false;
        }
    }
    is_int(m, component_type(m, ty))
}

/// A tensor type with a Rank (its words: opcode, result, element, rank...).
fn is_ranked(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeTensorARM) && m.def(ty).is_some_and(|d| d.word_count > 3)
}

/// The evaluated Rank of a ranked tensor type (0 when unknown).
fn rank_of(m: &Module, ty: u32) -> u64 {
    if !is_ranked(m, ty) {
        return 0;
    }
    m.def_word(ty, 3).and_then(|r| constant_u64(m, r)).unwrap_or(0)
}

/// A tensor type with a Shape: the only tensors that are composites.
pub(super) fn is_shaped(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeTensorARM) && m.def(ty).is_some_and(|d| d.word_count == 5)
}

/// OpTypeTensorARM: a scalar Element Type; Rank a positive integer
/// constant; Shape a constant array of Rank positive integers.
fn type_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let n = m.operands(i).len();
    let element = m.word(i, 1);
    if !is_scalar(m, element) {
        return Some(format!("OpTypeTensorARM Element Type <id> {} is not a scalar type.", r.id(element)));
    }
    if n < 3 {
        return None;
    }
    let rank = m.word(i, 2);
    if !m.def_opcode(rank).is_some_and(is_constant) {
        return Some(format!("OpTypeTensorARM Rank <id> {} is not a constant instruction.", r.id(rank)));
    }
    if !is_int(m, m.type_of(rank)) {
        return Some(format!("OpTypeTensorARM Rank <id> {} does not have a scalar integer type.", r.id(rank)));
    }
    let rank_value = constant_u64(m, rank).unwrap_or(0);
    if constant_u64(m, rank) == Some(0) {
        return Some(format!("OpTypeTensorARM Rank <id> {} must define a value greater than 0.", r.id(rank)));
    }
    if n < 4 {
        return None;
    }
    let shape = m.word(i, 3);
    let Some(s) = m.def_index(shape).filter(|&s| is_constant(m.opcode(s))) else {
        return Some(format!("OpTypeTensorARM Shape <id> {} is not a constant instruction.", r.id(shape)));
    };
    if !is_int_array(m, m.type_of(shape), rank_value) {
        return Some(format!(
            "OpTypeTensorARM Shape <id> {} is not an array of integer type whose Length is equal to Rank.",
            r.id(shape)
        ));
    }
    (2..m.operands(s).len())
        .find(|&k| constant_u64(m, m.word(s, k)) == Some(0))
        .map(|k| format!("OpTypeTensorARM Shape constituent {} is not greater than 0.", k - 2))
}

/// The Shape of a shaped tensor type, as (index of its defining
/// instruction): its constituents are the dimensions.
fn shape_dims(m: &Module, ty: u32) -> Option<usize> {
    m.def_index(m.def_word(ty, 4)?)
}

/// OpConstantComposite / OpSpecConstantComposite of a tensor type: as many
/// constituents as the outermost dimension; for rank 1 each of the element
/// type, else each a tensor of the same element type, one rank less, with
/// the inner dimensions of the result.
fn constant_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let (rt, name) = (m.result_type_at(inst), inst.info().name);
    let element = m.def_word(rt, 2)?;
    let rank = constant_u64(m, m.def_word(rt, 3)?).unwrap_or(0);
    let shape = shape_dims(m, rt)?;
    let parts: Vec<u32> = (2..m.operands(i).len()).map(|k| m.word(i, k)).collect();
    let outermost = (m.operands(shape).len() > 2).then(|| constant_u64(m, m.word(shape, 2))).flatten();
    if let Some(outer) = outermost.filter(|&o| o != parts.len() as u64) {
        return Some(format!(
            "{name} Constituent count does not match the shape of Result Type <id> {} along its outermost \
             dimension, expected {outer} but got {}.",
            r.id(rt),
            parts.len()
        ));
    }
    for &c in &parts {
        let ct = m.type_of(c);
        if rank == 0 || m.def(ct).is_none() {
            continue;
        }
        if rank == 1 {
            if ct != element {
                return Some(format!(
                    "{name} Constituent <id> {} type does not match the element type of the tensor ({}).",
                    r.id(c),
                    r.id(rt)
                ));
            }
            continue;
        }
        if m.def_opcode(ct) != Some(op::OpTypeTensorARM) {
            return Some(format!("{name} Constituent <id> {} must be an OpTypeTensorARM.", r.id(c)));
        }
        if m.def_word(ct, 2) != Some(element) {
            return Some(format!(
                "{name} Constituent <id> {} must have the same Element Type as Result Type <id> {}.",
                r.id(c),
                r.id(rt)
            ));
        }
        if let Some(got) = m.def_word(ct, 3).and_then(|k| constant_u64(m, k)).filter(|&g| g != rank - 1) {
            return Some(format!(
                "{name} Constituent <id> {} must have a Rank that is 1 less than the Rank of Result Type <id> {}, \
                 expected {} but got {got}.",
                r.id(c),
                r.id(rt),
                rank - 1
            ));
        }
        let Some(inner) = shape_dims(m, ct) else { continue };
        for k in 2..m.operands(inner).len() {
            let got = constant_u64(m, m.word(inner, k));
            let want = (k + 1 < m.operands(shape).len()).then(|| constant_u64(m, m.word(shape, k + 1))).flatten();
            if let (Some(got), Some(want)) = (got, want) {
                if got != want {
                    return Some(format!(
                        "{name} Constituent <id> {} must have a Shape that matches that of Result Type <id> {} \
                         along all inner dimensions of Result Type, expected {want} for dimension {} of \
                         Constituent but got {got}.",
                        r.id(c),
                        r.id(rt),
                        k - 2
                    ));
                }
            }
        }
    }
    None
}

/// Tensor types and tensor constants (spirv-val's type and constant
/// passes).
pub(crate) fn check_types(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let message = match inst.opcode() {
            op::OpTypeTensorARM => type_problem(m, r, i),
            op::OpConstantComposite | op::OpSpecConstantComposite if is_shaped(m, m.result_type_at(inst)) => {
                constant_problem(m, r, i)
            }
            // Only a shaped tensor has a null value (spirv-val's
            // `IsTypeNullable`; its element is a scalar, always nullable).
            op::OpConstantNull
                if m.def_opcode(m.result_type_at(inst)) == Some(op::OpTypeTensorARM)
                    && !is_shaped(m, m.result_type_at(inst)) =>
            {
                Some(format!(
                    "OpConstantNull Result Type <id> {} cannot have a null value.",
                    r.id(m.result_type_at(inst))
                ))
            }
            _ => None,
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}

/// A scalar type, or an array of one (what a tensor element access reads
/// or writes).
fn is_scalar_or_array(m: &Module, ty: u32) -> bool {
    is_scalar(m, ty) || (m.def_opcode(ty) == Some(op::OpTypeArray) && is_scalar(m, m.def_word(ty, 2).unwrap_or(0)))
}

const COORDINATES: &str =
    "Expected Coordinates to be an array whose Element Type is an integer type and whose Length is equal to the \
     Rank of Tensor.";
const RANKED: &str = "Expected Tensor to be an OpTypeTensorARM whose Rank is specified";

/// OpTensorReadARM: a scalar (array) of the tensor's element type read at
/// Rank integer coordinates; OutOfBoundsValueARM of that element type;
/// not MakeElementAvailableARM; MakeElementVisibleARM with
/// NonPrivateElementARM.
fn read_problem(m: &Module, i: usize) -> Option<&'static str> {
    let inst = &m.insts[i];
    if !is_scalar_or_array(m, m.result_type_at(inst)) {
        return Some("Expected Result Type to be a scalar type or array of scalar type.");
    }
    let tensor = m.type_of(m.word(i, 2));
    if !is_ranked(m, tensor) {
        return Some(RANKED);
    }
    if component_type(m, tensor) != component_type(m, m.result_type_at(inst)) {
        return Some("Expected Result Type to be the same as the Element Type of Tensor.");
    }
    if !is_int_array(m, m.type_of(m.word(i, 3)), rank_of(m, tensor)) {
        return Some(COORDINATES);
    }
    if inst.word_count <= 5 {
        return None;
    }
    let word = |k: usize| m.words[inst.offset as usize + k];
    let mask = word(5);
    if mask & to::OutOfBoundsValueARM != 0 {
        if inst.word_count < 7 {
            return Some("A value must be provided after the OutOfBoundsValueARM Tensor Operand.");
        }
        if component_type(m, tensor) != component_type(m, m.type_of(word(6))) {
            return Some(
                "Expected the type of the OutOfBoundsValueARM value to be the same as the Element Type of Tensor.",
            );
        }
    }
    if mask & to::MakeElementAvailableARM != 0 {
        return Some("MakeElementAvailableARM cannot be used with OpTensorReadARM.");
    }
    // spirv-val names the wrong operand in this message.
    (mask & to::MakeElementVisibleARM != 0 && mask & to::NonPrivateElementARM == 0)
        .then_some("MakeElementAvailableARM requires NonPrivateElementARM.")
}

/// OpTensorWriteARM: Object a scalar (array) of the element type at Rank
/// integer coordinates; neither OutOfBoundsValueARM nor
/// MakeElementVisibleARM; MakeElementAvailableARM with
/// NonPrivateElementARM. spirv-val reads the operands only when a word
/// follows the mask.
fn write_problem(m: &Module, i: usize) -> Option<&'static str> {
    let inst = &m.insts[i];
    let tensor = m.type_of(m.word(i, 0));
    if !is_ranked(m, tensor) {
        return Some(RANKED);
    }
    if !is_int_array(m, m.type_of(m.word(i, 1)), rank_of(m, tensor)) {
        return Some(COORDINATES);
    }
    let object = m.type_of(m.word(i, 2));
    if !is_scalar_or_array(m, object) || component_type(m, object) != component_type(m, tensor) {
        return Some(
            "Expected Object to be a scalar type or array of scalar type that is the same as the Element Type of \
             Tensor.",
        );
    }
    if inst.word_count <= 5 {
        return None;
    }
    let mask = m.words[inst.offset as usize + 4];
    if mask & to::OutOfBoundsValueARM != 0 {
        return Some("OutOfBoundsValue Tensor Operand not allowed with OpTensorWriteARM.");
    }
    if mask & to::MakeElementVisibleARM != 0 {
        return Some("MakeElementVisibleARM not allowed with OpTensorWriteARM.");
    }
    (mask & to::MakeElementAvailableARM != 0 && mask & to::NonPrivateElementARM == 0)
        .then_some("MakeElementAvailableARM requires NonPrivateElementARM.")
}

/// OpTensorQuerySizeARM: an integer result; a ranked tensor; a constant
/// integer Dimension less than the Rank.
fn query_problem(m: &Module, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    if !is_int(m, m.result_type_at(inst)) {
        return Some("Expected Result Type to be an integer type scalar".into());
    }
    let tensor = m.type_of(m.word(i, 2));
    if !is_ranked(m, tensor) {
        return Some(RANKED.into());
    }
    let dim = m.word(i, 3);
    if !m.def_opcode(dim).is_some_and(is_constant) || !is_int(m, m.type_of(dim)) {
        return Some("Dimension must come from a constant instruction of scalar integer type.".into());
    }
    let rank = m.def_word(tensor, 3).and_then(|k| constant_u64(m, k));
    match (rank, constant_u64(m, dim)) {
        (Some(rank), Some(dim)) if dim >= rank => {
            Some(format!("Dimension ({dim}) must be less than the Rank of Tensor ({rank})."))
        }
        _ => None,
    }
}

/// The tensor access instructions (spirv-val's tensor pass).
pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let message = match m.opcode(i) {
            op::OpTensorReadARM => read_problem(m, i).map(String::from),
            op::OpTensorWriteARM => write_problem(m, i).map(String::from),
            op::OpTensorQuerySizeARM => query_problem(m, i),
            _ => None,
        };
        if let Some(message) = message {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
