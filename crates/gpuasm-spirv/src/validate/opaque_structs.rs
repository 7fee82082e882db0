//! Vulkan: an OpTypeStruct contains no opaque type (VUID-StandaloneSpirv-
//! None-04667), looking through arrays, vectors, nested structs and the
//! pointers it holds (not through forward-declared ones), as spirv-val's
//! `ContainsType` does. With BindlessTextureNV images and samplers are
//! plain handles and may be members.

use super::module::Module;
use crate::grammar::{capability, op};
use rustc_hash::FxHashSet;

/// spirv-val's `spvOpcodeIsBaseOpaqueType` (OpTypeForwardPointer never
/// defines an id, so it does not appear).
const OPAQUE: &[u16] = &[
    op::OpTypeImage,
    op::OpTypeSampler,
    op::OpTypeSampledImage,
    op::OpTypeOpaque,
    op::OpTypeEvent,
    op::OpTypeDeviceEvent,
    op::OpTypeReserveId,
    op::OpTypeQueue,
    op::OpTypePipe,
    op::OpTypePipeStorage,
    op::OpTypeNamedBarrier,
];

/// Whether struct `ty` contains an opaque type.
pub(super) fn contains_opaque(m: &Module, ty: u32) -> bool {
    let bindless = m.declared_capabilities.contains(&capability::BindlessTextureNV);
    let forward: FxHashSet<u32> =
        (0..m.insts.len()).filter(|&i| m.insts[i].opcode() == op::OpTypeForwardPointer).map(|i| m.word(i, 0)).collect();
    let opaque = |o: u16| {
        OPAQUE.contains(&o) && !(bindless && matches!(o, op::OpTypeImage | op::OpTypeSampler | op::OpTypeSampledImage))
    };
    let mut seen = FxHashSet::default();
    let mut stack = vec![ty];
    while let Some(t) = stack.pop() {
        let Some(o) = m.def_opcode(t) else { continue };
        if opaque(o) {
            return true;
        }
        if !seen.insert(t) {
            continue;
        }
        match o {
            op::OpTypeArray
            | op::OpTypeRuntimeArray
            | op::OpTypeVector
            | op::OpTypeMatrix
            | op::OpTypeCooperativeMatrixNV
            | op::OpTypeCooperativeMatrixKHR
            | op::OpTypeCooperativeVectorNV => stack.extend(m.def_word(t, 2)),
            op::OpTypePointer if !forward.contains(&t) => stack.extend(m.def_word(t, 3)),
            op::OpTypeStruct | op::OpTypeFunction => {
                stack.extend((2..=m.operands_len_of(t)).filter_map(|w| m.def_word(t, w)))
            }
            _ => {}
        }
    }
    false
}
