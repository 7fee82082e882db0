//! Operands of instructions of particular stages and of named barriers, in
//! spirv-val's words: geometry streams (a constant int), mesh and task
//! outputs (32-bit unsigned counts, a task payload variable), helper
//! invocation queries (a bool), named barriers (their own type), and where
//! PerPrimitiveEXT variables may live.

use super::{ErrorKind, Report};
use crate::grammar::{capability as cap, decoration, execution_model as em, op, storage_class as sc};
use crate::module::{is_constant, Module};
use crate::TargetEnv;

fn int_scalar(m: &Module, ty: u32) -> bool {
    m.def_opcode(ty) == Some(op::OpTypeInt)
}

fn uint32_scalar(m: &Module, ty: u32) -> bool {
    int_scalar(m, ty) && m.def_word(ty, 2) == Some(32) && m.def_word(ty, 3) == Some(0)
}

/// The type of operand `k` of instruction `i` (0 if it has none).
fn operand_type(m: &Module, i: usize, k: usize) -> u32 {
    if k < m.operands(i).len() {
        m.type_of(m.word(i, k))
    } else {
        0
    }
}

/// The first rule instruction `i` breaks.
fn problem(m: &Module, env: TargetEnv, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let name = &inst.info().name[2..];
    match inst.opcode() {
        op::OpEmitStreamVertex | op::OpEndStreamPrimitive => {
            if !int_scalar(m, operand_type(m, i, 0)) {
                return Some(format!("{name}: expected Stream to be int scalar"));
            }
            let constant = m.def_opcode(m.word(i, 0)).is_some_and(is_constant);
            (!constant).then(|| format!("{name}: expected Stream to be constant instruction"))
        }
        op::OpEmitMeshTasksEXT => {
            for (k, axis) in ["X", "Y", "Z"].iter().enumerate() {
                if !uint32_scalar(m, operand_type(m, i, k)) {
                    return Some(format!("Group Count {axis} must be a 32-bit unsigned int scalar"));
                }
            }
            if m.operands(i).len() < 4 {
                return None;
            }
            let payload = m.word(i, 3);
            match m.def_index(payload) {
                Some(d) if m.opcode(d) == op::OpVariable => (m.word(d, 2) != sc::TaskPayloadWorkgroupEXT)
                    .then(|| "Payload OpVariable must have a storage class of TaskPayloadWorkgroupEXT".into()),
                _ => Some("Payload must be the result of a OpVariable".into()),
            }
        }
        op::OpSetMeshOutputsEXT => {
            if !uint32_scalar(m, operand_type(m, i, 0)) {
                return Some("Vertex Count must be a 32-bit unsigned int scalar".into());
            }
            (!uint32_scalar(m, operand_type(m, i, 1)))
                .then(|| "Primitive Count must be a 32-bit unsigned int scalar".into())
        }
        op::OpIsHelperInvocationEXT => (m.def_opcode(m.result_type_at(inst)) != Some(op::OpTypeBool))
            .then(|| format!("Expected bool scalar type as Result Type: {name}")),
        op::OpNamedBarrierInitialize => {
            if m.def_opcode(m.result_type_at(inst)) != Some(op::OpTypeNamedBarrier) {
                return Some(format!("{name}: expected Result Type to be OpTypeNamedBarrier"));
            }
            let count = operand_type(m, i, 2);
            (!(int_scalar(m, count) && m.def_word(count, 2) == Some(32)))
                .then(|| format!("{name}: expected Subgroup Count to be a 32-bit int"))
        }
        op::OpMemoryNamedBarrier => (m.def_opcode(operand_type(m, i, 0)) != Some(op::OpTypeNamedBarrier))
            .then(|| format!("{name}: expected Named Barrier to be of type OpTypeNamedBarrier")),
        op::OpVariable => per_primitive(m, env, i),
        _ => None,
    }
}

/// spirv-val's `IsInterfaceVariable`: every entry point is of `model` and
/// one lists `var` in its interface.
fn interface_of_all(m: &Module, var: u32, model: u32) -> bool {
    let mut found = false;
    for e in (0..m.insts.len()).filter(|&e| m.opcode(e) == op::OpEntryPoint) {
        let function = m.word(e, 1);
        // The models of that entry point's function.
        let has_model = (0..m.insts.len())
            .any(|x| m.opcode(x) == op::OpEntryPoint && m.word(x, 1) == function && m.word(x, 0) == model);
        if !has_model {
            return false;
        }
        found |= (3..m.operands(e).len()).any(|k| m.word(e, k) == var);
    }
    found
}

/// With MeshShadingEXT, PerPrimitiveEXT variables are fragment inputs or
/// mesh outputs.
fn per_primitive(m: &Module, env: TargetEnv, i: usize) -> Option<String> {
    if !m.declared_capabilities.contains(&cap::MeshShadingEXT) {
        return None;
    }
    let var = m.result_id_word(i);
    if !m.has_decoration(var, decoration::PerPrimitiveEXT) {
        return None;
    }
    let class = m.word(i, 2);
    if class != sc::Input && interface_of_all(m, var, em::Fragment) {
        return Some(
            "PerPrimitiveEXT decoration must be applied only to variables in the Input Storage Class in the \
             Fragment Execution Model."
                .into(),
        );
    }
    if class != sc::Output && interface_of_all(m, var, em::MeshEXT) {
        let vuid = if env.is_vulkan() { "[VUID-PrimitiveId-PrimitiveId-04336] " } else { "" };
        return Some(format!(
            "{vuid}PerPrimitiveEXT decoration must be applied only to variables in the Output Storage Class in the \
             Storage Class in the MeshEXT Execution Model."
        ));
    }
    None
}

pub(crate) fn check(m: &Module, env: TargetEnv, r: &mut Report) {
    for i in 0..m.insts.len() {
        if let Some(message) = problem(m, env, i) {
            r.error(ErrorKind::OperandType, i, message);
            if r.full() {
                return;
            }
        }
    }
}
