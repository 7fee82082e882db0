//! The roles a function's blocks play in structured control flow, read
//! from their merge instructions (OpSelectionMerge, OpLoopMerge): which
//! blocks are headers, merge blocks and continue targets, and of which
//! header. Computed once per function by `dominance` and read by the
//! structured-control-flow rules (`structure`, `constructs`) and the
//! nesting-depth limit. Kept apart from `structure` so that `constructs`,
//! which `structure` calls, need not import it back.

use crate::grammar::op;
use crate::module::functions::Block;
use crate::module::Module;

/// Structured-control-flow roles of a function's blocks, from their merge
/// instructions.
pub(super) struct Roles {
    /// The block ends with OpSelectionMerge or OpLoopMerge (its index).
    pub merge_inst: Vec<Option<usize>>,
    /// For a merge block, the (first) header naming it.
    pub merge_of: Vec<Option<usize>>,
    /// For a continue target, its (first) loop header.
    pub continue_of: Vec<Option<usize>>,
    /// Per header: its merge block and, for a loop, its continue target
    /// (blocks of this function only).
    pub targets: Vec<(Option<usize>, Option<usize>)>,
}

/// The roles of `blocks`; `index` gives the block a label id names.
pub(super) fn roles(m: &Module, blocks: &[Block], index: &dyn Fn(u32) -> Option<usize>) -> Roles {
    let n = blocks.len();
    let mut roles = Roles {
        merge_inst: vec![None; n],
        merge_of: vec![None; n],
        continue_of: vec![None; n],
        targets: vec![(None, None); n],
    };
    for (b, Block { insts: range, .. }) in blocks.iter().enumerate() {
        if range.len() < 2 {
            continue;
        }
        let i = range.end - 2;
        let opcode = m.opcode(i);
        if opcode != op::OpSelectionMerge && opcode != op::OpLoopMerge {
            continue;
        }
        roles.merge_inst[b] = Some(i);
        let merge = index(m.word(i, 0));
        if let Some(t) = merge {
            roles.merge_of[t].get_or_insert(b);
        }
        let mut cont = None;
        if opcode == op::OpLoopMerge {
            cont = index(m.word(i, 1));
            if let Some(t) = cont {
                roles.continue_of[t].get_or_insert(b);
            }
        }
        roles.targets[b] = (merge, cont);
    }
    roles
}
