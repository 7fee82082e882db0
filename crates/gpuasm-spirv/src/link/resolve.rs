//! Import/export resolution (the peer's phases 5 to 9): pair each import
//! with its one export, check their types and decorations agree, point the
//! import's uses at the export and remove the import's declaration and the
//! linkage decorations an executable no longer needs.

use super::ir::{is_decoration, string_at, Ins, Linked, Section};
use super::{LinkError, LinkOptions};
use std::collections::{HashMap, HashSet};

const LINKAGE_ATTRIBUTES: u32 = 41;
const BUILT_IN: u32 = 11;
const EXPORT: u32 = 0;
const IMPORT: u32 = 1;
const LINK_ONCE_ODR: u32 = 2;

#[derive(Clone)]
struct Symbol {
    id: u32,
    type_id: u32,
    name: String,
    params: Vec<u32>,
}

/// The global values and functions in layout order, and where each id's
/// first definition sits among them: built once, so that finding the
/// definition of each of thousands of linkage symbols is a lookup.
struct Definitions<'l> {
    all: Vec<&'l Ins>,
    at: HashMap<u32, usize>,
}

impl<'l> Definitions<'l> {
    fn new(linked: &'l Linked) -> Definitions<'l> {
        let all: Vec<&Ins> = linked.get(Section::TypesValues).iter().chain(linked.get(Section::Functions)).collect();
        let mut at = HashMap::with_capacity(all.len());
        for (k, ins) in all.iter().enumerate() {
            if let Some(id) = ins.result_id() {
                at.entry(id).or_insert(k);
            }
        }
        Definitions { all, at }
    }
}

fn symbol(defs: &Definitions, id: u32, name: String) -> Result<Symbol, LinkError> {
    let all = &defs.all;
    let Some(&at) = defs.at.get(&id) else {
        return Err(LinkError::new(format!("ID {id} is never defined:\n")));
    };
    let ins = all[at];
    match ins.opcode() {
        59 => Ok(Symbol { id, type_id: ins.words[1], name, params: Vec::new() }),
        54 => {
            let params = all[at + 1..]
                .iter()
                .take_while(|i| i.opcode() == 55 || i.opcode() == 8 || i.opcode() == 317)
                .filter(|i| i.opcode() == 55)
                .filter_map(|i| i.result_id())
                .collect();
            Ok(Symbol { id, type_id: ins.words[4], name, params })
        }
        _ => Err(LinkError::new(format!(
            "Only global variables and functions can be decorated using LinkageAttributes; {id} is neither of them.\n"
        ))),
    }
}

pub(super) fn link_symbols(linked: &mut Linked, options: &LinkOptions) -> Result<(), LinkError> {
    let built_ins: HashSet<u32> = linked
        .get(Section::Annotations)
        .iter()
        .filter(|d| d.opcode() == 71 && d.words[2] == BUILT_IN)
        .map(|d| d.words[1])
        .collect();
    let mut imports = Vec::new();
    let mut exports: HashMap<String, Vec<Symbol>> = HashMap::new();
    let mut link_once: Vec<Symbol> = Vec::new();
    // The LinkOnceODR names kept so far (the first of each name is).
    let mut link_once_names: HashSet<String> = HashSet::new();
    let decorations: Vec<(u32, String, u32)> = linked
        .get(Section::Annotations)
        .iter()
        .filter(|d| d.opcode() == 71 && d.words[2] == LINKAGE_ATTRIBUTES && !built_ins.contains(&d.words[1]))
        .map(|d| {
            let (name, n) = string_at(&d.words[3..]);
            (d.words[1], name, d.words.get(3 + n).copied().unwrap_or(u32::MAX))
        })
        .collect();
    let defs = Definitions::new(linked);
    for (id, name, kind) in decorations {
        let s = symbol(&defs, id, name).map_err(|mut e| {
            e.notes.push(linked.origin(id));
            e
        })?;
        match kind {
            IMPORT => imports.push(s),
            EXPORT => exports.entry(s.name.clone()).or_default().push(s),
            LINK_ONCE_ODR if link_once_names.insert(s.name.clone()) => link_once.push(s),
            _ => {}
        }
    }
    for s in link_once {
        if exports.contains_key(&s.name) {
            return Err(LinkError::new(format!(
                "Combination of Export and LinkOnceODR is not allowed, found for \"{}\".",
                s.name
            )));
        }
        exports.insert(s.name.clone(), vec![s]);
    }

    let mut pairs: Vec<(Symbol, Symbol)> = Vec::new();
    for import in imports {
        let found = exports.get(&import.name).map_or(&[][..], |v| v.as_slice());
        if found.is_empty() && !options.allow_partial_linkage {
            let mut e = LinkError::new(format!("Unresolved external reference to \"{}\".", import.name));
            e.notes.push(format!("imported: {}", linked.origin(import.id)));
            return Err(e);
        }
        if found.len() > 1 {
            let mut e = LinkError::new(format!(
                "Too many external references, {}, were found for \"{}\".",
                found.len(),
                import.name
            ));
            e.notes.extend(found.iter().map(|s| format!("exported: {}", linked.origin(s.id))));
            return Err(e);
        }
        if let Some(export) = found.first() {
            pairs.push((import, export.clone()));
        }
    }

    check_compatibility(linked, &pairs, options)?;

    // Names and decorations of the imports and their parameters go.
    let mut dead = Vec::new();
    for (import, _) in &pairs {
        dead.push(import.id);
        dead.extend(&import.params);
    }
    linked.kill_names_and_decorations(&dead);
    let map: HashMap<u32, u32> = pairs.iter().map(|(i, e)| (i.id, e.id)).collect();
    linked.replace_uses_by(&map);

    // The imported function prototypes and variable declarations go.
    let imported: HashSet<u32> = pairs.iter().map(|(i, _)| i.id).collect();
    let functions = std::mem::take(linked.section(Section::Functions));
    let mut keep = true;
    for ins in functions {
        if ins.opcode() == 54 {
            keep = !ins.result_id().is_some_and(|r| imported.contains(&r));
        }
        let end = ins.opcode() == 56;
        if keep {
            linked.section(Section::Functions).push(ins);
        }
        if end {
            keep = true;
        }
    }
    linked.section(Section::TypesValues).retain(|i| !i.result_id().is_some_and(|r| imported.contains(&r)));

    let exported: HashSet<u32> = pairs.iter().map(|(_, e)| e.id).collect();
    let partial = options.allow_partial_linkage;
    let library = options.create_library;
    linked.section(Section::Annotations).retain(|d| {
        if d.opcode() != 71 || d.words[2] != LINKAGE_ATTRIBUTES {
            return true;
        }
        let kind = *d.words.last().unwrap_or(&u32::MAX);
        if kind == IMPORT && (!partial || exported.contains(&d.words[1])) {
            return false;
        }
        !(!library && (kind == EXPORT || kind == LINK_ONCE_ODR))
    });
    if options.allow_pointer_mismatch {
        cast_pointer_arguments(linked, &pairs);
    }
    if !library && !partial {
        let caps = linked.section(Section::Capabilities);
        if let Some(at) = caps.iter().position(|c| c.opcode() == 17 && c.words[1] == 5) {
            caps.remove(at);
        }
    }
    Ok(())
}

fn check_compatibility(linked: &Linked, pairs: &[(Symbol, Symbol)], options: &LinkOptions) -> Result<(), LinkError> {
    // Each type's first definition, looked up once per pair.
    let mut types: HashMap<u32, &Ins> = HashMap::new();
    for ins in linked.get(Section::TypesValues) {
        if let Some(id) = ins.result_id() {
            types.entry(id).or_insert(ins);
        }
    }
    let def = |id: u32| types.get(&id).copied();
    let mismatch = |what: &str, i: &Symbol, e: &Symbol| {
        let mut err = LinkError::new(format!(
            "{what} mismatch on symbol \"{}\" between imported variable/function %{} and exported variable/function %{}.",
            i.name, i.id, e.id
        ));
        err.notes.push(format!("imported: {}", linked.origin(i.id)));
        err.notes.push(format!("exported: {}", linked.origin(e.id)));
        err
    };
    for (i, e) in pairs {
        if i.type_id == e.type_id {
            continue;
        }
        if options.allow_pointer_mismatch {
            if let (Some(a), Some(b)) = (def(i.type_id), def(e.type_id)) {
                if a.opcode() == 33 && b.opcode() == 33 && a.words.len() == b.words.len() {
                    let is_ptr = |t: u32| def(t).is_some_and(|d| d.opcode() == 32);
                    let ok = a.words[3..].iter().zip(&b.words[3..]).all(|(&x, &y)| x == y || (is_ptr(x) && is_ptr(y)));
                    if ok {
                        continue;
                    }
                }
            }
        }
        return Err(mismatch("Type", i, e));
    }
    let by_target = decorations_by_target(linked);
    let decos = |id: u32| {
        let mut v: Vec<Vec<u32>> = by_target.get(&id).cloned().unwrap_or_default();
        v.sort();
        v.dedup();
        v
    };
    for (i, e) in pairs {
        if decos(i.id) != decos(e.id) {
            return Err(mismatch("Decorations", i, e));
        }
    }
    Ok(())
}

/// Each id's decorations but its linkage attributes, as (opcode, operands
/// after the target), in one pass: a pass per imported symbol would cost
/// the product of their number and the annotations'.
fn decorations_by_target(linked: &Linked) -> HashMap<u32, Vec<Vec<u32>>> {
    let mut by_target: HashMap<u32, Vec<Vec<u32>>> = HashMap::new();
    for d in linked.get(Section::Annotations) {
        if is_decoration(d.opcode()) && !(d.opcode() == 71 && d.words[2] == LINKAGE_ATTRIBUTES) {
            let mut w = vec![d.opcode() as u32];
            w.extend(&d.words[2..]);
            by_target.entry(d.words[1]).or_default().push(w);
        }
    }
    by_target
}

/// Casts the pointer arguments of calls to an export whose parameter has
/// another pointer type (`--allow-pointer-mismatch`), as the peer's
/// `FixFunctionCallTypes`: an `OpBitcast` before the call, on a new id.
fn cast_pointer_arguments(linked: &mut Linked, pairs: &[(Symbol, Symbol)]) {
    let mut params: HashMap<u32, &[u32]> = HashMap::new();
    for (_, e) in pairs {
        params.entry(e.id).or_insert(&e.params);
    }
    let mut type_of: HashMap<u32, u32> = HashMap::new();
    let mut pointers: HashSet<u32> = HashSet::new();
    for ins in linked.get(Section::TypesValues).iter().chain(linked.get(Section::Functions)) {
        if let (Some(t), Some(r)) = (ins.result_type, ins.result_id()) {
            type_of.insert(r, ins.words[t as usize]);
        }
        if ins.opcode() == 32 {
            pointers.extend(ins.result_id());
        }
    }
    let functions = std::mem::take(linked.section(Section::Functions));
    let mut out = Vec::with_capacity(functions.len());
    for mut ins in functions {
        if ins.opcode() == 57 {
            if let Some(ps) = params.get(&ins.words[3]) {
                for (k, &param) in ps.iter().enumerate() {
                    let Some(&want) = type_of.get(&param) else { continue };
                    let Some(arg) = ins.words.get(4 + k).copied() else { continue };
                    if !pointers.contains(&want) || type_of.get(&arg) == Some(&want) {
                        continue;
                    }
                    let id = linked.bound;
                    linked.bound += 1;
                    out.push(Ins {
                        words: vec![4 << 16 | 124, want, id, arg],
                        ids: vec![1, 2, 3],
                        result: Some(2),
                        result_type: Some(1),
                    });
                    ins.words[4 + k] = id;
                }
            }
        }
        out.push(ins);
    }
    *linked.section(Section::Functions) = out;
}
