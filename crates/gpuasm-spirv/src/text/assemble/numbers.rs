//! The ids of names that are small decimal numbers (`%54`), by value: what
//! most ids of disassembled text are looked up in.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// A page of memory, and the entries it holds.
const PAGE_BYTES: usize = 4096;
const PAGE: usize = PAGE_BYTES / std::mem::size_of::<AtomicU32>();

/// Ids by number, 0 for none, in zeroed memory, so that pages no number
/// reaches are never touched, with a bit for each page that has been
/// written. A page is read only once written: when a zeroed page is first
/// touched by a read, the kernel maps its shared zero page, and the store
/// that follows must replace it, which with two threads running means
/// flushing the other CPU's TLB (an interrupt; a VM exit under a
/// hypervisor). That was 7% of `as` on the 5 MB benchmark shapes.
///
/// One thread writes a table; others may read it. Loads and stores are
/// relaxed: a reader may miss a number recorded meanwhile, and callers
/// treat that as a number not yet seen (see `Ids::get_rest`).
pub(super) struct NumberTable {
    ids: Box<[AtomicU32]>,
    written: Box<[AtomicU64]>,
    /// Entries before `ids[0]` on its page: the allocation need not start
    /// a page.
    skew: usize,
}

impl NumberTable {
    /// A table of no entries, allocating nothing.
    pub fn empty() -> Self {
        NumberTable { ids: Box::new([]), written: Box::new([]), skew: 0 }
    }

    /// A table for the numbers below `cap`.
    pub fn new(cap: usize) -> Self {
        // SAFETY: every bit pattern, zero included, is a valid atomic.
        let ids = unsafe { Box::<[AtomicU32]>::new_zeroed_slice(cap).assume_init() };
        let skew = ids.as_ptr() as usize % PAGE_BYTES / std::mem::size_of::<AtomicU32>();
        let pages = (skew + cap).div_ceil(PAGE);
        // SAFETY: as above.
        let written = unsafe { Box::<[AtomicU64]>::new_zeroed_slice(pages.div_ceil(64)).assume_init() };
        NumberTable { ids, written, skew }
    }

    /// How many numbers the table has room for.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// The id recorded for the number `v`, if any.
    #[inline(always)]
    pub fn get(&self, v: usize) -> Option<u32> {
        let page = (self.skew + v) / PAGE;
        let bits = self.written.get(page / 64)?.load(Relaxed);
        if bits >> (page % 64) & 1 == 0 {
            return None;
        }
        self.ids.get(v).map(|n| n.load(Relaxed)).filter(|&id| id != 0)
    }

    /// Records `id` for the number `v` (below [`NumberTable::len`]); 0
    /// clears it. Only the writing thread calls this.
    #[inline]
    pub fn set(&self, v: usize, id: u32) {
        self.ids[v].store(id, Relaxed);
        let page = (self.skew + v) / PAGE;
        let word = &self.written[page / 64];
        let bits = word.load(Relaxed);
        if bits >> (page % 64) & 1 == 0 {
            // After the store, so that no reader touches the page first.
            word.store(bits | 1 << (page % 64), Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_numbers_on_any_page() {
        let table = NumberTable::new(3 * PAGE + 5);
        let first_page = PAGE - table.skew;
        assert_eq!(table.get(7), None);
        table.set(7, 40);
        table.set(3 * PAGE + 4, 41);
        assert_eq!(table.get(7), Some(40));
        assert_eq!(table.get(8), None, "an unset entry on a written page");
        assert_eq!(table.get(first_page + 7), None, "a page never written");
        table.set(first_page, 42);
        assert_eq!(table.get(first_page), Some(42), "the first entry of the second page");
        assert_eq!(table.get(3 * PAGE + 4), Some(41));
        assert_eq!(table.get(3 * PAGE + 5), None, "past the end, on a written page");
        assert_eq!(table.get(100 * PAGE), None, "past the end");
        table.set(7, 0);
        assert_eq!(table.get(7), None, "cleared");
        assert_eq!(NumberTable::empty().get(0), None);
    }
}
