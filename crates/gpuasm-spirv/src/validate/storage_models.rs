//! Storage classes limited to execution models (spirv-val's storage class
//! consumers): a function whose instructions use a pointer or variable of
//! such a class may only be reached from entry points of those models. The
//! ray tracing and mesh classes everywhere; Output and Workgroup in Vulkan.
//! Stores to HitAttributeKHR are for intersection shaders only.

use super::limitations::{Context, Limitation, Models};
use crate::grammar::{execution_model as em, op, storage_class as sc, OperandKind};

/// A storage class, the execution models that may use it, whether only
/// Vulkan limits it, and spirv-val's VUID and words for the limit.
struct Limit {
    class: u32,
    models: Models,
    vulkan_only: bool,
    vuid: &'static str,
    reason: &'static str,
}

const RAY_STAGES: &[u32] =
    &[em::RayGenerationKHR, em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR, em::CallableKHR, em::MissKHR];

const LIMITS: &[Limit] = &[
    Limit {
        class: sc::Output,
        models: Models::Not(&[
            em::GLCompute,
            em::RayGenerationKHR,
            em::IntersectionKHR,
            em::AnyHitKHR,
            em::ClosestHitKHR,
            em::MissKHR,
            em::CallableKHR,
        ]),
        vulkan_only: true,
        vuid: "None-04644",
        reason: "in Vulkan environment, Output Storage Class must not be used in GLCompute, RayGenerationKHR, \
                 IntersectionKHR, AnyHitKHR, ClosestHitKHR, MissKHR, or CallableKHR execution models",
    },
    Limit {
        class: sc::Workgroup,
        models: Models::Only(&[em::GLCompute, em::TaskNV, em::MeshNV, em::TaskEXT, em::MeshEXT]),
        vulkan_only: true,
        vuid: "None-04645",
        reason: "in Vulkan environment, Workgroup Storage Class is limited to MeshNV, TaskNV, and GLCompute \
                 execution model",
    },
    Limit {
        class: sc::CallableDataKHR,
        models: Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::CallableKHR, em::MissKHR]),
        vulkan_only: false,
        vuid: "CallableDataKHR-04704",
        reason: "CallableDataKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, CallableKHR, and \
                 MissKHR execution model",
    },
    Limit {
        class: sc::IncomingCallableDataKHR,
        models: Models::Only(&[em::CallableKHR]),
        vulkan_only: false,
        vuid: "IncomingCallableDataKHR-04705",
        reason: "IncomingCallableDataKHR Storage Class is limited to CallableKHR execution model",
    },
    Limit {
        class: sc::RayPayloadKHR,
        models: Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR]),
        vulkan_only: false,
        vuid: "RayPayloadKHR-04698",
        reason: "RayPayloadKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, and MissKHR execution \
                 model",
    },
    Limit {
        class: sc::HitAttributeKHR,
        models: Models::Only(&[em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR]),
        vulkan_only: false,
        vuid: "HitAttributeKHR-04701",
        reason: "HitAttributeKHR Storage Class is limited to IntersectionKHR, AnyHitKHR, sand ClosestHitKHR \
                 execution model",
    },
    Limit {
        class: sc::IncomingRayPayloadKHR,
        models: Models::Only(&[em::AnyHitKHR, em::ClosestHitKHR, em::MissKHR]),
        vulkan_only: false,
        vuid: "IncomingRayPayloadKHR-04699",
        reason: "IncomingRayPayloadKHR Storage Class is limited to AnyHitKHR, ClosestHitKHR, and MissKHR \
                 execution model",
    },
    Limit {
        class: sc::ShaderRecordBufferKHR,
        models: Models::Only(RAY_STAGES),
        vulkan_only: false,
        vuid: "ShaderRecordBufferKHR-07119",
        reason: "ShaderRecordBufferKHR Storage Class is limited to RayGenerationKHR, IntersectionKHR, AnyHitKHR, \
                 ClosestHitKHR, CallableKHR, and MissKHR execution model",
    },
    Limit {
        class: sc::TaskPayloadWorkgroupEXT,
        models: Models::Only(&[em::TaskEXT, em::MeshEXT]),
        vulkan_only: false,
        vuid: "",
        reason: "TaskPayloadWorkgroupEXT Storage Class is limited to TaskEXT and MeshKHR execution model",
    },
    Limit {
        class: sc::HitObjectAttributeNV,
        models: Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR]),
        vulkan_only: false,
        vuid: "",
        reason: "HitObjectAttributeNV Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR \
                 execution model",
    },
    Limit {
        class: sc::HitObjectAttributeEXT,
        models: Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR]),
        vulkan_only: false,
        vuid: "",
        reason: "HitObjectAttributeEXT Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR \
                 execution model",
    },
];

/// Whether the module declares a pointer type or variable of a class
/// limited in its environment.
pub(crate) fn any_limited(cx: &Context) -> bool {
    let m = cx.m;
    (0..m.insts.len()).any(|i| {
        let class = match m.opcode(i) {
            op::OpTypePointer if m.operands(i).len() > 1 => m.word(i, 1),
            op::OpVariable if m.operands(i).len() > 2 => m.word(i, 2),
            _ => return false,
        };
        LIMITS.iter().any(|l| l.class == class && (cx.vulkan || !l.vulkan_only))
    })
}

/// The storage class of a pointer type or variable `id`.
fn class_of(cx: &Context, id: u32) -> Option<u32> {
    let m = cx.m;
    match m.def_opcode(id)? {
        op::OpTypePointer => m.def_word(id, 2),
        op::OpVariable => m.def_index(id).map(|d| m.word(d, 2)),
        _ => None,
    }
}

/// Each id (or result type) operand of instruction `i` that is a pointer
/// type or variable of a limited class limits its function.
pub(crate) fn limitations(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    let m = cx.m;
    for (k, o) in m.operands(i).iter().enumerate() {
        if !matches!(o.kind, OperandKind::IdRef | OperandKind::IdResultType) {
            continue;
        }
        let Some(class) = class_of(cx, m.word(i, k)) else { continue };
        if let Some(l) = LIMITS.iter().find(|l| l.class == class && (cx.vulkan || !l.vulkan_only)) {
            let vuid = if l.vuid.is_empty() { String::new() } else { cx.vuid(l.vuid) };
            out.push(Limitation::Model(l.models, format!("{vuid}{}", l.reason)));
        }
    }
}

/// Hit attributes are read only in any-hit and closest-hit shaders
/// (spirv-val's OpStore rules).
pub(crate) fn read_only_limitations(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    let m = cx.m;
    if m.opcode(i) != op::OpStore || m.operands(i).is_empty() {
        return;
    }
    let pointer_type = m.type_of(m.word(i, 0));
    let class = match m.def_opcode(pointer_type) {
        Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR) => m.def_word(pointer_type, 2),
        _ => None,
    };
    if class == Some(sc::HitAttributeKHR) {
        out.push(Limitation::Model(
            Models::Not(&[em::AnyHitKHR, em::ClosestHitKHR]),
            format!(
                "{}HitAttributeKHR Storage Class variables are read only with AnyHitKHR and ClosestHitKHR",
                cx.vuid("HitAttributeKHR-04703")
            ),
        ));
    }
}
