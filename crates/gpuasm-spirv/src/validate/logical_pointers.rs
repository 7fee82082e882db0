//! Logical pointers (spirv-val's newest pass): with Logical or
//! PhysicalStorageBuffer64 addressing, only certain instructions may produce
//! a pointer that is not a PhysicalStorageBuffer one; some only as variable
//! pointers, in the storage classes their capability allows.
//!
//! Likewise only certain instructions with a result may take such a pointer
//! as an operand.
//!
//! Then the variable pointer rules (`variable_pointers`). None of it
//! applies with spirv-val's `--relax-logical-pointer`.

use super::{ErrorKind, Report};
use crate::grammar::{addressing_model, capability, op, storage_class, OperandKind};
use crate::module::Module;

pub(crate) fn check(m: &Module, r: &mut Report) {
    let Some(model) = m.addressing_model() else {
        return;
    };
    if model != addressing_model::Logical && model != addressing_model::PhysicalStorageBuffer64 {
        return;
    }
    let caps = super::capabilities::with_implied(m);
    let variable_pointers = |class: u32| {
        (caps.contains(&capability::VariablePointersStorageBuffer) && class == storage_class::StorageBuffer)
            || (caps.contains(&capability::VariablePointers) && class == storage_class::Workgroup)
    };
    let mut variable = super::variable_pointers::VariablePointers::new(m, caps);
    for i in 0..m.insts.len() {
        let problem = operand_problem(m, i, &variable_pointers)
            .or_else(|| return_problem(m, i, &variable_pointers))
            .or_else(|| variable.problem(i));
        if let Some(message) = problem {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}

/// spirv-val's rule for instructions that make a logical pointer.
fn return_problem(m: &Module, i: usize, variable_pointers: &dyn Fn(u32) -> bool) -> Option<&'static str> {
    let inst = &m.insts[i];
    let ty = m.result_type_at(inst);
    if ty == 0 || !matches!(m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR)) {
        return None;
    }
    let class = m.def_word(ty, 2).unwrap_or(0);
    if class == storage_class::PhysicalStorageBuffer {
        return None;
    }
    match inst.opcode() {
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
        | op::OpAllocateNodePayloadsAMDX => None,
        op::OpSelect
        | op::OpPhi
        | op::OpFunctionCall
        | op::OpPtrAccessChain
        | op::OpLoad
        | op::OpConstantNull
        | op::OpFunction
        | op::OpUntypedPtrAccessChainKHR => (!variable_pointers(class)).then_some(
            "Instruction may only return a logical pointer in the StorageBuffer or Workgroup storage classes \
             with appropriate variable pointers capability",
        ),
        _ => Some("Instruction may not return a logical pointer"),
    }
}

/// The storage class of the first operand (an `IdRef`) of instruction `i`
/// that is a logical pointer, if any.
fn logical_pointer_operand(m: &Module, i: usize) -> Option<u32> {
    m.operands(i).iter().enumerate().filter(|(_, o)| o.kind == OperandKind::IdRef).find_map(|(k, _)| {
        let ty = m.type_of(m.word(i, k));
        if ty == 0 || !matches!(m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR)) {
            return None;
        }
        let class = m.def_word(ty, 2).unwrap_or(0);
        (class != storage_class::PhysicalStorageBuffer).then_some(class)
    })
}

/// spirv-val's rule for logical pointer operands, of any instruction.
fn operand_problem(m: &Module, i: usize, variable_pointers: &dyn Fn(u32) -> bool) -> Option<&'static str> {
    let inst = &m.insts[i];
    let class = logical_pointer_operand(m, i)?;
    let opcode = inst.opcode();
    if takes_logical_pointers(opcode) || inst.info().class == "Atomic" || inst.info().name.starts_with("OpRayQuery") {
        return None;
    }
    if matches!(
        opcode,
        op::OpReturnValue
            | op::OpPtrAccessChain
            | op::OpPtrEqual
            | op::OpPtrNotEqual
            | op::OpPtrDiff
            | op::OpSelect
            | op::OpPhi
            | op::OpVariable
            | op::OpUntypedPtrAccessChainKHR
    ) {
        return (!variable_pointers(class)).then_some(
            "Instruction may only have a logical pointer operand in the StorageBuffer or Workgroup storage classes \
             with appropriate variable pointers capability",
        );
    }
    Some("Instruction may not have a logical pointer operand")
}

/// Instructions that may take logical pointer operands without a variable
/// pointers capability (ray queries and atomics aside): spirv-val's list.
fn takes_logical_pointers(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpName
            | op::OpDecorateString
            | op::OpGroupDecorate
            | op::OpGraphEntryPointARM
            | op::OpTraceRayKHR
            | op::OpExecuteCallableKHR
            | op::OpTraceMotionNV
            | op::OpTraceRayMotionNV
            | op::OpEmitMeshTasksEXT
            | op::OpEnqueueNodePayloadsAMDX
            | op::OpLoad
            | op::OpStore
            | op::OpAccessChain
            | op::OpInBoundsAccessChain
            | op::OpFunctionCall
            | op::OpImageTexelPointer
            | op::OpCopyMemory
            | op::OpCopyObject
            | op::OpArrayLength
            | op::OpExtInst
            | op::OpDecorate
            | op::OpDecorateId
            | op::OpEntryPoint
            | op::OpUntypedArrayLengthKHR
            | op::OpUntypedAccessChainKHR
            | op::OpUntypedInBoundsAccessChainKHR
            | op::OpCopyMemorySized
            | op::OpCooperativeMatrixLoadKHR
            | op::OpCooperativeMatrixLoadNV
            | op::OpCooperativeMatrixStoreKHR
            | op::OpCooperativeMatrixStoreNV
            | op::OpReorderThreadWithHitObjectNV
            | op::OpRawAccessChainNV
            | op::OpCooperativeMatrixLoadTensorNV
            | op::OpCooperativeMatrixStoreTensorNV
            | op::OpCooperativeVectorLoadNV
            | op::OpCooperativeVectorStoreNV
            | op::OpCooperativeVectorMatrixMulNV
            | op::OpCooperativeVectorMatrixMulAddNV
            | op::OpCooperativeVectorOuterProductAccumulateNV
            | op::OpCooperativeVectorReduceSumAccumulateNV
            | op::OpNodePayloadArrayLengthAMDX
            | op::OpIsNodePayloadValidAMDX
            | op::OpFinishWritingNodePayloadAMDX
    ) || hit_object(opcode)
}

/// The SPV_NV_shader_invocation_reorder and SPV_EXT_shader_invocation_reorder
/// instructions spirv-val lets take logical pointers (the hit object is one).
fn hit_object(opcode: u16) -> bool {
    crate::grammar::instruction(opcode).is_some_and(|i| {
        (i.name.starts_with("OpHitObject") && (i.name.ends_with("NV") || i.name.ends_with("EXT")))
            || (i.name.starts_with("OpReorderThreadWith") && i.name.ends_with("EXT"))
    })
}
