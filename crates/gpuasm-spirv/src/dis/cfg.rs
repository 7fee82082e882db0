//! Buffering one function for `--nested-indent` and `--reorder-blocks`.
//!
//! Blocks are linked by their merge and branch instructions; nesting follows
//! spirv-dis: a merge block stays at its header's level, a continue block
//! goes one level deeper, and bodies, branch targets and switch cases two.
//! Reordering emits blocks in reverse post-order of a depth-first walk, with
//! unreachable blocks last.

use super::Printer;
use crate::binary::{Instruction, ParsedOperand};
use crate::grammar::op;
use rustc_hash::{FxHashMap, FxHashSet};

/// An instruction kept until its function ends.
use crate::binary::StoredInstruction as Stored;

#[derive(Default, Clone)]
struct Successors {
    merge: u32,
    continue_: u32,
    true_: u32,
    false_: u32,
    body: u32,
    next: u32,
    cases: Vec<u32>,
}

/// The blocks of the function being read.
#[derive(Default)]
pub(crate) struct FunctionBuffer {
    insts: Vec<Stored>,
    operands: Vec<ParsedOperand>,
    /// Index in `insts` of each block's `OpLabel`.
    block_starts: Vec<usize>,
}

impl FunctionBuffer {
    pub(crate) fn in_block(&self) -> bool {
        !self.block_starts.is_empty()
    }

    pub(crate) fn start_block(&mut self, inst: &Instruction<'_>) {
        self.block_starts.push(self.insts.len());
        self.push(inst);
    }

    pub(crate) fn push(&mut self, inst: &Instruction<'_>) {
        let start = self.operands.len();
        self.operands.extend_from_slice(inst.operands);
        self.insts.push(Stored::new(inst, start..self.operands.len()));
    }

    fn view<'w>(&'w self, words: &'w [u32], s: &Stored) -> Instruction<'w> {
        s.view(words, &self.operands)
    }

    fn block(&self, b: usize) -> &[Stored] {
        let end = self.block_starts.get(b + 1).copied().unwrap_or(self.insts.len());
        &self.insts[self.block_starts[b]..end]
    }

    /// Prints the buffered blocks and forgets them. The text goes to the
    /// printer's sink as it is made: nesting makes a function's listing grow
    /// with the square of its depth, so it must never be whole in memory.
    pub(crate) fn emit(&mut self, p: &mut Printer<'_, '_>, words: &[u32]) -> std::io::Result<()> {
        let n = self.block_starts.len();
        if n == 0 {
            return Ok(());
        }
        let word = |s: &Stored, i: usize| -> u32 {
            let o = self.operands[s.operands.start + i];
            words[s.offset + o.offset as usize]
        };
        let mut index: FxHashMap<u32, usize> = FxHashMap::default();
        let mut succ = vec![Successors::default(); n];
        for (b, s) in succ.iter_mut().enumerate() {
            let insts = self.block(b);
            index.insert(insts[0].result_id, b);
            if insts.len() >= 3 {
                let m = &insts[insts.len() - 2];
                match m.info.opcode {
                    op::OpLoopMerge if m.operands.len() >= 2 => {
                        s.merge = word(m, 0);
                        s.continue_ = word(m, 1);
                    }
                    op::OpSelectionMerge if !m.operands.is_empty() => s.merge = word(m, 0),
                    _ => {}
                }
            }
            let br = insts.last().unwrap();
            let nops = br.operands.len();
            match br.info.opcode {
                op::OpBranch if nops >= 1 => {
                    if s.merge != 0 {
                        s.body = word(br, 0);
                    } else {
                        s.next = word(br, 0);
                    }
                }
                op::OpBranchConditional if nops >= 3 => {
                    s.true_ = word(br, 1);
                    s.false_ = word(br, 2);
                }
                op::OpSwitch => {
                    let mut i = 1;
                    while i < nops {
                        s.cases.push(word(br, i));
                        i += 2;
                    }
                }
                _ => {}
            }
        }

        // Depth-first walk: nest successors at pre-visit, record post-order.
        let mut level = vec![0u32; n];
        let mut assigned = vec![false; n];
        let mut reachable = vec![false; n];
        assigned[0] = true;
        let mut post = Vec::with_capacity(n);
        let mut stack: Vec<(usize, bool)> = vec![(0, false)];
        let mut visited = FxHashSet::default();
        let nest = |level: &mut Vec<u32>, assigned: &mut Vec<bool>, id: u32, l: u32| {
            if id == 0 {
                return;
            }
            if let Some(&b) = index.get(&id) {
                if !assigned[b] {
                    level[b] = l;
                    assigned[b] = true;
                }
            }
        };
        while let Some((b, post_visit)) = stack.pop() {
            if post_visit {
                post.push(b);
                continue;
            }
            if !visited.insert(b) {
                continue;
            }
            stack.push((b, true));
            let s = &succ[b];
            let l = level[b];
            nest(&mut level, &mut assigned, s.merge, l);
            nest(&mut level, &mut assigned, s.continue_, l + 1);
            nest(&mut level, &mut assigned, s.true_, l + 2);
            nest(&mut level, &mut assigned, s.false_, l + 2);
            nest(&mut level, &mut assigned, s.body, l + 2);
            nest(&mut level, &mut assigned, s.next, l);
            for &c in &s.cases {
                nest(&mut level, &mut assigned, c, l + 2);
            }
            reachable[b] = true;
            let mut visit = |id: u32| {
                if id != 0 {
                    if let Some(&t) = index.get(&id) {
                        stack.push((t, false));
                    }
                }
            };
            visit(s.true_);
            visit(s.false_);
            visit(s.body);
            visit(s.next);
            for &c in &s.cases {
                visit(c);
            }
            visit(s.continue_);
            visit(s.merge);
        }
        let mut order: Vec<usize> = post.into_iter().rev().collect();
        for b in 0..n {
            if !reachable[b] {
                order.push(b);
                level[b] = 0;
            }
        }

        let sequence: Vec<usize> = if p.opts.reorder_blocks { order } else { (0..n).collect() };
        for b in sequence {
            for s in self.block(b) {
                let inst = self.view(words, s);
                p.instruction(&inst, Some(level[b]));
                p.flush_if_large()?;
            }
        }
        self.insts.clear();
        self.operands.clear();
        self.block_starts.clear();
        Ok(())
    }
}
