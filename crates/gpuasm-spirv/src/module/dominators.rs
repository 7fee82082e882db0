//! Graph algorithms over a function's blocks, numbered from 0 (the entry)
//! with successor lists: depth-first postorder, immediate dominators
//! (Cooper, Harvey and Kennedy's iterative algorithm over reverse
//! postorder), and a dominator tree answering "does a dominate b" in
//! constant time. The validator runs them on the control-flow graph, on
//! spirv-val's structural graph and on its reverse. Explicit stacks
//! throughout: no recursion, however deep the graph.

/// Depth-first postorder from `start`, taking successors in their order, by
/// an explicit stack (no recursion on deep graphs).
pub(crate) fn postorder(succ: &[Vec<usize>], start: usize) -> Vec<usize> {
    let mut order = Vec::new();
    let mut visited = vec![false; succ.len()];
    let mut stack = vec![(start, 0usize)];
    visited[start] = true;
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
    order
}

/// Immediate dominators (`None` for unreachable blocks; the entry is its own).
pub(crate) fn dominators(succ: &[Vec<usize>]) -> (Vec<Option<usize>>, Vec<usize>) {
    let n = succ.len();
    let mut order = postorder(succ, 0);
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
pub(crate) struct DomTree {
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    pub(crate) fn new(idom: &[Option<usize>]) -> DomTree {
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

    /// Whether the tree has block `b`: the entry block and those it reaches.
    pub(crate) fn reaches(&self, b: usize) -> bool {
        self.pre[b] != u32::MAX
    }

    pub(crate) fn dominates(&self, a: usize, b: usize) -> bool {
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}
