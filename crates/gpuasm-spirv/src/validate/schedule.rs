//! Runs the validation passes and picks the errors spirv-val would report:
//! those of the first pass (in order) that finds any.
//!
//! The structural passes check what every later pass walks (ids defined
//! once and before use, the logical layout, functions and blocks); the
//! passes after them start only once those have passed. Every pass only
//! reads the module, each into its own report, so on a large module the
//! structural ones, then the others, are shared out between threads. The
//! answer does not depend on how they were shared: a pass is skipped only
//! when an earlier one (in order) has already failed, and the errors kept
//! are those of the earliest failing pass, as if they had run in order. A
//! pass may meet a module an earlier pass rejects; it must not panic on it,
//! but if it does while an earlier pass failed, the panic is dropped with
//! that pass's result, as a sequential run would not have reached it.

use super::{Report, ValidationError};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};

/// One validation pass.
pub(crate) type Pass<'a> = &'a (dyn for<'m, 'w> Fn(&mut Report<'m, 'w>) + Sync);

/// Below this many instructions a module is validated on one thread: the
/// passes take less time than starting a thread.
const PARALLEL_FROM: usize = 16_384;

/// Fuzzing builds run every structural pass on every module, and every
/// other pass on every module the structural ones accept, as threads may,
/// so that the fuzzer finds a pass that panics on a module an earlier pass
/// rejects (small modules, which fuzzers make, would otherwise always run
/// in order and stop early).
const EVERY_PASS: bool = cfg!(fuzzing);

/// What a pass left: its errors, or the panic it raised.
enum Outcome {
    Errors(Vec<ValidationError>),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Runs `structural`, then `independent`, on up to `threads` threads (the
/// passes of `long_first`, those of `independent` that take longest, are
/// started first so that no long pass is left for the end), and returns the
/// errors of the first failing pass.
pub(crate) fn run<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    structural: &[Pass],
    independent: &[Pass],
    long_first: &[Pass],
    threads: usize,
) -> Result<(), Vec<ValidationError>> {
    if EVERY_PASS {
        return run_every(new_report, structural, independent);
    }
    let threads = threads.min(independent.len()).max(1);
    if threads == 1 || new_report().module.insts.len() < PARALLEL_FROM {
        return run_in_order(new_report, structural, independent);
    }
    let structure = Phase::new(structural, &[]);
    let rest = Phase::new(independent, long_first);
    let barrier = Barrier::new(threads);
    let worker = || {
        structure.work(new_report);
        barrier.wait();
        if !structure.failed() {
            rest.work(new_report);
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(worker);
        }
        worker();
    });
    structure.result()?;
    rest.result()
}

/// Passes shared out between threads, each taking the next in `order`.
struct Phase<'p, 'q> {
    passes: &'p [Pass<'q>],
    order: Vec<usize>,
    next: AtomicUsize,
    first_failed: AtomicUsize,
    outcomes: Mutex<Vec<Option<Outcome>>>,
}

impl<'p, 'q> Phase<'p, 'q> {
    /// `first` (passes of `passes`) start first, then the others in order.
    fn new(passes: &'p [Pass<'q>], first: &[Pass]) -> Self {
        let first: Vec<usize> = first
            .iter()
            .filter_map(|l| passes.iter().position(|p| std::ptr::addr_eq(*p as *const _, *l as *const _)))
            .collect();
        let order = first.iter().copied().chain((0..passes.len()).filter(|k| !first.contains(k))).collect();
        Phase {
            passes,
            order,
            next: AtomicUsize::new(0),
            first_failed: AtomicUsize::new(usize::MAX),
            outcomes: Mutex::new((0..passes.len()).map(|_| None).collect()),
        }
    }

    /// Runs passes until none is left (or all left come after a failure).
    fn work<'m, 'w>(&self, new_report: &(dyn Fn() -> Report<'m, 'w> + Sync)) {
        while let Some(&k) = self.order.get(self.next.fetch_add(1, Ordering::Relaxed)) {
            if k > self.first_failed.load(Ordering::Acquire) {
                continue;
            }
            let mut report = new_report();
            let outcome = match panic::catch_unwind(AssertUnwindSafe(|| self.passes[k](&mut report))) {
                Ok(()) if report.errors.is_empty() => continue,
                Ok(()) => Outcome::Errors(report.errors),
                Err(payload) => Outcome::Panicked(payload),
            };
            self.first_failed.fetch_min(k, Ordering::AcqRel);
            self.outcomes.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(outcome);
        }
    }

    fn failed(&self) -> bool {
        self.first_failed.load(Ordering::Acquire) != usize::MAX
    }

    /// The first failing pass's errors; its panic, if it panicked.
    fn result(self) -> Result<(), Vec<ValidationError>> {
        let first = self.first_failed.into_inner();
        let mut outcomes = self.outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
        match outcomes.get_mut(first).and_then(Option::take) {
            None => Ok(()),
            Some(Outcome::Errors(errors)) => Err(errors),
            Some(Outcome::Panicked(payload)) => panic::resume_unwind(payload),
        }
    }
}

/// Every pass on this thread, in order.
fn run_in_order<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    structural: &[Pass],
    independent: &[Pass],
) -> Result<(), Vec<ValidationError>> {
    let mut report = new_report();
    for pass in structural.iter().chain(independent) {
        pass(&mut report);
        if !report.errors.is_empty() {
            return Err(report.errors);
        }
    }
    Ok(())
}

/// Fuzzing: every structural pass, then, if they all pass, every other one;
/// the first failure in order is the answer.
fn run_every<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    structural: &[Pass],
    independent: &[Pass],
) -> Result<(), Vec<ValidationError>> {
    for phase in [structural, independent] {
        let mut first = None;
        for pass in phase {
            let mut report = new_report();
            pass(&mut report);
            if first.is_none() && !report.errors.is_empty() {
                first = Some(report.errors);
            }
        }
        if let Some(errors) = first {
            return Err(errors);
        }
    }
    Ok(())
}

/// How many threads the passes may use.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Module;
    use crate::validate::{ErrorKind, ValidatorOptions};

    /// A module large enough to be shared out.
    fn big_words() -> Vec<u32> {
        let mut text = String::from(
            "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%int = OpTypeInt 32 1\n",
        );
        for k in 0..PARALLEL_FROM {
            text += &format!("%c{k} = OpConstant %int {k}\n");
        }
        crate::text::assemble(&text, &Default::default()).unwrap()
    }

    fn fail(message: &'static str) -> impl Fn(&mut Report) + Sync {
        move |r: &mut Report| r.module_error(ErrorKind::Limit, message)
    }

    #[test]
    fn the_first_failing_pass_in_order_decides_however_they_are_shared() {
        let words = big_words();
        let module = Module::read(&words).unwrap();
        let options = ValidatorOptions::default();
        let new_report = || Report { module: &module, options: &options, errors: Vec::new(), limit: 100, names: None };
        let slow = |r: &mut Report| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            r.module_error(ErrorKind::Limit, "slow and first");
        };
        let (ok, late) = (|_: &mut Report| {}, fail("later"));
        let panics = |_: &mut Report| panic!("a pass after a failing one");
        for threads in [1, 2, 4] {
            let (late, panics): (Pass, Pass) = (&late, &panics);
            for long_first in [&[][..], &[late, panics]] {
                let first = run(&new_report, &[&ok], &[&ok, &slow, late, panics], long_first, threads).unwrap_err();
                assert_eq!(first[0].message, "slow and first", "{threads} threads");
            }
            assert!(run(&new_report, &[&ok], &[&ok, &ok, &ok], &[], threads).is_ok());
            let ordered = run(&new_report, &[&fail("ordered")], &[late], &[], threads).unwrap_err();
            assert_eq!(ordered[0].message, "ordered");
            let structural: [Pass; 4] = [&ok, &slow, &fail("structural"), panics];
            let first = run(&new_report, &structural, &[late], &[], threads).unwrap_err();
            assert_eq!(first[0].message, "slow and first", "{threads} threads");
        }
        let alone = std::panic::catch_unwind(AssertUnwindSafe(|| run(&new_report, &[&ok], &[&ok, &panics], &[], 2)));
        assert!(alone.is_err(), "a panic no earlier failure explains is a bug, and shows");
        let in_ordered = std::panic::catch_unwind(AssertUnwindSafe(|| run(&new_report, &[&panics], &[&ok], &[], 2)));
        assert!(in_ordered.is_err(), "and does not leave a thread waiting");
    }
}
