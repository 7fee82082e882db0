//! The last phases: ids renumbered from 1 in order of first appearance (the
//! peer's `CompactIdsPass`), entry point interfaces recomputed from the
//! variables each entry point's call tree uses, and the words written out.

use super::ir::{Linked, Section};
use std::collections::{HashMap, HashSet, VecDeque};

/// The peer's generator word: Khronos linker (17), version 0.
const GENERATOR: u32 = 17 << 16;

pub(super) fn finish(mut linked: Linked) -> Vec<u32> {
    let mut map: HashMap<u32, u32> = HashMap::new();
    for ins in linked.all_mut() {
        ins.map_ids(|id| {
            let next = map.len() as u32 + 1;
            *map.entry(id).or_insert(next)
        });
    }
    let bound = map.len() as u32 + 1;
    recompute_interfaces(&mut linked);

    let mut out = vec![0x0723_0203, linked.version, GENERATOR, bound, 0];
    for ins in linked.sections.iter().flatten() {
        out.extend(&ins.words);
    }
    out
}

fn recompute_interfaces(linked: &mut Linked) {
    let every_global = linked.version >= 0x0001_0400;
    // Global variables an interface may list, and each function's body.
    let vars: HashSet<u32> = linked
        .get(Section::TypesValues)
        .iter()
        .filter(|i| i.opcode() == 59 && i.words[3] != 7 && (every_global || matches!(i.words[3], 1 | 3)))
        .map(|i| i.words[2])
        .collect();
    let mut bodies: HashMap<u32, (usize, usize)> = HashMap::new();
    let funcs = linked.get(Section::Functions);
    let mut start = 0;
    for (k, ins) in funcs.iter().enumerate() {
        if ins.opcode() == 54 {
            start = k;
        } else if ins.opcode() == 56 {
            bodies.insert(funcs[start].words[2], (start, k));
        }
    }
    let summaries: HashMap<u32, Summary> =
        bodies.iter().map(|(&f, &(start, end))| (f, summarize(&funcs[start + 1..end], &vars))).collect();
    let mut entries = std::mem::take(linked.section(Section::EntryPoints));
    for entry in &mut entries {
        let (root, name_at) = if entry.opcode() == crate::grammar::op::OpConditionalEntryPointINTEL {
            (entry.words[3], 4)
        } else {
            (entry.words[2], 3)
        };
        let used = used_variables(&summaries, root);
        let first_iface = entry.ids.iter().map(|&p| p as usize).find(|&p| p > name_at).unwrap_or(entry.words.len());
        let old = &entry.words[first_iface..];
        let old_set: HashSet<u32> = old.iter().copied().collect();
        // Both are free of repeats with the lengths equal, so equal as sets
        // when one holds the other.
        let unchanged =
            old_set.len() == old.len() && old_set.len() == used.len() && used.iter().all(|v| old_set.contains(v));
        if unchanged {
            continue;
        }
        entry.words.truncate(first_iface);
        entry.ids.retain(|&p| (p as usize) < first_iface);
        for v in used {
            entry.ids.push(entry.words.len() as u16);
            entry.words.push(v);
        }
        entry.words[0] = (entry.words.len() as u32) << 16 | u32::from(entry.opcode());
    }
    *linked.section(Section::EntryPoints) = entries;
}

/// What one function's body contributes to an interface: the interface
/// variables it uses (each once, in order) and the functions it calls (in
/// order). Found once per function, so that entry points sharing a large
/// callee do not each rescan it.
struct Summary {
    vars: Vec<u32>,
    calls: Vec<u32>,
}

/// The summary of a function body (the instructions between `OpFunction`
/// and `OpFunctionEnd`): its blocks' instructions, parameters and labels
/// left out.
fn summarize(body: &[super::ir::Ins], vars: &HashSet<u32>) -> Summary {
    let mut summary = Summary { vars: Vec::new(), calls: Vec::new() };
    let mut seen = HashSet::new();
    let first_block = body.iter().position(|i| i.opcode() == 248).unwrap_or(body.len());
    for ins in &body[first_block..] {
        if ins.opcode() == 248 {
            continue;
        }
        for id in ins.used_ids() {
            if vars.contains(&id) && seen.insert(id) {
                summary.vars.push(id);
            }
        }
        if ins.opcode() == 57 {
            summary.calls.push(ins.words[3]);
        }
    }
    summary
}

/// The interface variables the call tree from `root` uses, in the order the
/// peer finds them: functions breadth first, instructions in order. (Within
/// a function, calls only queue functions, so taking its variables before
/// its calls keeps that order.)
fn used_variables(summaries: &HashMap<u32, Summary>, root: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut seen_vars = HashSet::new();
    let mut done = HashSet::new();
    let mut queue = VecDeque::from([root]);
    while let Some(f) = queue.pop_front() {
        if !done.insert(f) {
            continue;
        }
        let Some(summary) = summaries.get(&f) else { continue };
        for &id in &summary.vars {
            if seen_vars.insert(id) {
                found.push(id);
            }
        }
        queue.extend(&summary.calls);
    }
    found
}
