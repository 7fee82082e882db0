//! What the benches share.

use gpuasm_spirv::binary::{InstructionParser, ParserOptions};

/// Walks every instruction with full operand decoding; the operand count.
pub fn walk(words: &[u32]) -> usize {
    let mut parser = InstructionParser::new(words, ParserOptions::default()).unwrap();
    let mut operands = 0;
    while let Some(inst) = parser.next() {
        operands += inst.unwrap().operands.len();
    }
    operands
}
