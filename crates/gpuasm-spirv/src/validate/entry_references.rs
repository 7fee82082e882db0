//! Which entry points reference an id: those whose static call tree holds
//! a function using it, directly or through module-scope instructions that
//! use it (spirv-val's `EntryPointReferences`).

use crate::grammar::op;
use crate::module::{entry_points_reaching, Module};
use rustc_hash::{FxHashMap, FxHashSet};

pub(crate) struct EntryReferences {
    /// Each id's users: (user's result id or 0, enclosing function or 0).
    users: FxHashMap<u32, Vec<(u32, u32)>>,
    reached_by: FxHashMap<u32, Vec<u32>>,
}

impl EntryReferences {
    pub fn new(m: &Module) -> EntryReferences {
        let mut users: FxHashMap<u32, Vec<(u32, u32)>> = FxHashMap::default();
        let mut calls: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        let mut function = 0;
        for (i, inst) in m.insts.iter().enumerate() {
            match inst.opcode() {
                op::OpFunction => function = m.result_id_at(inst),
                op::OpFunctionEnd => {
                    function = 0;
                    continue;
                }
                op::OpFunctionCall => calls.entry(function).or_default().push(m.word(i, 2)),
                _ => {}
            }
            for (_, id) in m.id_operands(i) {
                users.entry(id).or_default().push((m.result_id_at(inst), function));
            }
        }
        let entries: Vec<u32> =
            (0..m.insts.len()).filter(|&i| m.opcode(i) == op::OpEntryPoint).map(|i| m.word(i, 1)).collect();
        EntryReferences { users, reached_by: entry_points_reaching(&entries, &calls) }
    }

    /// The entry points referencing `id`, sorted.
    pub fn of(&self, id: u32) -> Vec<u32> {
        let mut found: FxHashSet<u32> = FxHashSet::default();
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            for &(user, function) in self.users.get(&id).into_iter().flatten() {
                if function != 0 {
                    found.extend(self.reached_by.get(&function).into_iter().flatten().copied());
                } else if user != 0 {
                    stack.push(user);
                }
            }
        }
        let mut found: Vec<u32> = found.into_iter().collect();
        found.sort_unstable();
        found
    }
}
