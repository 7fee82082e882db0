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
use std::sync::{Barrier, Mutex, OnceLock};

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
    let board = Board::new(threads);
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(|| board.work(new_report, structural, independent, long_first));
        }
        board.work(new_report, structural, independent, long_first)
    })
}

/// How many threads should validate a module of `words` words: on a large
/// one they start before it is read ([`with_helpers`]), as starting a
/// thread (and waking an idle core) takes a millisecond or more.
pub(crate) fn threads_for(words: usize) -> usize {
    if EVERY_PASS || words < PARALLEL_FROM * 4 {
        1
    } else {
        threads()
    }
}

/// Starts `threads - 1` helper threads, reads the module on this one
/// meanwhile, then runs `each` on every thread with the module and a board
/// of `threads` places for [`Board::work`]; returns this thread's answer.
/// `each` must take the same path on every thread, and every path that
/// reaches a board's work must reach it on all threads.
pub(crate) fn with_helpers<M: Send + Sync, R>(
    threads: usize,
    read: impl FnOnce() -> M,
    each: impl Fn(&M, &Board) -> R + Sync,
) -> R {
    let board = Board::new(threads);
    // `None` if reading panicked: helpers must not wait for ever.
    let module: OnceLock<Option<M>> = OnceLock::new();
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(|| {
                if let Some(m) = module.wait() {
                    each(m, &board);
                }
            });
        }
        match panic::catch_unwind(AssertUnwindSafe(read)) {
            Ok(m) => {
                let m = module.get_or_init(|| Some(m)).as_ref().expect("just read");
                each(m, &board)
            }
            Err(payload) => {
                let _ = module.set(None);
                panic::resume_unwind(payload)
            }
        }
    })
}

/// What the threads validating one module share: each group's progress,
/// and the points where they wait for each other.
pub(crate) struct Board {
    structure: Progress,
    rest: Progress,
    /// The other passes start once every structural pass is done.
    between: Barrier,
    /// The answer is read once every pass is done.
    done: Barrier,
    /// The thread that reads the answer.
    owner: std::thread::ThreadId,
}

impl Board {
    /// A board for `threads` threads, the answer going to this one.
    fn new(threads: usize) -> Board {
        Board {
            structure: Progress::default(),
            rest: Progress::default(),
            between: Barrier::new(threads),
            done: Barrier::new(threads),
            owner: std::thread::current().id(),
        }
    }

    /// This thread's share of `structural`, then, if they all passed, of
    /// `independent` (`long_first` first). Every thread of the board calls
    /// it with the same passes; the thread the board belongs to gets the
    /// first failing pass's errors (or its panic), the others `Ok`.
    pub(crate) fn work<'m, 'w>(
        &self,
        new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
        structural: &[Pass],
        independent: &[Pass],
        long_first: &[Pass],
    ) -> Result<(), Vec<ValidationError>> {
        self.structure.work(new_report, structural, &order(structural, &[]));
        self.between.wait();
        if !self.structure.failed() {
            self.rest.work(new_report, independent, &order(independent, long_first));
        }
        self.done.wait();
        if std::thread::current().id() != self.owner {
            return Ok(());
        }
        self.structure.result()?;
        self.rest.result()
    }
}

/// The order passes start in: `first` (passes of `passes`), then the
/// others in order.
fn order(passes: &[Pass], first: &[Pass]) -> Vec<usize> {
    let first: Vec<usize> = first
        .iter()
        .filter_map(|l| passes.iter().position(|p| std::ptr::addr_eq(*p as *const _, *l as *const _)))
        .collect();
    first.iter().copied().chain((0..passes.len()).filter(|k| !first.contains(k))).collect()
}

/// One group of passes shared out between threads, each taking the next.
struct Progress {
    next: AtomicUsize,
    first_failed: AtomicUsize,
    /// The failures, by pass.
    outcomes: Mutex<Vec<(usize, Outcome)>>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress { next: AtomicUsize::new(0), first_failed: AtomicUsize::new(usize::MAX), outcomes: Mutex::default() }
    }
}

impl Progress {
    /// Runs passes until none is left (or all left come after a failure).
    fn work<'m, 'w>(&self, new_report: &(dyn Fn() -> Report<'m, 'w> + Sync), passes: &[Pass], order: &[usize]) {
        while let Some(&k) = order.get(self.next.fetch_add(1, Ordering::Relaxed)) {
            if k > self.first_failed.load(Ordering::Acquire) {
                continue;
            }
            let mut report = new_report();
            let outcome = match panic::catch_unwind(AssertUnwindSafe(|| passes[k](&mut report))) {
                Ok(()) if report.errors.is_empty() => continue,
                Ok(()) => Outcome::Errors(report.errors),
                Err(payload) => Outcome::Panicked(payload),
            };
            self.first_failed.fetch_min(k, Ordering::AcqRel);
            self.outcomes.lock().unwrap_or_else(|e| e.into_inner()).push((k, outcome));
        }
    }

    fn failed(&self) -> bool {
        self.first_failed.load(Ordering::Acquire) != usize::MAX
    }

    /// The first failing pass's errors; its panic, if it panicked.
    fn result(&self) -> Result<(), Vec<ValidationError>> {
        let first = self.first_failed.load(Ordering::Acquire);
        let mut outcomes = self.outcomes.lock().unwrap_or_else(|e| e.into_inner());
        match outcomes.iter().position(|(k, _)| *k == first).map(|at| outcomes.swap_remove(at).1) {
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
    use crate::validate::{ErrorKind, ValOptions};

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

    #[test]
    fn threads_started_before_reading_give_the_answer_of_one() {
        let words = big_words();
        assert!(threads_for(words.len()) > 1 || threads() == 1, "large enough to start threads early");
        let options = ValOptions::default();
        let messages = |r: Result<(), crate::validate::ValidationErrors>| {
            r.err().map(|e| e.into_iter().map(|e| e.message).collect::<Vec<_>>())
        };
        let one = |w: &[u32]| match Module::read(w) {
            Ok(m) => messages(crate::validate::validate_module(&m, &options)),
            Err(e) => Some(vec![e.kind().to_string()]),
        };
        assert!(crate::validate::validate(&words, &options).is_ok());
        // Each thread must take the same path: a module that does not
        // read, one whose header is rejected, one a late pass rejects.
        let mut truncated = words.clone();
        truncated.truncate(words.len() - 1);
        *truncated.last_mut().unwrap() = 0x00ff_0000 | 43;
        let mut version = words.clone();
        version[1] = 0x0002_0000;
        let mut late = words.clone();
        late.extend([(4 << 16) | 43, 1, 99_999, 0]);
        for (name, w) in [("truncated", &truncated), ("version", &version), ("late", &late)] {
            let answer = messages(crate::validate::validate(w, &options));
            assert!(answer.is_some(), "{name}");
            assert_eq!(answer, one(w), "{name}");
        }
    }

    fn fail(message: &'static str) -> impl Fn(&mut Report) + Sync {
        move |r: &mut Report| r.module_error(ErrorKind::Limit, message)
    }

    #[test]
    fn the_first_failing_pass_in_order_decides_however_they_are_shared() {
        let words = big_words();
        let module = Module::read(&words).unwrap();
        let options = ValOptions::default();
        let new_report = || Report { module: &module, options: &options, errors: Vec::new(), limit: 100 };
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
