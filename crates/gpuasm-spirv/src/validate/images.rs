//! Image types and image instructions (spec 3.32.10 and the OpTypeImage,
//! OpTypeSampledImage descriptions): what spirv-val's image pass checks, in
//! its order and words. Covered: the operands of image types in each client
//! environment, sampled images and where their results may go, texel
//! pointers, sampling, fetching, gathering, reading and writing (sparse forms
//! included: their result is a struct of a residency code and a texel),
//! queries, and the decorations the QCOM image-processing instructions need.
//! The image operands that follow the mask are checked in `image_operands`;
//! what both read besides the module is in `image_context`.

use super::image_context::{uint_constant, Context, ImageInfo};
use super::image_operands;
use super::limitations::{Context as LimitContext, Limitation, ModeNeed, Models, DERIVATIVE_MODELS};
use super::{ErrorKind, Report};
use crate::grammar::{capability as cap, decoration, dim, image_format, op, OperandKind};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::FxHashSet;

/// A broken rule: the instruction to report and the message.
type Failure = (usize, String);

/// Image and sampled image types: checked before the other type rules, as
/// spirv-val meets them before the variables and decorations using them.
pub(crate) fn check_types(m: &Module, env: TargetEnv, r: &mut Report) {
    check_where(m, env, r, is_image_type)
}

/// The image instructions (and OpPhi of image types).
pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    check_where(m, env, r, |opcode| !is_image_type(opcode))
}

fn is_image_type(opcode: u16) -> bool {
    matches!(opcode, op::OpTypeImage | op::OpTypeSampledImage)
}

fn check_where(m: &Module, env: TargetEnv, r: &mut Report, which: fn(u16) -> bool) {
    let cx = Context::new(m, env, r.options);
    for i in (0..m.insts.len()).filter(|&i| which(m.opcode(i))) {
        if let Err((at, message)) = instruction(&cx, r, i) {
            r.error(ErrorKind::OperandType, at, message);
            if r.full() {
                return;
            }
        }
    }
}

/// The late check (spirv-val's last per-instruction loop): the uses of QCOM
/// textures.
pub(crate) fn check_late(m: &Module, r: &mut Report) {
    let qcom = [decoration::WeightTextureQCOM, decoration::BlockMatchTextureQCOM, decoration::BlockMatchSamplerQCOM];
    let textures: FxHashSet<u32> = m
        .decorations()
        .iter()
        .filter(|(_, list)| list.iter().any(|a| qcom.contains(&a.0)))
        .map(|(&id, _)| id)
        .collect();
    for i in 0..m.insts.len() {
        if let Some(message) = illegal_qcom_texture_use(m, &textures, i) {
            r.error(ErrorKind::OperandType, i, message);
        }
        if r.full() {
            return;
        }
    }
}

/// What image instructions need of the entry points reaching them:
/// implicit LOD (and OpImageQueryLod) needs derivatives, so Fragment, or
/// compute, mesh and task shaders with a derivative group mode; reading a
/// SubpassData image needs Fragment.
pub(crate) fn limitations(cx: &LimitContext, i: usize, out: &mut Vec<Limitation>) {
    let m = cx.m;
    let inst = &m.insts[i];
    let name = &inst.info().name[2..];
    if !name.starts_with("Image") {
        return;
    }
    let implicit = name.contains("ImplicitLod");
    let (model, modes) = match inst.opcode() {
        op::OpImageQueryLod => (
            "OpImageQueryLod requires Fragment, GLCompute, MeshEXT or TaskEXT execution model".to_string(),
            "OpImageQueryLod requires DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for \
             GLCompute, MeshEXT or TaskEXT execution model"
                .to_string(),
        ),
        _ if implicit => (
            format!("ImplicitLod instructions require Fragment, GLCompute, MeshEXT or TaskEXT execution model: {name}"),
            format!(
                "ImplicitLod instructions require DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution \
                 mode for GLCompute, MeshEXT or TaskEXT execution model: {name}"
            ),
        ),
        op::OpImageRead => {
            let image = m.type_of(m.word(i, 2));
            if m.def_opcode(image) == Some(op::OpTypeImage) && m.def_word(image, 3) == Some(dim::SubpassData) {
                out.push(Limitation::Model(
                    Models::Only(&[crate::grammar::execution_model::Fragment]),
                    format!("Dim SubpassData requires Fragment execution model: {name}"),
                ));
            }
            return;
        }
        _ => return,
    };
    out.push(Limitation::Model(Models::Only(DERIVATIVE_MODELS), model));
    out.push(Limitation::Modes(ModeNeed::DerivativeGroup, modes));
}

/// The QCOM image-processing textures (variables decorated
/// WeightTextureQCOM, BlockMatchTextureQCOM or BlockMatchSamplerQCOM) are
/// loaded for those instructions only: no other image instruction takes the
/// load, or a sampled image made from it.
fn illegal_qcom_texture_use(m: &Module, textures: &FxHashSet<u32>, i: usize) -> Option<&'static str> {
    if textures.is_empty() || !IMAGE_INSTRUCTIONS.contains(&m.opcode(i)) {
        return None;
    }
    // A load of such a texture, or a sampled image made from one.
    let texture_load =
        |id: u32| m.def_index(id).is_some_and(|l| m.opcode(l) == op::OpLoad && textures.contains(&m.word(l, 2)));
    let consumer = |id: u32| match m.def_opcode(id) {
        Some(op::OpLoad) => texture_load(id),
        Some(op::OpSampledImage) => texture_load(m.def_word(id, 3).unwrap_or(0)),
        _ => false,
    };
    (0..m.operands(i).len())
        .any(|k| consumer(m.word(i, k)))
        .then_some("Illegal use of QCOM image processing decorated texture")
}

/// The image instructions spirv-val's late QCOM texture check looks at.
const IMAGE_INSTRUCTIONS: &[u16] = &[
    op::OpImageSampleImplicitLod,
    op::OpImageSampleDrefImplicitLod,
    op::OpImageSampleProjImplicitLod,
    op::OpImageSampleProjDrefImplicitLod,
    op::OpImageSparseSampleImplicitLod,
    op::OpImageSparseSampleDrefImplicitLod,
    op::OpImageSparseSampleProjImplicitLod,
    op::OpImageSparseSampleProjDrefImplicitLod,
    op::OpImageSampleExplicitLod,
    op::OpImageSampleDrefExplicitLod,
    op::OpImageSampleProjExplicitLod,
    op::OpImageSampleProjDrefExplicitLod,
    op::OpImageSparseSampleExplicitLod,
    op::OpImageSparseSampleDrefExplicitLod,
    op::OpImageSparseSampleProjExplicitLod,
    op::OpImageSparseSampleProjDrefExplicitLod,
    op::OpImage,
    op::OpImageFetch,
    op::OpImageSparseFetch,
    op::OpImageGather,
    op::OpImageDrefGather,
    op::OpImageSparseGather,
    op::OpImageSparseDrefGather,
    op::OpImageRead,
    op::OpImageSparseRead,
    op::OpImageWrite,
    op::OpImageQueryFormat,
    op::OpImageQueryOrder,
    op::OpImageQuerySizeLod,
    op::OpImageQuerySize,
    op::OpImageQueryLod,
    op::OpImageQueryLevels,
    op::OpImageQuerySamples,
];

fn is_qcom_processing(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpImageSampleWeightedQCOM
            | op::OpImageBoxFilterQCOM
            | op::OpImageBlockMatchSSDQCOM
            | op::OpImageBlockMatchSADQCOM
            | op::OpImageBlockMatchWindowSADQCOM
            | op::OpImageBlockMatchWindowSSDQCOM
            | op::OpImageBlockMatchGatherSADQCOM
            | op::OpImageBlockMatchGatherSSDQCOM
    )
}

fn fail<T>(i: usize, message: impl Into<String>) -> Result<T, Failure> {
    Err((i, message.into()))
}

fn instruction(cx: &Context, r: &mut Report, i: usize) -> Result<(), Failure> {
    let opcode = cx.m.opcode(i);
    match opcode {
        op::OpTypeImage => type_image(cx, i),
        op::OpTypeSampledImage => type_sampled_image(cx, i),
        op::OpSampledImage => sampled_image(cx, r, i),
        op::OpImageTexelPointer => texel_pointer(cx, i),
        op::OpImageSampleImplicitLod
        | op::OpImageSampleExplicitLod
        | op::OpImageSampleProjImplicitLod
        | op::OpImageSampleProjExplicitLod
        | op::OpImageSparseSampleImplicitLod
        | op::OpImageSparseSampleExplicitLod => sample(cx, i),
        op::OpImageSampleDrefImplicitLod
        | op::OpImageSampleDrefExplicitLod
        | op::OpImageSampleProjDrefImplicitLod
        | op::OpImageSampleProjDrefExplicitLod
        | op::OpImageSparseSampleDrefImplicitLod
        | op::OpImageSparseSampleDrefExplicitLod => sample_dref(cx, i),
        op::OpImageFetch | op::OpImageSparseFetch => fetch(cx, i),
        op::OpImageGather | op::OpImageDrefGather | op::OpImageSparseGather | op::OpImageSparseDrefGather => {
            gather(cx, i)
        }
        op::OpImageRead | op::OpImageSparseRead => read(cx, i),
        op::OpImageWrite => write(cx, i),
        op::OpImage => image(cx, i),
        op::OpImageQueryFormat | op::OpImageQueryOrder => query_format_or_order(cx, i),
        op::OpImageQuerySizeLod | op::OpImageQuerySize => query_size(cx, i),
        op::OpImageQueryLod => query_lod(cx, i),
        op::OpImageQueryLevels | op::OpImageQuerySamples => query_levels_or_samples(cx, i),
        op::OpImageSparseTexelsResident => {
            if cx.m.def_opcode(cx.m.result_type_word(i)) != Some(op::OpTypeBool) {
                return fail(i, "Expected Result Type to be bool scalar type");
            }
            if !cx.t.is_int(cx.operand_type(i, 2)) {
                return fail(i, "Expected Resident Code to be int scalar");
            }
            Ok(())
        }
        _ if is_qcom_processing(opcode) => qcom_processing(cx, i),
        op::OpPhi => phi(cx, i),
        _ => Ok(()),
    }
}

/// OpPhi does not choose between sampled images (nor, in shaders, images
/// or samplers) unless bindless textures make them plain handles.
fn phi(cx: &Context, i: usize) -> Result<(), Failure> {
    let ty = cx.m.def_opcode(cx.m.result_type_word(i));
    let shader_handle = cx.has(cap::Shader) && matches!(ty, Some(op::OpTypeImage | op::OpTypeSampler));
    if cx.before_hlsl || cx.has(cap::BindlessTextureNV) || !(ty == Some(op::OpTypeSampledImage) || shader_handle) {
        return Ok(());
    }
    fail(i, format!("Result type cannot be {}", crate::grammar::instruction(ty.unwrap_or(0)).map_or("", |t| t.name)))
}

/// OpTypeImage: the Sampled Type each environment allows and the small
/// enumerations Depth, Arrayed, MS and Sampled, with what SubpassData and
/// TileImageDataEXT images need.
fn type_image(cx: &Context, i: usize) -> Result<(), Failure> {
    let (m, t) = (cx.m, &cx.t);
    let Some(info) = ImageInfo::of(m, m.result_id_word(i)) else {
        return fail(i, "Corrupt image type definition");
    };
    let st = info.sampled_type;
    if t.is_int(st) && t.bit_width(st) == 64 && !cx.has(cap::Int64ImageEXT) {
        return fail(i, "Capability Int64ImageEXT is required when using Sampled Type of 64-bit int");
    }
    if cx.vulkan {
        let width = t.bit_width(st);
        if (!t.is_float(st) && !t.is_int(st)) || !matches!(width, 32 | 64) || (width == 64 && t.is_float(st)) {
            return fail(
                i,
                format!(
                    "{}Expected Sampled Type to be a 32-bit int, 64-bit int or 32-bit float scalar type for Vulkan \
                     environment",
                    cx.vuid("OpTypeImage-04656")
                ),
            );
        }
    } else if cx.opencl {
        if m.def_opcode(st) != Some(op::OpTypeVoid) {
            return fail(i, "Sampled Type must be OpTypeVoid in the OpenCL environment.");
        }
    } else if !matches!(m.def_opcode(st), Some(op::OpTypeVoid | op::OpTypeInt | op::OpTypeFloat)) {
        return fail(i, "Expected Sampled Type to be either void or numerical scalar type");
    }
    if info.depth > 2 {
        return fail(i, format!("Invalid Depth {} (must be 0, 1 or 2)", info.depth));
    }
    if info.arrayed > 1 {
        return fail(i, format!("Invalid Arrayed {} (must be 0 or 1)", info.arrayed));
    }
    if info.ms > 1 {
        return fail(i, format!("Invalid MS {} (must be 0 or 1)", info.ms));
    }
    if info.sampled > 2 {
        return fail(i, format!("Invalid Sampled {} (must be 0, 1 or 2)", info.sampled));
    }
    let unknown = info.format == image_format::Unknown;
    match info.dim {
        dim::SubpassData => {
            if info.sampled != 2 {
                return fail(i, format!("{}Dim SubpassData requires Sampled to be 2", cx.vuid("OpTypeImage-06214")));
            }
            if !unknown {
                return fail(i, "Dim SubpassData requires format Unknown");
            }
        }
        dim::TileImageDataEXT => {
            let message = if m.def_opcode(st) == Some(op::OpTypeVoid) {
                "Dim TileImageDataEXT requires Sampled Type to be not OpTypeVoid"
            } else if info.sampled != 2 {
                "Dim TileImageDataEXT requires Sampled to be 2"
            } else if !unknown {
                "Dim TileImageDataEXT requires format Unknown"
            } else if info.depth != 0 {
                "Dim TileImageDataEXT requires Depth to be 0"
            } else if info.arrayed != 0 {
                "Dim TileImageDataEXT requires Arrayed to be 0"
            } else {
                ""
            };
            if !message.is_empty() {
                return fail(i, message);
            }
        }
        _ => {
            if info.ms == 1 && info.sampled == 2 && !cx.has(cap::StorageImageMultisample) {
                return fail(i, "Capability StorageImageMultisample is required when using multisampled storage image");
            }
        }
    }
    if cx.opencl {
        if info.arrayed == 1 && !matches!(info.dim, dim::_1D | dim::_2D) {
            return fail(i, "In the OpenCL environment, Arrayed may only be set to 1 when Dim is either 1D or 2D.");
        }
        if info.ms != 0 {
            return fail(i, "MS must be 0 in the OpenCL environment.");
        }
        if info.sampled != 0 {
            return fail(i, "Sampled must be 0 in the OpenCL environment.");
        }
        if info.access.is_none() {
            return fail(i, "In the OpenCL environment, the optional Access Qualifier must be present.");
        }
    }
    if cx.vulkan {
        if info.sampled == 0 {
            return fail(
                i,
                format!("{}Sampled must be 1 or 2 in the Vulkan environment.", cx.vuid("OpTypeImage-04657")),
            );
        }
        if info.dim == dim::SubpassData && info.arrayed != 0 {
            return fail(
                i,
                format!(
                    "{}Dim SubpassData requires Arrayed to be 0 in the Vulkan environment",
                    cx.vuid("OpTypeImage-06214")
                ),
            );
        }
        if info.dim == dim::Rect {
            return fail(i, format!("{}Dim must not be Rect in the Vulkan environment", cx.vuid("OpTypeImage-09638")));
        }
    }
    Ok(())
}

/// OpTypeSampledImage: of an image type with Sampled 0 or 1 (not Buffer from
/// SPIR-V 1.6 on).
fn type_sampled_image(cx: &Context, i: usize) -> Result<(), Failure> {
    let m = cx.m;
    let image = m.word(i, 1);
    if m.def_opcode(image) != Some(op::OpTypeImage) {
        return fail(i, "Expected Image to be of type OpTypeImage");
    }
    let Some(info) = ImageInfo::of(m, image) else {
        return fail(i, "Corrupt image type definition");
    };
    if info.sampled > 1 {
        return fail(
            i,
            format!(
                "{}Sampled image type requires an image type with \"Sampled\" operand set to 0 or 1",
                cx.vuid("OpTypeImage-04657")
            ),
        );
    }
    if m.header.version_parts() >= (1, 6) && info.dim == dim::Buffer {
        return fail(i, "In SPIR-V 1.6 or later, sampled image dimension must not be Buffer");
    }
    Ok(())
}

/// The instructions that take an OpTypeSampledImage operand: the only ones
/// an OpSampledImage result may feed.
fn takes_sampled_image(cx: &Context, opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpSampledImage
            | op::OpImageSampleImplicitLod
            | op::OpImageSampleExplicitLod
            | op::OpImageSampleDrefImplicitLod
            | op::OpImageSampleDrefExplicitLod
            | op::OpImageSampleProjImplicitLod
            | op::OpImageSampleProjExplicitLod
            | op::OpImageSampleProjDrefImplicitLod
            | op::OpImageSampleProjDrefExplicitLod
            | op::OpImageGather
            | op::OpImageDrefGather
            | op::OpImage
            | op::OpImageQueryLod
            | op::OpImageSparseSampleImplicitLod
            | op::OpImageSparseSampleExplicitLod
            | op::OpImageSparseSampleDrefImplicitLod
            | op::OpImageSparseSampleDrefExplicitLod
            | op::OpImageSparseGather
            | op::OpImageSparseDrefGather
            | op::OpCopyObject
            | op::OpImageSampleFootprintNV
    ) || is_qcom_processing(opcode)
        || (opcode == op::OpStore && cx.has(cap::BindlessTextureNV))
}

/// OpSampledImage: an image (Sampled 1 in Vulkan, 0 or 1 elsewhere; not
/// SubpassData) and a sampler, whose result is used in its own block by
/// instructions that take sampled images only.
fn sampled_image(cx: &Context, r: &mut Report, i: usize) -> Result<(), Failure> {
    let m = cx.m;
    let rt = m.result_type_word(i);
    if m.def_opcode(rt) != Some(op::OpTypeSampledImage) {
        return fail(i, "Expected Result Type to be OpTypeSampledImage.");
    }
    let image_type = cx.operand_type(i, 2);
    if m.def_opcode(image_type) != Some(op::OpTypeImage) {
        return fail(i, "Expected Image to be of type OpTypeImage.");
    }
    let Some(info) = ImageInfo::of(m, image_type) else {
        return fail(i, "Corrupt image type definition");
    };
    let result_image = m.def_word(rt, 2).unwrap_or(0);
    if result_image != image_type {
        let Some(result_info) = ImageInfo::of(m, result_image) else {
            return fail(i, "Corrupt image type definition");
        };
        if (ImageInfo { depth: info.depth, ..result_info }) != info {
            return fail(i, "Image operands must match result image operands except for depth");
        }
    }
    if cx.vulkan {
        if info.sampled != 1 {
            return fail(
                i,
                format!(
                    "{}Expected Image 'Sampled' parameter to be 1 for Vulkan environment.",
                    cx.vuid("OpTypeSampledImage-06671")
                ),
            );
        }
    } else if info.sampled > 1 {
        return fail(i, "Expected Image 'Sampled' parameter to be 0 or 1");
    }
    if info.dim == dim::SubpassData {
        return fail(i, "Expected Image 'Dim' parameter to be not SubpassData.");
    }
    if m.def_opcode(cx.operand_type(i, 3)) != Some(op::OpTypeSampler) {
        return fail(i, "Expected Sampler to be of type OpTypeSampler");
    }
    // Consumers: later instructions naming the result in an id operand.
    let result = m.result_id_word(i);
    let home = cx.block_of(i);
    for c in cx.consumers(result).iter().map(|&c| c as usize).filter(|&c| c > i) {
        let consumer = &m.insts[c];
        let name = &consumer.info().name[2..];
        if cx.block_of(c) != home {
            let (s, u) = (r.id(result), r.id(m.result_id_at(consumer)));
            return fail(
                i,
                format!(
                    "All OpSampledImage instructions must be in the same block in which their Result <id> are \
                     consumed. OpSampledImage Result Type <id> {s} has a consumer in a different basic block. The \
                     consumer instruction <id> is {u}."
                ),
            );
        }
        if matches!(consumer.opcode(), op::OpPhi | op::OpSelect) {
            let (s, u) = (r.id(result), r.id(m.result_id_at(consumer)));
            return fail(
                i,
                format!(
                    "Result <id> from OpSampledImage instruction must not appear as operands of Op{name}. Found \
                     result <id> {s} as an operand of <id> {u}."
                ),
            );
        }
        if !takes_sampled_image(cx, consumer.opcode()) {
            let (s, u) = (r.id(result), r.id(m.result_id_at(consumer)));
            return fail(
                i,
                format!(
                    "Result <id> from OpSampledImage instruction must not appear as operand for Op{name}, since it \
                     is not specified as taking an OpTypeSampledImage. Found result <id> {s} as an operand of <id> \
                     {u}."
                ),
            );
        }
    }
    Ok(())
}

/// OpImageTexelPointer: a pointer into the Image storage class to a texel of
/// an image variable.
fn texel_pointer(cx: &Context, i: usize) -> Result<(), Failure> {
    let (m, t) = (cx.m, &cx.t);
    let rt = m.result_type_word(i);
    let typed = m.def_opcode(rt) == Some(op::OpTypePointer);
    if !typed && m.def_opcode(rt) != Some(op::OpTypeUntypedPointerKHR) {
        return fail(i, "Expected Result Type to be a pointer");
    }
    if m.def_word(rt, 2) != Some(crate::grammar::storage_class::Image) {
        return fail(i, "Expected Result Type to be a pointer whose Storage Class operand is Image");
    }
    let half_vectors = cx.has(cap::AtomicFloat16VectorNV);
    let pointee = if typed { m.def_word(rt, 3).unwrap_or(0) } else { 0 };
    if typed
        && !matches!(m.def_opcode(pointee), Some(op::OpTypeInt | op::OpTypeFloat | op::OpTypeVoid))
        && !(half_vectors && t.is_half_vector_2_or_4(pointee))
    {
        return fail(
            i,
            "Expected Result Type to be a pointer whose Type operand must be a scalar numerical type or OpTypeVoid",
        );
    }
    let image_ptr = cx.operand_type(i, 2);
    if m.def_opcode(image_ptr) != Some(op::OpTypePointer) {
        return fail(i, "Expected Image to be OpTypePointer");
    }
    let image_type = m.def_word(image_ptr, 3).unwrap_or(0);
    if m.def_opcode(image_type) != Some(op::OpTypeImage) {
        return fail(i, "Expected Image to be OpTypePointer with Type OpTypeImage");
    }
    let Some(info) = ImageInfo::of(m, image_type) else {
        return fail(i, "Corrupt image type definition");
    };
    let half_texel = half_vectors
        && t.is_half_vector_2_or_4(pointee)
        && t.is_float(info.sampled_type)
        && ((t.dimension(pointee) == 2 && info.format == image_format::Rg16f)
            || (t.dimension(pointee) == 4 && info.format == image_format::Rgba16f));
    if typed && info.sampled_type != pointee && !half_texel {
        return fail(i, "Expected Image 'Sampled Type' to be the same as the Type pointed to by Result Type");
    }
    if info.dim == dim::SubpassData {
        return fail(i, "Image Dim SubpassData cannot be used with OpImageTexelPointer");
    }
    if info.dim == dim::TileImageDataEXT {
        return fail(i, "Image Dim TileImageDataEXT cannot be used with OpImageTexelPointer");
    }
    let coordinate = cx.operand_type(i, 3);
    if !t.is_int_scalar_or_vector(coordinate) {
        return fail(i, "Expected Coordinate to be integer scalar or vector");
    }
    let expected = if info.arrayed == 0 {
        info.plane_size()
    } else {
        match info.dim {
            dim::_1D => 2,
            dim::Cube | dim::_2D => 3,
            _ => return fail(i, "Expected Image 'Dim' must be one of 1D, 2D, or Cube when Arrayed is 1"),
        }
    };
    let given = t.dimension(coordinate);
    if expected != given {
        return fail(i, format!("Expected Coordinate to have {expected} components, but given {given}"));
    }
    if !t.is_int(cx.operand_type(i, 4)) {
        return fail(i, "Expected Sample to be integer scalar");
    }
    if info.ms == 0 && uint_constant(m, m.word(i, 4)) != Some(0) {
        return fail(i, "Expected Sample for Image with MS 0 to be a valid <id> for the value 0");
    }
    let atomic_formats =
        [image_format::R64i, image_format::R64ui, image_format::R32f, image_format::R32i, image_format::R32ui];
    let half_formats = matches!(info.format, image_format::Rg16f | image_format::Rgba16f) && half_vectors;
    if cx.vulkan && !atomic_formats.contains(&info.format) && !half_formats {
        return fail(
            i,
            format!(
                "{}Expected the Image Format in Image to be R64i, R64ui, R32f, R32i, or R32ui for Vulkan environment",
                cx.vuid("OpImageTexelPointer-04658")
            ),
        );
    }
    Ok(())
}

fn is_sparse(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpImageSparseSampleImplicitLod
            | op::OpImageSparseSampleExplicitLod
            | op::OpImageSparseSampleDrefImplicitLod
            | op::OpImageSparseSampleDrefExplicitLod
            | op::OpImageSparseSampleProjImplicitLod
            | op::OpImageSparseSampleProjExplicitLod
            | op::OpImageSparseSampleProjDrefImplicitLod
            | op::OpImageSparseSampleProjDrefExplicitLod
            | op::OpImageSparseFetch
            | op::OpImageSparseGather
            | op::OpImageSparseDrefGather
            | op::OpImageSparseTexelsResident
            | op::OpImageSparseRead
    )
}

fn is_proj(name: &str) -> bool {
    name.contains("Proj")
}

/// The texel type: the Result Type, or for sparse instructions the second
/// member of the struct it must be (after a residency code).
fn texel_type(cx: &Context, i: usize) -> Result<u32, Failure> {
    let m = cx.m;
    let rt = m.result_type_word(i);
    if !is_sparse(m.opcode(i)) {
        return Ok(rt);
    }
    if m.def_opcode(rt) != Some(op::OpTypeStruct) {
        return fail(i, "Expected Result Type to be OpTypeStruct");
    }
    if m.operands_len_of(rt) != 3 || !cx.t.is_int(m.def_word(rt, 2).unwrap_or(0)) {
        return fail(i, "Expected Result Type to be a struct containing an int scalar and a texel");
    }
    Ok(m.def_word(rt, 3).unwrap_or(0))
}

/// How spirv-val names the texel type in messages.
fn texel_name(cx: &Context, i: usize) -> &'static str {
    if is_sparse(cx.m.opcode(i)) {
        "Result Type's second member"
    } else {
        "Result Type"
    }
}

/// The smallest coordinate: one per plane dimension, one for the array
/// layer and one for the projection (Cube reads and writes take 3).
fn min_coordinate_size(cx: &Context, i: usize, info: &ImageInfo) -> u32 {
    let (opcode, name) = (cx.m.opcode(i), cx.m.insts[i].info().name);
    if info.dim == dim::Cube && matches!(opcode, op::OpImageRead | op::OpImageWrite | op::OpImageSparseRead) {
        return 3;
    }
    // spirv-val's unsigned sum: an Arrayed word past 1 (rejected at the
    // type, which may come first or not) wraps, it does not stop the check.
    info.plane_size().wrapping_add(info.arrayed).wrapping_add(u32::from(is_proj(name)))
}

fn coordinate_size(cx: &Context, i: usize, k: usize, info: &ImageInfo) -> Result<(), Failure> {
    let needed = min_coordinate_size(cx, i, info);
    let given = cx.t.dimension(cx.operand_type(i, k));
    if needed > given {
        return fail(i, format!("Expected Coordinate to have at least {needed} components, but given only {given}"));
    }
    Ok(())
}

/// A 4-component int or float vector texel.
fn vector4_texel(cx: &Context, i: usize, texel: u32) -> Result<(), Failure> {
    let what = texel_name(cx, i);
    if !cx.t.is_int_vector(texel) && !cx.t.is_float_vector(texel) {
        return fail(i, format!("Expected {what} to be int or float vector type"));
    }
    if cx.t.dimension(texel) != 4 {
        return fail(i, format!("Expected {what} to have 4 components"));
    }
    Ok(())
}

/// The image behind operand 2, a sampled image.
fn sampled_image_operand(cx: &Context, i: usize) -> Result<ImageInfo, Failure> {
    let ty = cx.operand_type(i, 2);
    if cx.m.def_opcode(ty) != Some(op::OpTypeSampledImage) {
        return fail(i, "Expected Sampled Image to be of type OpTypeSampledImage");
    }
    ImageInfo::of(cx.m, ty).ok_or((i, "Corrupt image type definition".into()))
}

/// The image behind operand `k`, an image.
fn image_operand(cx: &Context, i: usize, k: usize) -> Result<ImageInfo, Failure> {
    let ty = cx.operand_type(i, k);
    if cx.m.def_opcode(ty) != Some(op::OpTypeImage) {
        return fail(i, "Expected Image to be of type OpTypeImage");
    }
    ImageInfo::of(cx.m, ty).ok_or((i, "Corrupt image type definition".into()))
}

/// Projective sampling: of 1D, 2D, 3D or Rect images, neither multisampled
/// nor arrayed.
fn projection(i: usize, info: &ImageInfo) -> Result<(), Failure> {
    if !matches!(info.dim, dim::_1D | dim::_2D | dim::_3D | dim::Rect) {
        return fail(i, "Expected Image 'Dim' parameter to be 1D, 2D, 3D or Rect");
    }
    if info.ms != 0 {
        return fail(i, "Expected Image 'MS' parameter to be 0");
    }
    if info.arrayed != 0 {
        return fail(i, "Expected Image 'arrayed' parameter to be 0");
    }
    Ok(())
}

/// Unless the Sampled Type is void, the texel's components are of it.
fn texel_components(cx: &Context, i: usize, texel: u32, info: &ImageInfo) -> Result<(), Failure> {
    if cx.m.def_opcode(info.sampled_type) != Some(op::OpTypeVoid) && cx.t.component(texel) != info.sampled_type {
        return fail(i, format!("Expected Image 'Sampled Type' to be the same as {} components", texel_name(cx, i)));
    }
    Ok(())
}

/// The coordinate of sampling and LOD queries: float (or int as well in
/// kernels, where `kernel_ints` allows it).
fn float_coordinate(cx: &Context, i: usize, kernel_ints: bool) -> Result<(), Failure> {
    let ty = cx.operand_type(i, 3);
    if kernel_ints && cx.has(cap::Kernel) {
        if !cx.t.is_float_scalar_or_vector(ty) && !cx.t.is_int_scalar_or_vector(ty) {
            return fail(i, "Expected Coordinate to be int or float scalar or vector");
        }
    } else if !cx.t.is_float_scalar_or_vector(ty) {
        return fail(i, "Expected Coordinate to be float scalar or vector");
    }
    Ok(())
}

fn int_coordinate(cx: &Context, i: usize, k: usize) -> Result<(), Failure> {
    if !cx.t.is_int_scalar_or_vector(cx.operand_type(i, k)) {
        return fail(i, "Expected Coordinate to be int scalar or vector");
    }
    Ok(())
}

/// The image operands, checked in `image_operands`.
fn operands(cx: &Context, i: usize, info: &ImageInfo) -> Result<(), Failure> {
    match image_operands::error(cx, i, info) {
        Some(message) => fail(i, message),
        None => Ok(()),
    }
}

/// ImageOperands mask of instruction `i`, 0 when absent.
fn mask(cx: &Context, i: usize) -> u32 {
    let ops = cx.m.operands(i);
    ops.iter().position(|o| o.kind == OperandKind::ImageOperands).map_or(0, |k| cx.m.word(i, k))
}

/// OpImageSample*Lod (not Dref), sparse forms included.
fn sample(cx: &Context, i: usize) -> Result<(), Failure> {
    let opcode = cx.m.opcode(i);
    let texel = texel_type(cx, i)?;
    vector4_texel(cx, i, texel)?;
    let info = sampled_image_operand(cx, i)?;
    if is_proj(cx.m.insts[i].info().name) {
        projection(i, &info)?;
    }
    if info.ms != 0 {
        return fail(i, "Sampling operation is invalid for multisample image");
    }
    texel_components(cx, i, texel, &info)?;
    let explicit = matches!(opcode, op::OpImageSampleExplicitLod | op::OpImageSparseSampleExplicitLod);
    float_coordinate(cx, i, explicit)?;
    coordinate_size(cx, i, 3, &info)?;
    if mask(cx, i) & crate::grammar::image_operands::ConstOffset != 0
        && cx.opencl
        && opcode == op::OpImageSampleExplicitLod
    {
        return fail(i, "ConstOffset image operand not allowed in the OpenCL environment.");
    }
    operands(cx, i, &info)
}

/// The depth reference of Dref instructions: a 32-bit float; no 3D images
/// in Vulkan.
fn dref(cx: &Context, i: usize, info: &ImageInfo) -> Result<(), Failure> {
    let ty = cx.operand_type(i, 4);
    if !cx.t.is_float(ty) || cx.t.bit_width(ty) != 32 {
        return fail(i, "Expected Dref to be of 32-bit float type");
    }
    if cx.vulkan && info.dim == dim::_3D {
        return fail(
            i,
            format!(
                "{}In Vulkan, OpImage*Dref* instructions must not use images with a 3D Dim",
                cx.vuid("OpImage-04777")
            ),
        );
    }
    Ok(())
}

/// OpImageSample*Dref*Lod, sparse forms included.
fn sample_dref(cx: &Context, i: usize) -> Result<(), Failure> {
    let texel = texel_type(cx, i)?;
    if !cx.t.is_int(texel) && !cx.t.is_float(texel) {
        return fail(i, format!("Expected {} to be int or float scalar type", texel_name(cx, i)));
    }
    let info = sampled_image_operand(cx, i)?;
    if is_proj(cx.m.insts[i].info().name) {
        projection(i, &info)?;
    }
    if info.ms != 0 {
        return fail(i, "Dref sampling operation is invalid for multisample image");
    }
    if texel != info.sampled_type {
        return fail(i, format!("Expected Image 'Sampled Type' to be the same as {}", texel_name(cx, i)));
    }
    float_coordinate(cx, i, false)?;
    coordinate_size(cx, i, 3, &info)?;
    dref(cx, i, &info)?;
    operands(cx, i, &info)
}

/// OpImageFetch and OpImageSparseFetch: of a sampled (Sampled 1) non-Cube
/// image at integer coordinates.
fn fetch(cx: &Context, i: usize) -> Result<(), Failure> {
    let texel = texel_type(cx, i)?;
    vector4_texel(cx, i, texel)?;
    let info = image_operand(cx, i, 2)?;
    texel_components(cx, i, texel, &info)?;
    if info.dim == dim::Cube {
        return fail(i, "Image 'Dim' cannot be Cube");
    }
    if info.sampled != 1 {
        return fail(i, "Expected Image 'Sampled' parameter to be 1");
    }
    int_coordinate(cx, i, 3)?;
    coordinate_size(cx, i, 3, &info)?;
    operands(cx, i, &info)
}

/// OpImage*Gather, sparse forms included.
fn gather(cx: &Context, i: usize) -> Result<(), Failure> {
    let opcode = cx.m.opcode(i);
    let texel = texel_type(cx, i)?;
    vector4_texel(cx, i, texel)?;
    let info = sampled_image_operand(cx, i)?;
    if info.ms != 0 {
        return fail(i, "Gather operation is invalid for multisample image");
    }
    let is_dref = matches!(opcode, op::OpImageDrefGather | op::OpImageSparseDrefGather);
    if (is_dref || cx.m.def_opcode(info.sampled_type) != Some(op::OpTypeVoid))
        && cx.t.component(texel) != info.sampled_type
    {
        return fail(i, format!("Expected Image 'Sampled Type' to be the same as {} components", texel_name(cx, i)));
    }
    if !matches!(info.dim, dim::_2D | dim::Cube | dim::Rect) {
        return fail(i, format!("{}Expected Image 'Dim' to be 2D, Cube, or Rect", cx.vuid("OpImage-04777")));
    }
    float_coordinate(cx, i, false)?;
    coordinate_size(cx, i, 3, &info)?;
    if is_dref {
        dref(cx, i, &info)?;
    } else {
        let component = cx.m.word(i, 4);
        let ty = cx.m.type_of(component);
        if !cx.t.is_int(ty) || cx.t.bit_width(ty) != 32 {
            return fail(i, "Expected Component to be 32-bit int scalar");
        }
        if cx.vulkan && !cx.m.def_opcode(component).is_some_and(crate::module::is_constant) {
            return fail(
                i,
                format!(
                    "{}Expected Component Operand to be a const object for Vulkan environment",
                    cx.vuid("OpImageGather-04664")
                ),
            );
        }
    }
    operands(cx, i, &info)
}

/// Storage images (Sampled 2) need the capability of their kind; read and
/// write take Sampled 0 or 2.
fn read_write(cx: &Context, i: usize, info: &ImageInfo) -> Result<(), Failure> {
    if info.sampled == 2 {
        let missing = |c| !cx.has(c);
        let message = match info.dim {
            dim::_1D if missing(cap::Image1D) => "Capability Image1D is required to access storage image",
            dim::Rect if missing(cap::ImageRect) => "Capability ImageRect is required to access storage image",
            dim::Buffer if missing(cap::ImageBuffer) => "Capability ImageBuffer is required to access storage image",
            dim::Cube if info.arrayed == 1 && missing(cap::ImageCubeArray) => {
                "Capability ImageCubeArray is required to access storage image"
            }
            _ if info.ms == 1 && info.arrayed == 1 && missing(cap::ImageMSArray) => {
                "Capability ImageMSArray is required to access storage image"
            }
            _ => return Ok(()),
        };
        return fail(i, message);
    }
    if info.sampled != 0 {
        return fail(i, "Expected Image 'Sampled' parameter to be 0 or 2");
    }
    Ok(())
}

/// OpImageRead and OpImageSparseRead.
fn read(cx: &Context, i: usize) -> Result<(), Failure> {
    let (m, t) = (cx.m, &cx.t);
    let opcode = m.opcode(i);
    let texel = texel_type(cx, i)?;
    let what = texel_name(cx, i);
    if !t.is_int_scalar_or_vector(texel) && !t.is_float_scalar_or_vector(texel) {
        return fail(i, format!("Expected {what} to be int or float scalar or vector type"));
    }
    if cx.vulkan && t.dimension(texel) != 4 {
        return fail(i, format!("{}Expected {what} to have 4 components", cx.vuid("Result-04780")));
    }
    let info = image_operand(cx, i, 2)?;
    if cx.opencl {
        if info.depth != 0 {
            if !t.is_float(texel) {
                return fail(i, format!("Expected {what} from a depth image read to result in a scalar float value"));
            }
        } else if t.dimension(texel) != 4 {
            return fail(i, format!("Expected {what} to have 4 components"));
        }
        if mask(cx, i) & crate::grammar::image_operands::ConstOffset != 0 {
            return fail(i, "ConstOffset image operand not allowed in the OpenCL environment.");
        }
    }
    if info.dim == dim::SubpassData && opcode == op::OpImageSparseRead {
        return fail(i, "Image Dim SubpassData cannot be used with ImageSparseRead");
    }
    if info.dim == dim::TileImageDataEXT {
        return fail(i, format!("Image Dim TileImageDataEXT cannot be used with {}", &m.insts[i].info().name[2..]));
    }
    texel_components(cx, i, texel, &info)?;
    read_write(cx, i, &info)?;
    int_coordinate(cx, i, 3)?;
    coordinate_size(cx, i, 3, &info)?;
    if cx.vulkan
        && info.format == image_format::Unknown
        && info.dim != dim::SubpassData
        && !cx.has(cap::StorageImageReadWithoutFormat)
    {
        return fail(i, "Capability StorageImageReadWithoutFormat is required to read storage image");
    }
    operands(cx, i, &info)
}

/// OpImageWrite.
fn write(cx: &Context, i: usize) -> Result<(), Failure> {
    let t = &cx.t;
    let info = image_operand(cx, i, 0)?;
    if info.dim == dim::SubpassData {
        return fail(i, "Image 'Dim' cannot be SubpassData");
    }
    if info.dim == dim::TileImageDataEXT {
        return fail(i, "Image 'Dim' cannot be TileImageDataEXT");
    }
    read_write(cx, i, &info)?;
    int_coordinate(cx, i, 1)?;
    coordinate_size(cx, i, 1, &info)?;
    let texel = cx.operand_type(i, 2);
    if !t.is_int_scalar_or_vector(texel) && !t.is_float_scalar_or_vector(texel) {
        return fail(i, "Expected Texel to be int or float vector or scalar");
    }
    if cx.m.def_opcode(info.sampled_type) != Some(op::OpTypeVoid) && t.component(texel) != info.sampled_type {
        return fail(i, "Expected Image 'Sampled Type' to be the same as Texel components");
    }
    if cx.vulkan
        && info.format == image_format::Unknown
        && info.dim != dim::SubpassData
        && !cx.has(cap::StorageImageWriteWithoutFormat)
    {
        return fail(i, "Capability StorageImageWriteWithoutFormat is required to write to storage image");
    }
    if cx.opencl && cx.m.operands(i).len() > 3 {
        return fail(i, "Optional Image Operands are not allowed in the OpenCL environment.");
    }
    operands(cx, i, &info)
}

/// OpImage: the image of a sampled image.
fn image(cx: &Context, i: usize) -> Result<(), Failure> {
    let m = cx.m;
    let rt = m.result_type_word(i);
    if m.def_opcode(rt) != Some(op::OpTypeImage) {
        return fail(i, "Expected Result Type to be OpTypeImage");
    }
    let sampled = cx.operand_type(i, 2);
    if m.def_opcode(sampled) != Some(op::OpTypeSampledImage) {
        return fail(i, "Expected Sample Image to be of type OpTypeSampleImage");
    }
    if m.def_word(sampled, 2) != Some(rt) {
        return fail(i, "Expected Sample Image image type to be equal to Result Type");
    }
    Ok(())
}

fn query_format_or_order(cx: &Context, i: usize) -> Result<(), Failure> {
    if !cx.t.is_int(cx.m.result_type_word(i)) {
        return fail(i, "Expected Result Type to be int scalar type");
    }
    let ty = cx.operand_type(i, 2);
    if cx.m.def_opcode(ty) != Some(op::OpTypeImage) {
        return fail(i, "Expected operand to be of type OpTypeImage");
    }
    let info = ImageInfo::of(cx.m, ty).ok_or((i, String::from("Corrupt image type definition")))?;
    if info.dim == dim::TileImageDataEXT {
        return fail(i, "Image 'Dim' cannot be TileImageDataEXT");
    }
    Ok(())
}

/// OpImageQuerySize and OpImageQuerySizeLod: one component per dimension
/// (and array layer).
fn query_size(cx: &Context, i: usize) -> Result<(), Failure> {
    let opcode = cx.m.opcode(i);
    let lod = opcode == op::OpImageQuerySizeLod;
    let rt = cx.m.result_type_word(i);
    if !cx.t.is_int_scalar_or_vector(rt) {
        return fail(i, "Expected Result Type to be int scalar or vector type");
    }
    let info = image_operand(cx, i, 2)?;
    let size = match (info.dim, lod) {
        (dim::_1D, _) | (dim::Buffer, false) => 1,
        (dim::_2D | dim::Cube, _) | (dim::Rect, false) => 2,
        (dim::_3D, _) => 3,
        (_, true) => return fail(i, "Image 'Dim' must be 1D, 2D, 3D or Cube"),
        (_, false) => return fail(i, "Image 'Dim' must be 1D, Buffer, 2D, Cube, 3D or Rect"),
    };
    // Wraps as spirv-val's unsigned sum (see `min_coordinate_size`).
    let expected = u32::wrapping_add(size, info.arrayed);
    if lod {
        if info.ms != 0 {
            return fail(i, "Image 'MS' must be 0");
        }
        if cx.vulkan && info.sampled != 1 {
            return fail(
                i,
                format!(
                    "{}OpImageQuerySizeLod must only consume an \"Image\" operand whose type has its \"Sampled\" \
                     operand set to 1",
                    cx.vuid("OpImageQuerySizeLod-04659")
                ),
            );
        }
    } else if info.mipmapped_dim() && info.ms != 1 && info.sampled != 0 && info.sampled != 2 {
        return fail(i, "Image must have either 'MS'=1 or 'Sampled'=0 or 'Sampled'=2");
    }
    let given = cx.t.dimension(rt);
    if given != expected {
        return fail(i, format!("Result Type has {given} components, but {expected} expected"));
    }
    if lod && !cx.t.is_int(cx.operand_type(i, 3)) {
        return fail(i, "Expected Level of Detail to be int scalar");
    }
    Ok(())
}

/// OpImageQueryLod: a 2-component float vector from a sampled image.
fn query_lod(cx: &Context, i: usize) -> Result<(), Failure> {
    let rt = cx.m.result_type_word(i);
    if !cx.t.is_float_vector(rt) {
        return fail(i, "Expected Result Type to be float vector type");
    }
    if cx.t.dimension(rt) != 2 {
        return fail(i, "Expected Result Type to have 2 components");
    }
    let ty = cx.operand_type(i, 2);
    if cx.m.def_opcode(ty) != Some(op::OpTypeSampledImage) {
        return fail(i, "Expected Image operand to be of type OpTypeSampledImage");
    }
    let info = ImageInfo::of(cx.m, ty).ok_or((i, String::from("Corrupt image type definition")))?;
    if !info.mipmapped_dim() {
        return fail(i, "Image 'Dim' must be 1D, 2D, 3D or Cube");
    }
    float_coordinate(cx, i, true)?;
    let (needed, given) = (info.plane_size(), cx.t.dimension(cx.operand_type(i, 3)));
    if needed > given {
        return fail(i, format!("Expected Coordinate to have at least {needed} components, but given only {given}"));
    }
    Ok(())
}

fn query_levels_or_samples(cx: &Context, i: usize) -> Result<(), Failure> {
    if !cx.t.is_int(cx.m.result_type_word(i)) {
        return fail(i, "Expected Result Type to be int scalar type");
    }
    let info = image_operand(cx, i, 2)?;
    if cx.m.opcode(i) == op::OpImageQueryLevels {
        if !info.mipmapped_dim() {
            return fail(i, "Image 'Dim' must be 1D, 2D, 3D or Cube");
        }
        if cx.vulkan && info.sampled != 1 {
            return fail(
                i,
                format!(
                    "{}OpImageQueryLevels must only consume an \"Image\" operand whose type has its \"Sampled\" \
                     operand set to 1",
                    cx.vuid("OpImageQuerySizeLod-04659")
                ),
            );
        }
    } else {
        if info.dim != dim::_2D {
            return fail(i, "Image 'Dim' must be 2D");
        }
        if info.ms != 1 {
            return fail(i, "Image 'MS' must be 1");
        }
    }
    Ok(())
}

/// The QCOM image-processing instructions read textures loaded from
/// variables carrying the decoration their role needs (reported at the load).
fn qcom_processing(cx: &Context, i: usize) -> Result<(), Failure> {
    let m = cx.m;
    let operand = |k| m.word(i, k);
    match m.opcode(i) {
        op::OpImageSampleWeightedQCOM => qcom_decorated(cx, operand(4), decoration::WeightTextureQCOM),
        op::OpImageBlockMatchSSDQCOM
        | op::OpImageBlockMatchSADQCOM
        | op::OpImageBlockMatchGatherSSDQCOM
        | op::OpImageBlockMatchGatherSADQCOM => {
            qcom_decorated(cx, operand(2), decoration::BlockMatchTextureQCOM)?;
            qcom_decorated(cx, operand(4), decoration::BlockMatchTextureQCOM)
        }
        op::OpImageBlockMatchWindowSSDQCOM | op::OpImageBlockMatchWindowSADQCOM => {
            qcom_window_decorated(cx, operand(2))?;
            qcom_window_decorated(cx, operand(4))
        }
        _ => Ok(()),
    }
}

/// The variable an OpLoad reads, or the failure "Expect to see OpLoad".
fn loaded_variable(cx: &Context, id: u32) -> Result<(usize, u32), Failure> {
    let at = cx.m.def_index(id).unwrap_or(0);
    if cx.m.opcode(at) != op::OpLoad {
        return fail(at, "Expect to see OpLoad");
    }
    Ok((at, cx.m.word(at, 2)))
}

fn missing(cx: &Context, at: usize, variable: u32, dec: u32) -> Result<(), Failure> {
    if cx.decorated(variable, dec) {
        return Ok(());
    }
    let name = OperandKind::Decoration.enumerant(dec).map_or("", |e| e.name);
    fail(at, format!("Missing decoration {name}"))
}

/// Operand `id`, a texture (or a sampled image of one), is loaded from a
/// variable decorated `dec`.
fn qcom_decorated(cx: &Context, id: u32, dec: u32) -> Result<(), Failure> {
    let m = cx.m;
    let mut texture = id;
    if m.def_opcode(id) == Some(op::OpSampledImage) {
        texture = m.def_word(id, 3).unwrap_or(0);
    }
    let (at, variable) = loaded_variable(cx, texture)?;
    missing(cx, at, variable, dec)
}

/// The window block matches: a loaded sampled-image variable carries both
/// block-match decorations; a sampled image made here has its texture and
/// its sampler decorated (reported at the sampled image).
fn qcom_window_decorated(cx: &Context, id: u32) -> Result<(), Failure> {
    let m = cx.m;
    let at = m.def_index(id).unwrap_or(0);
    if m.opcode(at) != op::OpSampledImage {
        let (load, variable) = loaded_variable(cx, id)?;
        missing(cx, load, variable, decoration::BlockMatchTextureQCOM)?;
        return missing(cx, load, variable, decoration::BlockMatchSamplerQCOM);
    }
    let (_, texture) = loaded_variable(cx, m.word(at, 2))?;
    missing(cx, at, texture, decoration::BlockMatchTextureQCOM)?;
    let (_, sampler) = loaded_variable(cx, m.word(at, 3))?;
    missing(cx, at, sampler, decoration::BlockMatchSamplerQCOM)
}
