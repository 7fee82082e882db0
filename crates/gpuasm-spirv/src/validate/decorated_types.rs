//! Type declarations that their decorations make invalid, as spirv-val's
//! type pass checks them: a Block or BufferBlock structure nested in
//! another, a structure with BuiltIn members inside another structure, and
//! an ArrayStride on an array of blocks (shaders only).

use super::decorations::{decorations, Applied};
use super::module::Module;
use super::{ErrorKind, Report};
use crate::grammar::{capability, decoration as d, op};
use rustc_hash::FxHashMap;

pub(crate) fn check(m: &Module, r: &mut Report) {
    let decs = decorations(m);
    let has = |id: u32, dec: u32| decs.get(&id).is_some_and(|v: &Vec<Applied>| v.iter().any(|a| a.0 == dec));
    let block = |id: u32| has(id, d::Block) || has(id, d::BufferBlock);
    let shader = super::capabilities::with_implied(m).contains(&capability::Shader);
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        let id = inst.result_id;
        match inst.opcode() {
            op::OpTypeStruct => {
                let members: Vec<u32> = (1..m.operands(i).len()).map(|k| m.word(i, k)).collect();
                for &member in &members {
                    let built_in_members =
                        decs.get(&member).is_some_and(|v| v.iter().any(|a| a.0 == d::BuiltIn && a.1 != -1));
                    if m.def_opcode(member) == Some(op::OpTypeStruct) && built_in_members {
                        let (inner, outer) = (r.id(member), r.id(id));
                        r.error(
                            ErrorKind::Decoration,
                            i,
                            format!(
                                "Structure <id> {inner} contains members with BuiltIn decoration. Therefore this \
                                 structure may not be contained as a member of another structure type. Structure \
                                 <id> {outer} contains structure <id> {inner}."
                            ),
                        );
                        return;
                    }
                }
                let mut memo = FxHashMap::default();
                if block(id) && members.iter().any(|&t| contains_block(m, &block, t, &mut memo, 0)) {
                    r.error(
                        ErrorKind::Decoration,
                        i,
                        "rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. ",
                    );
                    return;
                }
            }
            op::OpTypeArray | op::OpTypeRuntimeArray if shader => {
                let element = m.word(i, 1);
                if m.def_opcode(element) == Some(op::OpTypeStruct) && block(element) && has(id, d::ArrayStride) {
                    r.error(
                        ErrorKind::Decoration,
                        i,
                        "Array containing a Block or BufferBlock must not be decorated with ArrayStride",
                    );
                    return;
                }
            }
            op::OpFunction => return,
            _ => {}
        }
    }
}

/// Whether `ty` is or holds (through arrays, vectors, matrices and
/// structure members, not pointers) a Block or BufferBlock structure.
fn contains_block(
    m: &Module,
    block: &dyn Fn(u32) -> bool,
    ty: u32,
    memo: &mut FxHashMap<u32, bool>,
    depth: u32,
) -> bool {
    if depth > 64 {
        return false;
    }
    if let Some(&known) = memo.get(&ty) {
        return known;
    }
    let found = match m.def_opcode(ty) {
        Some(op::OpTypeStruct) => {
            block(ty)
                || (2..=m.operands_len_of(ty))
                    .filter_map(|w| m.def_word(ty, w))
                    .any(|t| contains_block(m, block, t, memo, depth + 1))
        }
        Some(op::OpTypeArray | op::OpTypeRuntimeArray | op::OpTypeVector | op::OpTypeMatrix) => {
            contains_block(m, block, m.def_word(ty, 2).unwrap_or(0), memo, depth + 1)
        }
        _ => false,
    };
    memo.insert(ty, found);
    found
}
