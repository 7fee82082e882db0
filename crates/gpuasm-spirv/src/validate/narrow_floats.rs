//! Instructions that do no arithmetic on bfloat16 or 8-bit floats
//! (SPV_KHR_bfloat16, SPV_EXT_float8; spirv-val's invalid-type pass):
//! the result of float arithmetic, derivatives, float atomics, extended
//! instructions and the subgroup operations listed, the operand of the
//! float classification tests and of OpGroupNonUniformAllEqual, the value
//! of OpAtomicStore (vectors only, as spirv-val checks it), and the
//! components of an OpMatrixTimesMatrix result.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{fp_encoding, op};

/// Where each checked instruction keeps the type it checks.
#[derive(Copy, Clone, PartialEq)]
enum Checked {
    /// The result type.
    Result,
    /// The type of operand `k` (result type and id counted).
    Operand(usize),
    /// The type of operand `k`, when a vector.
    VectorOperand(usize),
    /// The component type of the result matrix.
    MatrixComponent,
}

const CHECKED: &[(u16, Checked)] = &[
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

/// The encoding of a float scalar type (None: IEEE or not a float).
fn encoding(m: &Module, ty: u32) -> Option<u32> {
    (m.def_opcode(ty)? == op::OpTypeFloat).then(|| m.def_word(ty, 3)).flatten()
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let opcode = m.insts[i].opcode();
        let Some(&(_, how)) = CHECKED.iter().find(|c| c.0 == opcode) else { continue };
        let operand_type = |k: usize| if m.operands(i).len() > k { m.type_of(m.word(i, k)) } else { 0 };
        let ty = match how {
            Checked::Result => m.insts[i].result_type,
            Checked::Operand(k) => operand_type(k),
            Checked::VectorOperand(k) => {
                Some(operand_type(k)).filter(|&t| m.def_opcode(t) == Some(op::OpTypeVector)).unwrap_or(0)
            }
            Checked::MatrixComponent => {
                let rt = m.insts[i].result_type;
                let column =
                    if m.def_opcode(rt) == Some(op::OpTypeMatrix) { m.def_word(rt, 2).unwrap_or(0) } else { 0 };
                if m.def_opcode(column) == Some(op::OpTypeVector) {
                    column
                } else {
                    0
                }
            }
        };
        // Scalars, vectors and KHR cooperative matrices of the type count.
        let scalar = match m.def_opcode(ty) {
            Some(op::OpTypeFloat) => ty,
            Some(op::OpTypeVector | op::OpTypeCooperativeMatrixKHR) => m.def_word(ty, 2).unwrap_or(0),
            _ => continue,
        };
        let name = &m.insts[i].info.name[2..];
        let message = match encoding(m, scalar) {
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
