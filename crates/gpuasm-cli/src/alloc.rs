//! The process's allocator: the system's, which a subcommand may tune for
//! large tables read from several threads ([`use_huge_pages`]), or for
//! large blocks freed and allocated again ([`reuse_freed_blocks`]).
//!
//! On Linux with glibc, both keep freed blocks in the heap for the next
//! pass's tables and let every thread allocate from that one heap; the
//! first also asks for transparent huge pages on it: one page fault per
//! 2 MiB instead of 512. Page faults were a sixth of `gpuasm val`'s time on
//! a 1 MB module, and what its threads contend on; the README's design
//! section has the measurements. (glibc's `glibc.malloc.hugetlb=1` tunable
//! does the same, but only from the environment.) Elsewhere this is the
//! system allocator unchanged.

use std::alloc::{GlobalAlloc, Layout, System};

/// The global allocator.
pub struct Allocator;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod heap {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A transparent huge page (x86-64 and aarch64 with 4 KiB pages).
    const HUGE_PAGE: usize = 2 << 20;

    /// How far the heap has been advised; 0 until [`use_huge_pages`] has run.
    static ADVISED_TO: AtomicUsize = AtomicUsize::new(0);

    /// Asks for huge pages on the heap grown since the last call.
    pub fn advise_growth() {
        let from = ADVISED_TO.load(Ordering::Relaxed);
        if from == 0 {
            return;
        }
        // SAFETY: `sbrk(0)` only reads the current end of the heap.
        let end = unsafe { libc::sbrk(0) } as usize;
        if end <= from || ADVISED_TO.fetch_max(end, Ordering::Relaxed) >= end {
            return;
        }
        let start = from.next_multiple_of(HUGE_PAGE);
        let stop = end & !(HUGE_PAGE - 1);
        if stop > start {
            // SAFETY: the range is heap the allocator owns; the advice
            // changes how its pages are backed, not their contents. A kernel
            // without transparent huge pages refuses it, which is fine.
            unsafe {
                libc::madvise(start as *mut libc::c_void, stop - start, libc::MADV_HUGEPAGE);
            }
        }
    }

    pub fn reuse_freed_blocks() {
        // SAFETY: mallopt sets allocator parameters. Called before any
        // other thread starts.
        unsafe {
            // glibc would give each block over 128 KiB (a threshold it
            // raises as blocks are freed) a mapping of its own, faulted in
            // page by page and unmapped on free.
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
            // Threads' own arenas are separate mappings, whose freed blocks
            // the other threads do not reuse (and the advice below misses).
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }

    pub fn use_huge_pages() {
        reuse_freed_blocks();
        // SAFETY: as above; sbrk(0) reads the end of the heap.
        unsafe {
            // Grow the heap in large steps, each advised once.
            libc::mallopt(libc::M_TOP_PAD, 64 << 20);
            ADVISED_TO.store(libc::sbrk(0) as usize, Ordering::Relaxed);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod heap {
    pub fn advise_growth() {}
    pub fn reuse_freed_blocks() {}
    pub fn use_huge_pages() {}
}

/// Blocks below this size rarely grow the heap; checking after each of
/// them would cost more than it finds.
const CHECK_FROM: usize = 4096;

// SAFETY: every call goes to the system allocator with the same arguments;
// `advise_growth` only changes how pages are backed.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if layout.size() >= CHECK_FROM {
            heap::advise_growth();
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if layout.size() >= CHECK_FROM {
            heap::advise_growth();
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if new_size >= CHECK_FROM {
            heap::advise_growth();
        }
        q
    }
}

/// Tunes the allocator for a few large tables (one entry per instruction
/// or id) read from several threads: [`reuse_freed_blocks`], and huge pages.
/// The cost is memory: a huge page is cleared whole however little of it is
/// used, which is why `gpuasm as`, whose tables are sparse, does not ask for
/// it (it took 3.4× the memory and ran 6% slower). Call once, before any
/// other thread starts.
pub fn use_huge_pages() {
    heap::use_huge_pages();
}

/// Tunes the allocator so that blocks of any size freed by one thread are
/// reused by every thread, rather than each large block getting fresh
/// memory of its own (a page fault per 4 KiB, which on the bench's virtual
/// machine costs about as much as writing the page to a file), without
/// huge pages. `gpuasm as`: 3.5% faster on the 1 MB module and the 5 MB
/// one, the same memory (`scripts/bench-vs-spirv-tools`, and 61 alternating
/// runs with glibc's equivalent tunables). Call once, before any other
/// thread starts.
pub fn reuse_freed_blocks() {
    heap::reuse_freed_blocks();
}
