//! Floats with an encoding (bfloat16 of SPV_KHR_bfloat16, the fp8 types of
//! SPV_EXT_float8) are for storage, conversion and cooperative matrix
//! products: the float arithmetic, derivative, float atomic and several
//! group instructions, extended instructions and the float class tests do
//! not take them (spirv-val's invalid type pass, validate_invalid_type.cpp).
//! A scalar, a vector or a cooperative matrix KHR of one counts.

use super::{ErrorKind, Report};
use crate::grammar::{fp_encoding, op};
use crate::module::Module;

/// Which type an instruction may not have of an encoded float.
#[derive(Copy, Clone)]
enum Checked {
    /// Its result type.
    Result,
    /// The type of its value operand `k` (counting result type and id).
    Operand(usize),
    /// The type of operand `k`, only when a vector (OpAtomicStore).
    VectorOperand(usize),
    /// The component of its matrix result type.
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

/// The encoding of a scalar float type.
fn encoding(m: &Module, ty: u32) -> Option<u32> {
    (m.def_opcode(ty)? == op::OpTypeFloat && m.def(ty)?.word_count > 3).then(|| m.def_word(ty, 3)).flatten()
}

/// The encoding of a scalar, of a vector's component or of a cooperative
/// matrix KHR's component (`vectors_only`: of a vector's component only).
fn encoding_of(m: &Module, ty: u32, vectors_only: bool) -> Option<u32> {
    match m.def_opcode(ty)? {
        op::OpTypeFloat if !vectors_only => encoding(m, ty),
        op::OpTypeVector => encoding(m, m.def_word(ty, 2)?),
        op::OpTypeCooperativeMatrixKHR if !vectors_only => encoding(m, m.def_word(ty, 2)?),
        _ => None,
    }
}

fn problem(m: &Module, i: usize, checked: Checked) -> Option<String> {
    let inst = &m.insts[i];
    let operand_type = |k: usize| (k < m.operands(i).len()).then(|| m.type_of(m.word(i, k)));
    let enc = match checked {
        Checked::Result => encoding_of(m, m.result_type_at(inst), false),
        Checked::Operand(k) => encoding_of(m, operand_type(k)?, false),
        Checked::VectorOperand(k) => encoding_of(m, operand_type(k)?, true),
        Checked::MatrixComponent => {
            let rt = m.result_type_at(inst);
            (m.def_opcode(rt)? == op::OpTypeMatrix)
                .then(|| m.def_word(rt, 2))
                .flatten()
                .and_then(|c| encoding_of(m, c, true))
        }
    }?;
    let name = &inst.info().name[2..];
    match enc {
        fp_encoding::BFloat16KHR => Some(format!("{name} doesn't support BFloat16 type.")),
        fp_encoding::Float8E4M3EXT | fp_encoding::Float8E5M2EXT => {
            Some(format!("{name} doesn't support FP8 E4M3/E5M2 types."))
        }
        _ => None,
    }
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let opcode = m.opcode(i);
        let Some(&(_, checked)) = RULES.iter().find(|rule| rule.0 == opcode) else { continue };
        if let Some(message) = problem(m, i, checked) {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}
