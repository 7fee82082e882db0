//! The atomic instructions, a table the scope and memory semantics rules
//! both test opcodes against.

use crate::grammar::op;
use crate::module::opcode_set::OpcodeSet;

/// The atomic instructions spirv-val's atomics pass validates.
pub(crate) const ATOMICS: &[u16] = &[
    op::OpAtomicLoad,
    op::OpAtomicStore,
    op::OpAtomicExchange,
    op::OpAtomicCompareExchange,
    op::OpAtomicCompareExchangeWeak,
    op::OpAtomicIIncrement,
    op::OpAtomicIDecrement,
    op::OpAtomicIAdd,
    op::OpAtomicISub,
    op::OpAtomicSMin,
    op::OpAtomicUMin,
    op::OpAtomicSMax,
    op::OpAtomicUMax,
    op::OpAtomicAnd,
    op::OpAtomicOr,
    op::OpAtomicXor,
    op::OpAtomicFAddEXT,
    op::OpAtomicFMinEXT,
    op::OpAtomicFMaxEXT,
    op::OpAtomicFlagTestAndSet,
    op::OpAtomicFlagClear,
];

/// [`ATOMICS`], tested for every instruction.
pub(crate) static ATOMIC_SET: OpcodeSet = OpcodeSet::new(ATOMICS);
