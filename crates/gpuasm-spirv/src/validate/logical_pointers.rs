//! Logical pointers (spirv-val's newest pass): with Logical or
//! PhysicalStorageBuffer64 addressing, only certain instructions may produce
//! a pointer that is not a PhysicalStorageBuffer one; some only as variable
//! pointers, in the storage classes their capability allows.
//!
//! Not yet: which instructions may take such pointers as operands, and the
//! variable-pointer rules (same buffer, no matrices, no Block arrays).

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{addressing_model, capability, op, storage_class};

pub(crate) fn check(m: &Module, r: &mut Report) {
    let Some(model) = m.insts.iter().position(|i| i.opcode() == op::OpMemoryModel).map(|i| m.word(i, 0)) else {
        return;
    };
    if model != addressing_model::Logical && model != addressing_model::PhysicalStorageBuffer64 {
        return;
    }
    let caps = super::capabilities::with_implied(m);
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let ty = inst.result_type;
        if ty == 0 || !matches!(m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR)) {
            continue;
        }
        let class = m.def_word(ty, 2).unwrap_or(0);
        if class == storage_class::PhysicalStorageBuffer {
            continue;
        }
        let message = match inst.opcode() {
            op::OpVariable
            | op::OpAccessChain
            | op::OpInBoundsAccessChain
            | op::OpFunctionParameter
            | op::OpImageTexelPointer
            | op::OpCopyObject
            | op::OpUndef
            | op::OpUntypedAccessChainKHR
            | op::OpUntypedInBoundsAccessChainKHR
            | op::OpUntypedVariableKHR
            | op::OpRawAccessChainNV
            | op::OpAllocateNodePayloadsAMDX => continue,
            op::OpSelect
            | op::OpPhi
            | op::OpFunctionCall
            | op::OpPtrAccessChain
            | op::OpLoad
            | op::OpConstantNull
            | op::OpFunction
            | op::OpUntypedPtrAccessChainKHR => {
                let allowed = (caps.contains(&capability::VariablePointersStorageBuffer)
                    && class == storage_class::StorageBuffer)
                    || (caps.contains(&capability::VariablePointers) && class == storage_class::Workgroup);
                if allowed {
                    continue;
                }
                "Instruction may only return a logical pointer in the StorageBuffer or Workgroup storage classes \
                 with appropriate variable pointers capability"
            }
            _ => "Instruction may not return a logical pointer",
        };
        r.error(ErrorKind::OperandType, i, message);
        if r.full() {
            return;
        }
    }
}
