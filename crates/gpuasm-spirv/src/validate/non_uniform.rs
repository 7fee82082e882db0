//! The non-uniform group instructions (SPIR-V 1.3 subgroups,
//! SPV_KHR_subgroup_rotate): their execution scope (Subgroup or Workgroup;
//! Subgroup only in Vulkan 1.1 and later, VUID-StandaloneSpirv-None-04642),
//! results and values of the types each operation takes, lanes, cluster
//! sizes and ballots, in spirv-val's words and order
//! (validate_non_uniform.cpp, validate_scopes.cpp). The generic rules of
//! every scope operand (a 32-bit constant naming a scope) come first, with
//! the other operand checks.

use super::shapes::shape;
use crate::grammar::{group_operation as group, op};
use crate::module::{is_constant, Module};
use crate::TargetEnv;

/// Scalar or vector kinds a group operation takes as Result Type.
fn scalar_or_vector(m: &Module, ty: u32, base: u16) -> bool {
    shape(m, ty).is_some_and(|s| s.base == base)
}

fn numeric_or_bool(m: &Module, ty: u32) -> bool {
    shape(m, ty).is_some()
}

fn unsigned(m: &Module, ty: u32, count: Option<u32>) -> bool {
    shape(m, ty).is_some_and(|s| {
        s.base == op::OpTypeInt
            && m.def_word(s.scalar, 3) == Some(0)
            && match count {
                None => s.count == 1 && s.scalar == ty,
                Some(n) => s.count == n && s.scalar != ty,
            }
    })
}

/// A 4-component unsigned integer vector (a ballot).
fn ballot(m: &Module, ty: u32) -> bool {
    unsigned(m, ty, Some(4))
}

/// The instructions spirv-val counts as non-uniform group operations
/// (spvOpcodeIsNonUniformGroupOperation).
const NON_UNIFORM: &[u16] = &[
    op::OpGroupNonUniformElect,
    op::OpGroupNonUniformAll,
    op::OpGroupNonUniformAny,
    op::OpGroupNonUniformAllEqual,
    op::OpGroupNonUniformBroadcast,
    op::OpGroupNonUniformBroadcastFirst,
    op::OpGroupNonUniformBallot,
    op::OpGroupNonUniformInverseBallot,
    op::OpGroupNonUniformBallotBitExtract,
    op::OpGroupNonUniformBallotBitCount,
    op::OpGroupNonUniformBallotFindLSB,
    op::OpGroupNonUniformBallotFindMSB,
    op::OpGroupNonUniformShuffle,
    op::OpGroupNonUniformShuffleXor,
    op::OpGroupNonUniformShuffleUp,
    op::OpGroupNonUniformShuffleDown,
    op::OpGroupNonUniformIAdd,
    op::OpGroupNonUniformFAdd,
    op::OpGroupNonUniformIMul,
    op::OpGroupNonUniformFMul,
    op::OpGroupNonUniformSMin,
    op::OpGroupNonUniformUMin,
    op::OpGroupNonUniformFMin,
    op::OpGroupNonUniformSMax,
    op::OpGroupNonUniformUMax,
    op::OpGroupNonUniformFMax,
    op::OpGroupNonUniformBitwiseAnd,
    op::OpGroupNonUniformBitwiseOr,
    op::OpGroupNonUniformBitwiseXor,
    op::OpGroupNonUniformLogicalAnd,
    op::OpGroupNonUniformLogicalOr,
    op::OpGroupNonUniformLogicalXor,
    op::OpGroupNonUniformQuadBroadcast,
    op::OpGroupNonUniformQuadSwap,
    op::OpGroupNonUniformRotateKHR,
    op::OpGroupNonUniformQuadAllKHR,
    op::OpGroupNonUniformQuadAnyKHR,
];

/// Whether this module checks `opcode`.
pub(super) fn covers(opcode: u16) -> bool {
    NON_UNIFORM.contains(&opcode)
}

/// What spirv-val says of non-uniform group instruction `i`, if it is wrong.
pub(super) fn problem(m: &Module, i: usize, env: TargetEnv) -> Option<String> {
    let inst = &m.insts[i];
    let opcode = inst.opcode();
    let rt = m.result_type_at(inst);
    let len = m.operands(i).len();
    let operand = |k: usize| if k < len { m.type_of(m.word(i, k)) } else { 0 };
    if !matches!(opcode, op::OpGroupNonUniformQuadAllKHR | op::OpGroupNonUniformQuadAnyKHR) {
        if let Some(message) = super::scopes::execution_scope_of(m, env, i) {
            return Some(message);
        }
    }
    let bool_scalar = |t: u32| m.def_opcode(t) == Some(op::OpTypeBool);
    let say = |s: &str| Some(s.to_string());
    match opcode {
        op::OpGroupNonUniformElect if !bool_scalar(rt) => say("Result must be a boolean scalar type"),
        op::OpGroupNonUniformAny | op::OpGroupNonUniformAll => {
            if !bool_scalar(rt) {
                say("Result must be a boolean scalar type")
            } else if !bool_scalar(operand(3)) {
                say("Predicate must be a boolean scalar type")
            } else {
                None
            }
        }
        op::OpGroupNonUniformAllEqual => {
            if !bool_scalar(rt) {
                say("Result must be a boolean scalar type")
            } else if !numeric_or_bool(m, operand(3)) {
                say("Value must be a scalar or vector of integer, floating-point, or boolean type")
            } else {
                None
            }
        }
        op::OpGroupNonUniformBroadcast
        | op::OpGroupNonUniformShuffle
        | op::OpGroupNonUniformShuffleXor
        | op::OpGroupNonUniformShuffleUp
        | op::OpGroupNonUniformShuffleDown
        | op::OpGroupNonUniformQuadBroadcast
        | op::OpGroupNonUniformQuadSwap => {
            let lane = match opcode {
                op::OpGroupNonUniformBroadcast | op::OpGroupNonUniformShuffle => "Id",
                op::OpGroupNonUniformShuffleXor => "Mask",
                op::OpGroupNonUniformQuadBroadcast => "Index",
                op::OpGroupNonUniformQuadSwap => "Direction",
                _ => "Delta",
            };
            // Before 1.5 the lane a broadcast reads is fixed; a quad swap's
            // direction always is.
            let fixed = opcode == op::OpGroupNonUniformQuadSwap
                || (matches!(opcode, op::OpGroupNonUniformBroadcast | op::OpGroupNonUniformQuadBroadcast)
                    && m.header.version_parts() < (1, 5));
            if !numeric_or_bool(m, rt) {
                say("Result must be a scalar or vector of integer, floating-point, or boolean type")
            } else if operand(3) != rt {
                say("The type of Value must match the Result type")
            } else if !unsigned(m, operand(4), None) {
                Some(format!("{lane} must be an unsigned integer scalar"))
            } else if fixed && !m.def_opcode(m.word(i, 4)).is_some_and(is_constant) {
                Some(format!("In SPIR-V 1.4 or earlier, {lane} must be a constant instruction"))
            } else {
                None
            }
        }
        op::OpGroupNonUniformBroadcastFirst => {
            if !numeric_or_bool(m, rt) {
                say("Result must be a scalar or vector of integer, floating-point, or boolean type")
            } else if operand(3) != rt {
                say("The type of Value must match the Result type")
            } else {
                None
            }
        }
        op::OpGroupNonUniformBallot => {
            if !ballot(m, rt) {
                say("Result must be a 4-component unsigned integer vector")
            } else if !bool_scalar(operand(3)) {
                say("Predicate must be a boolean scalar")
            } else {
                None
            }
        }
        op::OpGroupNonUniformInverseBallot | op::OpGroupNonUniformBallotBitExtract => {
            if !bool_scalar(rt) {
                say("Result must be a boolean scalar")
            } else if !ballot(m, operand(3)) {
                say("Value must be a 4-component unsigned integer vector")
            } else if opcode == op::OpGroupNonUniformBallotBitExtract && !unsigned(m, operand(4), None) {
                say("Id must be an unsigned integer scalar")
            } else {
                None
            }
        }
        op::OpGroupNonUniformBallotBitCount => {
            let operation = m.word(i, 3);
            let vulkan = env.is_vulkan();
            if !unsigned(m, rt, None) {
                say("Expected Result Type to be an unsigned integer type scalar.")
            } else if !ballot(m, operand(4)) {
                say("Expected Value to be a vector of four components of integer type scalar")
            } else if vulkan && !matches!(operation, group::Reduce | group::InclusiveScan | group::ExclusiveScan) {
                say("[VUID-StandaloneSpirv-OpGroupNonUniformBallotBitCount-04685] In Vulkan: The \
                     OpGroupNonUniformBallotBitCount group operation must be only: Reduce, InclusiveScan, or \
                     ExclusiveScan.")
            } else {
                None
            }
        }
        op::OpGroupNonUniformBallotFindLSB | op::OpGroupNonUniformBallotFindMSB => {
            if !unsigned(m, rt, None) {
                say("Result must be an unsigned integer scalar")
            } else if !ballot(m, operand(3)) {
                say("Value must be a 4-component unsigned integer vector")
            } else {
                None
            }
        }
        op::OpGroupNonUniformIAdd
        | op::OpGroupNonUniformFAdd
        | op::OpGroupNonUniformIMul
        | op::OpGroupNonUniformFMul
        | op::OpGroupNonUniformSMin
        | op::OpGroupNonUniformUMin
        | op::OpGroupNonUniformFMin
        | op::OpGroupNonUniformSMax
        | op::OpGroupNonUniformUMax
        | op::OpGroupNonUniformFMax
        | op::OpGroupNonUniformBitwiseAnd
        | op::OpGroupNonUniformBitwiseOr
        | op::OpGroupNonUniformBitwiseXor
        | op::OpGroupNonUniformLogicalAnd
        | op::OpGroupNonUniformLogicalOr
        | op::OpGroupNonUniformLogicalXor => arithmetic(m, i),
        op::OpGroupNonUniformRotateKHR => rotate(m, i),
        _ => None,
    }
}

/// The reductions and scans: a result of the operation's kind, a Value of
/// its type, and the ClusterSize or Ballot the group operation needs.
fn arithmetic(m: &Module, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let rt = m.result_type_at(inst);
    let name = inst.info().name;
    let result_ok =
        if name.ends_with("FAdd") || name.ends_with("FMul") || name.ends_with("FMin") || name.ends_with("FMax") {
            scalar_or_vector(m, rt, op::OpTypeFloat)
                .then_some(())
                .ok_or("Result must be a floating-point scalar or vector")
        } else if name.contains("Logical") {
            scalar_or_vector(m, rt, op::OpTypeBool).then_some(()).ok_or("Result must be a boolean scalar or vector")
        } else if name.ends_with("UMin") || name.ends_with("UMax") {
            shape(m, rt)
                .is_some_and(|s| s.base == op::OpTypeInt && m.def_word(s.scalar, 3) == Some(0))
                .then_some(())
                .ok_or("Result must be an unsigned integer scalar or vector")
        } else {
            scalar_or_vector(m, rt, op::OpTypeInt).then_some(()).ok_or("Result must be an integer scalar or vector")
        };
    if let Err(message) = result_ok {
        return Some(message.into());
    }
    let len = m.operands(i).len();
    if len <= 4 || m.type_of(m.word(i, 4)) != rt {
        return Some("The type of Value must match the Result type".into());
    }
    let operation = m.word(i, 3);
    let partitioned = matches!(
        operation,
        group::PartitionedReduceNV | group::PartitionedInclusiveScanNV | group::PartitionedExclusiveScanNV
    );
    if len <= 5 {
        return if operation == group::ClusteredReduce {
            Some("ClusterSize must be present when Operation is ClusteredReduce".into())
        } else if partitioned {
            Some(
                "Ballot must be present when Operation is PartitionedReduceNV, PartitionedInclusiveScanNV, or \
                 PartitionedExclusiveScanNV"
                    .into(),
            )
        } else {
            None
        };
    }
    let id = m.word(i, 5);
    let ty = m.type_of(id);
    if partitioned {
        let ok = shape(m, ty).is_some_and(|s| s.base == op::OpTypeInt && s.count == 4);
        return (!ok).then(|| "Ballot must be a 4-component integer vector".into());
    }
    if m.def(id).is_none() || !unsigned(m, ty, None) {
        Some("ClusterSize must be an unsigned integer scalar".into())
    } else if !m.def_opcode(id).is_some_and(is_constant) {
        Some("ClusterSize must be a constant instruction".into())
    } else {
        None
    }
}

/// OpGroupNonUniformRotateKHR: Value of the result's type, an unsigned
/// Delta, and a constant power-of-two ClusterSize if any.
fn rotate(m: &Module, i: usize) -> Option<String> {
    let rt = m.result_type_word(i);
    let len = m.operands(i).len();
    let operand = |k: usize| if k < len { m.type_of(m.word(i, k)) } else { 0 };
    if !numeric_or_bool(m, rt) {
        return Some(
            "Expected Result Type to be a scalar or vector of floating-point, integer or boolean type.".into(),
        );
    }
    if operand(3) != rt {
        return Some("Result Type must be the same as the type of Value.".into());
    }
    if !unsigned(m, operand(4), None) {
        return Some("Delta must be a scalar of integer type, whose Signedness operand is 0.".into());
    }
    if len <= 5 {
        return None;
    }
    let id = m.word(i, 5);
    if m.def(id).is_none() || !unsigned(m, m.type_of(id), None) {
        return Some("ClusterSize must be a scalar of integer type, whose Signedness operand is 0.".into());
    }
    if !m.def_opcode(id).is_some_and(is_constant) {
        return Some("ClusterSize must come from a constant instruction.".into());
    }
    let size = match m.def_opcode(id) {
        Some(op::OpConstantNull) => Some(0u64),
        Some(op::OpConstant) => {
            let low = m.def_word(id, 3).map(u64::from);
            let high = m.def_word(id, 4).map_or(0, u64::from);
            low.map(|l| l | high << 32)
        }
        _ => None,
    };
    size.filter(|s| !s.is_power_of_two())
        .map(|_| "Behavior is undefined unless ClusterSize is at least 1 and a power of 2.".into())
}
