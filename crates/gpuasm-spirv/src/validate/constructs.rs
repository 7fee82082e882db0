//! The constructs of structured control flow (spec 2.11) and their rules,
//! as spirv-val's CFG pass checks them, construct by construct in the order
//! of their merge instructions (a loop's continue construct right after it):
//! - a header structurally dominates its merge block (strictly), a continue
//!   target dominates the back-edge block, which post-dominates it;
//! - a construct is left only by a structured exit (spec 2.11, "Structured
//!   Control Flow": a selection's merge, the innermost loop's merge or
//!   continue, an outer switch's merge; a loop's merge or continue target; a
//!   continue construct's loop header or loop merge) and entered only
//!   through its header;
//! - a header inside a construct has its merge block inside too;
//! - only the loop (or a back-edge) branches to its continue target;
//! - the case constructs of a switch (see [`Cases`]).
//!
//! Dominance here is structural: over the graph whose successors put a
//! header's merge block and continue target before its branch targets.
//! Post-dominance comes from the reversed graph behind a pseudo-exit that
//! leads to every block without successors, then to one block of each
//! cycle that reaches none (taken in reverse binary order, as spirv-val).

use super::block_roles::Roles;
use super::traversal_roots::traversal_roots;
use super::{ErrorKind, Report};
use crate::grammar::op;
use crate::module::dominators::{dominators, DomTree};
use crate::module::functions::Block;
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Selection,
    Loop,
    Continue,
}

impl Kind {
    /// spirv-val's names: the construct, its entry block, its exit block.
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kind::Selection => ("selection", "selection header", "merge block"),
            Kind::Loop => ("loop", "loop header", "merge block"),
            Kind::Continue => ("continue", "continue target", "back-edge block"),
        }
    }
}

struct Construct {
    kind: Kind,
    header: usize,
    /// The merge block; for a continue construct the back-edge block.
    exit: Option<usize>,
    /// The loop header a loop or continue construct belongs to.
    loop_header: usize,
}

/// A function's graphs, as the construct rules read them.
pub(super) struct Cfg<'a, 'm> {
    pub m: &'a Module<'m>,
    pub blocks: &'a [Block],
    pub block_index: &'a FxHashMap<u32, usize>,
    pub succ: &'a [Vec<usize>],
    /// Real predecessors (each once).
    pub preds: &'a [Vec<usize>],
    /// Structural successors.
    pub structural: &'a [Vec<usize>],
    /// Structurally reachable from the entry block.
    pub reachable: &'a [bool],
    pub roles: &'a Roles,
    /// Back-edges (from, to).
    pub edges: &'a [(usize, usize)],
}

struct Dominance {
    idom: Vec<Option<usize>>,
    tree: DomTree,
    /// Post-dominator tree over nodes `b + 1` (node 0 the pseudo-exit).
    pidom: Vec<Option<usize>>,
    ptree: DomTree,
}

impl Dominance {
    fn new(cfg: &Cfg) -> Dominance {
        let (idom, _) = dominators(cfg.structural);
        let tree = DomTree::new(&idom);
        let n = cfg.blocks.len();
        let mut spreds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, ss) in cfg.structural.iter().enumerate() {
            for &s in ss {
                spreds[s].push(b);
            }
        }
        let roots = traversal_roots(&spreds, (0..n).rev());
        let reversed: Vec<Vec<usize>> = std::iter::once(roots.iter().map(|&b| b + 1).collect())
            .chain(spreds.iter().map(|p| p.iter().map(|&x| x + 1).collect()))
            .collect();
        let (pidom, _) = dominators(&reversed);
        let ptree = DomTree::new(&pidom);
        Dominance { idom, tree, pidom, ptree }
    }

    /// spirv-val's `structurally_dominates`: reflexive, else both reached.
    fn dominates(&self, a: usize, b: usize) -> bool {
        a == b || (self.idom[a].is_some() && self.idom[b].is_some() && self.tree.dominates(a, b))
    }

    fn post_dominates(&self, a: usize, b: usize) -> bool {
        a == b || (self.pidom[a + 1].is_some() && self.pidom[b + 1].is_some() && self.ptree.dominates(a + 1, b + 1))
    }

    /// The immediate structural dominator (none for the entry block).
    fn parent(&self, b: usize) -> Option<usize> {
        self.idom[b].filter(|&d| d != b)
    }
}

impl Cfg<'_, '_> {
    fn label(&self, b: usize) -> usize {
        self.blocks[b].insts.start
    }

    fn terminator(&self, b: usize) -> u16 {
        self.m.insts[self.blocks[b].insts.end - 1].opcode()
    }

    fn merge_opcode(&self, b: usize) -> Option<u16> {
        self.roles.merge_inst[b].map(|i| self.m.opcode(i))
    }

    /// The constructs, in the order of their headers; a continue
    /// construct's exit is the last back-edge into its loop header.
    fn constructs(&self) -> Vec<Construct> {
        let mut last_back_edge: Vec<Option<usize>> = vec![None; self.blocks.len()];
        for &(from, to) in self.edges {
            last_back_edge[to] = Some(from);
        }
        let mut out = Vec::new();
        for (b, &back_edge) in last_back_edge.iter().enumerate() {
            let (Some(merge), cont) = self.roles.targets[b] else { continue };
            match self.merge_opcode(b) {
                Some(op::OpSelectionMerge) => {
                    out.push(Construct { kind: Kind::Selection, header: b, exit: Some(merge), loop_header: b })
                }
                Some(op::OpLoopMerge) => {
                    let Some(cont) = cont else { continue };
                    out.push(Construct { kind: Kind::Loop, header: b, exit: Some(merge), loop_header: b });
                    out.push(Construct { kind: Kind::Continue, header: cont, exit: back_edge, loop_header: b });
                }
                _ => {}
            }
        }
        out
    }

    /// The blocks of a construct (spirv-val's `Construct::blocks`), in
    /// binary order; `inside` marks them (and only them) afterwards.
    fn blocks_of(&self, c: &Construct, exit: usize, d: &Dominance, inside: &mut Marks) -> Vec<usize> {
        inside.clear();
        let mut found = Vec::new();
        let cont = self.roles.targets[c.loop_header].1;
        let mut stack = vec![c.header];
        while let Some(x) = stack.pop() {
            if !d.dominates(c.header, x) {
                continue;
            }
            let include = if c.kind == Kind::Continue && d.post_dominates(exit, x) {
                true
            } else {
                // A loop leaves its continue construct out.
                let in_continue = c.kind == Kind::Loop && cont.is_some_and(|t| d.dominates(t, x));
                !d.dominates(exit, x) && !in_continue
            };
            if include && inside.mark(x) {
                found.push(x);
                stack.extend(self.structural[x].iter().copied());
            }
        }
        // In id order, as spirv-val's set of a construct's blocks: the
        // first block with a problem is the one reported.
        found.sort_unstable_by_key(|&b| self.blocks[b].label);
        found
    }

    /// The header that names `b` as its merge block, if it dominates `b`,
    /// else `b`'s immediate dominator: the next block out from `b`.
    fn next_out(&self, b: usize, d: &Dominance) -> Option<usize> {
        match self.roles.merge_of[b] {
            Some(h) if h != b && d.dominates(h, b) => Some(h),
            _ => d.parent(b),
        }
    }

    /// Whether a branch from construct `c` to `dest` is a structured exit.
    fn is_structured_exit(&self, c: &Construct, dest: usize, d: &Dominance) -> bool {
        let (merge, cont) = self.roles.targets[c.loop_header];
        match c.kind {
            Kind::Loop => Some(dest) == merge || Some(dest) == cont,
            Kind::Continue => dest == c.loop_header || Some(dest) == merge,
            Kind::Selection => {
                if Some(dest) == c.exit {
                    return true;
                }
                // Outward through the enclosing headers: the innermost loop
                // ends the walk; a switch's merge counts for a selection
                // that is not itself a switch, until a switch was crossed.
                let header_switch = self.terminator(c.header) == op::OpSwitch;
                let mut seen_switch = false;
                let mut block = self.next_out(c.header, d);
                while let Some(b) = block {
                    let merge_op = self.merge_opcode(b);
                    let is_loop = merge_op == Some(op::OpLoopMerge);
                    let switch = self.terminator(b) == op::OpSwitch;
                    let counts = is_loop || (!header_switch && merge_op == Some(op::OpSelectionMerge) && switch);
                    if counts {
                        let (b_merge, b_cont) = self.roles.targets[b];
                        if b_merge.is_some_and(|mb| d.dominates(mb, c.header)) {
                            block = self.next_out(b, d);
                            continue;
                        }
                        if (!seen_switch || is_loop) && Some(dest) == b_merge {
                            return true;
                        }
                        if is_loop && Some(dest) == b_cont {
                            return true;
                        }
                        seen_switch |= switch;
                        if is_loop {
                            return false;
                        }
                    }
                    block = self.next_out(b, d);
                }
                false
            }
        }
    }
}

/// The construct rules for one function; false when an error was reported.
pub(super) fn check(cfg: &Cfg, r: &mut Report) -> bool {
    let d = Dominance::new(cfg);
    // A construct holds few of a function's blocks: marks cleared in O(1)
    // keep the rules linear in the sizes of the constructs.
    let mut inside = Marks::new(cfg.blocks.len());
    // One set of marks for every switch's case walks (cleared per walk).
    let visited = std::cell::RefCell::new(Marks::new(cfg.blocks.len()));
    // Back-edges looked up per loop: a set, not a scan of the list.
    let back_edges: FxHashSet<(usize, usize)> = cfg.edges.iter().copied().collect();
    let name = |b: usize| cfg.blocks[b].label;
    for c in cfg.constructs() {
        if !cfg.reachable[c.header] {
            continue;
        }
        let (construct, header_name, exit_name) = c.kind.names();
        let Some(exit) = c.exit else {
            let h = r.id(name(c.header));
            r.error(
                ErrorKind::StructuredControlFlow,
                cfg.label(c.header),
                format!(
                    "Construct {construct} with {header_name} {h} does not have a {exit_name}. This may be a bug in the validator."
                ),
            );
            return false;
        };
        let how = if !d.dominates(c.header, exit) {
            Some("does not structurally dominate")
        } else if c.kind != Kind::Continue && c.header == exit {
            Some("does not strictly structurally dominate")
        } else if c.kind == Kind::Continue && !d.post_dominates(exit, c.header) {
            Some("is not structurally post dominated by")
        } else {
            None
        };
        if let Some(how) = how {
            let (h, e) = (r.id(name(c.header)), r.id(name(exit)));
            r.error(
                ErrorKind::StructuredControlFlow,
                cfg.label(exit),
                format!("The {construct} construct with the {header_name} {h} {how} the {exit_name} {e}"),
            );
            return false;
        }
        let blocks = cfg.blocks_of(&c, exit, &d, &mut inside);
        let inside = &inside;
        for x in blocks {
            if cfg.succ[x].iter().any(|&s| !inside.has(s) && !cfg.is_structured_exit(&c, s, &d)) {
                let (bx, h) = (r.id(name(x)), r.id(name(c.header)));
                r.error(
                    ErrorKind::StructuredControlFlow,
                    cfg.label(x),
                    format!("block <ID> {bx} exits the {construct} headed by <ID> {h}, but not via a structured exit"),
                );
                return false;
            }
            if x == c.header {
                continue;
            }
            // Entered only through the header.
            if let Some(&p) = cfg.preds[x].iter().find(|&&p| cfg.reachable[p] && !inside.has(p)) {
                r.error(
                    ErrorKind::StructuredControlFlow,
                    cfg.label(p),
                    format!(
                        "block <ID> {} branches to the {construct} construct, but not to the {header_name} <ID> {}",
                        name(p),
                        name(c.header)
                    ),
                );
                return false;
            }
            // A header inside holds its merge block inside too.
            if let (Some(_), (Some(inner_merge), _)) = (cfg.roles.merge_inst[x], cfg.roles.targets[x]) {
                if cfg.reachable[inner_merge] && !inside.has(inner_merge) {
                    let (hx, hb, mm) = (r.id(name(x)), r.id(name(c.header)), r.id(name(inner_merge)));
                    r.error(
                        ErrorKind::StructuredControlFlow,
                        cfg.label(x),
                        format!(
                            "Header block {hx} is contained in the {construct} construct headed by {hb}, but its merge block {mm} is not"
                        ),
                    );
                    return false;
                }
            }
        }
        // Only the loop (or a back-edge) branches to its continue target.
        if c.kind == Kind::Loop {
            if let Some(t) = cfg.roles.targets[c.header].1.filter(|&t| t != c.header) {
                let outsider =
                    cfg.preds[t].iter().find(|&&p| cfg.reachable[p] && !inside.has(p) && !back_edges.contains(&(p, t)));
                if let Some(&p) = outsider {
                    let (bp, bc, bh) = (r.id(name(p)), r.id(name(t)), r.id(name(c.header)));
                    r.error(
                        ErrorKind::StructuredControlFlow,
                        cfg.blocks[p].insts.end - 1,
                        format!(
                            "Block {bp} branches to the loop continue target {bc}, but is not contained in the associated loop construct {bh}"
                        ),
                    );
                    return false;
                }
            }
        }
        if c.kind == Kind::Selection && cfg.terminator(c.header) == op::OpSwitch {
            let switch = cfg.blocks[c.header].insts.end - 1;
            let cases = Cases { cfg, d: &d, construct: &c, merge: exit, switch, visited: &visited };
            if !cases.check(r) {
                return false;
            }
        }
    }
    true
}

/// The case constructs of a structured OpSwitch: each dominated by the
/// switch header, leaving only for another case, the merge or a structured
/// exit of the switch's selection, falling through to at most one other
/// case, which must come right after it in the target list, and no case the
/// target of two fall-throughs.
struct Cases<'a, 'b, 'm> {
    cfg: &'a Cfg<'b, 'm>,
    d: &'a Dominance,
    construct: &'a Construct,
    merge: usize,
    switch: usize,
    /// The blocks a case's walk has seen.
    visited: &'a std::cell::RefCell<Marks>,
}

impl Cases<'_, '_, '_> {
    fn check(&self, r: &mut Report) -> bool {
        let (cfg, sw) = (self.cfg, self.switch);
        let m = cfg.m;
        let header = self.construct.header;
        let merge_id = cfg.blocks[self.merge].label;
        let targets: Vec<u32> = (1..m.operands(sw).len()).step_by(2).map(|k| m.word(sw, k)).collect();
        let case_targets: FxHashSet<u32> = targets.iter().copied().filter(|&t| t != merge_id).collect();
        let default = targets[0];
        let default_repeated = targets[1..].contains(&default);
        let mut targeted: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        let mut seen: FxHashMap<u32, u32> = FxHashMap::default();
        let mut default_fall = 0u32;
        for (k, &target) in targets.iter().enumerate() {
            if target == merge_id {
                continue;
            }
            let mut fall = match seen.get(&target) {
                Some(&f) => f,
                None => {
                    let Some(&tb) = cfg.block_index.get(&target) else { return true };
                    if cfg.reachable[header] && cfg.reachable[tb] && !self.d.dominates(header, tb) {
                        let (h, t) = (r.id(cfg.blocks[header].label), r.id(target));
                        r.error(
                            ErrorKind::StructuredControlFlow,
                            cfg.label(header),
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
            let at = cfg.block_index.get(&f).map_or(sw, |&b| cfg.label(b));
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
    /// `None` after reporting an invalid branch or a second, different
    /// fall-through. Blocks are taken last-in first-out, as spirv-val does,
    /// so the message names the same blocks.
    fn fall_through(&self, target: usize, case_targets: &FxHashSet<u32>, r: &mut Report) -> Option<u32> {
        let cfg = self.cfg;
        let mut fall = 0u32;
        let mut visited = self.visited.borrow_mut();
        visited.clear();
        let mut stack = vec![target];
        while let Some(b) = stack.pop() {
            if b == self.merge || !visited.mark(b) {
                continue;
            }
            if cfg.reachable[target] && cfg.reachable[b] && self.d.dominates(target, b) {
                stack.extend(cfg.succ[b].iter().copied());
                continue;
            }
            let label = cfg.blocks[b].label;
            if !case_targets.contains(&label) {
                // Leaving the case construct otherwise than for another case
                // or the merge: only the switch's own structured exits
                // (an outer loop's merge or continue) are allowed.
                if cfg.is_structured_exit(self.construct, b, self.d) {
                    continue;
                }
                let (t, l) = (r.id(cfg.blocks[target].label), r.id(label));
                r.error(
                    ErrorKind::StructuredControlFlow,
                    cfg.label(target),
                    format!(
                        "Case construct that targets {t} has invalid branch to block {l} (not another case construct, corresponding merge, outer loop merge or outer loop continue)"
                    ),
                );
                return None;
            }
            if fall == 0 {
                if b != target {
                    fall = label;
                }
            } else if fall != label {
                let (t, f, l) = (r.id(cfg.blocks[target].label), r.id(fall), r.id(label));
                r.error(
                    ErrorKind::StructuredControlFlow,
                    cfg.label(target),
                    format!("Case construct that targets {t} has branches to multiple other case construct targets {f} and {l}"),
                );
                return None;
            }
        }
        Some(fall)
    }
}

/// A set of blocks that empties in O(1): a block is in it when its stamp is
/// the current generation.
struct Marks {
    stamp: Vec<u32>,
    generation: u32,
}

impl Marks {
    fn new(n: usize) -> Marks {
        Marks { stamp: vec![0; n], generation: 1 }
    }

    fn clear(&mut self) {
        self.generation += 1;
        if self.generation == u32::MAX {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    /// Adds `b`; false if it was there.
    fn mark(&mut self, b: usize) -> bool {
        std::mem::replace(&mut self.stamp[b], self.generation) != self.generation
    }

    fn has(&self, b: usize) -> bool {
        self.stamp[b] == self.generation
    }
}
