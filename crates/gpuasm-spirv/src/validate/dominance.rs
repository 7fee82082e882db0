//! Definitions dominate their uses: an id defined in a function's block is
//! used only in that function, in blocks the definition dominates (spec
//! 2.16.1), and an OpPhi's value dominates the matching parent block.
//! Dominators come from the control-flow graph of each function (Cooper,
//! Harvey and Kennedy's iterative algorithm over reverse postorder).

use super::module::Module;
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;
use rustc_hash::FxHashMap;

struct Function {
    /// Each block's label and instruction range (label included).
    blocks: Vec<(u32, std::ops::Range<usize>)>,
}

fn functions(m: &Module) -> Vec<Function> {
    let mut out = Vec::new();
    let mut current: Option<Function> = None;
    for i in 0..m.insts.len() {
        match m.insts[i].opcode() {
            op::OpFunction => current = Some(Function { blocks: Vec::new() }),
            op::OpLabel => {
                if let Some(f) = current.as_mut() {
                    f.blocks.push((m.insts[i].result_id, i..i + 1));
                }
            }
            op::OpFunctionEnd => out.extend(current.take()),
            _ => {
                if let Some((_, range)) = current.as_mut().and_then(|f| f.blocks.last_mut()) {
                    range.end = i + 1;
                }
            }
        }
    }
    out
}

fn successors(m: &Module, last: usize, block_index: &FxHashMap<u32, usize>) -> Vec<usize> {
    let targets: Vec<u32> = match m.insts[last].opcode() {
        op::OpBranch => vec![m.word(last, 0)],
        op::OpBranchConditional => vec![m.word(last, 1), m.word(last, 2)],
        op::OpSwitch => {
            let n = m.operands(last).len();
            std::iter::once(m.word(last, 1)).chain((3..n).step_by(2).map(|k| m.word(last, k))).collect()
        }
        _ => Vec::new(),
    };
    targets.iter().filter_map(|t| block_index.get(t).copied()).collect()
}

/// Immediate dominators (`None` for unreachable blocks; the entry is its own).
fn dominators(succ: &[Vec<usize>]) -> (Vec<Option<usize>>, Vec<usize>) {
    let n = succ.len();
    // Reverse postorder by an explicit stack (no recursion on deep graphs).
    let mut order = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    visited[0] = true;
    while let Some((b, next)) = stack.pop() {
        if let Some(&s) = succ[b].get(next) {
            stack.push((b, next + 1));
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(b);
        }
    }
    order.reverse();
    let mut rpo = vec![usize::MAX; n];
    for (k, &b) in order.iter().enumerate() {
        rpo[b] = k;
    }
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in succ.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut c = p;
                        while a != c {
                            while rpo[a] > rpo[c] {
                                a = idom[a].unwrap_or(0);
                            }
                            while rpo[c] > rpo[a] {
                                c = idom[c].unwrap_or(0);
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    (idom, rpo)
}

/// Pre- and post-order numbers of the dominator tree, so that a dominance
/// query costs O(1) however deep the tree is.
struct DomTree {
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    fn new(idom: &[Option<usize>]) -> DomTree {
        let n = idom.len();
        let mut children = vec![Vec::new(); n];
        for (b, d) in idom.iter().enumerate() {
            if let Some(d) = *d {
                if d != b {
                    children[d].push(b);
                }
            }
        }
        let (mut pre, mut post) = (vec![u32::MAX; n], vec![0; n]);
        let (mut clock, mut stack) = (0u32, vec![(0usize, 0usize)]);
        pre[0] = 0;
        while let Some((b, next)) = stack.pop() {
            if let Some(&c) = children[b].get(next) {
                stack.push((b, next + 1));
                clock += 1;
                pre[c] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                post[b] = clock;
            }
        }
        DomTree { pre, post }
    }

    fn dominates(&self, a: usize, b: usize) -> bool {
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

fn non_semantic(set: Option<ExtSet>) -> bool {
    set.is_some_and(ExtSet::is_debug_or_non_semantic)
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let functions = functions(m);
    // Where each block-defined id lives: (function, block).
    let mut home: FxHashMap<u32, (usize, usize)> = FxHashMap::default();
    for (f, func) in functions.iter().enumerate() {
        for (b, (_, range)) in func.blocks.iter().enumerate() {
            for i in range.clone().skip(1) {
                if m.insts[i].result_id != 0 {
                    home.insert(m.insts[i].result_id, (f, b));
                }
            }
        }
    }
    for (f, func) in functions.iter().enumerate() {
        if func.blocks.is_empty() {
            continue;
        }
        let block_index: FxHashMap<u32, usize> = func.blocks.iter().enumerate().map(|(b, (l, _))| (*l, b)).collect();
        let succ: Vec<Vec<usize>> =
            func.blocks.iter().map(|(_, range)| successors(m, range.end - 1, &block_index)).collect();
        let (idom, _) = dominators(&succ);
        let tree = DomTree::new(&idom);
        let reachable = |b: usize| idom[b].is_some();
        for (b, (_, range)) in func.blocks.iter().enumerate() {
            for i in range.clone() {
                let inst = &m.insts[i];
                if inst.opcode() == op::OpExtInst && non_semantic(inst.ext_set) {
                    continue;
                }
                let phi = inst.opcode() == op::OpPhi;
                let ids: Vec<(usize, u32)> = m.id_operands(i).collect();
                for (k, id) in ids {
                    let Some(&(df, db)) = home.get(&id) else { continue };
                    if df != f {
                        let name = r.id(id);
                        r.error(ErrorKind::Dominance, i, format!("ID {name} is defined in another function"));
                        return;
                    }
                    if phi {
                        // Operand pairs (value, parent) from index 2.
                        if k % 2 != 0 || k < 2 {
                            continue;
                        }
                        let parent = m.word(i, k + 1);
                        if let Some(&pb) = block_index.get(&parent) {
                            if reachable(db) && reachable(pb) && !tree.dominates(db, pb) {
                                let (name, p) = (r.id(id), r.id(parent));
                                let this = r.id(inst.result_id);
                                r.error(
                                    ErrorKind::Dominance,
                                    i,
                                    format!("In OpPhi instruction {this}, ID {name} definition does not dominate its parent {p}"),
                                );
                                return;
                            }
                        }
                    } else if reachable(db) && reachable(b) && db != b && !tree.dominates(db, b) {
                        let (name, def_block, use_block) = (r.id(id), r.id(func.blocks[db].0), r.id(func.blocks[b].0));
                        r.error(
                            ErrorKind::Dominance,
                            i,
                            format!(
                                "ID {name} defined in block {def_block} does not dominate its use in block {use_block}"
                            ),
                        );
                        return;
                    }
                }
            }
        }
    }
}
