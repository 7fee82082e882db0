//! Floats with an encoding (SPV_KHR_bfloat16's BFloat16KHR, SPV_EXT_float8's
//! E4M3 and E5M2) are for storage, conversion, dot products and cooperative
//! matrices: arithmetic, derivatives, most atomics and subgroup operations,
//! the float classification tests and extended instructions may not take or
//! make them (spirv-val's invalid-type pass).

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{fp_encoding, op};

/// Which type of the instruction may not be an encoded float.
#[derive(Clone, Copy)]
enum Checked {
    /// The result type (scalar, vector or cooperative matrix).
    Result,
    /// The type of operand `k` (counting result type and result).
    Operand(usize),
    /// The type of operand `k`, when a vector.
    VectorOperand(usize),
    /// The component type of a matrix result.
    MatrixComponent,
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
    (op::OpMatrixTimesMatrix, Checked::MatrixComponent),
];

/// The encoding of a float scalar type, if it has one.
fn encoding(m: &Module, ty: u32) -> Option<u32> {
    (m.def_opcode(ty)? == op::OpTypeFloat).then(|| m.def_word(ty, 3)).flatten()
}

/// The encoding of the scalars of `ty`: a float, a vector of floats or a
/// cooperative matrix (KHR) of floats; `vector_only` looks at vectors only.
fn encoding_of(m: &Module, ty: u32, vector_only: bool) -> Option<u32> {
    match (m.def_opcode(ty)?, vector_only) {
        (op::OpTypeVector, _) | (op::OpTypeCooperativeMatrixKHR, false) => encoding(m, m.def_word(ty, 2)?),
        (op::OpTypeFloat, false) => encoding(m, ty),
        _ => None,
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let Some(&(_, checked)) = RULES.iter().find(|(o, _)| *o == inst.opcode()) else { continue };
        let operand_type = |k: usize| if k < m.operands(i).len() { m.type_of(m.word(i, k)) } else { 0 };
        let found = match checked {
            Checked::Result => encoding_of(m, inst.result_type, false),
            Checked::Operand(k) => encoding_of(m, operand_type(k), false),
            Checked::VectorOperand(k) => encoding_of(m, operand_type(k), true),
            Checked::MatrixComponent => {
                let column = m
                    .def_word(inst.result_type, 2)
                    .filter(|_| m.def_opcode(inst.result_type) == Some(op::OpTypeMatrix));
                column.and_then(|c| m.def_word(c, 2)).and_then(|t| encoding(m, t))
            }
        };
        let name = &inst.info.name[2..];
        let message = match found {
            Some(fp_encoding::BFloat16KHR) => format!("{name} doesn't support BFloat16 type."),
            Some(fp_encoding::Float8E4M3EXT | fp_encoding::Float8E5M2EXT) => {
                format!("{name} doesn't support FP8 E4M3/E5M2 types.")
            }
            _ => continue,
        };
        r.error(ErrorKind::OperandType, i, message);
        return;
    }
}
