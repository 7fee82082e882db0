//! The capabilities a client API allows: the Vulkan specification's
//! "SPIR-V Environment" appendix and the OpenCL SPIR-V environment
//! specification list what each version guarantees or makes optional; any
//! other capability must be enabled by a declared extension (or, in
//! OpenCL, by ImageBasic for the image capabilities). spirv-val checks
//! the Vulkan 1.0-1.4 and OpenCL environments (not vulkan1.1spv1.4).

use super::{ErrorKind, Report};
use crate::grammar::{capability as c, op, OperandKind};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::FxHashSet;

/// Vulkan 1.0's guaranteed capabilities; each later version adds its row.
const VULKAN_GUARANTEED: [&[u32]; 5] = [
    &[
        c::Matrix,
        c::Shader,
        c::InputAttachment,
        c::Sampled1D,
        c::Image1D,
        c::SampledBuffer,
        c::ImageBuffer,
        c::ImageQuery,
        c::DerivativeControl,
    ],
    &[c::DeviceGroup, c::MultiView],
    &[c::ShaderNonUniform],
    &[
        c::DotProduct,
        c::DotProductInputAll,
        c::DotProductInput4x8Bit,
        c::DotProductInput4x8BitPacked,
        c::VulkanMemoryModel,
        c::VulkanMemoryModelDeviceScope,
        c::PhysicalStorageBufferAddresses,
        c::DemoteToHelperInvocation,
    ],
    &[
        c::UniformBufferArrayDynamicIndexing,
        c::SampledImageArrayDynamicIndexing,
        c::StorageBufferArrayDynamicIndexing,
        c::StorageImageArrayDynamicIndexing,
        c::Int16,
        c::StorageBuffer16BitAccess,
        c::VariablePointers,
        c::VariablePointersStorageBuffer,
        c::UniformTexelBufferArrayDynamicIndexing,
        c::StorageTexelBufferArrayDynamicIndexing,
        c::Int8,
        c::StorageBuffer8BitAccess,
        c::FloatControls2,
        c::SampleRateShading,
        c::StorageImageExtendedFormats,
        c::ImageGatherExtended,
    ],
];

/// Vulkan 1.0's optional capabilities; 1.1 and 1.2 add their rows (1.3 and
/// 1.4 only made some of them required).
const VULKAN_OPTIONAL: [&[u32]; 3] = [
    &[
        c::Geometry,
        c::Tessellation,
        c::Float64,
        c::Int64,
        c::Int16,
        c::TessellationPointSize,
        c::GeometryPointSize,
        c::ImageGatherExtended,
        c::StorageImageMultisample,
        c::UniformBufferArrayDynamicIndexing,
        c::SampledImageArrayDynamicIndexing,
        c::StorageBufferArrayDynamicIndexing,
        c::StorageImageArrayDynamicIndexing,
        c::ClipDistance,
        c::CullDistance,
        c::ImageCubeArray,
        c::SampleRateShading,
        c::SparseResidency,
        c::MinLod,
        c::SampledCubeArray,
        c::ImageMSArray,
        c::StorageImageExtendedFormats,
        c::InterpolationFunction,
        c::StorageImageReadWithoutFormat,
        c::StorageImageWriteWithoutFormat,
        c::MultiViewport,
        c::Int64Atomics,
        c::TransformFeedback,
        c::GeometryStreams,
        c::Float16,
        c::Int8,
        c::BFloat16TypeKHR,
        c::Float8EXT,
    ],
    &[
        c::GroupNonUniform,
        c::GroupNonUniformVote,
        c::GroupNonUniformArithmetic,
        c::GroupNonUniformBallot,
        c::GroupNonUniformShuffle,
        c::GroupNonUniformShuffleRelative,
        c::GroupNonUniformClustered,
        c::GroupNonUniformQuad,
        c::DrawParameters,
        c::StorageBuffer16BitAccess,
        c::UniformAndStorageBuffer16BitAccess,
        c::StoragePushConstant16,
        c::StorageInputOutput16,
        c::DeviceGroup,
        c::MultiView,
        c::VariablePointersStorageBuffer,
        c::VariablePointers,
    ],
    &[
        c::DenormPreserve,
        c::DenormFlushToZero,
        c::SignedZeroInfNanPreserve,
        c::RoundingModeRTE,
        c::RoundingModeRTZ,
        c::VulkanMemoryModel,
        c::VulkanMemoryModelDeviceScope,
        c::StorageBuffer8BitAccess,
        c::UniformAndStorageBuffer8BitAccess,
        c::StoragePushConstant8,
        c::ShaderViewportIndex,
        c::ShaderLayer,
        c::PhysicalStorageBufferAddresses,
        c::RuntimeDescriptorArray,
        c::UniformTexelBufferArrayDynamicIndexing,
        c::StorageTexelBufferArrayDynamicIndexing,
        c::UniformBufferArrayNonUniformIndexing,
        c::SampledImageArrayNonUniformIndexing,
        c::StorageBufferArrayNonUniformIndexing,
        c::StorageImageArrayNonUniformIndexing,
        c::InputAttachmentArrayNonUniformIndexing,
        c::UniformTexelBufferArrayNonUniformIndexing,
        c::StorageTexelBufferArrayNonUniformIndexing,
    ],
];

/// OpenCL 1.2's guaranteed capabilities (Int64 only in the full profile);
/// 2.0 and 2.2 add their rows.
const OPENCL_GUARANTEED: [&[u32]; 3] = [
    &[c::Addresses, c::Float16Buffer, c::Int16, c::Int8, c::Kernel, c::Linkage, c::Vector16],
    &[c::DeviceEnqueue, c::GenericPointer, c::Groups, c::Pipes],
    &[c::SubgroupDispatch, c::PipeStorage],
];

/// OpenCL's optional capabilities, every version.
const OPENCL_OPTIONAL: &[u32] = &[c::ImageBasic, c::Float64, c::Float16];

/// What ImageBasic enables in OpenCL 1.2; 2.0 adds ImageReadWrite.
const OPENCL_IMAGE: &[u32] = &[c::LiteralSampler, c::Sampled1D, c::Image1D, c::SampledBuffer, c::ImageBuffer];

/// Whether the environment allows `cap` on its own (not through an
/// extension), and how spirv-val names the environment; `None` when it
/// does not check this environment.
fn allowed(env: TargetEnv, cap: u32, caps: &FxHashSet<u32>) -> Option<(bool, String)> {
    let rows = |table: &[&[u32]], n: usize| table.iter().take(n).any(|row| row.contains(&cap));
    match env {
        TargetEnv::Vulkan(minor @ 0..=4) => {
            let minor = minor as usize;
            let ok = rows(&VULKAN_GUARANTEED, minor + 1) || rows(&VULKAN_OPTIONAL, (minor + 1).min(3));
            Some((ok, format!("Vulkan 1.{minor} specification (or requires extension)")))
        }
        TargetEnv::OpenCl { major, minor, embedded } => {
            let (version, n) = match (major, minor) {
                (1, _) => ("1.2", 1),
                (2, 2) => ("2.2", 3),
                _ => ("2.0/2.1", 2),
            };
            let image =
                caps.contains(&c::ImageBasic) && (OPENCL_IMAGE.contains(&cap) || (n > 1 && cap == c::ImageReadWrite));
            let ok = rows(&OPENCL_GUARANTEED, n)
                || (cap == c::Int64 && !embedded)
                || OPENCL_OPTIONAL.contains(&cap)
                || image;
            let profile = if embedded { "Embedded" } else { "Full" };
            Some((
                ok,
                format!("OpenCL {version} {profile} Profile specification (or requires extension or capability)"),
            ))
        }
        _ => None,
    }
}

/// Reports the first declared capability the environment does not allow;
/// false when there is one.
pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    // spirv-val registers each capability (with those it implies) after
    // checking it: a check sees only the earlier ones.
    let mut caps = FxHashSet::default();
    let extensions = crate::module::capabilities::declared_extensions(m);
    for i in 0..m.insts.len() {
        let cap = match m.opcode(i) {
            op::OpCapability => m.word(i, 0),
            op::OpConditionalCapabilityINTEL => m.word(i, 1),
            _ => continue,
        };
        let Some((ok, what)) = allowed(env, cap, &caps) else { return };
        let e = OperandKind::Capability.enumerant(cap);
        let by_extension = e.is_some_and(|e| e.extensions.iter().any(|x| extensions.contains(x.as_bytes())));
        if !ok && !by_extension {
            let name = e.map_or("Unknown", |e| e.name);
            r.error(ErrorKind::Capability, i, format!("Capability {name} is not allowed by {what}"));
            return;
        }
        crate::module::capabilities::declare(&mut caps, cap);
    }
}
