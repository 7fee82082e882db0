//! Functions and their blocks, found once from the instruction order: each
//! function's OpFunction, and each block's label and instructions.
//!
//! ```
//! let src = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! let words = gpuasm_spirv::text::assemble(src, &Default::default()).unwrap();
//! let module = gpuasm_spirv::module::Module::read(&words).unwrap();
//! let main = &module.functions()[0];
//! assert_eq!(main.blocks.len(), 1);
//! // OpLabel and OpReturn.
//! assert_eq!(main.blocks[0].insts.len(), 2);
//! ```

use super::Module;
use crate::grammar::op;
use std::ops::Range;

/// Termination instructions (spec 2.2.4, "Termination Instruction").
pub(crate) const TERMINATORS: &[u16] = &[
    op::OpBranch,
    op::OpBranchConditional,
    op::OpSwitch,
    op::OpReturn,
    op::OpReturnValue,
    op::OpKill,
    op::OpUnreachable,
    op::OpTerminateInvocation,
    op::OpIgnoreIntersectionKHR,
    op::OpTerminateRayKHR,
    op::OpEmitMeshTasksEXT,
];

/// [`TERMINATORS`], tested for every instruction.
pub(crate) static TERMINATOR_SET: super::opcode_set::OpcodeSet = super::opcode_set::OpcodeSet::new(TERMINATORS);

/// One function of a module.
#[derive(Clone, Debug)]
pub struct Function {
    /// Index of its OpFunction instruction.
    pub def: usize,
    /// Its blocks, in module order (none for a declaration).
    pub blocks: Vec<Block>,
}

/// One block of a function.
#[derive(Clone, Debug)]
pub struct Block {
    /// The id of its OpLabel.
    pub label: u32,
    /// Its instructions by index, the OpLabel first and the terminator
    /// last (if it has one).
    pub insts: Range<usize>,
}

/// The module's functions. A block ends at its terminator: spirv-val lets
/// non-semantic instructions stand between blocks, and they belong to no
/// block. In a module whose layout is wrong (checked by the validator's
/// first passes) the answer is still defined, for any instruction order.
pub(crate) fn find(m: &Module) -> Vec<Function> {
    let mut out = Vec::new();
    let mut current: Option<Function> = None;
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpFunction => current = Some(Function { def: i, blocks: Vec::new() }),
            op::OpLabel => {
                if let Some(f) = current.as_mut() {
                    f.blocks.push(Block { label: m.result_id_word(i), insts: i..i + 1 });
                }
            }
            op::OpFunctionEnd => out.extend(current.take()),
            _ => {
                if let Some(block) = current.as_mut().and_then(|f| f.blocks.last_mut()) {
                    if !TERMINATOR_SET.contains(m.opcode(block.insts.end - 1)) {
                        block.insts.end = i + 1;
                    }
                }
            }
        }
    }
    out
}
