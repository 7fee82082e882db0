//! SPIRV-Tools' own opcode predicates, where they differ from the
//! grammar's classes: which instructions it takes for type declarations
//! (`spvOpcodeGeneratesType`) and for constants (`spvOpcodeIsConstant`);
//! and the storage classes spirv-val lets a Vulkan module use.
//! spirv-val's id, layout and decoration rules ask these, so an
//! OpTypeVmeImageINTEL (a "Type-Declaration" of the grammar's, not one of
//! these) is no type to them, and an OpConstantCompositeContinuedINTEL no
//! constant; spirv-dis's `--comment` opens the types section at the first
//! of these types.

use crate::grammar::{op, storage_class as sc};

/// Type declarations as spirv-val 2025.5 lists them.
const GENERATES_TYPE: &[u16] = &[
    op::OpTypeVoid,
    op::OpTypeBool,
    op::OpTypeInt,
    op::OpTypeFloat,
    op::OpTypeVector,
    op::OpTypeMatrix,
    op::OpTypeImage,
    op::OpTypeSampler,
    op::OpTypeSampledImage,
    op::OpTypeArray,
    op::OpTypeRuntimeArray,
    op::OpTypeStruct,
    op::OpTypeOpaque,
    op::OpTypePointer,
    op::OpTypeFunction,
    op::OpTypeEvent,
    op::OpTypeDeviceEvent,
    op::OpTypeReserveId,
    op::OpTypeQueue,
    op::OpTypePipe,
    op::OpTypePipeStorage,
    op::OpTypeNamedBarrier,
    op::OpTypeAccelerationStructureKHR,
    op::OpTypeCooperativeMatrixNV,
    op::OpTypeCooperativeMatrixKHR,
    op::OpTypeCooperativeVectorNV,
    op::OpTypeRayQueryKHR,
    op::OpTypeHitObjectNV,
    op::OpTypeHitObjectEXT,
    op::OpTypeUntypedPointerKHR,
    op::OpTypeNodePayloadArrayAMDX,
    op::OpTypeTensorLayoutNV,
    op::OpTypeTensorViewNV,
    op::OpTypeTensorARM,
    op::OpTypeTaskSequenceALTERA,
    op::OpTypeGraphARM,
];

/// Constants as spirv-val 2025.5 lists them.
const IS_CONSTANT: &[u16] = &[
    op::OpConstantTrue,
    op::OpConstantFalse,
    op::OpConstant,
    op::OpConstantComposite,
    op::OpConstantCompositeReplicateEXT,
    op::OpConstantSampler,
    op::OpConstantNull,
    op::OpConstantFunctionPointerINTEL,
    op::OpConstantStringAMDX,
    op::OpSpecConstantTrue,
    op::OpSpecConstantFalse,
    op::OpSpecConstant,
    op::OpSpecConstantComposite,
    op::OpSpecConstantCompositeReplicateEXT,
    op::OpSpecConstantOp,
    op::OpSpecConstantStringAMDX,
    op::OpGraphConstantARM,
    op::OpAsmTargetINTEL,
    op::OpAsmINTEL,
    op::OpSpecConstantArchitectureINTEL,
    op::OpSpecConstantTargetINTEL,
    op::OpSpecConstantCapabilitiesINTEL,
];

/// Storage classes a Vulkan module may use (spirv-val's
/// IsValidStorageClass).
const VULKAN_CLASSES: &[u32] = &[
    sc::UniformConstant,
    sc::Uniform,
    sc::StorageBuffer,
    sc::Input,
    sc::Output,
    sc::Image,
    sc::Workgroup,
    sc::Private,
    sc::Function,
    sc::PushConstant,
    sc::PhysicalStorageBuffer,
    sc::RayPayloadKHR,
    sc::IncomingRayPayloadKHR,
    sc::HitAttributeKHR,
    sc::CallableDataKHR,
    sc::IncomingCallableDataKHR,
    sc::ShaderRecordBufferKHR,
    sc::TaskPayloadWorkgroupEXT,
    sc::HitObjectAttributeNV,
    sc::HitObjectAttributeEXT,
    sc::TileImageEXT,
    sc::NodePayloadAMDX,
    sc::TileAttachmentQCOM,
];

/// An opcode set as bits, made at compile time from a list: the id and
/// layout rules ask these for every operand and instruction, where a scan
/// of the list cost 6% of validating a 1 MB module.
struct OpcodeBits([u64; 128]);

impl OpcodeBits {
    const fn new(list: &[u16]) -> OpcodeBits {
        let mut bits = [0u64; 128];
        let mut k = 0;
        while k < list.len() {
            let o = list[k] as usize;
            assert!(o < 128 * 64, "opcode past the table");
            bits[o / 64] |= 1 << (o % 64);
            k += 1;
        }
        OpcodeBits(bits)
    }

    fn contains(&self, opcode: u16) -> bool {
        let o = opcode as usize;
        o < 128 * 64 && self.0[o / 64] & (1 << (o % 64)) != 0
    }
}

const TYPES: OpcodeBits = OpcodeBits::new(GENERATES_TYPE);
const CONSTANTS: OpcodeBits = OpcodeBits::new(IS_CONSTANT);

/// Whether a Vulkan module may use storage class `class` (on pointer types
/// and variables).
pub(crate) fn vulkan_storage_class(class: u32) -> bool {
    VULKAN_CLASSES.contains(&class)
}

/// Whether spirv-val takes `opcode` for a type declaration.
pub(crate) fn generates_type(opcode: u16) -> bool {
    TYPES.contains(opcode)
}

/// Whether spirv-val takes `opcode` for a constant.
pub(crate) fn is_constant(opcode: u16) -> bool {
    CONSTANTS.contains(opcode)
}

/// Whether SPIRV-Tools takes `opcode` for a specialization constant
/// (`spvOpcodeIsSpecConstant`: the INTEL conditional ones too).
pub(crate) fn is_spec_constant(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpSpecConstantTrue
            | op::OpSpecConstantFalse
            | op::OpSpecConstant
            | op::OpSpecConstantComposite
            | op::OpSpecConstantCompositeReplicateEXT
            | op::OpSpecConstantOp
            | op::OpSpecConstantArchitectureINTEL
            | op::OpSpecConstantTargetINTEL
            | op::OpSpecConstantCapabilitiesINTEL
    )
}

/// Whether spirv-val's layout puts `opcode` in the types section whatever
/// section it is in: types, constants and OpTypeForwardPointer.
pub(crate) fn always_in_types(opcode: u16) -> bool {
    generates_type(opcode) || is_constant(opcode) || opcode == op::OpTypeForwardPointer
}

/// The instructions of the graph definitions section (SPV_ARM_graph):
/// spirv-val's layout moves there at the first of them, wherever it
/// stands.
pub(crate) fn in_graph_section(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpGraphEntryPointARM | op::OpGraphARM | op::OpGraphInputARM | op::OpGraphSetOutputARM | op::OpGraphEndARM
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_differ_from_the_grammar_classes_where_spirv_val_does() {
        assert!(!generates_type(op::OpTypeVmeImageINTEL));
        assert!(!generates_type(op::OpTypeForwardPointer));
        assert!(generates_type(op::OpTypeNodePayloadArrayAMDX));
        assert!(!is_constant(op::OpConstantCompositeContinuedINTEL));
        assert!(is_constant(op::OpAsmINTEL));
        assert!(always_in_types(op::OpTypeTaskSequenceALTERA));
    }
}
