//! Keeping the threads of one parallel section on different CPUs, for
//! programs that ask for it ([`enable`]).
//!
//! Linux places a thread that a process just started on the CPU of the
//! thread that starts it, and wakes it there again after each wait: the
//! load averages it decides by have not yet seen a process that runs for
//! milliseconds. Traced with `perf record -e sched:sched_switch` on the
//! 2-core bench machine, `gpuasm dis` of a 1 MB module ran both its threads
//! on one CPU while the other stayed idle, taking turns (`perf stat`: 1.0
//! CPUs used). So, once enabled, a parallel section pins each of its
//! threads to a CPU of its own, from those the starting thread may use:
//! the threads it starts for their whole (short) life, the starting
//! thread itself, once it has started them, until its part is done
//! (the guard it gets gives its earlier set back when dropped).
//!
//! Pinning only narrows the set a thread was given (by `taskset`, a
//! container, a cgroup), and does nothing when that set has one CPU or the
//! system cannot say. The callers share the work out as before (threads
//! take parts as they free up), so a CPU busy with something else slows
//! its thread's part without stalling the others. It is off by default: a
//! program that calls the library from threads of its own may place them
//! itself; the `gpuasm` command turns it on for `as`, `dis` and `val`.

use std::sync::atomic::{AtomicBool, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Lets the assembler, disassembler and validator pin the threads of
/// their parallel sections to different CPUs (see the module docs).
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// The CPUs of a parallel section, in the order its threads take them:
/// the starting thread's own first.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    cpus: Vec<usize>,
}

impl Placement {
    /// The CPUs the calling thread may run on, the one it runs on first;
    /// empty (nothing is pinned) when there is only one or they cannot be
    /// read.
    pub(crate) fn new() -> Placement {
        let on = ENABLED.load(Ordering::Relaxed);
        Placement { cpus: if on { sys::cpus() } else { Vec::new() } }
    }

    /// Pins the thread that starts the section to the CPU it runs on, until
    /// the returned guard drops. Called once it has started the others,
    /// which would otherwise start with its one CPU (and move off it, a
    /// wait of up to half a millisecond).
    pub(crate) fn pin_here(&self) -> Pinned {
        if self.cpus.len() < 2 {
            return Pinned { before: None };
        }
        Pinned { before: sys::pin(self.cpus[0]) }
    }

    /// Pins the section's `k`th other thread (from 1) to a CPU of its own
    /// (shared once there are more threads than CPUs) for the rest of its
    /// life: it ends with the section, so nothing is given back.
    pub(crate) fn pin_helper(&self, k: usize) {
        if self.cpus.len() >= 2 {
            sys::pin(self.cpus[k % self.cpus.len()]);
        }
    }
}

/// The calling thread's CPU set before [`Placement::pin_here`], given back
/// on drop (on the thread that pinned it).
pub(crate) struct Pinned {
    before: Option<sys::CpuSet>,
}

impl Drop for Pinned {
    fn drop(&mut self) {
        if let Some(set) = &self.before {
            sys::restore(set);
        }
    }
}

#[cfg(target_os = "linux")]
mod sys {
    use std::mem::{size_of, zeroed};

    pub type CpuSet = libc::cpu_set_t;

    fn current_set() -> Option<CpuSet> {
        // SAFETY: the set is plain data, written by the call; pid 0 is the
        // calling thread.
        unsafe {
            let mut set: CpuSet = zeroed();
            (libc::sched_getaffinity(0, size_of::<CpuSet>(), &mut set) == 0).then_some(set)
        }
    }

    pub fn cpus() -> Vec<usize> {
        let Some(set) = current_set() else { return Vec::new() };
        // SAFETY: reads which CPU the calling thread is on.
        let here = unsafe { libc::sched_getcpu() };
        let mut cpus: Vec<usize> =
            (0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, &set) }).collect();
        if let Some(i) = usize::try_from(here).ok().and_then(|h| cpus.iter().position(|&c| c == h)) {
            cpus[..=i].rotate_right(1);
        }
        cpus
    }

    /// Pins the calling thread to `cpu`; its set before, if that worked.
    pub fn pin(cpu: usize) -> Option<CpuSet> {
        let before = current_set()?;
        // SAFETY: as in `current_set`; the set names one CPU the thread
        // was allowed.
        unsafe {
            let mut one: CpuSet = zeroed();
            libc::CPU_SET(cpu, &mut one);
            (libc::sched_setaffinity(0, size_of::<CpuSet>(), &one) == 0).then_some(before)
        }
    }

    pub fn restore(set: &CpuSet) {
        // SAFETY: as in `pin`. A failure leaves the thread pinned, which
        // only costs speed.
        unsafe {
            libc::sched_setaffinity(0, size_of::<CpuSet>(), set);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    pub type CpuSet = ();

    pub fn cpus() -> Vec<usize> {
        Vec::new()
    }

    pub fn pin(_cpu: usize) -> Option<CpuSet> {
        None
    }

    pub fn restore(_set: &CpuSet) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut cpus: Vec<usize>) -> Vec<usize> {
        cpus.sort_unstable();
        cpus
    }

    #[test]
    fn threads_are_pinned_to_their_cpus_and_the_first_given_its_set_back() {
        let allowed = sorted(sys::cpus());
        enable();
        let placement = Placement::new();
        assert!(placement.cpus.is_empty() || sorted(placement.cpus.clone()) == allowed);
        std::thread::scope(|s| {
            for k in 1..4 {
                let (placement, allowed) = (&placement, &allowed);
                s.spawn(move || {
                    // Started before the first thread pins itself.
                    assert_eq!(&sorted(sys::cpus()), allowed);
                    placement.pin_helper(k);
                    if allowed.len() >= 2 {
                        assert_eq!(sys::cpus(), vec![placement.cpus[k % allowed.len()]]);
                    }
                });
            }
            let pinned = placement.pin_here();
            if allowed.len() >= 2 {
                assert_eq!(sys::cpus(), vec![placement.cpus[0]]);
            }
            drop(pinned);
            assert_eq!(sorted(sys::cpus()), allowed);
        });
    }
}
