//! OpStore of an object whose type is not the pointer's pointee type: an
//! error, unless `--relax-struct-store` is given and both are structs of
//! the same layout (spirv-val's `AreLayoutCompatibleStructs`).

use super::Report;
use crate::grammar::{decoration, op};
use crate::module::decorations::Applied;
use crate::module::Module;
use rustc_hash::FxHashMap;

/// What spirv-val says of storing `object` through `ptr`, whose pointee
/// type differs from the object's type.
pub(super) fn mismatch(m: &Module, r: &mut Report, ptr: u32, object: u32) -> Option<String> {
    let pointee = m.def_word(m.type_of(ptr), 3).unwrap_or(0);
    let object_type = m.type_of(object);
    let structs = [pointee, object_type].iter().all(|&t| m.def_opcode(t) == Some(op::OpTypeStruct));
    if !r.options.relax_struct_store || !structs {
        let (p, o) = (r.id(ptr), r.id(object));
        return Some(format!("OpStore Pointer <id> {p}s type does not match Object <id> {o}s type."));
    }
    if !layout_compatible(m, m.decorations(), pointee, object_type, 0) {
        let (p, o) = (r.id(ptr), r.id(object));
        return Some(format!("OpStore Pointer <id> {p}s layout does not match Object <id> {o}s layout."));
    }
    None
}

/// Two structs of as many members, each the same type or a compatible
/// struct, whose Offset decorations agree wherever both have one. As in
/// spirv-val, the last member's type is not compared (its loop stops one
/// member short) and arrays or matrices must be the same type.
fn layout_compatible(m: &Module, decs: &FxHashMap<u32, Vec<Applied>>, a: u32, b: u32, depth: u32) -> bool {
    let structs = m.def_opcode(a) == Some(op::OpTypeStruct) && m.def_opcode(b) == Some(op::OpTypeStruct);
    let n = m.operands_len_of(a);
    if depth > 64 || !structs || n != m.operands_len_of(b) {
        return false;
    }
    // Operands 1..n-1 are the members; spirv-val compares words 2..n-1.
    let members_match = (2..n).all(|w| {
        let (x, y) = (m.def_word(a, w).unwrap_or(0), m.def_word(b, w).unwrap_or(0));
        x == y || layout_compatible(m, decs, x, y, depth + 1)
    });
    members_match && !conflicting_offsets(decs, a, b)
}

/// Some member has an Offset in both structs, and they differ.
fn conflicting_offsets(decs: &FxHashMap<u32, Vec<Applied>>, a: u32, b: u32) -> bool {
    let offsets = |id: u32| -> Vec<(i64, u32)> {
        decs.get(&id)
            .into_iter()
            .flatten()
            .filter(|d| d.0 == decoration::Offset && d.1 >= 0)
            .map(|d| (d.1, d.2.first().copied().unwrap_or(0)))
            .collect()
    };
    let of_b = offsets(b);
    offsets(a)
        .iter()
        .any(|&(member, offset)| of_b.iter().find(|&&(k, _)| k == member).is_some_and(|&(_, other)| other != offset))
}
