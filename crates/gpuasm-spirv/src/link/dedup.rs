//! Duplicate removal over the merged module, as the peer's
//! `RemoveDuplicatesPass`: capabilities, extensions and extended
//! instruction imports by value, types by structure (decorations
//! included, names not) and forward pointers by the type they announce,
//! then decorations that became identical.

use super::ir::{is_decoration, string_at, Ins, Linked, Section};
use std::collections::{HashMap, HashSet};

pub(super) fn remove_duplicates(linked: &mut Linked) {
    let mut seen = HashSet::new();
    linked.section(Section::Capabilities).retain(|i| seen.insert(i.words[1..].to_vec()));
    let mut seen = HashSet::new();
    linked.section(Section::Extensions).retain(|i| seen.insert(i.words[1..].to_vec()));

    let mut first: HashMap<String, u32> = HashMap::new();
    let mut replaced = Vec::new();
    linked.section(Section::ExtInstImports).retain(|i| {
        let id = i.words[1];
        let (name, _) = string_at(&i.words[2..]);
        match first.get(&name) {
            Some(&keep) => {
                replaced.push((id, keep));
                false
            }
            None => {
                first.insert(name, id);
                true
            }
        }
    });
    // One pass for all: the kept imports are never replaced, so the
    // replacements do not chain.
    if !replaced.is_empty() {
        linked.replace_uses_by(&replaced.into_iter().collect());
    }

    remove_duplicate_types(linked);

    let mut seen = HashSet::new();
    linked.section(Section::Annotations).retain(|i| !is_decoration(i.opcode()) || seen.insert(i.words.clone()));
}

/// Whether `opcode` declares a type (OpTypeForwardPointer does not).
fn is_type(opcode: u16) -> bool {
    matches!(opcode, 19..=38 | 322 | 327 | 4456 | 4472 | 5281 | 5341 | 5358 | 6086 | 6090) && opcode != 39
}

/// A type's structure: its opcode, its operands with type ids replaced by
/// their surviving equal, array lengths by value, and its decorations.
fn type_key(ins: &Ins, canon: &HashMap<u32, u32>, consts: &HashMap<u32, Vec<u32>>, decos: &[Vec<u32>]) -> Vec<u32> {
    let mut key = vec![ins.words[0]];
    // Which words are ids, without a search per word (a structure may have
    // thousands of members).
    let mut is_id = vec![false; ins.words.len()];
    for &p in &ins.ids {
        if let Some(slot) = is_id.get_mut(p as usize) {
            *slot = true;
        }
    }
    for (p, &w) in ins.words.iter().enumerate().skip(1) {
        if Some(p as u16) == ins.result {
            continue;
        }
        if is_id[p] {
            if let Some(c) = canon.get(&w) {
                key.extend([0, *c]);
            } else if let Some(v) = consts.get(&w) {
                key.push(1);
                key.extend(v);
                key.push(u32::MAX);
            } else {
                key.extend([2, w]);
            }
        } else {
            key.push(w);
        }
    }
    let mut decos = decos.to_vec();
    decos.sort();
    for d in decos {
        key.push(u32::MAX - 1);
        key.extend(d);
    }
    key
}

fn remove_duplicate_types(linked: &mut Linked) {
    // Decorations by target, without opcode word count or target.
    let mut decos: HashMap<u32, Vec<Vec<u32>>> = HashMap::new();
    for d in linked.get(Section::Annotations) {
        if is_decoration(d.opcode()) {
            let mut v = vec![d.words[0] & 0xffff];
            v.extend(&d.words[2..]);
            decos.entry(d.words[1]).or_default().push(v);
        }
    }
    let mut consts: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut canon: HashMap<u32, u32> = HashMap::new();
    let mut kept: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut dups = Vec::new();
    for ins in linked.get(Section::TypesValues) {
        let op = ins.opcode();
        if matches!(op, 43 | 50) {
            // A constant's value for array lengths: its type's survivor and words.
            let mut v = vec![canon.get(&ins.words[1]).copied().unwrap_or(ins.words[1])];
            v.extend(&ins.words[3..]);
            consts.insert(ins.words[2], v);
            continue;
        }
        if !is_type(op) {
            continue;
        }
        let Some(id) = ins.result_id() else { continue };
        let key = type_key(ins, &canon, &consts, decos.get(&id).map_or(&[], |v| v));
        match kept.get(&key) {
            Some(&keep) => {
                canon.insert(id, keep);
                dups.push((id, keep));
            }
            None => {
                kept.insert(key, id);
                canon.insert(id, id);
            }
        }
    }
    // A forward pointer repeats another when their storage classes match
    // and their pointer types are equal: the peer compares the pointer types
    // by structure, which here is their surviving equal.
    let mut seen = HashSet::new();
    linked.section(Section::TypesValues).retain(|i| {
        i.opcode() != 39 || i.words.len() < 3 || {
            let target = i.words[1];
            seen.insert((canon.get(&target).copied().unwrap_or(target), i.words[2]))
        }
    });
    if dups.is_empty() {
        return;
    }
    let gone: HashSet<u32> = dups.iter().map(|d| d.0).collect();
    linked.kill_names_and_decorations(&dups.iter().map(|d| d.0).collect::<Vec<_>>());
    let map: HashMap<u32, u32> = dups.into_iter().collect();
    linked.replace_uses_by(&map);
    linked
        .section(Section::TypesValues)
        .retain(|i| i.result_id().is_none_or(|r| !gone.contains(&r) || !is_type(i.opcode())));
}
