//! OpCooperativeMatrixLoadTensorNV / OpCooperativeMatrixStoreTensorNV
//! (validate_memory.cpp): a KHR matrix through a logical pointer into
//! Workgroup, StorageBuffer or PhysicalStorageBuffer memory, addressed by
//! a tensor layout and optionally a tensor view; a load's DecodeFunc
//! returns the matrix component from a PhysicalStorageBuffer pointer and
//! two coordinate arrays of the layout's dimension.

use super::super::memory::{constant_u64, returns_logical_pointer};
use super::super::Report;
use super::{is_khr, Module};
use crate::grammar::{memory_access as ma, op, storage_class as sc, tensor_addressing_operands as ta};

/// Words a memory-access mask and its parameters take.
fn memory_access_words(mask: u32) -> usize {
    1 + [ma::Aligned, ma::MakePointerAvailable, ma::MakePointerVisible].iter().filter(|&&b| mask & b != 0).count()
}

/// The problem with instruction `i`, if any.
pub(super) fn problem(m: &Module, r: &mut Report, i: usize, logical: bool, vp: bool, vulkan: bool) -> Option<String> {
    let load = m.opcode(i) == op::OpCooperativeMatrixLoadTensorNV;
    let name =
        if load { "spv::Op::OpCooperativeMatrixLoadTensorNV" } else { "spv::Op::OpCooperativeMatrixStoreTensorNV" };
    let matrix = if load { m.result_type_word(i) } else { m.type_of(m.word(i, 1)) };
    if !is_khr(m, matrix) {
        let what = if load { "Result Type" } else { "Object type" };
        return Some(format!("{name} {what} <id> {} is not a cooperative matrix type.", r.id(matrix)));
    }
    let ptr = m.word(i, if load { 2 } else { 0 });
    let Some(def) = m.def(ptr).filter(|d| !logical || returns_logical_pointer(d.opcode(), vp)) else {
        return Some(format!("{name} Pointer <id> {} is not a logical pointer.", r.id(ptr)));
    };
    let ptr_type = m.result_type_at(def);
    if m.def_opcode(ptr_type) != Some(op::OpTypePointer) {
        return Some(format!("{name} type for pointer <id> {} is not a pointer type.", r.id(ptr)));
    }
    if !matches!(m.def_word(ptr_type, 2), Some(sc::Workgroup | sc::StorageBuffer | sc::PhysicalStorageBuffer)) {
        let vuid = if vulkan { "[VUID-StandaloneSpirv-Pointer-08973] " } else { "" };
        return Some(format!(
            "{vuid}{name} storage class for pointer type <id> {} is not Workgroup, StorageBuffer, or \
             PhysicalStorageBuffer.",
            r.id(ptr_type)
        ));
    }
    if load {
        let object = m.word(i, 3);
        if m.def(object).is_none() || m.type_of(object) != matrix {
            return Some(format!("{name} Object <id> {} type does not match Result Type.", r.id(object)));
        }
    }
    let layout = m.word(i, if load { 4 } else { 2 });
    let layout_type = m.type_of(layout);
    if m.def_opcode(layout_type) != Some(op::OpTypeTensorLayoutNV) {
        return Some(format!("{name} TensorLayout <id> {} does not have a tensor layout type.", r.id(layout)));
    }
    let n = m.operands(i).len();
    let access_at = if load { 5 } else { 3 };
    if n <= access_at {
        return None;
    }
    let tensor_at = access_at + memory_access_words(m.word(i, access_at));
    if tensor_at >= n {
        return None;
    }
    let mask = m.word(i, tensor_at);
    let wanted = 1 + [ta::TensorView, ta::DecodeFunc].iter().filter(|&&b| mask & b != 0).count();
    if n < tensor_at + wanted {
        return Some(format!("{name} not enough tensor addressing operands."));
    }
    let mut at = tensor_at + 1;
    if mask & ta::TensorView != 0 {
        let view = m.word(i, at);
        if m.def_opcode(m.type_of(view)) != Some(op::OpTypeTensorViewNV) {
            return Some(format!("{name} TensorView <id> {} does not have a tensor view type.", r.id(view)));
        }
        at += 1;
    }
    if mask & ta::DecodeFunc == 0 {
        return None;
    }
    if !load {
        return Some("OpCooperativeMatrixStoreTensorNV does not support DecodeFunc.".into());
    }
    let func = m.word(i, at);
    if m.def_opcode(func) != Some(op::OpFunction) {
        return Some(format!("{name} DecodeFunc <id> {} is not a function.", r.id(func)));
    }
    let fn_type = m.def_word(func, 4).unwrap_or(0);
    let param = |k: usize| m.def_word(fn_type, k).unwrap_or(0);
    if param(2) != m.def_word(matrix, 2).unwrap_or(0) {
        return Some(format!("{name} DecodeFunc <id> {} return type must match matrix component type.", r.id(func)));
    }
    if m.def_word(param(3), 2) != Some(sc::PhysicalStorageBuffer) {
        return Some(format!(
            "{name} DecodeFunc <id> {} first parameter must be pointer to PhysicalStorageBuffer.",
            r.id(func)
        ));
    }
    let dim = m.def_word(layout_type, 2).and_then(|d| constant_u64(m, d));
    for k in [4, 5] {
        let array = param(k);
        let length = m.def_word(array, 3).and_then(|l| constant_u64(m, l));
        let wrong_length = matches!((length, dim), (Some(l), Some(d)) if l != d);
        if m.def_opcode(array) != Some(op::OpTypeArray) || wrong_length {
            return Some(format!(
                "{name} DecodeFunc <id> {} second/third parameter must be array of 32-bit integer with  dimension \
                 equal to the tensor dimension.",
                r.id(func)
            ));
        }
    }
    None
}
