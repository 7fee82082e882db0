//! The shortcut's opcode lookup: a small direct-mapped cache in front of
//! the grammar's name map, keyed by the name's bytes, holding for each
//! opcode name seen whether the shortcut may read it in this module.
//!
//! A module uses a few dozen opcodes over and over; the cache answers with
//! two loads and a compare where the name map hashes the whole name and
//! checks availability each time.

use crate::grammar::{self, InstructionInfo, Version};

const BITS: u32 = 8;

#[derive(Copy, Clone, Default)]
struct Entry {
    /// The name's bytes after `Op`: the first eight, and the last eight
    /// when it is longer (names over 16 bytes are confirmed in full).
    a: u64,
    b: u64,
    /// The name's length with `Op`; 0: empty.
    len: u32,
    info: Option<&'static InstructionInfo>,
}

pub(super) struct OpcodeCache {
    entries: Box<[Entry]>,
    version: Version,
}

impl OpcodeCache {
    pub fn new(version: Version) -> Self {
        OpcodeCache { entries: vec![Entry::default(); 1 << BITS].into_boxed_slice(), version }
    }

    /// The instruction named by `text[start..end]` (which begins with `Op`)
    /// if the shortcut may read it in a module of this version: known,
    /// available, and not one that changes how later text reads.
    #[inline(always)]
    pub fn get(&mut self, text: &[u8], start: usize, end: usize) -> Option<&'static InstructionInfo> {
        let len = end - start;
        let Some((a, b)) = key(text, start + 2, end) else {
            return self.lookup(text, start, end);
        };
        let slot = ((a ^ b.rotate_left(29) ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BITS)) as usize;
        let e = self.entries[slot];
        if e.len == len as u32
            && e.a == a
            && e.b == b
            && (len <= 18 || e.info.is_none_or(|i| i.name.as_bytes() == &text[start..end]))
        {
            return e.info;
        }
        let info = self.lookup(text, start, end);
        // Names over 16 bytes after `Op` are confirmed against the grammar's
        // name, which an unknown name does not have: keep only known ones.
        if len <= 18 || info.is_some() {
            self.entries[slot] = Entry { a, b, len: len as u32, info };
        }
        info
    }

    #[cold]
    fn lookup(&self, text: &[u8], start: usize, end: usize) -> Option<&'static InstructionInfo> {
        let name = std::str::from_utf8(&text[start..end]).ok()?;
        let info = grammar::instruction_by_name(name)?;
        (super::fast::shortcut_opcode(info) && info.available_in(self.version)).then_some(info)
    }
}

/// The key of the name `text[from..end]`: its bytes when it is at most 16
/// long, else its first and last eight. `None` near the end of the text.
#[inline(always)]
fn key(text: &[u8], from: usize, end: usize) -> Option<(u64, u64)> {
    let n = end - from;
    let first = u64::from_le_bytes(text.get(from..from + 8)?.try_into().expect("eight bytes"));
    if n <= 8 {
        let a = if n == 8 { first } else { first & ((1u64 << (8 * n)) - 1) };
        return Some((a, 0));
    }
    let last = u64::from_le_bytes(text.get(end - 8..end)?.try_into().expect("eight bytes"));
    Some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::OPCODE_NAMES;

    fn direct(name: &str, version: Version) -> Option<&'static InstructionInfo> {
        grammar::instruction_by_name(name).filter(|i| super::super::fast::shortcut_opcode(i) && i.available_in(version))
    }

    /// Every opcode name and alias, and near misses of each, answer as the
    /// grammar does, at the end of the text too, however the names share
    /// the cache's entries.
    #[test]
    fn cache_answers_as_the_grammar() {
        for version in [Version(1, 0), Version(1, 6)] {
            let mut cache = OpcodeCache::new(version);
            for round in 0..2 {
                for &(name, _) in OPCODE_NAMES.iter() {
                    let mut near = name.to_string();
                    near.push('X');
                    let mut other = name.to_string();
                    other.pop();
                    other.push('#');
                    for n in [name, &near, &other] {
                        for tail in ["", " %1 %2 %3 %4\n"] {
                            let text = format!("{n}{tail}");
                            let got = cache.get(text.as_bytes(), 0, n.len());
                            let want = if n.ends_with('#') { None } else { direct(n, version) };
                            assert_eq!(got.map(|i| i.opcode), want.map(|i| i.opcode), "{n:?} {tail:?} round {round}");
                        }
                    }
                }
            }
        }
    }
}
