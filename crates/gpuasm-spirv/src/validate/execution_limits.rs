//! Execution-model limitations: some instructions run only in some
//! execution models (OpKill in fragment shaders, OpEmitVertex in geometry
//! shaders...) or need some execution modes of the entry point (derivatives
//! in compute shaders need a derivative group). spirv-val records each such
//! limit on the function holding the instruction
//! (`RegisterExecutionModelLimitation`, `RegisterLimitation`) and, after its
//! other checks, walks each entry point's call graph: the first function (in
//! module order) some entry point reaching it cannot run is reported, with
//! every limit it breaks on the following lines.
//!
//! Rule areas contribute through [`SOURCES`]: each source says, for one
//! instruction, which limits it puts on its function, in the terms of
//! `limitations` (which the rule areas import instead of this module, so
//! that the imports run one way).

use super::limitations::{Context, Limitation, ModeNeed, Models, DERIVATIVE_MODELS};
use super::{ErrorKind, Report};
use crate::grammar::{execution_model as em, op};
use crate::module::opcode_set::OpcodeSet;
use crate::module::{entry_points_reaching, Module};
use crate::TargetEnv;
use rustc_hash::{FxHashMap, FxHashSet};

/// A rule area's limits for instruction `i` (inside a function).
pub(crate) type Source = fn(&Context, usize, &mut Vec<Limitation>);

/// A source, and whether it can find anything in a module (most modules use
/// none of the instructions or storage classes most sources look for).
struct Sourced {
    wanted: fn(&Context) -> bool,
    each: Source,
}

fn always(_: &Context) -> bool {
    true
}

/// Every source, in the order spirv-val registers them: storage classes as
/// it reads the module, then its passes in order.
const SOURCES: &[Sourced] = &[
    Sourced { wanted: super::storage_models::any_limited, each: super::storage_models::limitations },
    Sourced { wanted: |cx| cx.m.uses_any(&BY_OPCODE_SET), each: opcode_limitations },
    Sourced { wanted: |cx| cx.m.uses(op::OpExtInst), each: super::glsl::limitations },
    Sourced { wanted: |cx| cx.m.uses(op::OpStore), each: super::storage_models::read_only_limitations },
    Sourced { wanted: always, each: super::images::limitations },
    Sourced { wanted: |cx| cx.m.uses_any(&DERIVATIVES), each: derivatives },
    Sourced { wanted: |cx| cx.vulkan, each: super::scopes::limitations },
    Sourced { wanted: |cx| cx.m.uses(op::OpControlBarrier), each: control_barrier },
    Sourced { wanted: |cx| cx.m.uses_any(&HIT_OBJECTS), each: hit_objects },
];

/// The opcodes of [`BY_OPCODE`].
static BY_OPCODE_SET: OpcodeSet = {
    let mut ops = [0u16; BY_OPCODE.len()];
    let mut k = 0;
    while k < ops.len() {
        ops[k] = BY_OPCODE[k].0;
        k += 1;
    }
    OpcodeSet::new(&ops)
};

/// The hit object and reorder instructions (SPV_NV/EXT_shader_invocation_reorder).
static HIT_OBJECTS: OpcodeSet = OpcodeSet::named(&["OpHitObject", "OpReorderThread"], &[]);

/// The derivative instructions.
static DERIVATIVES: OpcodeSet = OpcodeSet::new(&[
    op::OpDPdx,
    op::OpDPdy,
    op::OpFwidth,
    op::OpDPdxFine,
    op::OpDPdyFine,
    op::OpFwidthFine,
    op::OpDPdxCoarse,
    op::OpDPdyCoarse,
    op::OpFwidthCoarse,
]);

const FRAGMENT: &[u32] = &[em::Fragment];

/// Instructions only some models may run, whatever their operands.
const BY_OPCODE: &[(u16, Models, &str)] = &[
    (op::OpKill, Models::Only(FRAGMENT), "OpKill requires Fragment execution model"),
    (op::OpTerminateInvocation, Models::Only(FRAGMENT), "OpTerminateInvocation requires Fragment execution model"),
    (
        op::OpIgnoreIntersectionKHR,
        Models::Only(&[em::AnyHitKHR]),
        "OpIgnoreIntersectionKHR requires AnyHitKHR execution model",
    ),
    (op::OpTerminateRayKHR, Models::Only(&[em::AnyHitKHR]), "OpTerminateRayKHR requires AnyHitKHR execution model"),
    (op::OpEmitVertex, Models::Only(&[em::Geometry]), "EmitVertex instructions require Geometry execution model"),
    (op::OpEndPrimitive, Models::Only(&[em::Geometry]), "EndPrimitive instructions require Geometry execution model"),
    (
        op::OpEmitStreamVertex,
        Models::Only(&[em::Geometry]),
        "EmitStreamVertex instructions require Geometry execution model",
    ),
    (
        op::OpEndStreamPrimitive,
        Models::Only(&[em::Geometry]),
        "EndStreamPrimitive instructions require Geometry execution model",
    ),
    (op::OpEmitMeshTasksEXT, Models::Only(&[em::TaskEXT]), "OpEmitMeshTasksEXT requires TaskEXT execution model"),
    (op::OpSetMeshOutputsEXT, Models::Only(&[em::MeshEXT]), "OpSetMeshOutputsEXT requires MeshEXT execution model"),
    (
        op::OpBeginInvocationInterlockEXT,
        Models::Only(FRAGMENT),
        "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require Fragment execution model",
    ),
    (
        op::OpEndInvocationInterlockEXT,
        Models::Only(FRAGMENT),
        "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require Fragment execution model",
    ),
    (
        op::OpDemoteToHelperInvocation,
        Models::Only(FRAGMENT),
        "OpDemoteToHelperInvocationEXT requires Fragment execution model",
    ),
    (op::OpIsHelperInvocationEXT, Models::Only(FRAGMENT), "OpIsHelperInvocationEXT requires Fragment execution model"),
    (
        op::OpTraceRayKHR,
        Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR]),
        "OpTraceRayKHR requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models",
    ),
    (
        op::OpReportIntersectionKHR,
        Models::Only(&[em::IntersectionKHR]),
        "OpReportIntersectionKHR requires IntersectionKHR execution model",
    ),
    (
        op::OpExecuteCallableKHR,
        Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR, em::CallableKHR]),
        "OpExecuteCallableKHR requires RayGenerationKHR, ClosestHitKHR, MissKHR and CallableKHR execution models",
    ),
];

fn opcode_limitations(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    let opcode = cx.m.opcode(i);
    if !BY_OPCODE_SET.contains(opcode) {
        return;
    }
    if let Some((_, models, reason)) = BY_OPCODE.iter().find(|e| e.0 == opcode) {
        out.push(Limitation::Model(*models, reason.to_string()));
    }
    if matches!(opcode, op::OpBeginInvocationInterlockEXT | op::OpEndInvocationInterlockEXT) {
        out.push(Limitation::Modes(
            ModeNeed::Interlock,
            "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require a fragment shader interlock \
             execution mode."
                .into(),
        ));
    }
}

/// Derivative instructions (spirv-val's derivatives pass): fragment shaders,
/// or compute, mesh and task shaders with a derivative group.
fn derivatives(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    let inst = &cx.m.insts[i];
    if !DERIVATIVES.contains(inst.opcode()) {
        return;
    }
    let name = &inst.info().name[2..];
    out.push(Limitation::Model(
        Models::Only(DERIVATIVE_MODELS),
        format!("Derivative instructions require Fragment, GLCompute, MeshEXT or TaskEXT execution model: {name}"),
    ));
    out.push(Limitation::Modes(
        ModeNeed::DerivativeGroup,
        format!(
            "Derivative instructions require DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for \
             GLCompute, MeshEXT or TaskEXT execution model: {name}"
        ),
    ));
}

/// Before SPIR-V 1.3, OpControlBarrier is for the stages with workgroups
/// (and tessellation control).
fn control_barrier(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    if cx.m.opcode(i) == op::OpControlBarrier && cx.m.header.version_parts() < (1, 3) {
        out.push(Limitation::Model(
            Models::Only(&[em::TessellationControl, em::GLCompute, em::Kernel, em::TaskNV, em::MeshNV]),
            "In SPIR-V 1.2 or earlier, OpControlBarrier requires one of the following Execution Models: \
             TessellationControl, GLCompute, Kernel, MeshNV or TaskNV"
                .into(),
        ));
    }
}

/// Hit object instructions (SPV_NV/EXT_shader_invocation_reorder) are for
/// ray generation, closest hit and miss shaders; reordering, for ray
/// generation shaders only.
fn hit_objects(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    let info = cx.m.insts[i].info();
    let name = info.name;
    // The motion records spirv-val's reorder rules do not list.
    let unchecked = [
        op::OpHitObjectRecordHitMotionNV,
        op::OpHitObjectRecordHitWithIndexMotionNV,
        op::OpHitObjectRecordMissMotionNV,
    ];
    if !(name.starts_with("OpHitObject") || name.starts_with("OpReorderThread")) || unchecked.contains(&info.opcode) {
        return;
    }
    let reorders = matches!(
        info.opcode,
        op::OpReorderThreadWithHitObjectNV
            | op::OpReorderThreadWithHintNV
            | op::OpReorderThreadWithHintEXT
            | op::OpReorderThreadWithHitObjectEXT
            | op::OpHitObjectReorderExecuteShaderEXT
            | op::OpHitObjectTraceReorderExecuteEXT
            | op::OpHitObjectTraceMotionReorderExecuteEXT
    );
    let short = &name[2..];
    out.push(if reorders {
        Limitation::Model(
            Models::Only(&[em::RayGenerationKHR]),
            format!("{short} requires RayGenerationKHR execution model"),
        )
    } else {
        Limitation::Model(
            Models::Only(&[em::RayGenerationKHR, em::ClosestHitKHR, em::MissKHR]),
            format!("{short} requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models"),
        )
    });
}

/// Reports the first function an entry point reaching it cannot run.
pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    let vulkan = env.is_vulkan();
    let cx = Context { m, vulkan };
    // Per function: its limits and callees; per entry point: its models
    // (sorted, as spirv-val keeps them in a set) and modes.
    let mut calls: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut models: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut modes: FxHashMap<u32, FxHashSet<u32>> = FxHashMap::default();
    let mut entries = Vec::new();
    let mut functions = Vec::new();
    let mut current = None;
    for (i, inst) in m.insts.iter().enumerate() {
        match inst.opcode() {
            op::OpEntryPoint => {
                let f = m.word(i, 1);
                // First seen: not yet in `models` (a look-up, not a scan).
                if !models.contains_key(&f) {
                    entries.push(f);
                }
                let list = models.entry(f).or_default();
                if !list.contains(&m.word(i, 0)) {
                    list.push(m.word(i, 0));
                    list.sort_unstable();
                }
            }
            op::OpExecutionMode | op::OpExecutionModeId => {
                modes.entry(m.word(i, 0)).or_default().insert(m.word(i, 1));
            }
            op::OpFunction => {
                current = Some(m.result_id_at(inst));
                functions.push(i);
            }
            op::OpFunctionEnd => current = None,
            op::OpFunctionCall => {
                if let Some(f) = current {
                    calls.entry(f).or_default().push(m.word(i, 2));
                }
            }
            _ => {}
        }
    }
    // Sources run in spirv-val's registration order: all instructions of a
    // function for each, so storage classes (recorded as the module is read)
    // come first in its list.
    let sources: Vec<Source> = SOURCES.iter().filter(|s| (s.wanted)(&cx)).map(|s| s.each).collect();
    let mut limits: FxHashMap<u32, Vec<Limitation>> = FxHashMap::default();
    for &start in &functions {
        let end =
            m.insts[start..].iter().position(|x| x.opcode() == op::OpFunctionEnd).map_or(m.insts.len(), |n| start + n);
        let mut list = Vec::new();
        for source in &sources {
            for i in start..end {
                source(&cx, i, &mut list);
            }
        }
        if !list.is_empty() {
            limits.entry(m.result_id_word(start)).or_default().extend(list);
        }
    }
    if limits.is_empty() {
        return;
    }
    let reached_by = entry_points_reaching(&entries, &calls);
    let no_modes = FxHashSet::default();
    for i in functions {
        let f = m.result_id_word(i);
        let Some(list) = limits.get(&f) else { continue };
        for &entry in reached_by.get(&f).into_iter().flatten() {
            let entry_models = models.get(&entry).map_or(&[][..], |v| &v[..]);
            let failing = |model: u32| -> Vec<&str> {
                list.iter()
                    .filter_map(|l| match l {
                        Limitation::Model(allowed, reason) if !allowed.allows(model) => Some(reason.as_str()),
                        _ => None,
                    })
                    .collect()
            };
            let mut found = entry_models.iter().map(|&x| failing(x)).find(|v| !v.is_empty()).map(|v| ("model", v));
            if found.is_none() {
                let entry_modes = modes.get(&entry).unwrap_or(&no_modes);
                let reasons: Vec<&str> = list
                    .iter()
                    .filter_map(|l| match l {
                        Limitation::Modes(need, reason) if !need.met(entry_models, entry_modes) => {
                            Some(reason.as_str())
                        }
                        _ => None,
                    })
                    .collect();
                found = (!reasons.is_empty()).then_some(("modes", reasons));
            }
            if let Some((what, reasons)) = found {
                let (e, func) = (r.id(entry), r.id(f));
                r.error(
                    ErrorKind::EntryPoint,
                    i,
                    format!(
                        "OpEntryPoint Entry Point <id> {e}s callgraph contains function <id> {func}, which cannot be \
                         used with the current execution {what}:\n{}",
                        reasons.join("\n")
                    ),
                );
                return;
            }
        }
    }
}
