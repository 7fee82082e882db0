//! Storage classes limited to execution models (spirv-val's storage class
//! consumers): a function that uses a pointer or variable of such a class
//! may only be called from entry points of those models. The ray tracing
//! and mesh classes everywhere; Output and Workgroup in Vulkan.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{execution_model as em, op, storage_class as sc, OperandKind};
use rustc_hash::FxHashMap;

/// A storage class, the execution models that may use it, and whether
/// only Vulkan limits it.
struct Limit {
    class: u32,
    models: &'static [u32],
    vulkan_only: bool,
}

const RAY_STAGES: &[u32] =
    &[em::RayGenerationKHR, em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR, em::CallableKHR, em::MissKHR];

const LIMITS: &[Limit] = &[
    Limit {
        class: sc::Workgroup,
        models: &[em::GLCompute, em::TaskNV, em::MeshNV, em::TaskEXT, em::MeshEXT],
        vulkan_only: true,
    },
    Limit {
        class: sc::CallableDataKHR,
        models: &[em::RayGenerationKHR, em::ClosestHitKHR, em::CallableKHR, em::MissKHR],
        vulkan_only: false,
    },
    Limit { class: sc::IncomingCallableDataKHR, models: &[em::CallableKHR], vulkan_only: false },
    Limit {
        class: sc::RayPayloadKHR,
        models: &[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR],
        vulkan_only: false,
    },
    Limit {
        class: sc::HitAttributeKHR,
        models: &[em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR],
        vulkan_only: false,
    },
    Limit {
        class: sc::IncomingRayPayloadKHR,
        models: &[em::AnyHitKHR, em::ClosestHitKHR, em::MissKHR],
        vulkan_only: false,
    },
    Limit { class: sc::ShaderRecordBufferKHR, models: RAY_STAGES, vulkan_only: false },
    Limit { class: sc::TaskPayloadWorkgroupEXT, models: &[em::TaskEXT, em::MeshEXT], vulkan_only: false },
    Limit {
        class: sc::HitObjectAttributeNV,
        models: &[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR],
        vulkan_only: false,
    },
    Limit {
        class: sc::HitObjectAttributeEXT,
        models: &[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR],
        vulkan_only: false,
    },
];

/// Output is not for compute or ray tracing stages (Vulkan).
const OUTPUT_EXCLUDED: &[u32] = &[
    em::GLCompute,
    em::RayGenerationKHR,
    em::IntersectionKHR,
    em::AnyHitKHR,
    em::ClosestHitKHR,
    em::MissKHR,
    em::CallableKHR,
];

/// Whether execution model `model` may use storage class `class`.
fn allowed(class: u32, model: u32, vulkan: bool) -> bool {
    if class == sc::Output {
        return !(vulkan && OUTPUT_EXCLUDED.contains(&model));
    }
    LIMITS.iter().find(|l| l.class == class).is_none_or(|l| (l.vulkan_only && !vulkan) || l.models.contains(&model))
}

/// Reports the first function (in module order) an entry point reaches
/// that uses a class its execution model may not (spirv-val goes on, on a
/// second line, with the class's limit).
pub(crate) fn check(m: &Module, vulkan: bool, r: &mut Report) {
    // Per function: the storage classes its instructions use, in order, and
    // the functions it calls.
    let mut classes: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut calls: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut functions = Vec::new();
    let mut current = None;
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpFunction => {
                current = Some(inst.result_id);
                functions.push((i, inst.result_id));
                continue;
            }
            op::OpFunctionEnd => current = None,
            op::OpFunctionCall => {
                if let Some(f) = current {
                    calls.entry(f).or_default().push(m.word(i, 2));
                }
            }
            _ => {}
        }
        let Some(f) = current else { continue };
        for (k, o) in m.operands(i).iter().enumerate() {
            if !matches!(o.kind, OperandKind::IdRef | OperandKind::IdResultType) {
                continue;
            }
            let id = m.word(i, k);
            let class = match m.def_opcode(id) {
                Some(op::OpTypePointer) => m.def_word(id, 2),
                Some(op::OpVariable) => m.def_index(id).map(|d| m.word(d, 2)),
                _ => None,
            };
            if let Some(class) = class {
                classes.entry(f).or_default().push(class);
            }
        }
    }
    // Entry points: function → its models, and what each reaches.
    let mut models: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut entries = Vec::new();
    for i in (0..m.insts.len()).filter(|&i| m.insts[i].opcode() == op::OpEntryPoint) {
        let f = m.word(i, 1);
        let list = models.entry(f).or_default();
        if list.is_empty() {
            entries.push(f);
        }
        list.push(m.word(i, 0));
    }
    let reached_by = super::module::entry_points_reaching(&entries, &calls);
    for (i, f) in functions {
        let used = classes.get(&f).map_or(&[][..], |c| c.as_slice());
        for &entry in reached_by.get(&f).into_iter().flatten() {
            let mut entry_models = models[&entry].clone();
            entry_models.sort_unstable();
            entry_models.dedup();
            for model in entry_models {
                if used.iter().all(|&class| allowed(class, model, vulkan)) {
                    continue;
                }
                let (e, func) = (r.id(entry), r.id(f));
                r.error(
                    ErrorKind::EntryPoint,
                    i,
                    format!(
                        "OpEntryPoint Entry Point <id> {e}s callgraph contains function <id> {func}, which cannot \
                         be used with the current execution model:"
                    ),
                );
                return;
            }
        }
    }
}
