//! What a variable may hold, by storage class, in Vulkan (spirv-val's
//! `ValidateVariable` rules on buffer and handle classes and runtime
//! arrays, VUIDs 06807, 06808, 04655 and 04680), and whether a value holds
//! a handle (the store rule, 06924). The memory pass asks these in
//! spirv-val's order.

use super::Report;
use crate::grammar::{capability, decoration, op, storage_class};
use crate::module::Module;

/// Whether a value of type `ty` holds an image, sampler, sampled image or
/// acceleration structure (spirv-val looks through composites, not
/// pointers).
pub(super) fn contains_handle(m: &Module, ty: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match m.def_opcode(ty) {
        Some(op::OpTypeImage | op::OpTypeSampler | op::OpTypeSampledImage | op::OpTypeAccelerationStructureKHR) => true,
        Some(op::OpTypeArray | op::OpTypeRuntimeArray | op::OpTypeVector | op::OpTypeMatrix) => {
            contains_handle(m, m.def_word(ty, 2).unwrap_or(0), depth + 1)
        }
        Some(op::OpTypeStruct) => {
            (2..=m.operands_len_of(ty)).any(|w| contains_handle(m, m.def_word(ty, w).unwrap_or(0), depth + 1))
        }
        _ => false,
    }
}

/// Vulkan's rules for runtime arrays in variables (VUID 04680), in
/// spirv-val's words: only inside a struct (or, with
/// RuntimeDescriptorArrayEXT, in a resource), and a struct holding one is a
/// Block in StorageBuffer/PhysicalStorageBuffer or a BufferBlock in Uniform.
pub(super) fn runtime_array_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    let value = m.def_word(m.result_type_word(i), 3)?;
    let class = m.word(i, 2);
    let vuid = "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680]";
    use storage_class as c;
    match m.def_opcode(value)? {
        op::OpTypeRuntimeArray => {
            if !super::capabilities::with_implied(m).contains(&capability::RuntimeDescriptorArray) {
                let name = r.id(m.result_id_word(i));
                Some(format!(
                    "{vuid} OpVariable, <id> {name}, is attempting to create memory for an illegal type, OpTypeRuntimeArray."
                ))
            } else if !matches!(class, c::StorageBuffer | c::Uniform | c::UniformConstant) {
                Some(format!(
                    "{vuid} For Vulkan with RuntimeDescriptorArrayEXT, a variable containing OpTypeRuntimeArray must have storage class of StorageBuffer, Uniform, or UniformConstant."
                ))
            } else {
                None
            }
        }
        op::OpTypeStruct => {
            if !struct_has_runtime_array(m, value) {
                return None;
            }
            let decorated = |dec| m.has_decoration(value, dec);
            let needs = match class {
                c::StorageBuffer | c::PhysicalStorageBuffer if !decorated(decoration::Block) => "must be decorated with Block if it has storage class StorageBuffer or PhysicalStorageBuffer.",
                c::StorageBuffer | c::PhysicalStorageBuffer => return None,
                // Block Uniform structs may hold one too since
                // VK_EXT_shader_uniform_buffer_unsized_array (checked at
                // run time), as spirv-val allows.
                c::Uniform => return None,
                _ => return Some(format!(
                    "{vuid} For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform."
                )),
            };
            Some(format!("{vuid} For Vulkan, an OpTypeStruct variable containing an OpTypeRuntimeArray {needs}"))
        }
        _ => None,
    }
}

/// Vulkan's rules on what variable `i` (an OpVariable) of a buffer or
/// handle storage class may hold, in spirv-val's words: the memory pass
/// checks them where spirv-val does, after the storage class.
pub(super) fn vulkan_class_problem(m: &Module, r: &mut Report, i: usize) -> Option<String> {
    // The name only for a message: naming ids is work.
    if let Some((class, vuid)) = buffer_class_problem(m, i) {
        let t = r.id(m.result_id_word(i));
        return Some(format!("{vuid} {class} OpVariable <id> {t} has illegal type."));
    }
    (m.word(i, 2) == storage_class::UniformConstant && !opaque_handle(m, i)).then(|| {
        let t = r.id(m.result_id_word(i));
        format!("[VUID-StandaloneSpirv-UniformConstant-04655] UniformConstant OpVariable <id> {t} has illegal type.")
    })
}

/// Vulkan buffer variables hold structs: Uniform and StorageBuffer ones a
/// struct or an array of structs (06807), PushConstant ones a struct
/// (06808). The class's name and the VUID when broken.
fn buffer_class_problem(m: &Module, i: usize) -> Option<(&'static str, &'static str)> {
    let pointee = m.def_word(m.result_type_word(i), 3)?;
    let is_struct = |t: u32| m.def_opcode(t) == Some(op::OpTypeStruct);
    let struct_or_array = || match m.def_opcode(pointee) {
        Some(op::OpTypeArray | op::OpTypeRuntimeArray) => is_struct(m.def_word(pointee, 2).unwrap_or(0)),
        _ => is_struct(pointee),
    };
    match m.word(i, 2) {
        storage_class::Uniform if !struct_or_array() => Some(("Uniform", "[VUID-StandaloneSpirv-Uniform-06807]")),
        storage_class::StorageBuffer if !struct_or_array() => {
            Some(("StorageBuffer", "[VUID-StandaloneSpirv-Uniform-06807]"))
        }
        storage_class::PushConstant if !is_struct(pointee) => {
            Some(("PushConstant", "[VUID-StandaloneSpirv-PushConstant-06808]"))
        }
        _ => None,
    }
}

/// Whether a member of struct `ty` is a runtime array.
fn struct_has_runtime_array(m: &Module, ty: u32) -> bool {
    (2..=m.operands_len_of(ty)).any(|w| m.def_opcode(m.def_word(ty, w).unwrap_or(0)) == Some(op::OpTypeRuntimeArray))
}

/// Whether variable `i` points to what a Vulkan UniformConstant variable
/// may hold: an image, sampler, sampled image, acceleration structure, ray
/// query or tensor, or an array of one.
fn opaque_handle(m: &Module, i: usize) -> bool {
    let Some(mut t) = m.def_word(m.result_type_word(i), 3) else { return true };
    if matches!(m.def_opcode(t), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
        t = m.def_word(t, 2).unwrap_or(0);
    }
    matches!(
        m.def_opcode(t),
        Some(
            op::OpTypeImage
                | op::OpTypeSampler
                | op::OpTypeSampledImage
                | op::OpTypeAccelerationStructureKHR
                | op::OpTypeRayQueryKHR
                | op::OpTypeTensorARM
        )
    )
}
