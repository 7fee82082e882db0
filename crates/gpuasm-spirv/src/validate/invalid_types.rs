//! Floats with an explicit encoding (SPV_KHR_bfloat16's BFloat16KHR,
//! SPV_EXT_float8's Float8E4M3EXT and Float8E5M2EXT) are for storage,
//! conversion, dot products and cooperative matrices: the arithmetic,
//! derivative, atomic, group, extended and classifying instructions do not
//! take them (spirv-val's InvalidTypePass, validate_invalid_type.cpp, run
//! after every other per-instruction rule).

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{fp_encoding, op};

/// Which operand's type an instruction must not have encoded floats in.
#[derive(Copy, Clone)]
enum Checked {
    /// The result type (scalar, vector or cooperative matrix).
    Result,
    /// The type of value operand `k` (counting result type and result).
    Operand(usize),
    /// Like `Operand`, but only vectors count (OpAtomicStore's Value).
    VectorOperand(usize),
    /// The component type of a matrix result.
    MatrixResult,
}

const RULES: &[(u16, Checked)] = &[
    (op::OpExtInst, Checked::Result),
    (op::OpFAdd, Checked::Result),
    (op::OpFSub, Checked::Result),
    (op::OpFMul, Checked::Result),
    (op::OpFDiv, Checked::Result),
    (op::OpFRem, Checked::Result),
    (op::OpFMod, Checked::Result),
    (op::OpFNegate, Checked::Result),
    (op::OpDPdx, Checked::Result),
    (op::OpDPdy, Checked::Result),
    (op::OpFwidth, Checked::Result),
    (op::OpDPdxFine, Checked::Result),
    (op::OpDPdyFine, Checked::Result),
    (op::OpFwidthFine, Checked::Result),
    (op::OpDPdxCoarse, Checked::Result),
    (op::OpDPdyCoarse, Checked::Result),
    (op::OpFwidthCoarse, Checked::Result),
    (op::OpAtomicFAddEXT, Checked::Result),
    (op::OpAtomicFMinEXT, Checked::Result),
    (op::OpAtomicFMaxEXT, Checked::Result),
    (op::OpAtomicLoad, Checked::Result),
    (op::OpAtomicExchange, Checked::Result),
    (op::OpGroupNonUniformRotateKHR, Checked::Result),
    (op::OpGroupNonUniformBroadcast, Checked::Result),
    (op::OpGroupNonUniformShuffle, Checked::Result),
    (op::OpGroupNonUniformShuffleXor, Checked::Result),
    (op::OpGroupNonUniformShuffleUp, Checked::Result),
    (op::OpGroupNonUniformShuffleDown, Checked::Result),
    (op::OpGroupNonUniformQuadBroadcast, Checked::Result),
    (op::OpGroupNonUniformQuadSwap, Checked::Result),
    (op::OpGroupNonUniformBroadcastFirst, Checked::Result),
    (op::OpGroupNonUniformFAdd, Checked::Result),
    (op::OpGroupNonUniformFMul, Checked::Result),
    (op::OpGroupNonUniformFMin, Checked::Result),
    (op::OpAtomicStore, Checked::VectorOperand(3)),
    (op::OpIsNan, Checked::Operand(2)),
    (op::OpIsInf, Checked::Operand(2)),
    (op::OpIsFinite, Checked::Operand(2)),
    (op::OpIsNormal, Checked::Operand(2)),
    (op::OpSignBitSet, Checked::Operand(2)),
    (op::OpGroupNonUniformAllEqual, Checked::Operand(3)),
    (op::OpMatrixTimesMatrix, Checked::MatrixResult),
];

/// The encoding of a float scalar type, if it has one.
fn encoding(m: &Module, scalar: u32) -> Option<u32> {
    (m.def_opcode(scalar)? == op::OpTypeFloat).then(|| m.def_word(scalar, 3)).flatten()
}

/// The encoding of the components of a vector, or unless `vectors_only`
/// of a float scalar or a cooperative matrix.
fn encoding_of(m: &Module, ty: u32, vectors_only: bool) -> Option<u32> {
    match m.def_opcode(ty)? {
        op::OpTypeVector => encoding(m, m.def_word(ty, 2)?),
        op::OpTypeFloat if !vectors_only => encoding(m, ty),
        op::OpTypeCooperativeMatrixKHR if !vectors_only => encoding(m, m.def_word(ty, 2)?),
        _ => None,
    }
}

fn problem(m: &Module, i: usize) -> Option<String> {
    let inst = &m.insts[i];
    let &(_, checked) = RULES.iter().find(|r| r.0 == inst.opcode())?;
    let operand = |k: usize| if k < m.operands(i).len() { m.type_of(m.word(i, k)) } else { 0 };
    let found = match checked {
        Checked::Result => encoding_of(m, inst.result_type, false),
        Checked::Operand(k) => encoding_of(m, operand(k), false),
        Checked::VectorOperand(k) => encoding_of(m, operand(k), true),
        Checked::MatrixResult => {
            let column =
                m.def_word(inst.result_type, 2).filter(|_| m.def_opcode(inst.result_type) == Some(op::OpTypeMatrix));
            column.and_then(|c| m.def_word(c, 2)).and_then(|s| encoding(m, s))
        }
    }?;
    let name = &inst.info.name[2..];
    match found {
        fp_encoding::BFloat16KHR => Some(format!("{name} doesn't support BFloat16 type.")),
        fp_encoding::Float8E4M3EXT | fp_encoding::Float8E5M2EXT => {
            Some(format!("{name} doesn't support FP8 E4M3/E5M2 types."))
        }
        _ => None,
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        if let Some(message) = problem(m, i) {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
