//! Conversions between pointers of different storage classes, between
//! integers of different signedness with saturation, and from an integer
//! handle to an acceleration structure, in spirv-val's words and order
//! (validate_conversion.cpp).

use super::{ErrorKind, Report};
use crate::grammar::{op, storage_class as sc};
use crate::module::Module;

/// (pointee, storage class) of a pointer type; an untyped pointer has no
/// pointee (0).
fn pointer(m: &Module, ty: u32) -> Option<(u32, u32)> {
    match m.def_opcode(ty)? {
        op::OpTypePointer => Some((m.def_word(ty, 3)?, m.def_word(ty, 2)?)),
        op::OpTypeUntypedPointerKHR => Some((0, m.def_word(ty, 2)?)),
        _ => None,
    }
}

/// Storage classes a generic pointer converts to and from.
fn specific(class: u32) -> bool {
    matches!(class, sc::Workgroup | sc::CrossWorkgroup | sc::Function)
}

/// (width, components) of an int scalar or vector type.
fn int_shape(m: &Module, ty: u32) -> Option<(u32, u32, bool)> {
    let (scalar, n) = match m.def_opcode(ty)? {
        op::OpTypeVector => (m.def_word(ty, 2)?, m.def_word(ty, 3)?),
        _ => (ty, 1),
    };
    (m.def_opcode(scalar)? == op::OpTypeInt)
        .then(|| (m.def_word(scalar, 2).unwrap_or(0), n, m.def_word(scalar, 3) == Some(0)))
}

fn problem(m: &Module, i: usize) -> Option<&'static str> {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    let input = || m.type_of(m.word(i, 2));
    match inst.opcode() {
        op::OpSatConvertSToU | op::OpSatConvertUToS => {
            let Some((_, n, _)) = int_shape(m, rt) else {
                return Some("Expected int scalar or vector type as Result Type");
            };
            let Some((_, k, _)) = int_shape(m, input()) else { return Some("Expected int scalar or vector as input") };
            (n != k).then_some("Expected input to have the same dimension as Result Type")
        }
        op::OpPtrCastToGeneric => {
            let Some((data, class)) = pointer(m, rt) else { return Some("Expected Result Type to be a pointer") };
            if class != sc::Generic {
                return Some("Expected Result Type to have storage class Generic");
            }
            let Some((from, from_class)) = pointer(m, input()) else { return Some("Expected input to be a pointer") };
            if !specific(from_class) {
                return Some("Expected input to have storage class Workgroup, CrossWorkgroup or Function");
            }
            (data != from).then_some("Expected input and Result Type to point to the same type")
        }
        op::OpGenericCastToPtr => {
            let Some((data, class)) = pointer(m, rt) else { return Some("Expected Result Type to be a pointer") };
            if !specific(class) {
                return Some("Expected Result Type to have storage class Workgroup, CrossWorkgroup or Function");
            }
            let Some((from, from_class)) = pointer(m, input()) else { return Some("Expected input to be a pointer") };
            if from_class != sc::Generic {
                return Some("Expected input to have storage class Generic");
            }
            (data != from).then_some("Expected input and Result Type to point to the same type")
        }
        op::OpGenericCastToPtrExplicit => {
            let Some((data, class)) = pointer(m, rt) else { return Some("Expected Result Type to be a pointer") };
            let target = m.word(i, 3);
            if class != target {
                return Some("Expected Result Type to be of target storage class");
            }
            let Some((from, from_class)) = pointer(m, input()) else { return Some("Expected input to be a pointer") };
            if from_class != sc::Generic {
                return Some("Expected input to have storage class Generic");
            }
            if data != from {
                return Some("Expected input and Result Type to point to the same type");
            }
            (!specific(target)).then_some("Expected target storage class to be Workgroup, CrossWorkgroup or Function")
        }
        op::OpConvertUToAccelerationStructureKHR => {
            if m.def_opcode(rt) != Some(op::OpTypeAccelerationStructureKHR) {
                return Some("Expected Result Type to be a Acceleration Structure");
            }
            let handle = matches!(int_shape(m, input()), Some((64, 1, true) | (32, 2, true)));
            (!handle).then_some("Expected 64-bit uint scalar or 2-component 32-bit uint vector as input")
        }
        _ => None,
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        if let Some(message) = problem(m, i) {
            let name = m.insts[i].info().name.trim_start_matches("Op");
            r.error(ErrorKind::OperandType, i, format!("{message}: {name}"));
            return;
        }
    }
}
