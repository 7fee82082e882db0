//! Explicit layout of interface blocks: a Block or BufferBlock struct used
//! by a Uniform, StorageBuffer or PushConstant variable gives every member
//! an Offset, every array member an ArrayStride, every matrix member a
//! MatrixStride and a RowMajor or ColMajor, nested structs included
//! (spec 2.16.2, as spirv-val checks it in every environment).
//!
//! The offsets themselves (the std140/std430 rules of Vulkan) are not
//! checked yet.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{decoration, op, storage_class};
use rustc_hash::{FxHashMap, FxHashSet};

/// Decorations by target: whole-id ones, and (member, decoration, first
/// parameter) for struct members.
#[derive(Default)]
struct Decorations {
    on_id: FxHashMap<u32, Vec<u32>>,
    on_member: FxHashMap<u32, Vec<(u32, u32, Option<u32>)>>,
}

impl Decorations {
    fn read(m: &Module) -> Self {
        let mut d = Decorations::default();
        for i in 0..m.insts.len() {
            match m.insts[i].opcode() {
                op::OpDecorate => d.on_id.entry(m.word(i, 0)).or_default().push(m.word(i, 1)),
                op::OpMemberDecorate => {
                    let param = (m.operands(i).len() > 3).then(|| m.word(i, 3));
                    d.on_member.entry(m.word(i, 0)).or_default().push((m.word(i, 1), m.word(i, 2), param));
                }
                _ => {}
            }
        }
        d
    }

    fn has(&self, id: u32, dec: u32) -> bool {
        self.on_id.get(&id).is_some_and(|v| v.contains(&dec))
    }

    fn member_has(&self, id: u32, member: usize, dec: impl Fn(u32) -> bool) -> bool {
        self.on_member.get(&id).is_some_and(|v| v.iter().any(|&(k, d, _)| k as usize == member && dec(d)))
    }
}

fn members(m: &Module, id: u32) -> Vec<u32> {
    match m.def(id) {
        Some(s) if s.opcode() == op::OpTypeStruct => {
            let i = m.defs[&id];
            (1..m.operands(i).len()).map(|k| m.word(i, k)).collect()
        }
        _ => Vec::new(),
    }
}

/// A member (or nested member) without an Offset.
fn missing_offset(m: &Module, d: &Decorations, id: u32, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    let (inner, all_set) = match m.def_opcode(id) {
        Some(op::OpTypeStruct) => {
            let inner = members(m, id);
            let decs = d.on_member.get(&id);
            if decs.is_some_and(|v| v.iter().any(|&(_, dec, p)| dec == decoration::Offset && p == Some(u32::MAX))) {
                return true;
            }
            let all = (0..inner.len()).all(|k| d.member_has(id, k, |dec| dec == decoration::Offset));
            (inner, all)
        }
        Some(op::OpTypeArray | op::OpTypeRuntimeArray) => (m.def_word(id, 2).into_iter().collect(), true),
        _ => return false,
    };
    !all_set || inner.iter().any(|&x| missing_offset(m, d, x, depth + 1))
}

/// Every member of type `kind` (matrices seen through arrays) carries a
/// decoration `dec` accepts, on its type or as a member decoration; nested
/// struct members likewise.
fn has_required(m: &Module, d: &Decorations, id: u32, kind: u16, dec: &dyn Fn(u32) -> bool, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    let inner = members(m, id);
    for (k, &member) in inner.iter().enumerate() {
        let mut ty = member;
        if kind == op::OpTypeMatrix {
            let mut guard = 0;
            while matches!(m.def_opcode(ty), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) && guard < 64 {
                ty = m.def_word(ty, 2).unwrap_or(0);
                guard += 1;
            }
        }
        if m.def_opcode(ty) != Some(kind) {
            continue;
        }
        let on_type = d.on_id.get(&ty).is_some_and(|v| v.iter().any(|&x| dec(x)));
        if !on_type && !d.member_has(id, k, dec) {
            return false;
        }
    }
    inner
        .iter()
        .filter(|&&x| m.def_opcode(x) == Some(op::OpTypeStruct))
        .all(|&x| has_required(m, d, x, kind, dec, depth + 1))
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    // Decoration groups are not followed: leave such modules alone rather
    // than miss a decoration they apply.
    if m.insts.iter().any(|i| i.opcode() == op::OpDecorationGroup) {
        return;
    }
    let d = Decorations::read(m);
    let mut done = FxHashSet::default();
    for i in 0..m.insts.len() {
        if m.insts[i].opcode() != op::OpVariable {
            continue;
        }
        let class = m.word(i, 2);
        if !matches!(class, storage_class::Uniform | storage_class::StorageBuffer | storage_class::PushConstant) {
            continue;
        }
        let ptr = m.insts[i].result_type;
        if m.def_opcode(ptr) != Some(op::OpTypePointer) {
            continue;
        }
        let Some(mut id) = m.def_word(ptr, 3) else { continue };
        if matches!(m.def_opcode(id), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
            id = m.def_word(id, 2).unwrap_or(0);
        }
        if m.def_opcode(id) != Some(op::OpTypeStruct) || !done.insert(id) {
            continue;
        }
        let deco = if d.has(id, decoration::Block) {
            "Block"
        } else if d.has(id, decoration::BufferBlock) {
            "BufferBlock"
        } else {
            continue;
        };
        let missing = if missing_offset(m, &d, id, 0) {
            "Offset"
        } else if !has_required(m, &d, id, op::OpTypeArray, &|x| x == decoration::ArrayStride, 0) {
            "ArrayStride"
        } else if !has_required(m, &d, id, op::OpTypeMatrix, &|x| x == decoration::MatrixStride, 0) {
            "MatrixStride"
        } else if !has_required(
            m,
            &d,
            id,
            op::OpTypeMatrix,
            &|x| x == decoration::RowMajor || x == decoration::ColMajor,
            0,
        ) {
            "RowMajor or ColMajor"
        } else {
            continue;
        };
        r.error(
            ErrorKind::Decoration,
            m.defs[&id],
            format!("Structure id {id} decorated as {deco} must be explicitly laid out with {missing} decorations."),
        );
        return;
    }
}
