//! The executable's writable data (`.data`, `.bss`), made private and
//! writable in one call before any thread starts.
//!
//! Those pages start as the executable file's pages (or the zero page),
//! mapped read-only: the first write to each copies it, and once a second
//! thread runs, every copy flushes that thread's CPU's TLB too (an
//! interrupt; a VM exit under a hypervisor). The disassembler's first
//! writes there are the instruction facts it derives on first use
//! (`binary::parser`'s table of them fills most of `.data`): 3% of `dis
//! --raw-id` on a 1 MB module went to those copies. Doing them all up front
//! costs one call and at most the segment's size in memory (116 KB).

/// Makes the executable's writable data private and writable now, where
/// the platform allows (Linux: `MADV_POPULATE_WRITE`, from 5.14); elsewhere,
/// or if refused, the pages are copied on first write as usual.
pub fn populate() {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    linux::populate();
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod linux {
    const PAGE: usize = 4096;

    pub fn populate() {
        // SAFETY: getauxval only reads the auxiliary vector; AT_PHDR and
        // AT_PHNUM describe the executable's program headers, which stay
        // mapped for the life of the process.
        let phdrs = unsafe {
            let at = libc::getauxval(libc::AT_PHDR) as *const libc::Elf64_Phdr;
            let count = libc::getauxval(libc::AT_PHNUM) as usize;
            if at.is_null() || count == 0 {
                return;
            }
            std::slice::from_raw_parts(at, count)
        };
        // Where the executable is loaded relative to its link address (0
        // unless it is position independent).
        let bias = phdrs
            .iter()
            .find(|p| p.p_type == libc::PT_PHDR)
            .map_or(0, |p| (phdrs.as_ptr() as usize).wrapping_sub(p.p_vaddr as usize));
        // Relocated data made read-only after start-up: a write advice on it
        // would fail.
        let read_only_end = phdrs
            .iter()
            .find(|p| p.p_type == libc::PT_GNU_RELRO)
            .map_or(0, |p| bias.wrapping_add((p.p_vaddr + p.p_memsz) as usize));
        for p in phdrs.iter().filter(|p| p.p_type == libc::PT_LOAD && p.p_flags & libc::PF_W != 0) {
            let start = bias.wrapping_add(p.p_vaddr as usize).max(read_only_end).next_multiple_of(PAGE);
            let end = bias.wrapping_add((p.p_vaddr + p.p_memsz) as usize).next_multiple_of(PAGE);
            if end > start {
                // SAFETY: the range is the executable's own writable segment,
                // page aligned; the advice changes no contents, only when
                // the pages are made (an older kernel refuses it: fine).
                unsafe {
                    libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_POPULATE_WRITE);
                }
            }
        }
    }
}
