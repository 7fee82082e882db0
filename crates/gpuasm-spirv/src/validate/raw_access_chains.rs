//! OpRawAccessChainNV (SPV_NV_raw_access_chains): a pointer into a buffer
//! (StorageBuffer, PhysicalStorageBuffer or Uniform) to no aggregate, a
//! constant integer Stride, 32-bit integer Index and Offset, and one
//! robustness mode at most (not on physical buffers; per element with a
//! non-zero stride), in spirv-val's words and order
//! (validate_memory.cpp, ValidateRawAccessChain).

use super::{ErrorKind, Report};
use crate::grammar::{op, raw_access_chain_operands as robust, storage_class as sc};
use crate::module::Module;

fn opcode_name(m: &Module, id: u32) -> &'static str {
    m.def_opcode(id).and_then(crate::grammar::instruction).map_or("Nop", |info| info.name)
}

fn problem(m: &Module, i: usize, r: &mut Report) -> Option<String> {
    let inst = &m.insts[i];
    if m.operands(i).len() < 6 {
        return None;
    }
    let rt = m.result_type_at(inst);
    let me = r.id(m.result_id_at(inst));
    let pointer = m.def_opcode(rt)?;
    if pointer != op::OpTypePointer {
        return Some(format!(
            "The Result Type of OpRawAccessChainNV <id> {me} must be OpTypePointer. Found {}.",
            opcode_name(m, rt)
        ));
    }
    let class = m.def_word(rt, 2)?;
    if !matches!(class, sc::StorageBuffer | sc::PhysicalStorageBuffer | sc::Uniform) {
        return Some(format!(
            "The Result Type of OpRawAccessChainNV <id> {me} must point to a storage class of StorageBuffer, \
             PhysicalStorageBuffer, or Uniform."
        ));
    }
    if matches!(
        m.def_word(rt, 3).and_then(|t| m.def_opcode(t)),
        Some(op::OpTypeArray | op::OpTypeMatrix | op::OpTypeStruct)
    ) {
        return Some(format!(
            "The Result Type of OpRawAccessChainNV <id> {me} must not point to OpTypeArray, OpTypeMatrix, or \
             OpTypeStruct."
        ));
    }
    let stride = m.word(i, 3);
    if m.def_opcode(stride) != Some(op::OpConstant) {
        return Some(format!(
            "The Stride of OpRawAccessChainNV <id> {me} must be OpConstant. Found {}.",
            opcode_name(m, stride)
        ));
    }
    let stride_type = m.type_of(stride);
    if m.def_opcode(stride_type) != Some(op::OpTypeInt) {
        return Some(format!(
            "The type of Stride of OpRawAccessChainNV <id> {me} must be OpTypeInt. Found {}.",
            opcode_name(m, stride_type)
        ));
    }
    for (what, k) in [("Index", 4), ("Offset", 5)] {
        let ty = m.type_of(m.word(i, k));
        if m.def_opcode(ty) != Some(op::OpTypeInt) {
            return Some(format!(
                "The type of {what} of OpRawAccessChainNV <id> {me} must be OpTypeInt. Found {}.",
                opcode_name(m, ty)
            ));
        }
        let width = m.def_word(ty, 2).unwrap_or(0);
        if width != 32 {
            return Some(format!(
                "The integer width of {what} of OpRawAccessChainNV <id> {me} must be 32. Found {width}."
            ));
        }
    }
    let operands = if m.operands(i).len() > 6 { m.word(i, 6) } else { 0 };
    let per_element = operands & robust::RobustnessPerElementNV != 0;
    let per_component = operands & robust::RobustnessPerComponentNV != 0;
    let stride_zero = m.def_word(stride, 3) == Some(0) && m.def_word(stride, 4).unwrap_or(0) == 0;
    if per_element && stride_zero {
        return Some("Stride must not be zero when per-element robustness is used.".into());
    }
    if (per_element || per_component) && class == sc::PhysicalStorageBuffer {
        return Some("Storage class cannot be PhysicalStorageBuffer when raw access chain robustness is used.".into());
    }
    (per_element && per_component)
        .then(|| "Per-component robustness and per-element robustness are mutually exclusive.".into())
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        if m.opcode(i) != op::OpRawAccessChainNV {
            continue;
        }
        if let Some(message) = problem(m, i, r) {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
