//! Execution and memory scopes (spirv-val's `ValidateExecutionScope` and
//! `ValidateMemoryScope`) of barriers, atomics, non-uniform group
//! operations and memory accesses: what each scope value needs (capabilities,
//! the Vulkan environment's scope lists) and, in Vulkan, the execution
//! models a Workgroup, ShaderCallKHR or non-Subgroup barrier scope limits
//! its function to.

use super::atomic_opcodes::ATOMIC_SET;
use super::limitations::{Context, Limitation, Models};
use super::{ErrorKind, Report};
use crate::grammar::{capability as cap, execution_model as em, memory_model, op, scope, OperandKind};
use crate::module::Module;
use crate::TargetEnv;
use rustc_hash::FxHashSet;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Execution,
    Memory,
}

/// spirv-val's `spvOpcodeIsNonUniformGroupOperation`.
fn non_uniform(opcode: u16) -> bool {
    (op::OpGroupNonUniformElect..=op::OpGroupNonUniformQuadSwap).contains(&opcode)
        || matches!(
            opcode,
            op::OpGroupNonUniformRotateKHR | op::OpGroupNonUniformQuadAllKHR | op::OpGroupNonUniformQuadAnyKHR
        )
}

/// The scope operands (operand index, kind) spirv-val validates as
/// execution or memory scopes, memory accesses' aside.
fn scope_operands(m: &Module, i: usize) -> Vec<(usize, Kind)> {
    let opcode = m.opcode(i);
    match opcode {
        op::OpControlBarrier => vec![(0, Kind::Execution), (1, Kind::Memory)],
        op::OpMemoryBarrier => vec![(0, Kind::Memory)],
        op::OpMemoryNamedBarrier => vec![(1, Kind::Memory)],
        _ if ATOMIC_SET.contains(opcode) => {
            let k = m.operands(i).iter().position(|o| o.kind == OperandKind::IdScope);
            k.map(|k| (k, Kind::Memory)).into_iter().collect()
        }
        op::OpGroupNonUniformQuadAllKHR | op::OpGroupNonUniformQuadAnyKHR => vec![],
        _ if non_uniform(opcode) => vec![(2, Kind::Execution)],
        _ => vec![],
    }
}

/// OpReadClockKHR: a scope Vulkan (Subgroup, Device) or OpenCL (also
/// Workgroup) has clocks for, and a 64-bit (or two 32-bit) unsigned result.
fn read_clock(m: &Module, env: TargetEnv, caps: &FxHashSet<u32>, i: usize) -> Option<String> {
    if m.operands(i).len() < 3 {
        return None;
    }
    let value = match scope_basics(m, caps, i, m.word(i, 2)) {
        Err(message) => return Some(message),
        Ok(value) => value,
    };
    match (env, value) {
        (TargetEnv::Vulkan(_) | TargetEnv::Vulkan11Spv14, Some(v)) if v != scope::Subgroup && v != scope::Device => {
            return Some(format!("{}Scope must be Subgroup or Device", vuid(env, "OpReadClockKHR-04652")));
        }
        (TargetEnv::OpenCl { .. }, Some(v)) if !matches!(v, scope::Workgroup | scope::Subgroup | scope::Device) => {
            return Some("Scope must be Subgroup, Workgroup, or Device".into());
        }
        _ => {}
    }
    let rt = m.result_type_word(i);
    let unsigned = |t: u32, width: u32| {
        m.def_opcode(t) == Some(op::OpTypeInt) && m.def_word(t, 2) == Some(width) && m.def_word(t, 3) == Some(0)
    };
    let handle = unsigned(rt, 64)
        || (m.def_opcode(rt) == Some(op::OpTypeVector)
            && m.def_word(rt, 3) == Some(2)
            && m.def_word(rt, 2).is_some_and(|c| unsigned(c, 32)));
    (!handle)
        .then(|| "Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer".into())
}

/// The execution scope `id` of a UniformId decoration on the instruction
/// `at`, named after it as spirv-val does (its decoration rules know the
/// environment only as Vulkan or not: Vulkan 1.0's group rule aside).
pub(crate) fn uniform_id_scope(m: &Module, vulkan: bool, at: usize, id: u32) -> Option<String> {
    let env = if vulkan { TargetEnv::Vulkan(1) } else { TargetEnv::Universal(6) };
    match scope_basics(m, super::capabilities::with_implied(m), at, id) {
        Err(message) => Some(message),
        Ok(value) => execution_scope(m, env, at, value?),
    }
}

/// spirv-val's `ValidateScope`: a 32-bit integer, constant in shaders (or
/// with CooperativeMatrixNV at least a constant instruction), of a known
/// value; `Ok` with the value when it is a constant.
fn scope_basics(m: &Module, caps: &FxHashSet<u32>, i: usize, id: u32) -> Result<Option<u32>, String> {
    let name = &m.insts[i].info().name[2..];
    let ty = m.type_of(id);
    if !(m.def_opcode(ty) == Some(op::OpTypeInt) && m.def_word(ty, 2) == Some(32)) {
        return Err(format!("{name}: expected scope to be a 32-bit int"));
    }
    let Some(value) = m.int32_constant(id) else {
        let shader = caps.contains(&cap::Shader);
        if shader && !caps.contains(&cap::CooperativeMatrixNV) {
            return Err("Scope ids must be OpConstant when Shader capability is present".into());
        }
        if shader && !m.def_opcode(id).is_some_and(crate::module::is_constant) {
            return Err(
                "Scope ids must be constant or specialization constant when CooperativeMatrixNV capability is \
                 present"
                    .into(),
            );
        }
        return Ok(None);
    };
    if OperandKind::Scope.enumerant(value).is_none() {
        return Err(super::invalid_scope(m, id));
    }
    Ok(Some(value))
}

/// The memory scopes of memory access and image operands
/// (MakePointerAvailable/Visible, MakeTexelAvailable/Visible).
fn access_scopes<'a>(m: &'a Module, i: usize) -> impl Iterator<Item = usize> + 'a {
    let opcode = m.opcode(i);
    let access = matches!(opcode, op::OpLoad | op::OpStore | op::OpCopyMemory | op::OpCopyMemorySized)
        || m.insts[i].info().name.starts_with("OpImage");
    m.operands(i).iter().enumerate().filter(move |(_, o)| access && o.kind == OperandKind::IdScope).map(|(k, _)| k)
}

fn vuid(env: TargetEnv, name: &str) -> String {
    if env.is_vulkan() {
        format!("[VUID-StandaloneSpirv-{name}] ")
    } else {
        String::new()
    }
}

/// spirv-val's `ValidateExecutionScope` on the scope (operand 2) of
/// non-uniform group operation `i`: the scope's type, constancy and value,
/// then what the value allows.
pub(crate) fn execution_scope_of(m: &Module, env: TargetEnv, i: usize) -> Option<String> {
    let id = (m.operands(i).len() > 2).then(|| m.word(i, 2))?;
    match scope_basics(m, super::capabilities::with_implied(m), i, id) {
        Err(message) => Some(message),
        Ok(value) => execution_scope(m, env, i, value?),
    }
}

/// The rules of a constant execution scope `value` on instruction `i`.
fn execution_scope(m: &Module, env: TargetEnv, i: usize, value: u32) -> Option<String> {
    let opcode = m.opcode(i);
    let name = &m.insts[i].info().name[2..];
    let group = non_uniform(opcode);
    if env.is_vulkan() {
        if env != TargetEnv::Vulkan(0) && group && value != scope::Subgroup {
            return Some(format!(
                "{}{name}: in Vulkan environment Execution scope is limited to Subgroup",
                vuid(env, "None-04642")
            ));
        }
        if value != scope::Workgroup && value != scope::Subgroup {
            return Some(format!(
                "{}{name}: in Vulkan environment Execution Scope is limited to Workgroup and Subgroup",
                vuid(env, "None-04636")
            ));
        }
    }
    (group && value != scope::Subgroup && value != scope::Workgroup)
        .then(|| format!("{name}: Execution scope is limited to Subgroup or Workgroup"))
}

/// The rules of a constant memory scope `value` on instruction `i`.
fn memory_scope_value(m: &Module, env: TargetEnv, caps: &FxHashSet<u32>, i: usize, value: u32) -> Option<String> {
    let name = &m.insts[i].info().name[2..];
    let vulkan_memory_model = caps.contains(&cap::VulkanMemoryModel);
    if value == scope::QueueFamily {
        return (!vulkan_memory_model)
            .then(|| format!("{name}: Memory Scope QueueFamilyKHR requires capability VulkanMemoryModelKHR"));
    }
    if value == scope::Device && vulkan_memory_model && !caps.contains(&cap::VulkanMemoryModelDeviceScope) {
        return Some(
            "Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability"
                .into(),
        );
    }
    if env.is_vulkan() {
        if !matches!(
            value,
            scope::Device | scope::Workgroup | scope::Subgroup | scope::Invocation | scope::ShaderCallKHR
        ) {
            return Some(format!(
                "{}{name}: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, \
                 ShaderCallKHR, Subgroup, or Invocation",
                vuid(env, "None-04638")
            ));
        }
        if env == TargetEnv::Vulkan(0)
            && value == scope::Subgroup
            && !caps.contains(&cap::SubgroupBallotKHR)
            && !caps.contains(&cap::SubgroupVoteKHR)
        {
            return Some(format!(
                "{}{name}: in Vulkan 1.0 environment Memory Scope is can not be Subgroup without SubgroupBallotKHR \
                 or SubgroupVoteKHR declared",
                vuid(env, "SubgroupVoteKHR-07951")
            ));
        }
    }
    None
}

/// The value rules of memory scope `id` of instruction `i` (its type and
/// constancy checked elsewhere), for the memory access checks.
pub(crate) fn memory_scope(m: &Module, env: TargetEnv, i: usize, id: u32) -> Option<String> {
    memory_scope_rules(m, env, super::capabilities::with_implied(m), i, id)
}

/// As [`memory_scope`], given the declared and implied capabilities.
pub(crate) fn memory_scope_rules(
    m: &Module,
    env: TargetEnv,
    caps: &FxHashSet<u32>,
    i: usize,
    id: u32,
) -> Option<String> {
    match scope_basics(m, caps, i, id) {
        Err(message) => Some(message),
        Ok(value) => memory_scope_value(m, env, caps, i, value?),
    }
}

/// The memory semantics operands of barriers and atomics, each with the
/// operand index of its memory scope.
fn semantics_operands(m: &Module, i: usize) -> Vec<(usize, usize)> {
    let opcode = m.opcode(i);
    match opcode {
        op::OpControlBarrier | op::OpMemoryNamedBarrier => vec![(2, 1)],
        op::OpMemoryBarrier => vec![(1, 0)],
        _ if ATOMIC_SET.contains(opcode) => {
            let ops = m.operands(i);
            let Some(scope) = ops.iter().position(|o| o.kind == OperandKind::IdScope) else { return vec![] };
            (0..ops.len()).filter(|&k| ops[k].kind == OperandKind::IdMemorySemantics).map(|k| (k, scope)).collect()
        }
        _ => vec![],
    }
}

/// Reports the first scope or memory semantics rule each barrier and
/// non-uniform group operation breaks (atomics check theirs in order with
/// their other rules).
pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    let caps = super::capabilities::with_implied(m);
    let semantics = super::memory_semantics::Context { m, vulkan_env: env.is_vulkan(), caps };
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        // Atomics check their scopes with their other rules.
        let scoped = matches!(
            opcode,
            op::OpControlBarrier | op::OpMemoryBarrier | op::OpMemoryNamedBarrier | op::OpReadClockKHR
        ) || non_uniform(opcode);
        if !scoped {
            continue;
        }
        if m.opcode(i) == op::OpReadClockKHR {
            if let Some(message) = read_clock(m, env, caps, i) {
                r.error(ErrorKind::OperandType, i, message);
                if r.full() {
                    return;
                }
            }
            continue;
        }
        let len = m.operands(i).len();
        let scope_problem = scope_operands(m, i).into_iter().filter(|&(k, _)| k < len).find_map(|(k, kind)| {
            let value = match scope_basics(m, caps, i, m.word(i, k)) {
                Err(message) => return Some(message),
                Ok(value) => value?,
            };
            match kind {
                Kind::Execution => execution_scope(m, env, i, value),
                Kind::Memory => memory_scope_value(m, env, caps, i, value),
            }
        });
        let problem = scope_problem.or_else(|| {
            semantics_operands(m, i)
                .into_iter()
                .filter(|&(k, scope)| k < len && scope < len)
                .find_map(|(k, scope)| semantics.problem(i, k, m.word(i, scope)))
        });
        if let Some(message) = problem {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}

/// Stages that have no Subgroup barrier scope in Vulkan.
const NO_WORKGROUP_BARRIER: &[u32] = &[
    em::Fragment,
    em::Vertex,
    em::Geometry,
    em::TessellationEvaluation,
    em::RayGenerationKHR,
    em::IntersectionKHR,
    em::AnyHitKHR,
    em::ClosestHitKHR,
    em::MissKHR,
];

/// The stages with workgroups (and tessellation control).
const WORKGROUP_STAGES: &[u32] =
    &[em::TaskNV, em::MeshNV, em::TaskEXT, em::MeshEXT, em::TessellationControl, em::GLCompute];

const RAY_STAGES: &[u32] =
    &[em::RayGenerationKHR, em::IntersectionKHR, em::AnyHitKHR, em::ClosestHitKHR, em::MissKHR, em::CallableKHR];

/// In Vulkan, what a constant scope limits its function to.
pub(crate) fn limitations(cx: &Context, i: usize, out: &mut Vec<Limitation>) {
    if !cx.vulkan {
        return;
    }
    let m = cx.m;
    let opcode = m.opcode(i);
    let scopes = scope_operands(m, i).into_iter().chain(access_scopes(m, i).map(|k| (k, Kind::Memory)));
    for (k, kind) in scopes {
        if k >= m.operands(i).len() {
            continue;
        }
        let Some(value) = m.int32_constant(m.word(i, k)) else { continue };
        match kind {
            Kind::Execution => {
                if opcode == op::OpControlBarrier && value != scope::Subgroup {
                    out.push(Limitation::Model(
                        Models::Not(NO_WORKGROUP_BARRIER),
                        format!(
                            "{}in Vulkan environment, OpControlBarrier execution scope must be Subgroup for \
                             Fragment, Vertex, Geometry, TessellationEvaluation, RayGeneration, Intersection, \
                             AnyHit, ClosestHit, and Miss execution models",
                            cx.vuid("OpControlBarrier-04682")
                        ),
                    ));
                }
                if value == scope::Workgroup {
                    out.push(Limitation::Model(
                        Models::Only(WORKGROUP_STAGES),
                        format!(
                            "{}in Vulkan environment, Workgroup execution scope is only for TaskNV, MeshNV, \
                             TaskEXT, MeshEXT, TessellationControl, and GLCompute execution models",
                            cx.vuid("None-04637")
                        ),
                    ));
                }
            }
            Kind::Memory => {
                if value == scope::ShaderCallKHR {
                    out.push(Limitation::Model(
                        Models::Only(RAY_STAGES),
                        format!(
                            "{}ShaderCallKHR Memory Scope requires a ray tracing execution model",
                            cx.vuid("None-04640")
                        ),
                    ));
                }
                if value == scope::Workgroup {
                    out.push(Limitation::Model(
                        Models::Only(WORKGROUP_STAGES),
                        format!(
                            "{}Workgroup Memory Scope is limited to MeshNV, TaskNV, MeshEXT, TaskEXT, \
                             TessellationControl, and GLCompute execution model",
                            cx.vuid("None-07321")
                        ),
                    ));
                    let glsl450 = m
                        .insts
                        .iter()
                        .position(|x| x.opcode() == op::OpMemoryModel)
                        .is_some_and(|x| m.word(x, 1) == memory_model::GLSL450);
                    if glsl450 {
                        out.push(Limitation::Model(
                            Models::Not(&[em::TessellationControl]),
                            format!(
                                "{}Workgroup Memory Scope can't be used with TessellationControl using GLSL450 \
                                 Memory Model",
                                cx.vuid("ExecutionModel-07320")
                            ),
                        ));
                    }
                }
            }
        }
    }
}
