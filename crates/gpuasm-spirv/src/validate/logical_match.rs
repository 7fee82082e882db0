//! Before HLSL legalization a call may pass a pointer to a type that only
//! logically matches the parameter's pointee (spirv-val's
//! `DoPointeesLogicallyMatch`): spirv-opt's legalization copies the object
//! into the parameter's type.

use crate::grammar::op;
use crate::module::decorations::Applied;
use crate::module::Module;
use rustc_hash::FxHashMap;

/// Pointer types `arg` and `param` whose pointees logically match, every
/// decoration of the parameter's side also on the argument's.
pub(super) fn pointees_match(m: &Module, arg: u32, param: u32) -> bool {
    let pointers = m.def_opcode(arg) == Some(op::OpTypePointer) && m.def_opcode(param) == Some(op::OpTypePointer);
    if !pointers {
        return false;
    }
    let decs = m.decorations();
    if !decorated_alike(decs, arg, param) {
        return false;
    }
    let (a, b) = (m.def_word(arg, 3).unwrap_or(0), m.def_word(param, 3).unwrap_or(0));
    a == b || logically_match(m, decs, a, b, 0)
}

/// `b`'s decorations are all `a`'s too.
fn decorated_alike(decs: &FxHashMap<u32, Vec<Applied>>, a: u32, b: u32) -> bool {
    let of = |id: u32| decs.get(&id).map_or(&[][..], |v| v.as_slice());
    of(b).iter().all(|d| of(a).contains(d))
}

/// Arrays of the same length id or structs of as many members whose parts
/// are the same type or logically match, decorated alike.
fn logically_match(m: &Module, decs: &FxHashMap<u32, Vec<Applied>>, a: u32, b: u32, depth: u32) -> bool {
    let opcode = m.def_opcode(a);
    if depth > 64 || opcode != m.def_opcode(b) || !decorated_alike(decs, a, b) {
        return false;
    }
    let part = |x: Option<u32>, y: Option<u32>| match (x, y) {
        (Some(x), Some(y)) => x == y || logically_match(m, decs, x, y, depth + 1),
        _ => false,
    };
    match opcode {
        Some(op::OpTypeArray) => m.def_word(a, 3) == m.def_word(b, 3) && part(m.def_word(a, 2), m.def_word(b, 2)),
        Some(op::OpTypeStruct) => {
            let n = m.operands_len_of(a);
            n == m.operands_len_of(b) && (2..=n).all(|w| part(m.def_word(a, w), m.def_word(b, w)))
        }
        _ => false,
    }
}
