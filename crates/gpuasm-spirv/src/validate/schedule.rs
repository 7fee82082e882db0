//! Runs the validation passes and picks the errors spirv-val would report:
//! those of the first pass (in order) that finds any.
//!
//! The first passes check the structure every later pass walks (ids defined
//! once and before use, the logical layout, functions and blocks), so they run
//! one after the other. The passes after them only read the module, each
//! into its own report, so on a large module they are shared out between
//! threads. The answer does not depend on how they were shared: a pass is
//! skipped only when an earlier one (in order) has already failed, and the
//! errors kept are those of the earliest failing pass, as if they had run in
//! order. A later pass may meet a module an earlier pass rejects; it must not
//! panic on it, but if it does while an earlier pass failed, the panic is
//! dropped with that pass's result, as a sequential run would not have
//! reached it.

use super::{Report, ValidationError};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// One validation pass.
pub(crate) type Pass<'a> = &'a (dyn for<'m, 'w> Fn(&mut Report<'m, 'w>) + Sync);

/// Below this many instructions a module is validated on one thread: the
/// passes take less time than starting a thread.
const PARALLEL_FROM: usize = 16_384;

/// Fuzzing builds run every independent pass on every module that passes
/// the ordered ones, as threads may, so that the fuzzer finds a pass that
/// panics on a module an earlier pass rejects (small modules, which fuzzers
/// make, would otherwise always run in order and stop early).
const EVERY_PASS: bool = cfg!(fuzzing);

/// What a pass left: its errors, or the panic it raised.
enum Outcome {
    Errors(Vec<ValidationError>),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Runs `ordered` one by one, then `independent` on up to `threads` threads
/// (those of `long_first`, passes of `independent` that take longest, are
/// started first so that no long pass is left for the end), and returns the
/// errors of the first failing pass.
pub(crate) fn run<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    ordered: &[Pass],
    independent: &[Pass],
    long_first: &[Pass],
    threads: usize,
) -> Result<(), Vec<ValidationError>> {
    let threads = threads.min(independent.len()).max(1);
    if EVERY_PASS || threads == 1 || new_report().module.insts.len() < PARALLEL_FROM {
        return run_in_order(new_report, ordered, independent);
    }
    let long: Vec<usize> = long_first
        .iter()
        .filter_map(|l| independent.iter().position(|p| std::ptr::addr_eq(*p as *const _, *l as *const _)))
        .collect();
    let start_order: Vec<usize> =
        long.iter().copied().chain((0..independent.len()).filter(|k| !long.contains(k))).collect();
    let next = AtomicUsize::new(0);
    let first_failed = AtomicUsize::new(usize::MAX);
    let outcomes: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..independent.len()).map(|_| None).collect());
    let worker = || loop {
        let Some(&k) = start_order.get(next.fetch_add(1, Ordering::Relaxed)) else { return };
        if k > first_failed.load(Ordering::Acquire) {
            continue;
        }
        let mut report = new_report();
        let outcome = match panic::catch_unwind(AssertUnwindSafe(|| independent[k](&mut report))) {
            Ok(()) if report.errors.is_empty() => continue,
            Ok(()) => Outcome::Errors(report.errors),
            Err(payload) => Outcome::Panicked(payload),
        };
        first_failed.fetch_min(k, Ordering::AcqRel);
        outcomes.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(outcome);
    };
    // The other threads start while the ordered passes run (starting one
    // takes as long as a pass on a busy machine) and wait for their verdict.
    let gate = Gate::default();
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(|| {
                if gate.wait() {
                    worker()
                }
            });
        }
        // Closed on every way out, a panic included, so no thread waits on.
        let _closed = CloseOnDrop(&gate);
        let mut report = new_report();
        for pass in ordered {
            pass(&mut report);
            if !report.errors.is_empty() {
                return Err(report.errors);
            }
        }
        gate.open(true);
        worker();
        Ok(())
    })?;
    let first = first_failed.into_inner();
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    match outcomes.get_mut(first).and_then(Option::take) {
        None => Ok(()),
        Some(Outcome::Errors(errors)) => Err(errors),
        Some(Outcome::Panicked(payload)) => panic::resume_unwind(payload),
    }
}

/// Every pass on this thread, in order (or, in fuzzing builds, every
/// independent pass whatever the others found).
fn run_in_order<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    ordered: &[Pass],
    independent: &[Pass],
) -> Result<(), Vec<ValidationError>> {
    let mut report = new_report();
    for pass in ordered {
        pass(&mut report);
        if !report.errors.is_empty() {
            return Err(report.errors);
        }
    }
    if EVERY_PASS {
        let mut first = None;
        for pass in independent {
            let mut report = new_report();
            pass(&mut report);
            if first.is_none() && !report.errors.is_empty() {
                first = Some(report.errors);
            }
        }
        return first.map_or(Ok(()), Err);
    }
    for pass in independent {
        pass(&mut report);
        if !report.errors.is_empty() {
            return Err(report.errors);
        }
    }
    Ok(())
}

struct CloseOnDrop<'a>(&'a Gate);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.open(false);
    }
}

/// Where the waiting threads learn whether the ordered passes passed.
#[derive(Default)]
struct Gate {
    verdict: Mutex<Option<bool>>,
    opened: Condvar,
}

impl Gate {
    /// Sets the verdict, unless it is set already.
    fn open(&self, go: bool) {
        self.verdict.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(go);
        self.opened.notify_all();
    }

    /// Blocks until [`Gate::open`]; whether to go on.
    fn wait(&self) -> bool {
        let mut verdict = self.verdict.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match *verdict {
                Some(go) => return go,
                None => verdict = self.opened.wait(verdict).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }
}

/// How many threads the independent passes may use.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::module::Module;
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
        }
        let alone = std::panic::catch_unwind(AssertUnwindSafe(|| run(&new_report, &[&ok], &[&ok, &panics], &[], 2)));
        assert!(alone.is_err(), "a panic no earlier failure explains is a bug, and shows");
        let in_ordered = std::panic::catch_unwind(AssertUnwindSafe(|| run(&new_report, &[&panics], &[&ok], &[], 2)));
        assert!(in_ordered.is_err(), "and does not leave a thread waiting");
    }
}
