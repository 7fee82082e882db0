//! Constant declarations, as spirv-val's constant pass checks them:
//! boolean constants are of a boolean type, null constants of a type that
//! has a null value, samplers of the sampler type, specialization
//! constants of a number type, and the operations a specialization
//! constant may compute need their capability. A Shader module may not
//! form a constant of a number type it may only store.

use super::Report;
use crate::grammar::{capability, op, storage_class};
use crate::module::{is_constant, Module};
use rustc_hash::FxHashSet;

/// What the module declares that the constant rules depend on.
pub(crate) struct Context {
    /// Declared capabilities with the ones they imply.
    pub caps: FxHashSet<u32>,
    /// SPIR-V 1.4 or SPV_AMD_gpu_shader_int16: OpSpecConstantOp may UConvert.
    pub uconvert: bool,
}

impl Context {
    pub fn new(m: &Module, caps: FxHashSet<u32>) -> Context {
        let (major, minor) = m.header.version_parts();
        let amd = super::capabilities::declared_extensions(m).contains(&b"SPV_AMD_gpu_shader_int16"[..]);
        Context { caps, uconvert: (major, minor) >= (1, 4) || amd }
    }
}

/// Operations a specialization constant may only compute in kernels.
const KERNEL_SPEC_OPS: &[u16] = &[
    op::OpConvertFToS,
    op::OpConvertSToF,
    op::OpConvertFToU,
    op::OpConvertUToF,
    op::OpConvertPtrToU,
    op::OpConvertUToPtr,
    op::OpGenericCastToPtr,
    op::OpPtrCastToGeneric,
    op::OpBitcast,
    op::OpFNegate,
    op::OpFAdd,
    op::OpFSub,
    op::OpFMul,
    op::OpFDiv,
    op::OpFRem,
    op::OpFMod,
    op::OpAccessChain,
    op::OpInBoundsAccessChain,
    op::OpPtrAccessChain,
    op::OpInBoundsPtrAccessChain,
];

/// What spirv-val's constant pass finds wrong with instruction `i`.
pub(crate) fn problem(m: &Module, cx: &Context, r: &mut Report, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    let name = inst.info().name;
    let message = match inst.opcode() {
        op::OpConstantTrue | op::OpConstantFalse | op::OpSpecConstantTrue | op::OpSpecConstantFalse
            if m.def_opcode(rt) != Some(op::OpTypeBool) =>
        {
            Some(format!("{name} Result Type <id> {} is not a boolean type.", r.id(rt)))
        }
        op::OpConstantSampler if m.def_opcode(rt) != Some(op::OpTypeSampler) => {
            Some(format!("OpConstantSampler Result Type <id> {} is not a sampler type.", r.id(rt)))
        }
        op::OpConstantNull if !nullable(m, rt, 0) => {
            Some(format!("OpConstantNull Result Type <id> {} cannot have a null value.", r.id(rt)))
        }
        op::OpSpecConstant if !matches!(m.def_opcode(rt), Some(op::OpTypeInt | op::OpTypeFloat)) => {
            Some("Specialization constant must be an integer or floating-point number.".into())
        }
        op::OpSpecConstantOp => spec_op_problem(m, cx, i),
        _ => None,
    };
    if message.is_some() {
        return message;
    }
    // Generally 8- and 16-bit constants need the full capabilities (for
    // composites the type rules check it after their constituents').
    let pointer = matches!(m.def_opcode(rt), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR));
    let composite = matches!(inst.opcode(), op::OpConstantComposite | op::OpSpecConstantComposite);
    (is_constant(inst.opcode())
        && !composite
        && cx.caps.contains(&capability::Shader)
        && !pointer
        && super::small_types::limited_use(m, rt))
    .then(|| "Cannot form constants of 8- or 16-bit types".into())
}

/// The capability an operation of OpSpecConstantOp needs.
fn spec_op_problem(m: &Module, cx: &Context, i: usize) -> Option<String> {
    let opcode = m.word(i, 2) as u16;
    let name = crate::grammar::instruction(opcode).map_or("", |e| &e.name[2..]);
    let has = |c| cx.caps.contains(&c);
    if opcode == op::OpQuantizeToF16 && !has(capability::Shader) {
        Some(format!("Specialization constant operation {name} requires Shader capability"))
    } else if opcode == op::OpUConvert && !cx.uconvert && !has(capability::Kernel) {
        Some(
            "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or extension \
             SPV_AMD_gpu_shader_int16"
                .into(),
        )
    } else if KERNEL_SPEC_OPS.contains(&opcode) && !has(capability::Kernel) {
        Some(format!("Specialization constant operation {name} requires Kernel capability"))
    } else {
        None
    }
}

/// Whether type `ty` has a null value (spec OpConstantNull): scalars, the
/// OpenCL event and queue types, pointers outside PhysicalStorageBuffer,
/// and composites (not runtime arrays) of nullable types.
fn nullable(m: &Module, ty: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let element = |w| m.def_word(ty, w).is_some_and(|e| nullable(m, e, depth + 1));
    match m.def_opcode(ty) {
        Some(
            op::OpTypeBool
            | op::OpTypeInt
            | op::OpTypeFloat
            | op::OpTypeEvent
            | op::OpTypeDeviceEvent
            | op::OpTypeReserveId
            | op::OpTypeQueue,
        ) => true,
        Some(
            op::OpTypeArray
            | op::OpTypeMatrix
            | op::OpTypeVector
            | op::OpTypeCooperativeMatrixNV
            | op::OpTypeCooperativeMatrixKHR
            | op::OpTypeCooperativeVectorNV,
        ) => element(2),
        Some(op::OpTypeStruct) => (2..=m.operands_len_of(ty)).all(element),
        Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR) => {
            m.def_word(ty, 2) != Some(storage_class::PhysicalStorageBuffer)
        }
        // A tensor of known shape.
        Some(op::OpTypeTensorARM) => m.operands_len_of(ty) > 3 && element(2),
        _ => false,
    }
}
