//! Structured control flow (spec 2.11) in modules with the Shader
//! capability, the way spirv-val checks it:
//! - back-edges go only to loop headers, and each loop has exactly one;
//! - each selection or loop header structurally dominates its merge block;
//! - a conditional branch or switch either has a merge instruction or
//!   leaves for a block already reached;
//! - structured nesting stays within the depth limit.
//!
//! The graphs are spirv-val's: the "structural" successors of a header are
//! its merge block (and continue target) before its branch targets, and
//! back-edges are found from an "augmented" graph whose pseudo-entry (node
//! 0, blocks shifted by one) leads to every block nothing else reaches.

use super::block_roles::Roles;
use super::constructs;
use super::traversal_roots::traversal_roots;
use super::{ErrorKind, Report};
use crate::grammar::op;
use crate::module::dominators::postorder;
use crate::module::functions::Block;
use crate::module::Module;
use rustc_hash::FxHashMap;

/// `succ` behind a pseudo-entry (node 0; block `b` becomes node `b + 1`)
/// whose successors are the traversal roots in binary order.
fn augmented(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let roots = traversal_roots(succ, 0..succ.len()).into_iter().map(|b| b + 1).collect();
    std::iter::once(roots).chain(succ.iter().map(|s| s.iter().map(|&x| x + 1).collect())).collect()
}

/// Back-edges `(from, to)`: real edges to a block on the depth-first stack
/// of a traversal of `graph` (augmented, node 0 the pseudo-entry).
fn back_edges(graph: &[Vec<usize>], succ: &[Vec<usize>]) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    let mut on_stack = vec![false; graph.len()];
    let mut visited = vec![false; graph.len()];
    let mut stack = vec![(0usize, 0usize)];
    (visited[0], on_stack[0]) = (true, true);
    while let Some((u, next)) = stack.pop() {
        let Some(&c) = graph[u].get(next) else {
            on_stack[u] = false;
            continue;
        };
        stack.push((u, next + 1));
        if on_stack[c] && u != 0 && succ[u - 1].contains(&(c - 1)) {
            edges.push((u - 1, c - 1));
        }
        if !visited[c] {
            (visited[c], on_stack[c]) = (true, true);
            stack.push((c, 0));
        }
    }
    edges
}

/// The structured rules for one function; false when an error was reported.
pub(super) fn check(
    m: &Module,
    blocks: &[Block],
    block_index: &FxHashMap<u32, usize>,
    succ: &[Vec<usize>],
    roles: &Roles,
    r: &mut Report,
) -> bool {
    let n = blocks.len();
    let label = |b: usize| blocks[b].insts.start;
    // Structural successors: merge block and continue target first.
    let structural: Vec<Vec<usize>> = (0..n)
        .map(|b| {
            let (merge, cont) = roles.targets[b];
            merge.into_iter().chain(cont).chain(succ[b].iter().copied()).collect()
        })
        .collect();
    let graph = augmented(&structural);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, ss) in succ.iter().enumerate() {
        for &x in ss {
            // `b` rises: a repeat of it can only be the last one pushed.
            if preds[x].last() != Some(&b) {
                preds[x].push(b);
            }
        }
    }
    let order = postorder(&structural, 0);
    let mut reachable = vec![false; n];
    for &b in &order {
        reachable[b] = true;
    }

    // Back-edges only to loop headers, one per loop.
    let edges = back_edges(&graph, succ);
    let is_loop = |b: usize| roles.merge_inst[b].is_some_and(|i| m.opcode(i) == op::OpLoopMerge);
    let mut latches: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut distinct = rustc_hash::FxHashSet::default();
    for &(from, to) in &edges {
        if !is_loop(to) {
            let (f, t) = (r.id(blocks[from].label), r.id(blocks[to].label));
            r.error(
                ErrorKind::StructuredControlFlow,
                label(from),
                format!("Back-edges ({f} -> {t}) can only be formed between a block and a loop header."),
            );
            return false;
        }
        if distinct.insert((from, to)) {
            latches[to].push(from);
        }
    }
    for b in (0..n).filter(|&b| reachable[b] && is_loop(b)) {
        if latches[b].len() != 1 {
            let h = r.id(blocks[b].label);
            r.error(
                ErrorKind::StructuredControlFlow,
                label(b),
                format!(
                    "Loop header {h} is targeted by {} back-edge blocks but the standard requires exactly one",
                    latches[b].len()
                ),
            );
            return false;
        }
    }

    let cfg = constructs::Cfg {
        m,
        blocks,
        block_index,
        succ,
        preds: &preds,
        structural: &structural,
        reachable: &reachable,
        roles,
        edges: &edges,
    };
    if !constructs::check(&cfg, r) {
        return false;
    }

    // Conditional branches and switches, in reverse postorder: a block
    // without a selection merge must branch to a block already reached.
    let mut seen = rustc_hash::FxHashSet::default();
    for &b in order.iter().rev() {
        let merge = roles.merge_inst[b];
        if let Some(i) = merge {
            seen.insert(m.word(i, 0));
            if m.opcode(i) == op::OpLoopMerge {
                seen.insert(m.word(i, 1));
            }
        }
        let last = blocks[b].insts.end - 1;
        match m.opcode(last) {
            op::OpBranchConditional => {
                let t = seen.insert(m.word(last, 1));
                let f = seen.insert(m.word(last, 2));
                let selection = merge.is_some_and(|i| m.opcode(i) == op::OpSelectionMerge);
                if !selection && t && f {
                    r.error(ErrorKind::StructuredControlFlow, last, "Selection must be structured");
                    return false;
                }
            }
            op::OpSwitch => {
                if merge.is_none() {
                    r.error(
                        ErrorKind::StructuredControlFlow,
                        last,
                        "OpSwitch must be preceded by an OpSelectionMerge instruction",
                    );
                    return false;
                }
                let k = m.operands(last).len();
                for j in (1..k).step_by(2) {
                    seen.insert(m.word(last, j));
                }
            }
            _ => {}
        }
    }
    true
}
