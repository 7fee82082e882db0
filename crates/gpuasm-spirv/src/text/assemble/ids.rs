//! Id names to numbers, in order of first appearance (as spirv-as numbers
//! them), and which ids have been given a result.
//!
//! Disassembled text names most ids by number (`%54`); those are looked up
//! by value in a vector. Other names go in an open-addressed table that
//! keeps each name's [`NameKey`] inline, so a lookup reads one slot rather
//! than a slot and the text. Nothing is allocated per name.

use super::ID_CHAR;
use crate::name_map::{same_bytes, NameKey};
use crate::text::literal;
use rustc_hash::FxHashSet;

/// A slot of the name table: 16 bytes, so that the table of a large module
/// stays in cache. `meta == 0`: empty.
#[derive(Copy, Clone, Default)]
struct Slot {
    /// The name's first 8 bytes (its bytes, for names of up to 8 bytes).
    a: u64,
    /// The length (low 8 bits, 255 for longer names) and 24 bits of a hash
    /// of the rest.
    meta: u32,
    id: u32,
}

impl Slot {
    fn meta(key: &NameKey) -> u32 {
        let rest = (key.b ^ key.b >> 29).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        key.len.min(255) | (rest as u32) << 8
    }

    /// Whether equal slots mean equal names.
    fn exact(&self) -> bool {
        self.meta & 0xff <= 8
    }

    fn hash(&self, bits: u32) -> usize {
        ((self.a ^ (self.meta as u64) << 32).wrapping_mul(0xf135_7aea_2e62_a9c5) >> (64 - bits)) as usize
    }
}

pub(super) struct Ids<'t> {
    text: &'t str,
    slots: Vec<Slot>,
    /// Where the name of each slot first stands (the byte after `%`), to
    /// confirm matches of names longer than 8 bytes.
    slot_at: Vec<u32>,
    bits: u32,
    count: usize,
    next: u32,
    pub bound: u32,
    preserve: FxHashSet<u32>,
    /// Ids given a result, as a bitset (dense: ids are assigned in order).
    defined: Vec<u64>,
    defined_sparse: FxHashSet<u32>,
    /// Names that are canonical decimal numbers below the cap, by value.
    /// Entries are ids; 0 = none.
    numeric: Vec<u32>,
    pub numeric_cap: usize,
    /// Ids numbered from names in the table, with where each name first
    /// stands (the byte after `%`).
    first_at: Vec<(u32, u32)>,
}

/// Checks an id name's characters; returns its value if it is a canonical
/// decimal number below `cap` ("17", not "017").
#[inline]
pub(super) fn scan_id_name(name: &str, cap: usize) -> Option<Option<usize>> {
    let b = name.as_bytes();
    if b.is_empty() || !b.iter().all(|&c| ID_CHAR[c as usize]) {
        return None;
    }
    Some(small_number(b).filter(|&v| v < cap))
}

/// The value of a name that is a canonical decimal of at most nine digits
/// ("17", not "017"): such names are numbered by value, outside the table.
#[inline]
pub(super) fn small_number(name: &[u8]) -> Option<usize> {
    if name.is_empty() || name.len() > 9 || !name[0].is_ascii_digit() || (name[0] == b'0' && name.len() > 1) {
        return None;
    }
    let mut value = 0usize;
    for &c in name {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value * 10 + d as usize;
    }
    Some(value)
}

const INITIAL_BITS: u32 = 10;

impl<'t> Ids<'t> {
    pub fn new(text: &'t str, preserve: FxHashSet<u32>) -> Self {
        Ids {
            text,
            // The table grows as names come rather than being sized from the
            // text: disassembled text has few names that are not numbers.
            slots: vec![Slot::default(); 1 << INITIAL_BITS],
            slot_at: vec![0; 1 << INITIAL_BITS],
            bits: INITIAL_BITS,
            count: 0,
            next: 1,
            bound: 1,
            preserve,
            defined: Vec::new(),
            defined_sparse: FxHashSet::default(),
            numeric: Vec::new(),
            numeric_cap: text.len() / 2 + 16,
            first_at: Vec::new(),
        }
    }

    /// The number of the id `name`, which stands at byte `at` of the text.
    pub fn get(&mut self, name: &'t str, at: usize) -> u32 {
        let small = scan_id_name(name, self.numeric_cap).flatten();
        self.get_scanned(name.as_bytes(), at, small)
    }

    /// [`Ids::get`] for a name already scanned by [`scan_id_name`] (its
    /// bytes: id characters only).
    #[inline(always)]
    pub fn get_scanned(&mut self, name: &[u8], at: usize, small: Option<usize>) -> u32 {
        // A number seen before: most ids of disassembled text, so no call.
        if let Some(&id) = small.and_then(|v| self.numeric.get(v)) {
            if id != 0 && self.preserve.is_empty() {
                return id;
            }
        }
        self.get_rest(name, at, small)
    }

    #[inline(never)]
    fn get_rest(&mut self, name: &[u8], at: usize, small: Option<usize>) -> u32 {
        if !self.preserve.is_empty() {
            if let Some(n) = std::str::from_utf8(name).ok().and_then(literal::parse_c_u32) {
                if self.preserve.contains(&n) {
                    // As spirv-as: `id + 1` wraps for the largest id.
                    self.bound = self.bound.max(n.wrapping_add(1));
                    return n;
                }
            }
        }
        if let Some(v) = small {
            if let Some(&id) = self.numeric.get(v) {
                if id != 0 {
                    return id;
                }
            }
            let id = self.assign();
            if v >= self.numeric.len() {
                self.numeric.resize((v + 1).max(self.numeric.len() * 3 / 2).min(self.numeric_cap), 0);
            }
            self.numeric[v] = id;
            return id;
        }
        let key = NameKey::new(name);
        let want = Slot { a: key.a, meta: Slot::meta(&key), id: 0 };
        let mask = self.slots.len() - 1;
        let mut i = want.hash(self.bits);
        loop {
            let s = self.slots[i];
            if s.meta == 0 {
                break;
            }
            if s.meta == want.meta && s.a == want.a {
                if want.exact() {
                    return s.id;
                }
                let start = self.slot_at[i] as usize;
                if self.text.as_bytes().get(start..start + name.len()).is_some_and(|t| same_bytes(t, name))
                    && !self.text.as_bytes().get(start + name.len()).is_some_and(|&c| ID_CHAR[c as usize])
                {
                    return s.id;
                }
            }
            i = (i + 1) & mask;
        }
        let id = self.assign();
        self.first_at.push((id, at as u32));
        self.slots[i] = Slot { id, ..want };
        self.slot_at[i] = at as u32;
        self.count += 1;
        // At most three quarters full.
        if self.count * 4 > self.slots.len() * 3 {
            self.grow();
        }
        id
    }

    /// The next free number.
    #[inline]
    fn assign(&mut self) -> u32 {
        let mut id = self.next;
        self.next += 1;
        while self.preserve.contains(&id) {
            id = self.next;
            self.next += 1;
        }
        self.bound = self.bound.max(id + 1);
        id
    }

    /// Doubles the table.
    fn grow(&mut self) {
        let bits = self.bits + 1;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); 1 << bits]);
        let old_at = std::mem::replace(&mut self.slot_at, vec![0; 1 << bits]);
        self.bits = bits;
        let mask = self.slots.len() - 1;
        for (s, at) in old.into_iter().zip(old_at).filter(|(s, _)| s.meta != 0) {
            let mut i = s.hash(bits);
            while self.slots[i].meta != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
            self.slot_at[i] = at;
        }
    }

    pub fn define(&mut self, id: u32) {
        let i = id as usize;
        if i < 1 << 24 {
            if i / 64 >= self.defined.len() {
                self.defined.resize(i / 64 + 1, 0);
            }
            self.defined[i / 64] |= 1 << (i % 64);
        } else {
            self.defined_sparse.insert(id);
        }
    }

    pub fn is_defined(&self, id: u32) -> bool {
        let i = id as usize;
        if i < 1 << 24 {
            self.defined.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
        } else {
            self.defined_sparse.contains(&id)
        }
    }

    /// Each id numbered here from a name that is not a small number: the id
    /// and where its name first stands (the byte after `%`).
    pub fn named(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        self.first_at.iter().map(|&(id, at)| (id, at as usize))
    }

    /// Each id numbered here from a small canonical decimal name: the id and
    /// the number.
    pub fn numbered(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.numeric.iter().enumerate().filter(|(_, &id)| id != 0).map(|(v, &id)| (id, v as u32))
    }

    /// The name starting at byte `at`.
    pub fn name_at(&self, at: usize) -> &'t str {
        let b = self.text.as_bytes();
        let len = b[at..].iter().take_while(|&&c| ID_CHAR[c as usize]).count();
        &self.text[at..at + len]
    }
}

/// The first place `name` (with its `%`) stands as a whole word.
pub(super) fn find_id_use(text: &str, name: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(p) = memchr::memmem::find(&b[from..], name.as_bytes()) {
        let at = from + p;
        let end = at + name.len();
        if end == b.len() || !ID_CHAR[b[end] as usize] {
            return Some(at);
        }
        from = at + 1;
    }
    None
}
