//! Image operands (the `ImageOperands` mask and the ids that follow it, in
//! order of increasing bit): the rules spirv-val checks that the operand
//! types alone do not give. Covered: the instructions Bias, Lod, Grad and
//! Sample go with and their types, ConstOffsets being constant, MinLod's
//! image dimensions, and Vulkan's Offset only with gathers.

use super::module::Module;
use super::operands::shape;
use super::{ErrorKind, Report};
use crate::grammar::{op, OperandKind};

const BIAS: u32 = 0x1;
const LOD: u32 = 0x2;
const GRAD: u32 = 0x4;
const OFFSET: u32 = 0x10;
const SAMPLE: u32 = 0x40;
const CONST_OFFSETS: u32 = 0x20;
const MIN_LOD: u32 = 0x80;

pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    for i in 0..m.insts.len() {
        let ops = m.operands(i);
        let Some(mask_at) = ops.iter().position(|o| o.kind == OperandKind::ImageOperands) else { continue };
        if let Some(message) = error(m, i, mask_at, vulkan) {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}

/// The operand index of the parameter of mask bit `bit`, if the mask has it:
/// parameters follow the mask in order of increasing bit, as many for each
/// bit as the grammar gives it.
fn parameter(m: &Module, i: usize, mask_at: usize, bit: u32) -> Option<usize> {
    let mask = m.word(i, mask_at);
    if mask & bit == 0 {
        return None;
    }
    let mut k = mask_at + 1;
    for b in (0..32).map(|s| 1u32 << s).filter(|&b| b < bit && mask & b != 0) {
        k += OperandKind::ImageOperands.enumerant(b).map_or(0, |e| e.parameters.len());
    }
    (k < m.operands(i).len()).then_some(k)
}

fn error(m: &Module, i: usize, mask_at: usize, vulkan: bool) -> Option<String> {
    let opcode = m.insts[i].opcode();
    if let Some(message) = level_operands(m, i, mask_at) {
        return Some(message.into());
    }
    if vulkan && parameter(m, i, mask_at, OFFSET).is_some() && !is_gather(opcode) {
        return Some(
            "[VUID-RuntimeSpirv-Offset-10213] Image Operand Offset can only be used with OpImage*Gather operations. \
             This is allowed if you enable the maintenance8 feature (or use the --allow-offset-texture-operand \
             command line flag)"
                .into(),
        );
    }
    if let Some(k) = parameter(m, i, mask_at, CONST_OFFSETS) {
        let id = m.word(i, k);
        let ty = m.type_of(id);
        // Only an array of four 2-component int vectors is judged here; other
        // shapes break an earlier rule.
        let four_offsets = m.def_opcode(ty) == Some(op::OpTypeArray)
            && m.def_word(ty, 3).and_then(|n| m.constant_value(n)) == Some(4)
            && m.def_word(ty, 2).is_some_and(|v| {
                m.def_opcode(v) == Some(op::OpTypeVector)
                    && m.def_word(v, 3) == Some(2)
                    && m.def_word(v, 2).is_some_and(|c| m.def_opcode(c) == Some(op::OpTypeInt))
            });
        if four_offsets && m.def(id).is_none_or(|d| d.info.class != "Constant-Creation") {
            return Some("Expected Image Operand ConstOffsets to be a const object".into());
        }
    }
    if parameter(m, i, mask_at, MIN_LOD).is_some() {
        // The image is the first operand after the result, or the first one.
        let image_at = if m.insts[i].result_type != 0 { 2 } else { 0 };
        let mut ty = m.type_of(m.word(i, image_at));
        if m.def_opcode(ty) == Some(op::OpTypeSampledImage) {
            ty = m.def_word(ty, 2).unwrap_or(0);
        }
        // Dim: 1D, 2D, 3D and Cube are 0 to 3.
        if m.def_opcode(ty) == Some(op::OpTypeImage) && m.def_word(ty, 3).is_some_and(|dim| dim > 3) {
            return Some("Image Operand MinLod requires 'Dim' parameter to be 1D, 2D, 3D or Cube".into());
        }
    }
    None
}

/// Bias, Lod, Grad and Sample: the instructions they go with and their
/// types, in spirv-val's order and words.
fn level_operands(m: &Module, i: usize, mask_at: usize) -> Option<&'static str> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let name = inst.info.name;
    let (implicit, explicit) = (name.contains("ImplicitLod"), name.contains("ExplicitLod"));
    let fetch = matches!(opcode, op::OpImageFetch | op::OpImageSparseFetch);
    let ty = |k: usize| shape(m, m.type_of(m.word(i, k)));
    let float_scalar = |k: usize| ty(k).is_some_and(|s| s.base == op::OpTypeFloat && s.count == 1);
    let int_scalar = |k: usize| ty(k).is_some_and(|s| s.base == op::OpTypeInt && s.count == 1);
    let mask = m.word(i, mask_at);
    // SPV_AMD_shader_image_load_store_lod: Lod on image reads and writes;
    // SPV_AMD_texture_gather_bias_lod: Bias and (float) Lod on gathers.
    let cap = |c| m.declared_capabilities.contains(&c);
    let read_write_lod = matches!(opcode, op::OpImageRead | op::OpImageWrite | op::OpImageSparseRead)
        && cap(crate::grammar::capability::ImageReadWriteLodAMD);
    let gather_lod_bias = matches!(opcode, op::OpImageGather | op::OpImageSparseGather)
        && cap(crate::grammar::capability::ImageGatherBiasLodAMD);
    if let Some(k) = parameter(m, i, mask_at, BIAS) {
        if !implicit && !gather_lod_bias {
            return Some("Image Operand Bias can only be used with ImplicitLod opcodes");
        }
        if !float_scalar(k) {
            return Some("Expected Image Operand Bias to be float scalar");
        }
    }
    if let Some(k) = parameter(m, i, mask_at, LOD) {
        if !explicit && !fetch && !read_write_lod && !gather_lod_bias {
            return Some("Image Operand Lod can only be used with ExplicitLod opcodes and OpImageFetch");
        }
        if mask & GRAD != 0 {
            return Some("Image Operand bits Lod and Grad cannot be set at the same time");
        }
        let float_lod = explicit || gather_lod_bias;
        if float_lod && !float_scalar(k) {
            return Some("Expected Image Operand Lod to be float scalar when used with ExplicitLod");
        }
        if !float_lod && !int_scalar(k) {
            return Some("Expected Image Operand Lod to be int scalar when used with OpImageFetch");
        }
    }
    if let Some(k) = parameter(m, i, mask_at, GRAD) {
        if !explicit {
            return Some("Image Operand Grad can only be used with ExplicitLod opcodes");
        }
        let float = |k: usize| ty(k).is_some_and(|s| s.base == op::OpTypeFloat);
        if !float(k) || k + 1 >= m.operands(i).len() || !float(k + 1) {
            return Some("Expected both Image Operand Grad ids to be float scalars or vectors");
        }
    }
    if let Some(k) = parameter(m, i, mask_at, SAMPLE) {
        if !matches!(
            opcode,
            op::OpImageFetch | op::OpImageRead | op::OpImageWrite | op::OpImageSparseFetch | op::OpImageSparseRead
        ) {
            return Some(
                "Image Operand Sample can only be used with OpImageFetch, OpImageRead, OpImageWrite, \
                 OpImageSparseFetch and OpImageSparseRead",
            );
        }
        let image_at = if inst.result_type != 0 { 2 } else { 0 };
        let image = m.type_of(m.word(i, image_at));
        if m.def_opcode(image) == Some(op::OpTypeImage) && m.def_word(image, 6) == Some(0) {
            return Some("Image Operand Sample requires non-zero 'MS' parameter");
        }
        if !int_scalar(k) {
            return Some("Expected Image Operand Sample to be int scalar");
        }
    }
    None
}

fn is_gather(opcode: u16) -> bool {
    matches!(opcode, op::OpImageGather | op::OpImageDrefGather | op::OpImageSparseGather | op::OpImageSparseDrefGather)
}
