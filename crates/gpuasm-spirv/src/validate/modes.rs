//! The memory model the capabilities and the environment allow; execution
//! models and modes: the modes each model needs or forbids in its entry
//! points, and for each OpExecutionMode that its target is an entry point,
//! that the mode suits the instruction (id operands or not) and every
//! model the target is an entry point of, as spirv-val checks.

use super::{ErrorKind, Report};
use crate::grammar::{
    addressing_model, built_in, capability, decoration, execution_mode as em, execution_model as model, memory_model,
    op,
};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::{FxHashMap, FxHashSet};

pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    let vulkan = env.is_vulkan();
    let caps = super::capabilities::with_implied(m);
    if !cooperative_matrix_memory_model(m, caps, r) || !memory_model(m, env, caps, r) {
        return;
    }
    // Per function: its execution models and its modes.
    let mut models: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut modes: FxHashMap<u32, FxHashSet<u32>> = FxHashMap::default();
    let mut local_size_elsewhere = false;
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpEntryPoint => models.entry(m.word(i, 1)).or_default().push(m.word(i, 0)),
            op::OpExecutionMode | op::OpExecutionModeId => {
                modes.entry(m.word(i, 0)).or_default().insert(m.word(i, 1));
                local_size_elsewhere |= m.opcode(i) == op::OpExecutionModeId && m.word(i, 1) == em::LocalSizeId;
            }
            op::OpDecorate if m.operands(i).len() > 2 => {
                local_size_elsewhere |= m.word(i, 1) == decoration::BuiltIn && m.word(i, 2) == built_in::WorkgroupSize;
            }
            op::OpFunction => break,
            _ => {}
        }
    }
    let none = FxHashSet::default();
    let sizes = super::workgroup_size::SizeModes::new(m);
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            // spirv-val checks the entry point's function first (see
            // `types`): its modes only where that passes.
            op::OpEntryPoint if !function_fits(m, i) => {}
            op::OpEntryPoint => {
                let set = modes.get(&m.word(i, 1)).unwrap_or(&none);
                let message = if caps.contains(&capability::Shader) { shader_modes(m.word(i, 0), set) } else { None };
                // With TileShadingQCOM, the tile shading rate sizes compute
                // workgroups too.
                let tiles = caps.contains(&capability::TileShadingQCOM);
                if let Some(message) = message {
                    r.error(ErrorKind::EntryPoint, i, message);
                } else if vulkan
                    && m.word(i, 0) == model::GLCompute
                    && !set.contains(&em::LocalSize)
                    && !local_size_elsewhere
                    && !(tiles && set.contains(&em::TileShadingRateQCOM))
                {
                    let tile_rate = if tiles { "TileShadingRateQCOM, " } else { "" };
                    r.error(
                        ErrorKind::EntryPoint,
                        i,
                        format!(
                            "[VUID-StandaloneSpirv-None-10685] In the Vulkan environment, GLCompute execution model \
                             entry points require either the {tile_rate}LocalSize or LocalSizeId execution mode or \
                             an object decorated with WorkgroupSize must be specified."
                        ),
                    );
                } else if let Some((at, message)) =
                    super::workgroup_size::entry_point_error(m, env, caps, i, set, &sizes)
                {
                    r.error(ErrorKind::EntryPoint, at, message);
                }
            }
            op::OpExecutionMode | op::OpExecutionModeId => {
                let target = m.word(i, 0);
                let Some(target_models) = models.get(&target) else {
                    let t = r.id(target);
                    r.error(
                        ErrorKind::EntryPoint,
                        i,
                        format!(
                            "OpExecutionMode Entry Point <id> {t} is not the Entry Point operand of an OpEntryPoint."
                        ),
                    );
                    continue;
                };
                let set = modes.get(&target).unwrap_or(&none);
                if let Some(message) = mode_error(m, i, env, caps, target_models, set, r.options.allow_localsizeid) {
                    r.error(ErrorKind::EntryPoint, i, message);
                }
            }
            op::OpFunction => break,
            _ => {}
        }
    }
}

/// Whether entry points of both the EXT and the NV mesh and task models
/// stand in the module (spirv-val checks it once the module is read).
/// Modes that may be given more than once to an entry point, for different
/// operands (spirv-val's list: floating-point controls).
const REPEATABLE_MODES: &[u32] = &[
    em::DenormPreserve,
    em::DenormFlushToZero,
    em::SignedZeroInfNanPreserve,
    em::RoundingModeRTE,
    em::RoundingModeRTZ,
    em::FPFastMathDefault,
    em::RoundingModeRTPINTEL,
    em::RoundingModeRTNINTEL,
    em::FloatingPointModeALTINTEL,
    em::FloatingPointModeIEEEINTEL,
];

/// No mode given twice to an entry point; the repeatable ones not twice
/// with the same (first) operand. spirv-val checks this last among its
/// entry-point rules, after the per-instruction walk.
pub(crate) fn check_duplicates(m: &Module, r: &mut Report) {
    let mut seen = FxHashSet::default();
    for i in 0..m.insts.len() {
        if !matches!(m.opcode(i), op::OpExecutionMode | op::OpExecutionModeId) {
            continue;
        }
        let (entry, mode) = (m.word(i, 0), m.word(i, 1));
        let name = crate::grammar::OperandKind::ExecutionMode.enumerant(mode).map_or("Unknown", |e| e.name);
        if !REPEATABLE_MODES.contains(&mode) {
            if !seen.insert((mode, entry, None)) {
                r.error(
                    ErrorKind::EntryPoint,
                    i,
                    format!("{name} execution mode must not be specified multiple times per entry point"),
                );
                return;
            }
        } else if m.operands(i).len() > 2 && !seen.insert((mode, entry, Some(m.word(i, 2)))) {
            r.error(
                ErrorKind::EntryPoint,
                i,
                format!(
                    "{name} execution mode must not be specified multiple times for the same entry point and operands"
                ),
            );
            return;
        }
    }
}

/// FPFastMathDefault's operands: a float scalar type, then a constant
/// 32-bit mask of defined bits, without Fast, with AllowContract and
/// AllowReassoc whenever AllowTransform.
fn fast_math_default_error(m: &Module, i: usize) -> Option<&'static str> {
    for k in 2..m.operands(i).len() {
        let id = m.word(i, k);
        if k == 2 {
            if m.def_opcode(id) != Some(op::OpTypeFloat) {
                return Some("The Target Type operand must be a floating-point scalar type");
            }
            continue;
        }
        let ty = m.type_of(id);
        let int32 = m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(32);
        let value = match m.def_opcode(id) {
            Some(op::OpConstant) if int32 => m.def_word(id, 3),
            Some(op::OpConstantNull) if int32 => Some(0),
            _ => None,
        };
        let Some(value) = value else {
            return Some("The Fast Math Default operand must be a non-specialization constant");
        };
        // Bits up to AllowTransform (0x40000) are defined.
        if value & 0xfff8_0000 != 0 {
            return Some("The Fast Math Default operand is an invalid bitmask value");
        }
        const FAST: u32 = 0x10;
        const CONTRACT_REASSOC: u32 = 0x10000 | 0x20000;
        const TRANSFORM: u32 = 0x40000;
        if value & FAST != 0 {
            return Some("The Fast Math Default operand must not include Fast");
        }
        if value & TRANSFORM != 0 && value & CONTRACT_REASSOC != CONTRACT_REASSOC {
            return Some(
                "The Fast Math Default operand must include AllowContract and AllowReassoc when AllowTransform is \
                 specified",
            );
        }
    }
    None
}

/// Modes an entry point of a Shader module must choose between.
fn shader_modes(execution_model: u32, set: &FxHashSet<u32>) -> Option<&'static str> {
    let count = |modes: &[u32]| modes.iter().filter(|m| set.contains(m)).count();
    match execution_model {
        model::Fragment => {
            if count(&[em::OriginUpperLeft, em::OriginLowerLeft]) == 2 {
                return Some(
                    "Fragment execution model entry points can only specify one of OriginUpperLeft or \
                     OriginLowerLeft execution modes.",
                );
            }
            if count(&[em::OriginUpperLeft, em::OriginLowerLeft]) == 0 {
                return Some(
                    "Fragment execution model entry points require either an OriginUpperLeft or OriginLowerLeft \
                     execution mode.",
                );
            }
            if count(&[em::DepthGreater, em::DepthLess, em::DepthUnchanged]) > 1 {
                return Some(
                    "Fragment execution model entry points can specify at most one of DepthGreater, DepthLess or \
                     DepthUnchanged execution modes.",
                );
            }
            let interlocks = [
                em::PixelInterlockOrderedEXT,
                em::PixelInterlockUnorderedEXT,
                em::SampleInterlockOrderedEXT,
                em::SampleInterlockUnorderedEXT,
                em::ShadingRateInterlockOrderedEXT,
                em::ShadingRateInterlockUnorderedEXT,
            ];
            if count(&interlocks) > 1 {
                return Some(
                    "Fragment execution model entry points can specify at most one fragment shader interlock \
                     execution mode.",
                );
            }
            if count(&[em::StencilRefUnchangedFrontAMD, em::StencilRefLessFrontAMD, em::StencilRefGreaterFrontAMD]) > 1
            {
                return Some(
                    "Fragment execution model entry points can specify at most one of StencilRefUnchangedFrontAMD, \
                     StencilRefLessFrontAMD or StencilRefGreaterFrontAMD execution modes.",
                );
            }
            if count(&[em::StencilRefUnchangedBackAMD, em::StencilRefLessBackAMD, em::StencilRefGreaterBackAMD]) > 1 {
                return Some(
                    "Fragment execution model entry points can specify at most one of StencilRefUnchangedBackAMD, \
                     StencilRefLessBackAMD or StencilRefGreaterBackAMD execution modes.",
                );
            }
            None
        }
        model::TessellationControl | model::TessellationEvaluation => {
            if count(&[em::SpacingEqual, em::SpacingFractionalEven, em::SpacingFractionalOdd]) > 1 {
                return Some(
                    "Tessellation execution model entry points can specify at most one of SpacingEqual, \
                     SpacingFractionalOdd or SpacingFractionalEven execution modes.",
                );
            }
            if count(&[em::Triangles, em::Quads, em::Isolines]) > 1 {
                return Some(
                    "Tessellation execution model entry points can specify at most one of Triangles, Quads or \
                     Isolines execution modes.",
                );
            }
            if count(&[em::VertexOrderCw, em::VertexOrderCcw]) > 1 {
                return Some(
                    "Tessellation execution model entry points can specify at most one of VertexOrderCw or \
                     VertexOrderCcw execution modes.",
                );
            }
            None
        }
        model::Geometry => {
            let inputs =
                [em::InputPoints, em::InputLines, em::InputLinesAdjacency, em::Triangles, em::InputTrianglesAdjacency];
            if count(&inputs) != 1 {
                return Some(
                    "Geometry execution model entry points must specify exactly one of InputPoints, InputLines, \
                     InputLinesAdjacency, Triangles or InputTrianglesAdjacency execution modes.",
                );
            }
            if count(&[em::OutputPoints, em::OutputLineStrip, em::OutputTriangleStrip]) != 1 {
                return Some(
                    "Geometry execution model entry points must specify exactly one of OutputPoints, \
                     OutputLineStrip or OutputTriangleStrip execution modes.",
                );
            }
            None
        }
        model::MeshEXT => {
            if count(&[em::OutputPoints, em::OutputLinesEXT, em::OutputTrianglesEXT]) != 1 {
                return Some(
                    "MeshEXT execution model entry points must specify exactly one of OutputPoints, \
                     OutputLinesEXT, or OutputTrianglesEXT Execution Modes.",
                );
            }
            if count(&[em::OutputPrimitivesEXT, em::OutputVertices]) != 2 {
                return Some(
                    "MeshEXT execution model entry points must specify both OutputPrimitivesEXT and \
                     OutputVertices Execution Modes.",
                );
            }
            None
        }
        _ => None,
    }
}

/// Modes whose extra operands are ids (OpExecutionModeId's).
fn takes_ids(mode: u32) -> bool {
    matches!(
        mode,
        em::SubgroupsPerWorkgroupId
            | em::LocalSizeHintId
            | em::LocalSizeId
            | em::FPFastMathDefault
            | em::MaximumRegistersIdINTEL
    ) || constant_id_modes(mode)
}

/// Modes whose id operands are all constants (spirv-val's list, with the
/// SPV_AMDX_shader_enqueue ones).
fn constant_id_modes(mode: u32) -> bool {
    matches!(
        mode,
        em::SubgroupsPerWorkgroupId
            | em::LocalSizeHintId
            | em::LocalSizeId
            | em::IsApiEntryAMDX
            | em::MaxNodeRecursionAMDX
            | em::MaxNumWorkgroupsAMDX
            | em::ShaderIndexAMDX
            | em::SharesInputWithAMDX
            | em::StaticNumWorkgroupsAMDX
    )
}

/// spirv-val's `spvOpcodeIsConstant`: the core constants and the
/// extensions' (strings of SPV_AMDX_shader_enqueue among them).
fn is_constant(opcode: u16) -> bool {
    crate::module::is_constant(opcode)
        || matches!(
            opcode,
            op::OpConstantFunctionPointerINTEL
                | op::OpConstantStringAMDX
                | op::OpSpecConstantStringAMDX
                | op::OpGraphConstantARM
                | op::OpAsmTargetINTEL
                | op::OpAsmINTEL
                | op::OpSpecConstantArchitectureINTEL
                | op::OpSpecConstantTargetINTEL
                | op::OpSpecConstantCapabilitiesINTEL
        )
}

/// What is wrong with the OpExecutionMode(Id) at `i`, whose target is an
/// entry point of `models` with modes `set`.
fn mode_error(
    m: &Module,
    i: usize,
    env: TargetEnv,
    caps: &FxHashSet<u32>,
    models: &[u32],
    set: &FxHashSet<u32>,
    allow_localsizeid: bool,
) -> Option<&'static str> {
    let mode = m.word(i, 1);
    if m.opcode(i) == op::OpExecutionModeId {
        if !takes_ids(mode) {
            return Some(
                "OpExecutionModeId is only valid when the Mode operand is an execution mode that takes Extra \
                 Operands that are id operands.",
            );
        }
        if constant_id_modes(mode)
            && (2..m.operands(i).len()).any(|k| !m.def_opcode(m.word(i, k)).is_some_and(is_constant))
        {
            return Some("For OpExecutionModeId all Extra Operand ids must be constant instructions.");
        }
        if mode == em::FPFastMathDefault {
            if let Some(message) = fast_math_default_error(m, i) {
                return Some(message);
            }
        }
    } else if constant_id_modes(mode) || mode == em::FPFastMathDefault {
        return Some(
            "OpExecutionMode is only valid when the Mode operand is an execution mode that takes no Extra \
             Operands, or takes Extra Operands that are not id operands.",
        );
    }
    if mode == em::LocalSizeId
        && !allow_localsizeid
        && matches!(env, TargetEnv::Vulkan(0..=2) | TargetEnv::Vulkan11Spv14)
    {
        // Vulkan before 1.3 has no LocalSizeId (without maintenance4).
        return Some(
            "LocalSizeId mode is not allowed by the current environment.\nThis is allowed if you enable the \
             maintenance4 feature (or use the --allow-localsizeid command line flag)",
        );
    }
    if let Some((allowed, message)) = allowed_models(mode, caps) {
        if !models.iter().all(|x| allowed.contains(x)) {
            return Some(message);
        }
    }
    // Vulkan mesh shaders emit at least one vertex and primitive.
    let vulkan = env.is_vulkan();
    if vulkan && caps.contains(&capability::MeshShadingEXT) && m.operands(i).len() > 2 && m.word(i, 2) == 0 {
        if mode == em::OutputVertices {
            return Some(
                "[VUID-StandaloneSpirv-MeshEXT-07330] In mesh shaders using the MeshEXT Execution Model the \
                 OutputVertices Execution Mode must be greater than 0",
            );
        }
        if mode == em::OutputPrimitivesEXT {
            return Some(
                "[VUID-StandaloneSpirv-MeshEXT-07331] In mesh shaders using the MeshEXT Execution Model the \
                 OutputPrimitivesEXT Execution Mode must be greater than 0",
            );
        }
    }
    if mode == em::FPFastMathDefault {
        if set.contains(&em::ContractionOff) {
            return Some(
                "FPFastMathDefault and ContractionOff execution modes cannot be applied to the same entry point",
            );
        }
        if set.contains(&em::SignedZeroInfNanPreserve) {
            return Some(
                "FPFastMathDefault and SignedZeroInfNanPreserve execution modes cannot be applied to the same \
                 entry point",
            );
        }
    }
    if vulkan {
        if mode == em::OriginLowerLeft {
            return Some(
                "[VUID-StandaloneSpirv-OriginLowerLeft-04653] In the Vulkan environment, the OriginLowerLeft \
                 execution mode must not be used.",
            );
        }
        if mode == em::PixelCenterInteger {
            return Some(
                "[VUID-StandaloneSpirv-PixelCenterInteger-04654] In the Vulkan environment, the PixelCenterInteger \
                 execution mode must not be used.",
            );
        }
        let power_of_two = |k: usize| k < m.operands(i).len() && (m.word(i, k) & m.word(i, k).wrapping_sub(1)) == 0;
        if mode == em::TileShadingRateQCOM && !(power_of_two(2) && power_of_two(3)) {
            return Some("The TileShadingRateQCOM execution mode's x and y values must be powers of 2.");
        }
    }
    None
}

/// The execution models a mode may be used with, and spirv-val's message
/// when an entry point of another model uses it. Mesh models count only
/// with their capability.
fn allowed_models(mode: u32, caps: &FxHashSet<u32>) -> Option<(Vec<u32>, &'static str)> {
    let mesh_nv = caps.contains(&capability::MeshShadingNV);
    let mesh_ext = caps.contains(&capability::MeshShadingEXT);
    let mesh = |nv: &[u32], ext: &[u32]| {
        let mut v = Vec::new();
        if mesh_nv {
            v.extend_from_slice(nv);
        }
        if mesh_ext {
            v.extend_from_slice(ext);
        }
        v
    };
    let tess = [model::TessellationControl, model::TessellationEvaluation];
    Some(match mode {
        em::Invocations
        | em::InputPoints
        | em::InputLines
        | em::InputLinesAdjacency
        | em::InputTrianglesAdjacency
        | em::OutputLineStrip
        | em::OutputTriangleStrip => {
            (vec![model::Geometry], "Execution mode can only be used with the Geometry execution model.")
        }
        em::OutputPoints => {
            let message = if mesh_nv || mesh_ext {
                "Execution mode can only be used with the Geometry MeshNV or MeshEXT execution model."
            } else {
                "Execution mode can only be used with the Geometry execution model."
            };
            ([vec![model::Geometry], mesh(&[model::MeshNV], &[model::MeshEXT])].concat(), message)
        }
        em::SpacingEqual
        | em::SpacingFractionalEven
        | em::SpacingFractionalOdd
        | em::VertexOrderCw
        | em::VertexOrderCcw
        | em::PointMode
        | em::Quads
        | em::Isolines => (tess.to_vec(), "Execution mode can only be used with a tessellation execution model."),
        em::Triangles => (
            vec![model::Geometry, tess[0], tess[1]],
            "Execution mode can only be used with a Geometry or tessellation execution model.",
        ),
        em::OutputVertices => {
            let message = if mesh_nv || mesh_ext {
                "Execution mode can only be used with a Geometry, tessellation, MeshNV or MeshEXT execution model."
            } else {
                "Execution mode can only be used with a Geometry or tessellation execution model."
            };
            ([vec![model::Geometry, tess[0], tess[1]], mesh(&[model::MeshNV], &[model::MeshEXT])].concat(), message)
        }
        em::OutputLinesEXT | em::OutputTrianglesEXT | em::OutputPrimitivesEXT => (
            vec![model::MeshEXT, model::MeshNV],
            "Execution mode can only be used with the MeshEXT or MeshNV execution model.",
        ),
        em::QuadDerivativesKHR => (
            vec![model::Fragment, model::GLCompute],
            "Execution mode can only be used with the Fragment or GLCompute execution model.",
        ),
        em::PixelCenterInteger
        | em::OriginUpperLeft
        | em::OriginLowerLeft
        | em::EarlyFragmentTests
        | em::DepthReplacing
        | em::DepthGreater
        | em::DepthLess
        | em::DepthUnchanged
        | em::NonCoherentColorAttachmentReadEXT
        | em::NonCoherentDepthAttachmentReadEXT
        | em::NonCoherentStencilAttachmentReadEXT
        | em::PixelInterlockOrderedEXT
        | em::PixelInterlockUnorderedEXT
        | em::SampleInterlockOrderedEXT
        | em::SampleInterlockUnorderedEXT
        | em::ShadingRateInterlockOrderedEXT
        | em::ShadingRateInterlockUnorderedEXT
        | em::EarlyAndLateFragmentTestsAMD
        | em::StencilRefUnchangedFrontAMD
        | em::StencilRefGreaterFrontAMD
        | em::StencilRefLessFrontAMD
        | em::StencilRefUnchangedBackAMD
        | em::StencilRefGreaterBackAMD
        | em::StencilRefLessBackAMD
        | em::RequireFullQuadsKHR => {
            (vec![model::Fragment], "Execution mode can only be used with the Fragment execution model.")
        }
        em::LocalSizeHint | em::VecTypeHint | em::ContractionOff | em::LocalSizeHintId => {
            (vec![model::Kernel], "Execution mode can only be used with the Kernel execution model.")
        }
        em::LocalSize | em::LocalSizeId => {
            let message = if mesh_nv || mesh_ext {
                "Execution mode can only be used with a Kernel, GLCompute, MeshNV, MeshEXT, TaskNV or TaskEXT \
                 execution model."
            } else {
                "Execution mode can only be used with a Kernel or GLCompute execution model."
            };
            let mesh_models = mesh(&[model::TaskNV, model::MeshNV], &[model::TaskEXT, model::MeshEXT]);
            ([vec![model::Kernel, model::GLCompute], mesh_models].concat(), message)
        }
        _ => return None,
    })
}

/// spirv-val's ValidateCapability, at the OpCapability of
/// CooperativeMatrixKHR: a shader declaring it needs the Vulkan memory
/// model's capability. False once it has reported.
fn cooperative_matrix_memory_model(m: &Module, caps: &FxHashSet<u32>, r: &mut Report) -> bool {
    if !caps.contains(&capability::CooperativeMatrixKHR)
        || !caps.contains(&capability::Shader)
        || caps.contains(&capability::VulkanMemoryModel)
    {
        return true;
    }
    let declared = |i: usize| m.opcode(i) == op::OpCapability && m.word(i, 0) == capability::CooperativeMatrixKHR;
    match (0..m.insts.len()).find(|&i| declared(i)) {
        Some(at) => {
            r.error(
                ErrorKind::Capability,
                at,
                "If the Shader and CooperativeMatrixKHR capabilities are declared, the VulkanMemoryModel capability \
                 must also be declared",
            );
            false
        }
        None => true,
    }
}

/// spirv-val's ValidateMemoryModel, on the module's (first) OpMemoryModel:
/// the VulkanMemoryModel capability only with the Vulkan memory model;
/// OpenCL's addressing and memory models; Vulkan's addressing models
/// (VUID 04635). False once it has reported.
fn memory_model(m: &Module, env: TargetEnv, caps: &FxHashSet<u32>, r: &mut Report) -> bool {
    let Some(at) = (0..m.insts.len()).find(|&i| m.opcode(i) == op::OpMemoryModel) else {
        return true;
    };
    let (addressing, memory) = (m.word(at, 0), m.word(at, 1));
    let problem = if memory != memory_model::Vulkan && caps.contains(&capability::VulkanMemoryModel) {
        Some("VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used.")
    } else if matches!(env, TargetEnv::OpenCl { .. })
        && !matches!(addressing, addressing_model::Physical32 | addressing_model::Physical64)
    {
        Some("Addressing model must be Physical32 or Physical64 in the OpenCL environment.")
    } else if matches!(env, TargetEnv::OpenCl { .. }) && memory != memory_model::OpenCL {
        Some("Memory model must be OpenCL in the OpenCL environment.")
    } else if env.is_vulkan()
        && !matches!(addressing, addressing_model::Logical | addressing_model::PhysicalStorageBuffer64)
    {
        Some(
            "[VUID-StandaloneSpirv-None-04635] Addressing model must be Logical or PhysicalStorageBuffer64 in the \
             Vulkan environment.",
        )
    } else {
        None
    };
    match problem {
        Some(message) => {
            r.error(ErrorKind::EntryPoint, at, message);
            false
        }
        None => true,
    }
}

/// Whether OpEntryPoint `i` names a function spirv-val takes as one: an
/// OpFunction returning void, whose type has no parameters (three words)
/// unless it is a kernel.
fn function_fits(m: &Module, i: usize) -> bool {
    let f = m.word(i, 1);
    if m.def_opcode(f) != Some(op::OpFunction) {
        return false;
    }
    let fn_type = m.def_word(f, 4).unwrap_or(0);
    let parameters = m.def(fn_type).is_none_or(|d| d.word_count() != 3);
    (m.word(i, 0) == crate::grammar::execution_model::Kernel || !parameters)
        && m.def_opcode(m.type_of(f)) == Some(op::OpTypeVoid)
}
