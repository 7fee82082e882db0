//! Two OpEntryPoint instructions may not give the same name to the same
//! execution model (spec 2.16.1; spirv-val checks it as it registers entry
//! points, before any other rule of theirs). OpConditionalEntryPointINTEL
//! may repeat one.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::binary::literal_string_bytes;
use crate::grammar::op;
use rustc_hash::FxHashSet;

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut seen: FxHashSet<(u32, &[u8])> = FxHashSet::default();
    for i in 0..m.insts.len() {
        if m.insts[i].opcode() != op::OpEntryPoint {
            continue;
        }
        let o = m.operands(i)[2];
        let start = m.insts[i].offset + o.offset as usize;
        let name = literal_string_bytes(&m.words[start..start + o.num_words as usize]);
        if !seen.insert((m.word(i, 0), name)) {
            r.error(ErrorKind::EntryPoint, i, "2 Entry points cannot share the same name and ExecutionMode.");
            return;
        }
    }
}
