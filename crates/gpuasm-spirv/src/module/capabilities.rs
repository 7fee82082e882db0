//! Implied capabilities: a capability declares every capability it
//! depends on in the grammar, recursively. Computed once as the module is
//! read, since most validation passes ask.

use crate::grammar::OperandKind;
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
