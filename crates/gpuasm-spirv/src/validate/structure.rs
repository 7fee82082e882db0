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

use super::dominance::{dominators, postorder, DomTree};
use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::op;
use rustc_hash::FxHashMap;
use std::ops::Range;

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

pub(super) fn roles(m: &Module, blocks: &[(u32, Range<usize>)], index: &dyn Fn(u32) -> Option<usize>) -> Roles {
    let n = blocks.len();
    let mut roles = Roles {
        merge_inst: vec![None; n],
        merge_of: vec![None; n],
        continue_of: vec![None; n],
        targets: vec![(None, None); n],
    };
    for (b, (_, range)) in blocks.iter().enumerate() {
        if range.len() < 2 {
            continue;
        }
        let i = range.end - 2;
        let opcode = m.insts[i].opcode();
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

/// `succ` behind a pseudo-entry (node 0; block `b` becomes node `b + 1`)
/// whose successors are spirv-val's traversal roots: the blocks without
/// predecessors in binary order, then one block of each cycle that nothing
/// else reaches.
fn augmented(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = succ.len();
    let mut has_pred = vec![false; n];
    for s in succ.iter().flatten() {
        has_pred[*s] = true;
    }
    let mut visited = vec![false; n];
    let mut roots = Vec::new();
    let visit_from = |root: usize, visited: &mut Vec<bool>| {
        let mut stack = vec![root];
        visited[root] = true;
        while let Some(b) = stack.pop() {
            for &s in &succ[b] {
                if !visited[s] {
                    visited[s] = true;
                    stack.push(s);
                }
            }
        }
    };
    for (b, _) in has_pred.iter().enumerate().filter(|(_, &p)| !p) {
        roots.push(b + 1);
        visit_from(b, &mut visited);
    }
    for b in 0..n {
        if !visited[b] {
            roots.push(b + 1);
            visit_from(b, &mut visited);
        }
    }
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
    blocks: &[(u32, Range<usize>)],
    block_index: &FxHashMap<u32, usize>,
    succ: &[Vec<usize>],
    roles: &Roles,
    r: &mut Report,
) -> bool {
    let n = blocks.len();
    let label = |b: usize| blocks[b].1.start;
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
            if !preds[x].contains(&b) {
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
    let is_loop = |b: usize| roles.merge_inst[b].is_some_and(|i| m.insts[i].opcode() == op::OpLoopMerge);
    let mut latches: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(from, to) in &edges {
        if !is_loop(to) {
            let (f, t) = (r.id(blocks[from].0), r.id(blocks[to].0));
            r.error(
                ErrorKind::StructuredControlFlow,
                label(from),
                format!("Back-edges ({f} -> {t}) can only be formed between a block and a loop header."),
            );
            return false;
        }
        if !latches[to].contains(&from) {
            latches[to].push(from);
        }
    }
    for b in (0..n).filter(|&b| reachable[b] && is_loop(b)) {
        if latches[b].len() != 1 {
            let h = r.id(blocks[b].0);
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

    // Each header structurally dominates its merge block, strictly.
    // Structural dominance is taken from the entry block, over the blocks
    // it reaches.
    let (idom, _) = dominators(&structural);
    let tree = DomTree::new(&idom);
    let sdom = |a: usize, b: usize| reachable[a] && reachable[b] && tree.dominates(a, b);
    for b in (0..n).filter(|&b| reachable[b]) {
        let (Some(i), (Some(merge), _)) = (roles.merge_inst[b], roles.targets[b]) else { continue };
        let (construct, header) = if m.insts[i].opcode() == op::OpLoopMerge {
            ("loop", "loop header")
        } else {
            ("selection", "selection header")
        };
        let how = if merge == b {
            "does not strictly structurally dominate"
        } else if !sdom(b, merge) {
            "does not structurally dominate"
        } else {
            ""
        };
        if !how.is_empty() {
            let (h, mb) = (r.id(blocks[b].0), r.id(blocks[merge].0));
            r.error(
                ErrorKind::StructuredControlFlow,
                label(merge),
                format!("The {construct} construct with the {header} {h} {how} the merge block {mb}"),
            );
            return false;
        }
        // The construct: blocks the header dominates and the merge block
        // does not (nor, for a loop, the continue target), reached from the
        // header along structural edges.
        let cont = roles.targets[b].1.filter(|_| construct == "loop");
        let mut inside = vec![false; n];
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if inside[x] || !sdom(b, x) || sdom(merge, x) || cont.is_some_and(|c| sdom(c, x)) {
                continue;
            }
            inside[x] = true;
            stack.extend(structural[x].iter().copied());
        }
        for x in (0..n).filter(|&x| inside[x] && x != b) {
            // Entered only through the header.
            if let Some(&p) = preds[x].iter().find(|&&p| reachable[p] && !inside[p]) {
                r.error(
                    ErrorKind::StructuredControlFlow,
                    label(p),
                    format!(
                        "block <ID> {} branches to the {construct} construct, but not to the {header} <ID> {}",
                        blocks[p].0, blocks[b].0
                    ),
                );
                return false;
            }
            // A header inside holds its merge block inside too.
            if let (Some(_), (Some(inner_merge), _)) = (roles.merge_inst[x], roles.targets[x]) {
                if reachable[inner_merge] && !inside[inner_merge] {
                    let (hx, hb, mm) = (r.id(blocks[x].0), r.id(blocks[b].0), r.id(blocks[inner_merge].0));
                    r.error(
                        ErrorKind::StructuredControlFlow,
                        label(x),
                        format!(
                            "Header block {hx} is contained in the {construct} construct headed by {hb}, but its merge block {mm} is not"
                        ),
                    );
                    return false;
                }
            }
        }
        // Only the loop (or a back-edge) branches to its continue target.
        if let Some(c) = cont.filter(|&c| c != b) {
            let outsider = preds[c].iter().find(|&&p| reachable[p] && !inside[p] && !edges.contains(&(p, c)));
            if let Some(&p) = outsider {
                let (bp, bc, bh) = (r.id(blocks[p].0), r.id(blocks[c].0), r.id(blocks[b].0));
                r.error(
                    ErrorKind::StructuredControlFlow,
                    blocks[p].1.end - 1,
                    format!(
                        "Block {bp} branches to the loop continue target {bc}, but is not contained in the associated loop construct {bh}"
                    ),
                );
                return false;
            }
        }
        let last = blocks[b].1.end - 1;
        if construct == "selection" && m.insts[last].opcode() == op::OpSwitch {
            let cases = Cases {
                m,
                blocks,
                block_index,
                succ,
                reachable: &reachable,
                sdom: &sdom,
                header: b,
                merge,
                switch: last,
            };
            if !cases.check(r) {
                return false;
            }
        }
    }

    // Conditional branches and switches, in reverse postorder: a block
    // without a selection merge must branch to a block already reached.
    let mut seen = rustc_hash::FxHashSet::default();
    for &b in order.iter().rev() {
        let merge = roles.merge_inst[b];
        if let Some(i) = merge {
            seen.insert(m.word(i, 0));
            if m.insts[i].opcode() == op::OpLoopMerge {
                seen.insert(m.word(i, 1));
            }
        }
        let last = blocks[b].1.end - 1;
        match m.insts[last].opcode() {
            op::OpBranchConditional => {
                let t = seen.insert(m.word(last, 1));
                let f = seen.insert(m.word(last, 2));
                let selection = merge.is_some_and(|i| m.insts[i].opcode() == op::OpSelectionMerge);
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

/// The case constructs of a structured OpSwitch: each dominated by the
/// switch header, each falling through to at most one other case, which
/// must come right after it in the target list, and no case the target of
/// two fall-throughs.
struct Cases<'a, 'm> {
    m: &'a Module<'m>,
    blocks: &'a [(u32, Range<usize>)],
    block_index: &'a FxHashMap<u32, usize>,
    succ: &'a [Vec<usize>],
    reachable: &'a [bool],
    sdom: &'a dyn Fn(usize, usize) -> bool,
    header: usize,
    merge: usize,
    switch: usize,
}

impl Cases<'_, '_> {
    fn block(&self, label: u32) -> Option<usize> {
        self.block_index.get(&label).copied()
    }

    fn check(&self, r: &mut Report) -> bool {
        let (m, sw) = (self.m, self.switch);
        let merge_id = self.blocks[self.merge].0;
        let targets: Vec<u32> = (1..m.operands(sw).len()).step_by(2).map(|k| m.word(sw, k)).collect();
        let case_targets: rustc_hash::FxHashSet<u32> = targets.iter().copied().filter(|&t| t != merge_id).collect();
        let default = targets[0];
        let default_repeated = targets[1..].contains(&default);
        let mut targeted: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        let mut seen: rustc_hash::FxHashMap<u32, u32> = rustc_hash::FxHashMap::default();
        let mut default_fall = 0u32;
        for (k, &target) in targets.iter().enumerate() {
            if target == merge_id {
                continue;
            }
            let mut fall = match seen.get(&target) {
                Some(&f) => f,
                None => {
                    let Some(tb) = self.block(target) else { return true };
                    if self.reachable[self.header] && self.reachable[tb] && !(self.sdom)(self.header, tb) {
                        let (h, t) = (r.id(self.blocks[self.header].0), r.id(target));
                        r.error(
                            ErrorKind::StructuredControlFlow,
                            self.blocks[self.header].1.start,
                            format!("Switch header {h} does not structurally dominate its case construct {t}"),
                        );
                        return false;
                    }
                    let Some(f) = self.fall_through(tb, &case_targets, r) else { return false };
                    if f != 0 {
                        *targeted.entry(f).or_insert(0) += 1;
                    }
                    seen.insert(target, f);
                    f
                }
            };
            if fall == default && !default_repeated {
                fall = default_fall;
            }
            if fall == 0 {
                continue;
            }
            if k == 0 {
                default_fall = fall;
                continue;
            }
            // Cases sharing this target count as one; the fall-through
            // target must be the next one in the list.
            let mut j = k;
            while j + 1 < targets.len() && targets[j + 1] == target {
                j += 1;
            }
            if targets.get(j + 1) != Some(&fall) {
                let (t, f) = (r.id(target), r.id(fall));
                r.error(
                    ErrorKind::StructuredControlFlow,
                    sw,
                    format!(
                        "Case construct that targets {t} has branches to the case construct that targets {f}, but does not immediately precede it in the OpSwitch's target list"
                    ),
                );
                return false;
            }
        }
        if let Some((&f, _)) = targeted.iter().find(|(_, &count)| count > 1) {
            let t = r.id(f);
            let at = self.block(f).map_or(sw, |b| self.blocks[b].1.start);
            r.error(
                ErrorKind::StructuredControlFlow,
                at,
                format!("Multiple case constructs have branches to the case construct that targets {t}"),
            );
            return false;
        }
        true
    }

    /// The case construct entered at `target` falls through to: 0 for none;
    /// `None` after reporting a second, different one. Blocks are taken
    /// last-in first-out, as spirv-val does, so the message names the same
    /// two cases.
    fn fall_through(&self, target: usize, case_targets: &rustc_hash::FxHashSet<u32>, r: &mut Report) -> Option<u32> {
        let mut fall = 0u32;
        let mut visited = vec![false; self.blocks.len()];
        let mut stack = vec![target];
        while let Some(b) = stack.pop() {
            if b == self.merge || std::mem::replace(&mut visited[b], true) {
                continue;
            }
            if self.reachable[target] && self.reachable[b] && (self.sdom)(target, b) {
                stack.extend(self.succ[b].iter().copied());
                continue;
            }
            // Leaving the case construct: only another case counts here
            // (loop breaks and continues are structured exits).
            let label = self.blocks[b].0;
            if !case_targets.contains(&label) {
                continue;
            }
            if fall == 0 {
                if b != target {
                    fall = label;
                }
            } else if fall != label {
                let (t, f, l) = (r.id(self.blocks[target].0), r.id(fall), r.id(label));
                r.error(
                    ErrorKind::StructuredControlFlow,
                    self.switch,
                    format!("Case construct that targets {t} has branches to multiple other case construct targets {f} and {l}"),
                );
                return None;
            }
        }
        Some(fall)
    }
}
