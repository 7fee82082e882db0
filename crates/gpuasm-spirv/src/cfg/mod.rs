//! Control-flow graphs of a module's functions: [`graph`] gives each
//! function's blocks and its edges (branches, merges, continues) for
//! scripts, [`dot`] prints the GraphViz text spirv-cfg prints.
//!
//! ```
//! use gpuasm_spirv::cfg::{self, EdgeKind};
//! use gpuasm_spirv::module::Module;
//! let src = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpName %main \"main\"\n\
//!            OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%bool = OpTypeBool\n\
//!            %t = OpConstantTrue %bool\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n\
//!            %entry = OpLabel\nOpSelectionMerge %end None\nOpBranchConditional %t %then %end\n\
//!            %then = OpLabel\nOpBranch %end\n%end = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! let words = gpuasm_spirv::text::assemble(src, &Default::default()).unwrap();
//! let module = Module::read(&words).unwrap();
//! let graph = cfg::graph(&module);
//! let main = &graph.functions[0];
//! assert_eq!(main.name, "main");
//! assert_eq!(main.blocks.len(), 3);
//! let kinds: Vec<EdgeKind> = main.edges.iter().map(|e| e.kind).collect();
//! assert_eq!(kinds, [EdgeKind::Branch, EdgeKind::Branch, EdgeKind::Merge, EdgeKind::Branch]);
//! assert!(cfg::dot(&module).starts_with("digraph {\n"));
//! ```

mod dot;

pub use dot::dot;

use crate::grammar::op;
use crate::module::functions::TERMINATOR_SET;
use crate::module::Module;
use serde::Serialize;

/// The control-flow graphs of every function of a module, in module order.
#[derive(Clone, Debug, Serialize)]
pub struct Graph {
    /// One per `OpFunction` (declarations have no blocks).
    pub functions: Vec<FunctionGraph>,
}

/// One function's blocks and edges.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionGraph {
    /// The function's result id.
    pub id: u32,
    /// Its friendly name as spirv-dis shows it (its number if it has none).
    pub name: String,
    /// Its blocks in module order; the first is the entry block.
    pub blocks: Vec<Node>,
    /// Every block's edges, block by block: its branch targets in operand
    /// order (an OpSwitch's default first), then its merge block, then its
    /// continue target.
    pub edges: Vec<Edge>,
}

/// One block.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// The id of its `OpLabel`.
    pub id: u32,
    /// Its friendly name (its number if it has none).
    pub name: String,
    /// The opcode that ends it (`OpBranch`, `OpReturn`, ...), or `None` if
    /// the function ends first.
    pub terminator: Option<&'static str>,
}

/// One edge between blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    /// The block it leaves.
    pub from: u32,
    /// The block (label id) it reaches.
    pub to: u32,
    /// What makes it.
    pub kind: EdgeKind,
}

/// What an edge stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// A target of the block's terminator (OpBranch, OpBranchConditional,
    /// OpSwitch).
    Branch,
    /// The merge block its OpSelectionMerge or OpLoopMerge declares.
    Merge,
    /// The continue target its OpLoopMerge declares.
    Continue,
}

/// The control-flow graph of every function, from the module's functions
/// and blocks.
pub fn graph(module: &Module) -> Graph {
    let names = module.names();
    let name = |id: u32| names.get(id).map_or_else(|| id.to_string(), str::to_owned);
    let functions = module
        .functions()
        .iter()
        .map(|f| {
            let id = module.result_id(f.def).unwrap_or(0);
            let mut blocks = Vec::with_capacity(f.blocks.len());
            let mut edges = Vec::new();
            for b in &f.blocks {
                let last = b.insts.end - 1;
                let ends = TERMINATOR_SET.contains(module.opcode(last));
                blocks.push(Node {
                    id: b.label,
                    name: name(b.label),
                    terminator: ends.then(|| module.insts()[last].info().name),
                });
                let mut edge = |to, kind| edges.push(Edge { from: b.label, to, kind });
                if ends {
                    for to in branch_targets(module, last) {
                        edge(to, EdgeKind::Branch);
                    }
                }
                let (merge, continue_) = merge_targets(module, b.insts.clone());
                if merge != 0 {
                    edge(merge, EdgeKind::Merge);
                }
                if continue_ != 0 {
                    edge(continue_, EdgeKind::Continue);
                }
            }
            FunctionGraph { id, name: name(id), blocks, edges }
        })
        .collect();
    Graph { functions }
}

/// The labels a terminator (instruction `i`) may branch to, in operand
/// order: an OpSwitch's default, then each case's target.
pub(crate) fn branch_targets(module: &Module, i: usize) -> Vec<u32> {
    let words = module.view(i).words;
    match module.opcode(i) {
        op::OpBranch => vec![words[1]],
        op::OpBranchConditional => vec![words[2], words[3]],
        // Operands: selector, default, then (literal, label) pairs; a
        // literal may take two words, so read the labels by operand.
        op::OpSwitch => {
            let operands = module.operands(i);
            std::iter::once(words[2])
                .chain(operands.iter().skip(3).step_by(2).map(|o| words[o.offset as usize]))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The merge block and continue target (0 if none) a block's merge
/// instruction declares.
fn merge_targets(module: &Module, insts: std::ops::Range<usize>) -> (u32, u32) {
    for i in insts.rev() {
        let words = module.view(i).words;
        match module.opcode(i) {
            op::OpLoopMerge => return (words[1], words[2]),
            op::OpSelectionMerge => return (words[1], 0),
            _ => {}
        }
    }
    (0, 0)
}
