//! Id names to numbers, in order of first appearance (as spirv-as numbers
//! them), and which ids have been given a result.
//!
//! Disassembled text names most ids by number (`%54`); those are looked up
//! by value in a vector. Other names go in an open-addressed table that
//! keeps each name's [`NameKey`] inline, so a lookup reads one slot rather
//! than a slot and the text. Nothing is allocated per name.

use super::numbers::NumberTable;
use crate::name_map::{same_bytes, NameKey};
use crate::text::lex::scan::{id_chars_end, small_number, ID_CHAR};
use crate::text::literal;
use rustc_hash::FxHashSet;
use std::sync::Arc;

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

/// Ids numbered by a worker thread before the main thread has seen its
/// part of the text carry this bit; see [`Ids::worker`].
pub(super) const LOCAL: u32 = 1 << 31;

/// Marks a [`LocalIds`] entry that is a number rather than a position.
const NUMBER: u32 = 1 << 31;

/// The longest text a worker may read: positions and numbers must leave
/// [`NUMBER`] free.
pub(super) const MAX_SPLIT_TEXT: usize = NUMBER as usize;

/// An open-addressed table of names that are not small numbers.
struct NameTable {
    slots: Vec<Slot>,
    /// Where the name of each slot first stands (the byte after `%`), to
    /// confirm matches of names longer than 8 bytes.
    slot_at: Vec<u32>,
    bits: u32,
    count: usize,
}

const INITIAL_BITS: u32 = 10;

impl NameTable {
    fn new() -> Self {
        // The table grows as names come rather than being sized from the
        // text: disassembled text has few names that are not numbers, and
        // a table sized for many measured no faster.
        NameTable {
            slots: vec![Slot::default(); 1 << INITIAL_BITS],
            slot_at: vec![0; 1 << INITIAL_BITS],
            bits: INITIAL_BITS,
            count: 0,
        }
    }

    /// The slot a name would occupy.
    #[inline]
    fn want(name: &[u8]) -> Slot {
        let key = NameKey::new(name);
        Slot { a: key.a, meta: Slot::meta(&key), id: 0 }
    }

    /// The id of `name`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, text: &[u8], name: &[u8], want: &Slot) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = want.hash(self.bits);
        loop {
            let s = self.slots[i];
            if s.meta == 0 {
                return Err(i);
            }
            if s.meta == want.meta && s.a == want.a {
                if want.exact() {
                    return Ok(s.id);
                }
                let start = self.slot_at[i] as usize;
                if text.get(start..start + name.len()).is_some_and(|t| same_bytes(t, name))
                    && !text.get(start + name.len()).is_some_and(|&c| ID_CHAR[c as usize])
                {
                    return Ok(s.id);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Fills the empty slot `i` found by [`NameTable::probe`].
    fn insert(&mut self, i: usize, want: Slot, id: u32, at: usize) {
        self.slots[i] = Slot { id, ..want };
        self.slot_at[i] = at as u32;
        self.count += 1;
        // At most three quarters full.
        if self.count * 4 > self.slots.len() * 3 {
            self.grow();
        }
    }

    /// Each name's id and where it first stands.
    fn entries(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        self.slots.iter().zip(&self.slot_at).filter(|(s, _)| s.meta != 0).map(|(s, &at)| (s.id, at as usize))
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
}

/// The names numbered before the text was split between threads: read by
/// all of them, changed by none.
pub(super) struct Frozen {
    names: NameTable,
    /// The main thread's numbers, which it goes on filling while workers
    /// read them (see [`Ids::get_rest`] for why that is sound).
    numeric: Arc<NumberTable>,
}

pub(super) struct Ids<'t> {
    text: &'t str,
    names: NameTable,
    /// Names numbered before the split (then `names` holds only those
    /// numbered after it).
    base: Option<Arc<Frozen>>,
    next: u32,
    pub bound: u32,
    preserve: FxHashSet<u32>,
    /// Ids given a result, as a bitset (dense: ids are assigned in order).
    defined: Vec<u64>,
    defined_sparse: FxHashSet<u32>,
    /// Names that are canonical decimal numbers below the cap, by value.
    /// Allocated whole at the first number, as zeroed memory: pages no
    /// number reaches are never touched, and nothing is ever copied.
    /// After a split workers read the main thread's; only it writes them.
    numeric: Arc<NumberTable>,
    pub numeric_cap: usize,
    /// One past the largest number recorded.
    numeric_len: usize,
    /// A worker's ids for names it is the first to see: `LOCAL | k` for
    /// the k-th such name, which `local_at[k]` gives (see [`LocalIds`]).
    /// The main thread numbers them once it has read the text before them.
    local: bool,
    local_at: Vec<u32>,
    local_defined: Vec<u64>,
}

/// What a worker's [`Ids`] hand back: its local names, and which ids it
/// defined.
#[derive(Default)]
pub(super) struct LocalIds {
    /// Each local name: `NUMBER | v` for the name that is the small number
    /// `v`, else where the name first stands (the byte after `%`).
    local_at: Vec<u32>,
    defined: Vec<u64>,
    defined_sparse: FxHashSet<u32>,
    local_defined: Vec<u64>,
}

/// A worker's table of numbered names, all entries zero, kept from one
/// segment for the next: a fresh one would cost a page fault for every
/// page its numbers reach.
pub(super) struct Numbers(Arc<NumberTable>);

/// The map from a worker's ids to final ones: `LOCAL | k` to `locals[k]`,
/// the rest unchanged.
pub(super) struct IdMap {
    pub locals: Vec<u32>,
}

impl IdMap {
    #[inline]
    pub fn get(&self, id: u32) -> u32 {
        if id & LOCAL != 0 {
            self.locals[(id & !LOCAL) as usize]
        } else {
            id
        }
    }
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

fn set_bit(bits: &mut Vec<u64>, i: usize) {
    if i / 64 >= bits.len() {
        bits.resize(i / 64 + 1, 0);
    }
    bits[i / 64] |= 1 << (i % 64);
}

pub(super) fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &b)| {
        let mut b = b;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                w * 64 + i
            })
        })
    })
}

impl<'t> Ids<'t> {
    pub fn new(text: &'t str, preserve: FxHashSet<u32>) -> Self {
        Ids {
            text,
            names: NameTable::new(),
            base: None,
            next: 1,
            bound: 1,
            preserve,
            defined: Vec::new(),
            defined_sparse: FxHashSet::default(),
            numeric: Arc::new(NumberTable::empty()),
            numeric_cap: text.len() / 2 + 16,
            numeric_len: 0,
            local: false,
            local_at: Vec::new(),
            local_defined: Vec::new(),
        }
    }

    /// Freezes the names numbered so far into a base that worker threads
    /// share; this table goes on with its own names on top of it.
    pub fn freeze(&mut self) -> Arc<Frozen> {
        debug_assert!(self.base.is_none() && self.preserve.is_empty() && !self.local);
        let frozen = Arc::new(Frozen {
            names: std::mem::replace(&mut self.names, NameTable::new()),
            numeric: {
                self.allocate_numeric();
                self.numeric.clone()
            },
        });
        self.base = Some(frozen.clone());
        frozen
    }

    /// The ids of a worker that reads a later part of the text: names in
    /// `base` keep their numbers, new names get local ones. `numbers`: the
    /// number table of the worker's previous segment, if any, to use again
    /// (its pages already touched).
    pub fn worker(text: &'t str, base: Arc<Frozen>, numbers: Option<Numbers>) -> Self {
        let mut ids = Ids { base: Some(base), local: true, ..Ids::new(text, FxHashSet::default()) };
        if let Some(Numbers(table)) = numbers.filter(|n| n.0.len() == ids.numeric_cap) {
            ids.numeric = table;
        }
        ids
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
        if let Some(id) = small.and_then(|v| self.numeric.get(v)) {
            if self.preserve.is_empty() {
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
            if let Some(id) = self.number(v) {
                return id;
            }
            if self.local {
                // The main thread's number for this name, if it has one:
                // given before the fork, or since, which means the name
                // stands first in the text it reads, before this worker's,
                // so one pass would give it that very number too. Either
                // way it is final; not cached here, to touch no more pages.
                if let Some(id) = self.base.as_ref().and_then(|b| b.numeric.get(v)) {
                    return id;
                }
            }
            let id = self.assign(NUMBER | v as u32);
            self.allocate_numeric();
            self.numeric.set(v, id);
            self.numeric_len = self.numeric_len.max(v + 1);
            return id;
        }
        let want = NameTable::want(name);
        let text = self.text.as_bytes();
        if let Some(base) = &self.base {
            if let Ok(id) = base.names.probe(text, name, &want) {
                return id;
            }
        }
        match self.names.probe(text, name, &want) {
            Ok(id) => id,
            Err(i) => {
                let id = self.assign(at as u32);
                self.names.insert(i, want, id, at);
                id
            }
        }
    }

    /// The id this table gives the name that is the number `v`, if any.
    #[inline]
    fn number(&self, v: usize) -> Option<u32> {
        self.numeric.get(v)
    }

    /// Allocates the number table, zeroed, if not yet done.
    fn allocate_numeric(&mut self) {
        if self.numeric.len() == 0 {
            self.numeric = Arc::new(NumberTable::new(self.numeric_cap));
        }
    }

    /// The id of `name` if it has one, without numbering it.
    fn find(&self, name: &[u8]) -> Option<u32> {
        if let Some(v) = small_number(name).filter(|&v| v < self.numeric_cap) {
            return self.number(v);
        }
        let want = NameTable::want(name);
        let text = self.text.as_bytes();
        if let Some(Ok(id)) = self.base.as_ref().map(|b| b.names.probe(text, name, &want)) {
            return Some(id);
        }
        self.names.probe(text, name, &want).ok()
    }

    /// The next free number; in a worker, a local one for the name that
    /// `key` (a [`LocalIds`] entry) gives.
    #[inline]
    fn assign(&mut self, key: u32) -> u32 {
        if self.local {
            let k = self.local_at.len() as u32;
            self.local_at.push(key);
            return LOCAL | k;
        }
        let mut id = self.next;
        self.next += 1;
        while self.preserve.contains(&id) {
            id = self.next;
            self.next += 1;
        }
        self.bound = self.bound.max(id + 1);
        id
    }

    pub fn define(&mut self, id: u32) {
        if self.local && id & LOCAL != 0 {
            set_bit(&mut self.local_defined, (id & !LOCAL) as usize);
        } else if id < 1 << 24 {
            set_bit(&mut self.defined, id as usize);
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

    /// Whether every id numbered so far has been defined: without preserved
    /// numbers, ids are exactly 1 to `next - 1`, so counting is enough.
    pub fn all_defined(&self) -> bool {
        let count = self.defined.iter().map(|w| w.count_ones() as usize).sum::<usize>() + self.defined_sparse.len();
        self.preserve.is_empty() && !self.local && count == self.next as usize - 1
    }

    /// A worker's ids, for [`Ids::adopt`], and its number table, emptied
    /// for its next segment.
    pub fn into_local(self) -> (LocalIds, Option<Numbers>) {
        let numbers = (self.numeric.len() != 0).then(|| {
            for &entry in &self.local_at {
                if entry & NUMBER != 0 {
                    self.numeric.set((entry & !NUMBER) as usize, 0);
                }
            }
            Numbers(self.numeric)
        });
        let local = LocalIds {
            local_at: self.local_at,
            defined: self.defined,
            defined_sparse: self.defined_sparse,
            local_defined: self.local_defined,
        };
        (local, numbers)
    }

    /// The id a worker's id has here without numbering anything: its own
    /// for an id it did not number itself, else the id here of its name, if
    /// that has one.
    pub fn find_local(&self, local: &LocalIds, id: u32) -> Option<u32> {
        if id & LOCAL == 0 {
            return Some(id);
        }
        let entry = local.local_at[(id & !LOCAL) as usize];
        if entry & NUMBER != 0 {
            return self.number((entry & !NUMBER) as usize);
        }
        self.find(self.name_at(entry as usize).as_bytes())
    }

    /// Takes over a worker's names, numbered as reading its text here
    /// would number them (known names keep their id, new ones take the
    /// next numbers in the order the worker met them), and its
    /// definitions. Returns the map from its ids to these.
    pub fn adopt(&mut self, mut local: LocalIds) -> IdMap {
        debug_assert!(self.preserve.is_empty() && !self.local);
        // The map takes the place of the names, entry for entry.
        for entry in local.local_at.iter_mut() {
            *entry = if *entry & NUMBER != 0 {
                let v = (*entry & !NUMBER) as usize;
                self.get_rest(&[], 0, Some(v))
            } else {
                let at = *entry as usize;
                self.get(self.name_at(at), at)
            };
        }
        let map = IdMap { locals: local.local_at };
        for id in ones(&local.defined) {
            self.define(id as u32);
        }
        for &id in &local.defined_sparse {
            self.define(id);
        }
        for k in ones(&local.local_defined) {
            self.define(map.locals[k]);
        }
        map
    }

    /// Each id numbered here from a name that is not a small number: the id
    /// and where its name first stands (the byte after `%`).
    pub fn named(&self) -> impl Iterator<Item = (u32, usize)> + '_ {
        self.base.iter().map(|b| &b.names).chain([&self.names]).flat_map(NameTable::entries)
    }

    /// Each id numbered here from a small canonical decimal name: the id and
    /// the number.
    pub fn numbered(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.numeric_len).filter_map(|v| self.numeric.get(v).map(|id| (id, v as u32)))
    }

    /// The name starting at byte `at`.
    pub fn name_at(&self, at: usize) -> &'t str {
        let b = self.text.as_bytes();
        &self.text[at..id_chars_end(b, at)]
    }
}

/// Where the first uses of the numbers in `numbers` stand (the byte after
/// their `%`), in text order, at most `limit` of them: `%` followed by the
/// number as a whole word, wherever it stands, found in one pass.
pub(super) fn first_number_uses(text: &str, numbers: &FxHashSet<u32>, limit: usize) -> Vec<usize> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    let mut seen = FxHashSet::default();
    for at in memchr::memchr_iter(b'%', b) {
        if found.len() == limit || seen.len() == numbers.len() {
            break;
        }
        let start = at + 1;
        if let Some(v) = small_number(&b[start..id_chars_end(b, start)]) {
            if numbers.contains(&(v as u32)) && seen.insert(v as u32) {
                found.push(start);
            }
        }
    }
    found
}
