//! Implied capabilities: a capability declares every capability it
//! depends on in the grammar, recursively. Computed once as the module is
//! read, since most validation passes ask.

use super::Module;
use crate::binary::literal_string_bytes;
use crate::grammar::{op, OperandKind};
use rustc_hash::FxHashSet;

/// The declared capabilities and every one they imply.
pub(crate) fn implied_by(declared: &FxHashSet<u32>) -> FxHashSet<u32> {
    let mut caps = FxHashSet::default();
    for &c in declared {
        declare(&mut caps, c);
    }
    caps
}

/// Adds `cap` and every capability it implies.
pub(crate) fn declare(caps: &mut FxHashSet<u32>, cap: u32) {
    if !caps.insert(cap) {
        return;
    }
    // A capability implicitly declares the ones it depends on.
    if let Some(e) = OperandKind::Capability.enumerant(cap) {
        for &c in e.capabilities {
            declare(caps, c);
        }
    }
}

/// The names of the declared extensions (layout puts them first).
pub(crate) fn declared_extensions<'m>(m: &'m Module) -> FxHashSet<&'m [u8]> {
    let mut extensions = FxHashSet::default();
    for i in 0..m.insts.len() {
        // OpConditionalExtensionINTEL (SPV_INTEL_function_variants) declares
        // its extension too.
        let k = match m.opcode(i) {
            op::OpCapability | op::OpConditionalCapabilityINTEL => continue,
            op::OpExtension => 0,
            op::OpConditionalExtensionINTEL => 1,
            _ => break,
        };
        let o = m.operands(i)[k];
        let start = m.insts[i].offset as usize + o.offset as usize;
        extensions.insert(literal_string_bytes(&m.words[start..start + o.num_words as usize]));
    }
    extensions
}

/// The declared capabilities with the ones they implicitly declare.
pub(crate) fn with_implied<'m>(m: &'m Module) -> &'m FxHashSet<u32> {
    &m.capabilities
}
