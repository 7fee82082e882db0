//! The GraphViz text spirv-cfg prints, byte for byte.
//!
//! spirv-cfg does not build a graph: it follows the instruction stream.
//! `OpFunction` starts a function, `OpLabel` names the current block, a
//! merge instruction notes a merge block (and continue target) for later,
//! and `OpBranch`, `OpBranchConditional`, `OpSwitch`, `OpKill`, `OpReturn`,
//! `OpReturnValue` and `OpUnreachable` print the current block with its
//! edges and the noted merge edges. Other terminators
//! (`OpTerminateInvocation`, `OpEmitMeshTasksEXT`, ...) print nothing, so
//! their block is missing and its merge edges and "entry" mark go to the
//! next block printed; this printer keeps those rules, as it keeps the
//! rest for modules whose layout is invalid.

use super::branch_targets;
use crate::grammar::op;
use crate::module::Module;
use std::fmt::Write;

const MERGE_STYLE: &str = "style=dashed";
const CONTINUE_STYLE: &str = "style=dotted";

/// spirv-cfg's output for the module: a legend, then one node per block
/// (boxed, with its function's name, for each function's first) and its
/// edges; merge edges dashed, continue edges dotted.
pub fn dot(module: &Module) -> String {
    let names = module.names();
    let name = |id: u32| names.get(id).map_or_else(|| id.to_string(), str::to_owned);
    let mut out = String::with_capacity(512 + module.insts().len() * 8);
    out.push_str("digraph {\n");
    out.push_str("legend_merge_src [shape=plaintext, label=\"\"];\n");
    out.push_str("legend_merge_dest [shape=plaintext, label=\"\"];\n");
    let _ = writeln!(out, "legend_merge_src -> legend_merge_dest [label=\" merge\",{MERGE_STYLE}];");
    out.push_str("legend_continue_src [shape=plaintext, label=\"\"];\n");
    out.push_str("legend_continue_dest [shape=plaintext, label=\"\"];\n");
    let _ = writeln!(out, "legend_continue_src -> legend_continue_dest [label=\" continue\",{CONTINUE_STYLE}];");

    let (mut function, mut block, mut merge, mut continue_) = (0u32, 0u32, 0u32, 0u32);
    let mut seen_entry = false;
    for (i, inst) in module.insts().iter().enumerate() {
        let successors = match inst.opcode() {
            op::OpFunction => {
                function = module.result_id(i).unwrap_or(0);
                seen_entry = false;
                continue;
            }
            op::OpFunctionEnd => {
                function = 0;
                continue;
            }
            op::OpLabel => {
                block = module.result_id(i).unwrap_or(0);
                continue;
            }
            op::OpLoopMerge => {
                let words = module.view(i).words;
                (merge, continue_) = (words[1], words[2]);
                continue;
            }
            op::OpSelectionMerge => {
                merge = module.view(i).words[1];
                continue;
            }
            op::OpBranch | op::OpBranchConditional | op::OpSwitch => branch_targets(module, i),
            op::OpKill | op::OpReturn | op::OpReturnValue | op::OpUnreachable => Vec::new(),
            _ => continue,
        };
        // The label's newline is a real one, inside the quotes.
        if seen_entry {
            let _ = writeln!(out, "{block} [label=\"{}\"];", name(block));
        } else {
            let _ = writeln!(out, "{block} [label=\"{}\nFn {} entry\", shape=box];", name(block), name(function));
        }
        for to in successors {
            let _ = writeln!(out, "{block} -> {to};");
        }
        if merge != 0 {
            let _ = writeln!(out, "{block} -> {merge} [{MERGE_STYLE}];");
        }
        if continue_ != 0 {
            let _ = writeln!(out, "{block} -> {continue_} [{CONTINUE_STYLE}];");
        }
        seen_entry = true;
        (merge, continue_) = (0, 0);
    }
    out.push_str("}\n");
    out
}
