//! Sets of opcodes with constant-time membership: the tables rule families
//! are keyed by (atomics, barriers, image instructions...) are tested for
//! every instruction of a module, where a list search would cost a scan.

use crate::grammar::INSTRUCTIONS;

/// A set of opcodes, one bit each.
#[derive(Clone)]
pub(crate) struct OpcodeSet([u64; 1024]);

impl OpcodeSet {
    /// The set of `opcodes`, at compile time.
    pub const fn new(opcodes: &[u16]) -> OpcodeSet {
        let mut bits = [0u64; 1024];
        let mut k = 0;
        while k < opcodes.len() {
            bits[(opcodes[k] >> 6) as usize] |= 1 << (opcodes[k] & 63);
            k += 1;
        }
        OpcodeSet(bits)
    }

    /// The set with `opcode` added, at compile time.
    pub const fn with(mut self, opcode: u16) -> OpcodeSet {
        self.0[(opcode >> 6) as usize] |= 1 << (opcode & 63);
        self
    }

    /// The core instructions whose names (`Op...`) start with one of
    /// `prefixes` or contain one of `parts`, at compile time.
    pub const fn named(prefixes: &[&str], parts: &[&str]) -> OpcodeSet {
        let mut set = OpcodeSet::new(&[]);
        let mut k = 0;
        while k < INSTRUCTIONS.len() {
            let name = INSTRUCTIONS[k].name.as_bytes();
            if any_at(name, prefixes, false) || any_at(name, parts, true) {
                set = set.with(INSTRUCTIONS[k].opcode);
            }
            k += 1;
        }
        set
    }

    /// Adds `opcode`.
    pub fn insert(&mut self, opcode: u16) {
        self.0[(opcode >> 6) as usize] |= 1 << (opcode & 63);
    }

    /// Whether `opcode` is in the set.
    #[inline]
    pub fn contains(&self, opcode: u16) -> bool {
        self.0[(opcode >> 6) as usize] & (1 << (opcode & 63)) != 0
    }

    /// Whether the two sets share an opcode.
    pub fn intersects(&self, other: &OpcodeSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// The opcodes in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        // Set bits only (a walk over all 65,536 was a fifth of validating a
        // small module).
        self.0.iter().enumerate().filter(|(_, &bits)| bits != 0).flat_map(|(w, &bits)| {
            std::iter::successors(Some(bits), |&b| Some(b & b.wrapping_sub(1)))
                .take_while(|&b| b != 0)
                .map(move |b| (w * 64 + b.trailing_zeros() as usize) as u16)
        })
    }
}

/// Whether `name` starts with (or, `anywhere`, contains) one of `patterns`.
const fn any_at(name: &[u8], patterns: &[&str], anywhere: bool) -> bool {
    let mut p = 0;
    while p < patterns.len() {
        let pattern = patterns[p].as_bytes();
        let mut at = 0;
        while at + pattern.len() <= name.len() {
            let mut k = 0;
            while k < pattern.len() && name[at + k] == pattern[k] {
                k += 1;
            }
            if k == pattern.len() {
                return true;
            }
            if !anywhere {
                break;
            }
            at += 1;
        }
        p += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::OpcodeSet;

    #[test]
    fn iterates_its_opcodes_in_order() {
        let set = OpcodeSet::new(&[700, 3, 64, 63]);
        assert_eq!(set.iter().collect::<Vec<_>>(), [3, 63, 64, 700]);
    }

    #[test]
    fn holds_exactly_its_opcodes() {
        const SET: OpcodeSet = OpcodeSet::new(&[0, 63, 64, 4455, u16::MAX]);
        for op in 0..=u16::MAX {
            assert_eq!(SET.contains(op), [0, 63, 64, 4455, u16::MAX].contains(&op), "{op}");
        }
        let mut other = OpcodeSet::new(&[1]);
        assert!(!SET.intersects(&other));
        other.insert(4455);
        assert!(SET.intersects(&other));
    }

    #[test]
    fn names_select_by_prefix_or_part() {
        const SET: OpcodeSet = OpcodeSet::named(&["OpAtomicI"], &["MatrixLoad"]);
        let named: Vec<&str> =
            crate::grammar::INSTRUCTIONS.iter().filter(|i| SET.contains(i.opcode)).map(|i| i.name).collect();
        assert!(named.contains(&"OpAtomicIAdd") && named.contains(&"OpCooperativeMatrixLoadKHR"), "{named:?}");
        assert!(named.iter().all(|n| n.starts_with("OpAtomicI") || n.contains("MatrixLoad")), "{named:?}");
        assert!(!named.contains(&"OpAtomicLoad"));
    }
}
