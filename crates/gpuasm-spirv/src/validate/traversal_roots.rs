//! spirv-val's traversal roots of a block graph: where its depth-first
//! traversals start, so that blocks nothing reaches from the entry are
//! visited too. `structure` roots its augmented graph (back-edges) and
//! `constructs` its reversed graph (post-dominance) there; on its own so
//! that `constructs`, which `structure` calls, need not import `structure`.

/// spirv-val's traversal roots of a graph whose blocks are taken in
/// `order`: the blocks without predecessors, then one block of each cycle
/// that nothing taken so far reaches.
pub(super) fn traversal_roots(succ: &[Vec<usize>], order: impl Iterator<Item = usize> + Clone) -> Vec<usize> {
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
    for b in order.clone().filter(|&b| !has_pred[b]) {
        roots.push(b);
        visit_from(b, &mut visited);
    }
    for b in order {
        if !visited[b] {
            roots.push(b);
            visit_from(b, &mut visited);
        }
    }
    roots
}
