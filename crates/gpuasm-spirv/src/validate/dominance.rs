//! Definitions dominate their uses: an id defined in a function's block is
//! used only in that function, in blocks the definition dominates (spec
//! 2.16.1), and an OpPhi's value dominates the matching parent block.
//! Dominators come from the control-flow graph of each function
//! ([`crate::module::dominators`]).

use super::block_roles::{self, Roles};
use super::limits::Limits;
use super::structure;
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::{capability, op};
use crate::module::dominators::{dominators, DomTree};
use crate::module::functions::{Block, Function};
use crate::module::Module;
use rustc_hash::FxHashMap;

/// The labels a terminator branches to.
fn branch_targets(m: &Module, last: usize) -> Vec<u32> {
    match m.opcode(last) {
        op::OpBranch => vec![m.word(last, 0)],
        op::OpBranchConditional => vec![m.word(last, 1), m.word(last, 2)],
        op::OpSwitch => {
            let n = m.operands(last).len();
            std::iter::once(m.word(last, 1)).chain((3..n).step_by(2).map(|k| m.word(last, k))).collect()
        }
        _ => Vec::new(),
    }
}

fn successors(m: &Module, last: usize, block_index: &FxHashMap<u32, usize>) -> Vec<usize> {
    branch_targets(m, last).iter().filter_map(|t| block_index.get(t).copied()).collect()
}

fn non_semantic(set: Option<ExtSet>) -> bool {
    set.is_some_and(ExtSet::is_debug_or_non_semantic)
}

/// Control-flow nesting depth of each block, as spirv-val counts it: a
/// block nests one deeper than a header that immediately dominates it, a
/// merge block sits at its header's depth, a continue target one deeper
/// than its loop header. Blocks are taken in reverse postorder, so a
/// dominator (and, in a well-formed module, a header) comes before the
/// blocks that depend on it; no recursion, whatever the input.
fn nesting_depths(idom: &[Option<usize>], rpo: &[usize], roles: &Roles) -> Vec<u32> {
    let mut depth = vec![0u32; idom.len()];
    // `rpo` numbers the reachable blocks.
    let mut order: Vec<usize> = (0..rpo.len()).filter(|&b| rpo[b] != usize::MAX).collect();
    order.sort_unstable_by_key(|&b| rpo[b]);
    for b in order {
        let Some(dom) = idom[b].filter(|&d| d != b) else { continue };
        depth[b] = if let Some(header) = roles.continue_of[b] {
            1 + depth[if header == b { dom } else { header }]
        } else if let Some(header) = roles.merge_of[b] {
            depth[header]
        } else if roles.merge_inst[dom].is_some() {
            1 + depth[dom]
        } else {
            depth[dom]
        };
    }
    depth
}

/// Where an instruction stands, for the dominance of the ids it defines.
#[derive(Clone, Copy)]
enum Place {
    /// In the module's preamble, or a function's OpFunction/OpFunctionEnd.
    Elsewhere,
    /// A block label or a parameter of function `f`: usable in `f` only.
    OutsideBlocks(u32),
    /// Inside block `b` of function `f`.
    Block(u32, u32),
}

/// Every instruction's [`Place`], as the spans of instructions that have
/// one (a block's label, the rest of the block, a parameter), in order:
/// code `OUTSIDE | f` for outside the blocks of function `f`, `1 + k` for
/// the module's `k`th block; every other instruction is elsewhere. The
/// function being checked also has a code per instruction ([`Places::enter`]):
/// most ids it uses are its own. (A code per instruction of the module took
/// 4 bytes an instruction at the validator's peak.)
struct Places {
    /// `(first, end, code)`, sorted and disjoint.
    spans: Vec<(u32, u32, u32)>,
    /// Function and block of each of the module's blocks, in order.
    blocks: Vec<(u32, u32)>,
    /// Where each function's spans start in `spans`.
    function_spans: Vec<usize>,
    /// The codes of the instructions from `local_from` on, for the
    /// function entered last.
    local: Vec<u32>,
    local_from: usize,
}

/// Marks [`Places`] codes of [`Place::OutsideBlocks`] (there are fewer
/// than 2^31 instructions, hence blocks).
const OUTSIDE: u32 = 1 << 31;

impl Places {
    fn new(m: &Module, functions: &[Function]) -> Places {
        let mut spans = Vec::new();
        let mut blocks = Vec::new();
        let mut function_spans = Vec::with_capacity(functions.len() + 1);
        for (f, func) in functions.iter().enumerate() {
            function_spans.push(spans.len());
            // Modules are shorter than 2^31 words (`Module::read`).
            let mut push = |first: usize, end: usize, code: u32| {
                if first < end {
                    spans.push((first as u32, end as u32, code));
                }
            };
            let outside = OUTSIDE | f as u32;
            // A declaration's parameters too: spirv-val checks their uses.
            let first_block = func.blocks.first().map_or(m.insts.len(), |block| block.insts.start);
            let head = (func.def + 1..first_block).take_while(|&i| m.opcode(i) != op::OpFunctionEnd);
            for i in head {
                if m.opcode(i) == op::OpFunctionParameter {
                    push(i, i + 1, outside);
                }
            }
            for (b, Block { insts: range, .. }) in func.blocks.iter().enumerate() {
                blocks.push((f as u32, b as u32));
                push(range.start, range.start + 1, outside);
                push(range.start + 1, range.end, blocks.len() as u32);
            }
        }
        function_spans.push(spans.len());
        // `functions::find` walks the module once, in order (the fuzz
        // targets run with this check on).
        debug_assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0));
        Places { spans, blocks, function_spans, local: Vec::new(), local_from: 0 }
    }

    /// Makes the codes of function `f`'s instructions one look-up each.
    fn enter(&mut self, f: usize) {
        let own = &self.spans[self.function_spans[f]..self.function_spans[f + 1]];
        self.local.clear();
        let (Some(first), Some(last)) = (own.first(), own.last()) else { return };
        self.local_from = first.0 as usize;
        self.local.resize((last.1 - first.0) as usize, 0);
        for &(start, end, code) in own {
            self.local[(start - first.0) as usize..(end - first.0) as usize].fill(code);
        }
    }

    #[inline]
    fn code(&self, i: usize) -> u32 {
        if let Some(&code) = i.checked_sub(self.local_from).and_then(|k| self.local.get(k)) {
            return code;
        }
        let i = i as u32;
        // Types, constants and globals stand before every function.
        if self.spans.first().is_none_or(|&(first, _, _)| i < first) {
            return 0;
        }
        let k = self.spans.partition_point(|&(first, _, _)| first <= i);
        match k.checked_sub(1).map(|k| self.spans[k]) {
            Some((_, end, code)) if i < end => code,
            _ => 0,
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Place {
        match self.code(i) {
            0 => Place::Elsewhere,
            c if c & OUTSIDE != 0 => Place::OutsideBlocks(c & !OUTSIDE),
            c => {
                let (f, b) = self.blocks[c as usize - 1];
                Place::Block(f, b)
            }
        }
    }
}

/// A function's control-flow graph: blocks by label, successors, immediate
/// dominators and reverse-postorder numbers. Built once for both the CFG
/// rules and the dominance of uses.
struct Graph {
    block_index: FxHashMap<u32, usize>,
    succ: Vec<Vec<usize>>,
    idom: Vec<Option<usize>>,
    rpo: Vec<usize>,
}

impl Graph {
    /// `None` for a function without blocks (a declaration).
    fn new(m: &Module, func: &Function) -> Option<Graph> {
        if func.blocks.is_empty() {
            return None;
        }
        let block_index: FxHashMap<u32, usize> =
            func.blocks.iter().enumerate().map(|(b, block)| (block.label, b)).collect();
        let succ: Vec<Vec<usize>> =
            func.blocks.iter().map(|block| successors(m, block.insts.end - 1, &block_index)).collect();
        let (idom, rpo) = dominators(&succ);
        Some(Graph { block_index, succ, idom, rpo })
    }
}

/// The block of `func` whose label stands at instruction `at`.
fn block_at(func: &Function, at: Option<usize>) -> Option<usize> {
    let at = at?;
    let b = func.blocks.partition_point(|block| block.insts.start < at);
    func.blocks.get(b).filter(|block| block.insts.start == at).map(|_| b)
}

pub(crate) fn check(m: &Module, limits: &Limits, r: &mut Report) {
    let functions = m.functions();
    // spirv-val asks for Shader with the capabilities that imply it
    // (RayTracingKHR, Geometry...).
    let shader = m.capabilities.contains(&capability::Shader);
    // The control-flow graph's own rules come first (spirv-val's CFG pass):
    // a block never appears before its dominator, and structured nesting
    // stays within the limit. Of each function's graph, the uses below need
    // only the dominator tree: the rest is dropped as soon as it is checked
    // (all of them at once were a tenth of the validator's peak).
    let mut trees: Vec<Option<DomTree>> = Vec::with_capacity(functions.len());
    for func in functions {
        let graph = Graph::new(m, func);
        trees.push(graph.as_ref().map(|g| DomTree::new(&g.idom)));
        let Some(Graph { block_index, succ, idom, rpo }) = &graph else { continue };
        // Every block a branch or merge instruction names is in the function.
        let mut undefined: Vec<u32> = Vec::new();
        for Block { insts: range, .. } in &func.blocks {
            let last = range.end - 1;
            let merge = (range.len() >= 2).then(|| range.end - 2);
            let mut named = branch_targets(m, last);
            match merge.map(|i| (i, m.opcode(i))) {
                Some((i, op::OpSelectionMerge)) => named.push(m.word(i, 0)),
                Some((i, op::OpLoopMerge)) => named.extend([m.word(i, 0), m.word(i, 1)]),
                _ => {}
            }
            for t in named {
                if !block_index.contains_key(&t) && !undefined.contains(&t) {
                    undefined.push(t);
                }
            }
        }
        if !undefined.is_empty() {
            // spirv-val's own spacing: no blank after the first name, one after each other.
            let mut list = String::from("{");
            for (k, &t) in undefined.iter().enumerate() {
                list += &r.id(t);
                if k > 0 {
                    list.push(' ');
                }
            }
            let f = r.id(m.result_id_word(func.def));
            r.error(
                ErrorKind::FunctionStructure,
                func.def,
                format!("Block(s) {list}}} are referenced but not defined in function {f}"),
            );
            return;
        }
        // Block order follows dominance (from the entry block: blocks it
        // does not reach have no dominator here, as in spirv-val).
        for (b, d) in idom.iter().enumerate() {
            if let Some(d) = *d {
                if d > b {
                    let (block, dom) = (func.blocks[b].label, func.blocks[d].label);
                    let (block, dom) = (r.id(block), r.id(dom));
                    r.error(
                        ErrorKind::FunctionStructure,
                        func.blocks[d].insts.start,
                        format!("Block {block} appears in the binary before its dominator {dom}"),
                    );
                    return;
                }
            }
        }
        if shader {
            let roles = block_roles::roles(m, &func.blocks, &|id| block_index.get(&id).copied());
            let depths = nesting_depths(idom, rpo, &roles);
            if let Some(b) = depths.iter().position(|&d| d > limits.max_control_flow_nesting_depth) {
                r.error(ErrorKind::Limit, func.blocks[b].insts.start, "Maximum Control Flow nesting depth exceeded.");
                return;
            }
            if !structure::check(m, &func.blocks, block_index, succ, &roles, r) {
                return;
            }
        }
    }
    super::control_flow::check_maximal_reconvergence(m, r);
    if !r.errors.is_empty() {
        return;
    }
    // Where each instruction stands, by instruction index.
    let mut place = Places::new(m, functions);
    // spirv-val walks the definitions in module order, each one's uses in
    // module order, and reports the first use its definition does not
    // dominate: of all such uses, the one whose definition comes first
    // (then the earliest use). OpPhi's operands are checked after every
    // other use, phi by phi in the order the walk first met each (through
    // its earliest-defined value).
    let mut first: Option<Found> = None;
    let mut phi_error: Option<Found> = None;
    for (f, (func, tree)) in functions.iter().zip(&trees).enumerate() {
        let Some(tree) = tree else { continue };
        place.enter(f);
        let reachable = |b: usize| tree.reaches(b);
        for (b, Block { insts: range, .. }) in func.blocks.iter().enumerate() {
            for i in range.clone() {
                let inst = &m.insts[i];
                if inst.opcode() == op::OpExtInst && non_semantic(inst.ext_set()) {
                    continue;
                }
                let phi = inst.opcode() == op::OpPhi;
                // The definition through which spirv-val's walk meets this
                // phi first, and the phi's first error.
                let mut phi_met = usize::MAX;
                let mut phi_found: Option<(usize, String)> = None;
                for (k, id) in m.id_operands(i) {
                    let Some(at) = m.def_index(id) else { continue };
                    let (df, db) = match place.get(at) {
                        Place::Elsewhere => continue,
                        Place::OutsideBlocks(df) if df as usize == f => continue,
                        Place::OutsideBlocks(df) => {
                            let owner = functions[df as usize].def;
                            note(&mut first, at, owner, || {
                                let (name, user) = (r.id(id), r.id(m.result_id_word(func.def)));
                                let owner = r.id(m.result_id_word(owner));
                                format!("ID {name} used in function {user} is used outside of it's defining function {owner}")
                            });
                            continue;
                        }
                        Place::Block(df, db) => (df as usize, db as usize),
                    };
                    if phi && reachable(b) {
                        phi_met = phi_met.min(at);
                    }
                    if df != f {
                        // A block of another function dominates nothing
                        // here: spirv-val's dominance rule, with its
                        // exemptions (an unreached use, an unreached parent).
                        if !reachable(b) {
                            continue;
                        }
                        if phi {
                            if k % 2 != 0 || k < 2 {
                                continue;
                            }
                            let parent = m.word(i, k + 1);
                            let pb = block_at(func, m.def_index(parent));
                            if pb.is_some_and(reachable) && phi_found.is_none() {
                                let (name, p) = (r.id(id), r.id(parent));
                                let this = r.id(m.result_id_at(inst));
                                phi_found = Some((
                                    i,
                                    format!("In OpPhi instruction {this}, ID {name} definition does not dominate its parent {p}"),
                                ));
                            }
                            continue;
                        }
                        let labels = (functions[df].blocks[db].label, func.blocks[b].label);
                        note(&mut first, at, i, || not_dominating(r, id, labels));
                        continue;
                    }
                    if phi {
                        // Operand pairs (value, parent) from index 2.
                        if k % 2 != 0 || k < 2 {
                            continue;
                        }
                        let parent = m.word(i, k + 1);
                        // In a reachable block, a reachable parent must be
                        // dominated by the value's block, even one nothing
                        // reaches.
                        if let Some(pb) = block_at(func, m.def_index(parent)) {
                            let dominated = db == pb || (reachable(db) && tree.dominates(db, pb));
                            if reachable(b) && reachable(pb) && !dominated && phi_found.is_none() {
                                let (name, p) = (r.id(id), r.id(parent));
                                let this = r.id(m.result_id_at(inst));
                                phi_found = Some((
                                    i,
                                    format!("In OpPhi instruction {this}, ID {name} definition does not dominate its parent {p}"),
                                ));
                            }
                        }
                    } else if reachable(b) && db != b && !tree.dominates(db, b) {
                        let labels = (func.blocks[db].label, func.blocks[b].label);
                        note(&mut first, at, i, || not_dominating(r, id, labels));
                    }
                }
                if let Some((at, message)) = phi_found {
                    note(&mut phi_error, phi_met, at, || message);
                }
            }
        }
    }
    if let Some(Found { at, message, .. }) = first.or(phi_error) {
        r.error(ErrorKind::Dominance, at, message);
    }
}

/// A use its definition does not dominate: where the definition stands
/// (what orders such uses), where the error is reported, and its message.
struct Found {
    def: usize,
    at: usize,
    message: String,
}

/// Keeps the use at `at` of the definition at `def` in `slot` if that
/// definition comes before the one there (uses come in module order: a
/// later use of the same one is not kept); its message is made only then.
fn note(slot: &mut Option<Found>, def: usize, at: usize, message: impl FnOnce() -> String) {
    if slot.as_ref().is_none_or(|f| def < f.def) {
        *slot = Some(Found { def, at, message: message() });
    }
}

/// spirv-val's message for a use of `id` in the block labelled `labels.1`
/// that its definition's block, `labels.0`, does not dominate.
fn not_dominating(r: &mut Report, id: u32, labels: (u32, u32)) -> String {
    let (name, def_block, use_block) = (r.id(id), r.id(labels.0), r.id(labels.1));
    format!("ID {name} defined in block {def_block} does not dominate its use in block {use_block}")
}
