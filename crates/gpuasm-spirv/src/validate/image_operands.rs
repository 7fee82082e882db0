//! Image operands (the `ImageOperands` mask and the ids that follow it, in
//! order of increasing bit) of the image instructions `images` checks: the
//! instructions each operand goes with, its type, the image dimensions it
//! needs, and the memory scope of the texel availability operands, in
//! spirv-val's order and words.

use super::image_context::{Context, ImageInfo};
use crate::grammar::image_operands as bit;
use crate::grammar::{capability as cap, op, scope, OperandKind};

/// The operand index of the parameter of mask bit `b`, if the mask has it:
/// parameters follow the mask in order of increasing bit, as many for each
/// bit as the grammar gives it.
fn parameter(cx: &Context, i: usize, mask_at: usize, b: u32) -> Option<usize> {
    let mask = cx.m.word(i, mask_at);
    if mask & b == 0 {
        return None;
    }
    let mut k = mask_at + 1;
    for lower in (0..32).map(|s| 1u32 << s).filter(|&l| l < b && mask & l != 0) {
        k += OperandKind::ImageOperands.enumerant(lower).map_or(0, |e| e.parameters.len());
    }
    (k < cx.m.operands(i).len()).then_some(k)
}

fn is_gather(opcode: u16) -> bool {
    matches!(opcode, op::OpImageGather | op::OpImageDrefGather | op::OpImageSparseGather | op::OpImageSparseDrefGather)
}

/// The first broken image-operand rule of image instruction `i`.
pub(super) fn error(cx: &Context, i: usize, info: &ImageInfo) -> Option<String> {
    let (m, t) = (cx.m, &cx.t);
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let name = inst.info().name;
    let mask_at = m.operands(i).iter().position(|o| o.kind == OperandKind::ImageOperands);
    let mask = mask_at.map_or(0, |k| m.word(i, k));
    if info.ms == 1 && mask & bit::Sample == 0 {
        return Some("Image Operand Sample is required for operation on multi-sampled image".into());
    }
    let mask_at = mask_at.filter(|_| mask != 0)?;
    if (mask & (bit::Offset | bit::ConstOffset | bit::ConstOffsets | bit::Offsets)).count_ones() > 1 {
        return Some("Image Operands Offset, ConstOffset, ConstOffsets, Offsets cannot be used together".into());
    }
    let implicit = name.contains("ImplicitLod");
    let explicit = name.contains("ExplicitLod");
    // AMD's extensions: Lod on reads and writes, Bias and Lod on gathers.
    let read_write_lod = matches!(opcode, op::OpImageRead | op::OpImageWrite | op::OpImageSparseRead)
        && cx.has(cap::ImageReadWriteLodAMD);
    let gather_lod_bias =
        matches!(opcode, op::OpImageGather | op::OpImageSparseGather) && cx.has(cap::ImageGatherBiasLodAMD);
    let fetch = matches!(opcode, op::OpImageFetch | op::OpImageSparseFetch);
    let param = |b| parameter(cx, i, mask_at, b);
    let ty = |k: usize| cx.operand_type(i, k);
    let dim_message = |what: &str| format!("Image Operand {what} requires 'Dim' parameter to be 1D, 2D, 3D or Cube");
    if let Some(k) = param(bit::Bias) {
        if !implicit && !gather_lod_bias {
            return Some("Image Operand Bias can only be used with ImplicitLod opcodes".into());
        }
        if !t.is_float(ty(k)) {
            return Some("Expected Image Operand Bias to be float scalar".into());
        }
        if !info.mipmapped_dim() {
            return Some(dim_message("Bias"));
        }
    }
    if let Some(k) = param(bit::Lod) {
        if !explicit && !read_write_lod && !fetch && !gather_lod_bias {
            return Some("Image Operand Lod can only be used with ExplicitLod opcodes and OpImageFetch".into());
        }
        if mask & bit::Grad != 0 {
            return Some("Image Operand bits Lod and Grad cannot be set at the same time".into());
        }
        if explicit || gather_lod_bias {
            if !t.is_float(ty(k)) {
                return Some("Expected Image Operand Lod to be float scalar when used with ExplicitLod".into());
            }
        } else if !t.is_int(ty(k)) {
            return Some("Expected Image Operand Lod to be int scalar when used with OpImageFetch".into());
        }
        if !info.mipmapped_dim() {
            return Some(dim_message("Lod"));
        }
    }
    if let Some(k) = param(bit::Grad) {
        if !explicit {
            return Some("Image Operand Grad can only be used with ExplicitLod opcodes".into());
        }
        let (dx, dy) = (ty(k), if k + 1 < m.operands(i).len() { ty(k + 1) } else { 0 });
        if !t.is_float_scalar_or_vector(dx) || !t.is_float_scalar_or_vector(dy) {
            return Some("Expected both Image Operand Grad ids to be float scalars or vectors".into());
        }
        let plane = info.plane_size();
        for (what, d) in [("dx", dx), ("dy", dy)] {
            let given = t.dimension(d);
            if given != plane {
                return Some(format!(
                    "Expected Image Operand Grad {what} to have {plane} components, but given {given}"
                ));
            }
        }
    }
    if let Some(k) = param(bit::ConstOffset) {
        if info.dim == crate::grammar::dim::Cube {
            return Some("Image Operand ConstOffset cannot be used with Cube Image 'Dim'".into());
        }
        if !t.is_int_scalar_or_vector(ty(k)) {
            return Some("Expected Image Operand ConstOffset to be int scalar or vector".into());
        }
        if !m.def_opcode(m.word(i, k)).is_some_and(crate::module::is_constant) {
            return Some("Expected Image Operand ConstOffset to be a const object".into());
        }
        let (plane, given) = (info.plane_size(), t.dimension(ty(k)));
        if plane != given {
            return Some(format!("Expected Image Operand ConstOffset to have {plane} components, but given {given}"));
        }
    }
    if let Some(k) = param(bit::Offset) {
        if info.dim == crate::grammar::dim::Cube {
            return Some("Image Operand Offset cannot be used with Cube Image 'Dim'".into());
        }
        if !t.is_int_scalar_or_vector(ty(k)) {
            return Some("Expected Image Operand Offset to be int scalar or vector".into());
        }
        let (plane, given) = (info.plane_size(), t.dimension(ty(k)));
        if plane != given {
            return Some(format!("Expected Image Operand Offset to have {plane} components, but given {given}"));
        }
        if cx.vulkan && !cx.offset_anywhere && !is_gather(opcode) {
            return Some(
                "[VUID-RuntimeSpirv-Offset-10213] Image Operand Offset can only be used with OpImage*Gather \
                 operations.\nThis is allowed if you enable the maintenance8 feature (or use the \
                 --allow-offset-texture-operand command line flag)"
                    .into(),
            );
        }
    }
    if let Some(k) = param(bit::ConstOffsets) {
        if !is_gather(opcode) {
            return Some("Image Operand ConstOffsets can only be used with OpImageGather and OpImageDrefGather".into());
        }
        if info.dim == crate::grammar::dim::Cube {
            return Some("Image Operand ConstOffsets cannot be used with Cube Image 'Dim'".into());
        }
        let array = ty(k);
        let length = m.def_word(array, 3).and_then(|n| super::image_context::uint_constant(m, n));
        if m.def_opcode(array) != Some(op::OpTypeArray) || length != Some(4) {
            return Some("Expected Image Operand ConstOffsets to be an array of size 4".into());
        }
        let element = m.def_word(array, 2).unwrap_or(0);
        if !t.is_int_vector(element) || t.dimension(element) != 2 {
            return Some("Expected Image Operand ConstOffsets array components to be int vectors of size 2".into());
        }
        if !m.def_opcode(m.word(i, k)).is_some_and(crate::module::is_constant) {
            return Some("Expected Image Operand ConstOffsets to be a const object".into());
        }
    }
    if let Some(k) = param(bit::Sample) {
        if !matches!(
            opcode,
            op::OpImageFetch | op::OpImageRead | op::OpImageWrite | op::OpImageSparseFetch | op::OpImageSparseRead
        ) {
            return Some(
                "Image Operand Sample can only be used with OpImageFetch, OpImageRead, OpImageWrite, \
                 OpImageSparseFetch and OpImageSparseRead"
                    .into(),
            );
        }
        if info.ms == 0 {
            return Some("Image Operand Sample requires non-zero 'MS' parameter".into());
        }
        if !t.is_int(ty(k)) {
            return Some("Expected Image Operand Sample to be int scalar".into());
        }
    }
    if let Some(k) = param(bit::MinLod) {
        if !implicit && mask & bit::Grad == 0 {
            return Some(
                "Image Operand MinLod can only be used with ImplicitLod opcodes or together with Image Operand Grad"
                    .into(),
            );
        }
        if !t.is_float(ty(k)) {
            return Some("Expected Image Operand MinLod to be float scalar".into());
        }
        if !info.mipmapped_dim() {
            return Some(dim_message("MinLod"));
        }
        if info.ms != 0 {
            return Some("Image Operand MinLod requires 'MS' parameter to be 0".into());
        }
    }
    if let Some(k) = param(bit::MakeTexelAvailable) {
        if opcode != op::OpImageWrite {
            return Some(format!("Image Operand MakeTexelAvailableKHR can only be used with OpImageWrite: {name}"));
        }
        if mask & bit::NonPrivateTexel == 0 {
            return Some(format!(
                "Image Operand MakeTexelAvailableKHR requires NonPrivateTexelKHR is also specified: {name}"
            ));
        }
        if let Some(message) = memory_scope(cx, i, m.word(i, k)) {
            return Some(message);
        }
    }
    if let Some(k) = param(bit::MakeTexelVisible) {
        if !matches!(opcode, op::OpImageRead | op::OpImageSparseRead) {
            return Some(format!(
                "Image Operand MakeTexelVisibleKHR can only be used with OpImageRead or OpImageSparseRead: {name}"
            ));
        }
        if mask & bit::NonPrivateTexel == 0 {
            return Some(format!(
                "Image Operand MakeTexelVisibleKHR requires NonPrivateTexelKHR is also specified: {name}"
            ));
        }
        if let Some(message) = memory_scope(cx, i, m.word(i, k)) {
            return Some(message);
        }
    }
    None
}

/// A memory scope id (spirv-val's `ValidateMemoryScope`): a 32-bit integer,
/// constant in shaders, QueueFamily only with the Vulkan memory model,
/// Device there only with its device-scope capability, and in Vulkan one of
/// the scopes Vulkan knows.
fn memory_scope(cx: &Context, i: usize, id: u32) -> Option<String> {
    let (m, t) = (cx.m, &cx.t);
    let opname = &m.insts[i].info().name[2..];
    let ty = m.type_of(id);
    if !t.is_int(ty) || t.bit_width(ty) != 32 {
        return Some(format!("{opname}: expected scope to be a 32-bit int"));
    }
    let value = match m.def_opcode(id) {
        Some(op::OpConstant) => m.def_word(id, 3),
        Some(op::OpConstantNull) => Some(0),
        _ => None,
    };
    let Some(value) = value else {
        if cx.has(cap::Shader) && !cx.has(cap::CooperativeMatrixNV) {
            return Some("Scope ids must be OpConstant when Shader capability is present".into());
        }
        return None;
    };
    if OperandKind::Scope.enumerant(value).is_none() {
        return Some(super::invalid_scope(m, id));
    }
    let vulkan_memory_model = cx.has(cap::VulkanMemoryModel);
    if value == scope::QueueFamily {
        return (!vulkan_memory_model)
            .then(|| format!("{opname}: Memory Scope QueueFamilyKHR requires capability VulkanMemoryModelKHR"));
    }
    if value == scope::Device && vulkan_memory_model && !cx.has(cap::VulkanMemoryModelDeviceScope) {
        return Some(
            "Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability"
                .into(),
        );
    }
    if cx.vulkan && value == scope::CrossDevice {
        return Some(format!(
            "{}{opname}: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, \
             ShaderCallKHR, Subgroup, or Invocation",
            cx.vuid("None-04638")
        ));
    }
    None
}
