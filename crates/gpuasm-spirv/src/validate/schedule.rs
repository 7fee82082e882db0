//! Runs the validation passes and picks the errors spirv-val would report:
//! of the structural passes, the one whose first error spirv-val meets
//! first ([`Met`]); after them, the first pass (in order) that finds any,
//! except among the passes of spirv-val's per-instruction walk
//! ([`Independent::walk`]), where the one whose first error is at the
//! earliest instruction decides.
//! Asked for every error (`every`), it also runs the other passes after the
//! structural ones, whatever fails, and gives the errors of each failing
//! pass, the first failing pass's first.
//!
//! The structural passes check what every later pass walks (ids defined
//! once and before use, the logical layout, functions and blocks); the
//! passes after them start only once those have passed. spirv-val makes
//! its structural checks together, instruction by instruction, so all of
//! them run when one fails, and the error reported is the earliest one.
//! Every pass only reads the module, each into its own report, so on a
//! large module the structural ones, then the others, are shared out
//! between threads. The answer does not depend on how they were shared: a
//! pass after the structural ones is skipped only when an earlier one (in
//! order) has already failed and the two are not both of the walk, and the
//! errors kept are those [`Independent::decide`] picks from the failing
//! passes, as if they had run in order. A pass may meet a
//! module an earlier pass rejects; it must not panic on it, but if it does
//! while an earlier pass failed, the panic is dropped with that pass's
//! result, as a sequential run would not have reached it.

use super::{Report, ValidationError};
use crate::placement::Placement;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex, OnceLock};

/// One validation pass.
pub(crate) type Pass<'a> = &'a (dyn for<'m, 'w> Fn(&mut Report<'m, 'w>) + Sync);

/// When spirv-val meets a structural pass's errors. It walks the
/// instructions once making every structural check at each (ids,
/// capabilities, layout, blocks, limits, in that order), so the error it
/// reports is the one at the earliest instruction, whichever check finds
/// it.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Met {
    /// Before the walk (the header's id bound).
    Before,
    /// At each instruction, in rank `each` among the checks made there;
    /// the pass's errors of the whole module after the walk, in rank `end`
    /// among the checks made then.
    During {
        /// The rank among the checks made at each instruction.
        each: u8,
        /// The rank among the checks made after the walk.
        end: u8,
    },
}

/// The order of a failing structural pass's first error (pass `k`, its
/// errors `errors`) among spirv-val's checks: the lowest comes first.
fn met_key(met: Met, k: usize, errors: &[ValidationError]) -> (u8, usize, usize) {
    let first = errors.first();
    match (met, first.and_then(|e| e.met.or(e.instruction_index))) {
        (Met::Before, _) => (0, 0, k),
        (Met::During { each, .. }, Some(i)) => (1, i, each as usize),
        (Met::During { end, .. }, None) => (2, end as usize, k),
    }
}

/// The structural passes, each with when spirv-val meets its errors.
pub(crate) type Structural<'a> = [(Pass<'a>, Met)];

/// The passes after the structural ones, in spirv-val's order. Those of
/// `walk` (a range of `passes`) check what spirv-val checks in its second
/// walk over the instructions, making every such check at one instruction
/// before the next: when the first failing pass is one of them, the
/// failing one among them whose first error is at the earliest instruction
/// decides (errors of the whole module last; ties in pass order). The
/// others decide in pass order.
#[derive(Copy, Clone)]
pub(crate) struct Independent<'p, 'a> {
    pub passes: &'p [Pass<'a>],
    /// The walk's passes: `passes[walk.0..walk.1]`.
    pub walk: (usize, usize),
}

impl Independent<'_, '_> {
    fn in_walk(&self, k: usize) -> bool {
        (self.walk.0..self.walk.1).contains(&k)
    }

    /// Whether pass `k` can change the answer once pass `failed` failed.
    fn may_decide(&self, k: usize, failed: usize) -> bool {
        k < failed || (self.in_walk(k) && self.in_walk(failed))
    }

    /// The answer from the failing passes' errors (pass, errors; in pass
    /// order): the deciding pass's errors, then, with `every`, the other
    /// failing passes' in pass order.
    fn decide(&self, mut failed: Vec<(usize, Vec<ValidationError>)>, every: bool) -> Result<(), Failures> {
        let Some(&(first, _)) = failed.first() else { return Ok(()) };
        if self.in_walk(first) {
            let at = |errors: &[ValidationError]| {
                errors.first().and_then(|e| e.met.or(e.instruction_index)).unwrap_or(usize::MAX)
            };
            let best = (0..failed.len())
                .filter(|&j| self.in_walk(failed[j].0))
                .min_by_key(|&j| (at(&failed[j].1), j))
                .unwrap_or(0);
            let decider = failed.remove(best);
            failed.insert(0, decider);
        }
        if !every {
            failed.truncate(1);
        }
        Err(failed.into_iter().map(|(_, errors)| errors).collect())
    }
}

/// The structural group has no walk: the first failure in order ends it.
const NO_WALK: (usize, usize) = (0, 0);

/// Below this many instructions a module is validated on one thread: the
/// passes take less time than starting a thread.
const PARALLEL_FROM: usize = 16_384;

/// Fuzzing builds run every structural pass on every module, and every
/// other pass on every module the structural ones accept, as threads may,
/// so that the fuzzer finds a pass that panics on a module an earlier pass
/// rejects (small modules, which fuzzers make, would otherwise always run
/// in order and stop early).
const EVERY_PASS: bool = cfg!(fuzzing);

/// The errors of each failing pass, in pass order: the first is the one
/// spirv-val reports; there are more only when every error was asked for.
pub(crate) type Failures = Vec<Vec<ValidationError>>;

/// What a pass left: its errors, or the panic it raised.
enum Outcome {
    Errors(Vec<ValidationError>),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Runs `structural`, then `independent`, on up to `threads` threads (the
/// passes of `long_first`, those of `independent` that take longest, are
/// started first so that no long pass is left for the end), and returns the
/// errors of the first failing pass (with `every`, of each failing pass
/// once the structural ones pass: see [`Failures`]).
pub(crate) fn run<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    structural: &Structural,
    independent: Independent,
    long_first: &[Pass],
    threads: usize,
    every: bool,
) -> Result<(), Failures> {
    if EVERY_PASS {
        return run_every(new_report, structural, independent);
    }
    let threads = threads.min(independent.passes.len()).max(1);
    if threads == 1 || new_report().module.insts.len() < PARALLEL_FROM {
        return run_in_order(new_report, structural, independent, every);
    }
    let board = Board::new(threads);
    // Each thread on a CPU of its own (see `placement`).
    let placement = Placement::new();
    std::thread::scope(|s| {
        for k in 1..threads {
            let (board, placement) = (&board, &placement);
            s.spawn(move || {
                placement.pin_helper(k);
                board.work(new_report, structural, independent, long_first, every)
            });
        }
        let _pinned = placement.pin_here();
        board.work(new_report, structural, independent, long_first, every)
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
    let placement = Placement::new();
    std::thread::scope(|s| {
        for k in 1..threads {
            let (module, board, each, placement) = (&module, &board, &each, &placement);
            s.spawn(move || {
                placement.pin_helper(k);
                if let Some(m) = module.wait() {
                    each(m, board);
                }
            });
        }
        let _pinned = placement.pin_here();
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
    /// `independent` (`long_first` first; all of them with `every`, else
    /// none after a failure). Every thread of the board calls it with the
    /// same passes; the thread the board belongs to gets the failing
    /// passes' errors (or the first failing pass's panic), the others `Ok`.
    pub(crate) fn work<'m, 'w>(
        &self,
        new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
        structural: &Structural,
        independent: Independent,
        long_first: &[Pass],
        every: bool,
    ) -> Result<(), Failures> {
        // Later passes walk what the structural ones check: a structural
        // failure ends validation, even with `every`. All of them run, for
        // the earliest error.
        let passes: Vec<Pass> = structural.iter().map(|&(p, _)| p).collect();
        let structure = Independent { passes: &passes, walk: NO_WALK };
        self.structure.work(new_report, structure, &order(&passes, &[]), true);
        self.between.wait();
        if !self.structure.failed() {
            self.rest.work(new_report, independent, &order(independent.passes, long_first), every);
        }
        self.done.wait();
        if std::thread::current().id() != self.owner {
            return Ok(());
        }
        self.structure.earliest(structural)?;
        self.rest.result(independent, every)
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
    /// Runs passes until none is left (or, unless `every`, none left can
    /// change the answer after a failure).
    fn work<'m, 'w>(
        &self,
        new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
        group: Independent,
        order: &[usize],
        every: bool,
    ) {
        while let Some(&k) = order.get(self.next.fetch_add(1, Ordering::Relaxed)) {
            let failed = self.first_failed.load(Ordering::Acquire);
            if !every && failed != usize::MAX && !group.may_decide(k, failed) {
                continue;
            }
            let mut report = new_report();
            let outcome = match panic::catch_unwind(AssertUnwindSafe(|| group.passes[k](&mut report))) {
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

    /// The deciding pass's errors, then with `every` the other failing
    /// passes' ([`Independent::decide`]); the first failing pass's panic,
    /// if it panicked (a later pass's panic is dropped, as a run in order
    /// would not have reached it).
    fn result(&self, group: Independent, every: bool) -> Result<(), Failures> {
        let mut outcomes = std::mem::take(&mut *self.outcomes.lock().unwrap_or_else(|e| e.into_inner()));
        outcomes.sort_unstable_by_key(|(k, _)| *k);
        let mut failed = Vec::new();
        for (k, outcome) in outcomes {
            match outcome {
                Outcome::Errors(errors) => failed.push((k, errors)),
                Outcome::Panicked(payload) if failed.is_empty() => panic::resume_unwind(payload),
                Outcome::Panicked(_) => {}
            }
        }
        group.decide(failed, every)
    }

    /// The errors of the structural pass whose first error spirv-val meets
    /// first; the first failing pass's panic, if it panicked.
    fn earliest(&self, structural: &Structural) -> Result<(), Failures> {
        let mut outcomes = std::mem::take(&mut *self.outcomes.lock().unwrap_or_else(|e| e.into_inner()));
        outcomes.sort_unstable_by_key(|(k, _)| *k);
        let mut failed = Vec::new();
        for (k, outcome) in outcomes {
            match outcome {
                Outcome::Errors(errors) => failed.push((k, errors)),
                // A panic after a failing pass is dropped with it.
                Outcome::Panicked(payload) if failed.is_empty() => panic::resume_unwind(payload),
                Outcome::Panicked(_) => {}
            }
        }
        earliest(structural, failed)
    }
}

/// Of the failing structural passes (pass, errors; in pass order), the
/// errors of the one spirv-val reports.
fn earliest(structural: &Structural, failed: Vec<(usize, Vec<ValidationError>)>) -> Result<(), Failures> {
    match failed.into_iter().min_by_key(|(k, errors)| met_key(structural[*k].1, *k, errors)) {
        Some((_, errors)) => Err(vec![errors]),
        None => Ok(()),
    }
}

/// Every pass on this thread, in order: up to the first failure (and the
/// rest of the walk's passes if it is one of them), or with `every`, all
/// of `independent` once `structural` pass.
fn run_in_order<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    structural: &Structural,
    independent: Independent,
    every: bool,
) -> Result<(), Failures> {
    let all = |_: usize, _: &[(usize, Vec<ValidationError>)]| true;
    earliest(structural, run_all(new_report, structural.iter().map(|&(pass, _)| pass).enumerate(), all))?;
    let passes = independent.passes.iter().copied().enumerate();
    let until = |k: usize, failed: &[(usize, Vec<ValidationError>)]| {
        every || failed.first().is_none_or(|&(f, _)| independent.may_decide(k, f))
    };
    independent.decide(run_all(new_report, passes, until), every)
}

/// Runs each of `passes` (numbered) in order into a report of its own,
/// while `until` allows it; the failing ones' numbers and errors. A pass
/// that panics after one has failed is dropped: it met a module it does
/// not expect.
fn run_all<'p, 'm, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    passes: impl Iterator<Item = (usize, Pass<'p>)>,
    until: impl Fn(usize, &[(usize, Vec<ValidationError>)]) -> bool,
) -> Vec<(usize, Vec<ValidationError>)> {
    let mut failed = Vec::new();
    for (k, pass) in passes {
        if !until(k, &failed) {
            break;
        }
        let mut report = new_report();
        if failed.is_empty() {
            pass(&mut report);
        } else if panic::catch_unwind(AssertUnwindSafe(|| pass(&mut report))).is_err() {
            continue;
        }
        if !report.errors.is_empty() {
            failed.push((k, report.errors));
        }
    }
    failed
}

/// Fuzzing: every structural pass, then, if they all pass, every other one;
/// the first failure in order is the answer.
fn run_every<'m, 'w>(
    new_report: &(dyn Fn() -> Report<'m, 'w> + Sync),
    structural: &Structural,
    independent: Independent,
) -> Result<(), Failures> {
    let mut failed = Vec::new();
    for (k, (pass, _)) in structural.iter().enumerate() {
        let mut report = new_report();
        pass(&mut report);
        if !report.errors.is_empty() {
            failed.push((k, report.errors));
        }
    }
    earliest(structural, failed)?;
    let mut failed = Vec::new();
    for (k, pass) in independent.passes.iter().enumerate() {
        let mut report = new_report();
        pass(&mut report);
        if !report.errors.is_empty() {
            failed.push((k, report.errors));
        }
    }
    independent.decide(failed, false)
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
        // The module read as `validate` reads it, on this thread alone.
        let one = |w: &[u32]| match crate::validate::read(w) {
            Ok(m) => messages(crate::validate::validate_module(&m, &options)),
            Err(e) => Some(vec![crate::validate::binary_error(&e, w).message]),
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

    fn fail_at(inst: usize, message: &'static str) -> impl Fn(&mut Report) + Sync {
        move |r: &mut Report| r.error(ErrorKind::Layout, inst, message)
    }

    /// A structural pass spirv-val checks at each instruction.
    fn during(pass: Pass) -> (Pass, Met) {
        (pass, Met::During { each: 0, end: 0 })
    }

    fn at(each: u8) -> Met {
        Met::During { each, end: 0 }
    }

    /// Passes that decide in order (no walk).
    fn seq<'p, 'a>(passes: &'p [Pass<'a>]) -> Independent<'p, 'a> {
        Independent { passes, walk: NO_WALK }
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
                let first =
                    run(&new_report, &[during(&ok)], seq(&[&ok, &slow, late, panics]), long_first, threads, false)
                        .unwrap_err();
                assert_eq!(first[0][0].message, "slow and first", "{threads} threads");
            }
            assert!(run(&new_report, &[during(&ok)], seq(&[&ok, &ok, &ok]), &[], threads, false).is_ok());
            let ordered = run(&new_report, &[during(&fail("ordered"))], seq(&[late]), &[], threads, false).unwrap_err();
            assert_eq!(ordered[0][0].message, "ordered");
            let structural_fail = fail("structural");
            let structural = [during(&ok), during(&slow), during(&structural_fail), during(panics)];
            let first = run(&new_report, &structural, seq(&[late]), &[], threads, false).unwrap_err();
            assert_eq!(first[0][0].message, "slow and first", "{threads} threads");
        }
        let alone = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run(&new_report, &[during(&ok)], seq(&[&ok, &panics]), &[], 2, false)
        }));
        assert!(alone.is_err(), "a panic no earlier failure explains is a bug, and shows");
        for threads in [1, 2, 4] {
            let (late, panics): (Pass, Pass) = (&late, &panics);
            // Every failing pass, the first failing one first; a later
            // pass's panic is dropped; a structural failure still ends it.
            let every = run(&new_report, &[during(&ok)], seq(&[&ok, late, &slow, panics, &ok]), &[late], threads, true)
                .unwrap_err();
            let messages: Vec<&str> = every.iter().map(|errors| errors[0].message.as_str()).collect();
            assert_eq!(messages, ["later", "slow and first"], "{threads} threads");
            let (first_fail, second_fail) = (fail("structural"), fail("second"));
            let structural = [during(&ok), during(&first_fail), during(&second_fail)];
            let every = run(&new_report, &structural, seq(&[late]), &[], threads, true).unwrap_err();
            assert_eq!(every.len(), 1, "{threads} threads");
            assert_eq!(every[0][0].message, "structural");
        }
        let in_ordered = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run(&new_report, &[during(&panics)], seq(&[&ok]), &[], 2, false)
        }));
        assert!(in_ordered.is_err(), "and does not leave a thread waiting");
    }

    #[test]
    fn the_structural_error_spirv_val_meets_first_decides() {
        let words = big_words();
        let module = Module::read(&words).unwrap();
        let options = ValOptions::default();
        let new_report = || Report { module: &module, options: &options, errors: Vec::new(), limit: 100 };
        let (layout5, ids3, caps3) = (fail_at(5, "layout at 5"), fail_at(3, "ids at 3"), fail_at(3, "caps at 3"));
        let (module_wide, bound) = (fail("after the walk"), fail("the header"));
        let (layout5, ids3, caps3): (Pass, Pass, Pass) = (&layout5, &ids3, &caps3);
        let (module_wide, bound): (Pass, Pass) = (&module_wide, &bound);
        let (first_end, second_end) = (fail("first at the end"), fail("second at the end"));
        let (first_end, second_end): (Pass, Pass) = (&first_end, &second_end);
        let cases: [(&[(Pass, Met)], &str); 6] = [
            (&[(layout5, at(2)), (ids3, at(0)), (caps3, at(1)), (bound, Met::Before)], "the header"),
            (&[(layout5, at(2)), (caps3, at(1)), (ids3, at(0))], "ids at 3"),
            (&[(layout5, at(2)), (caps3, at(1))], "caps at 3"),
            (&[(module_wide, at(0)), (layout5, at(2))], "layout at 5"),
            (&[(module_wide, at(0))], "after the walk"),
            (
                &[(second_end, Met::During { each: 0, end: 1 }), (first_end, Met::During { each: 1, end: 0 })],
                "first at the end",
            ),
        ];
        for threads in [1, 2, 4] {
            for (structural, expected) in cases {
                for every in [false, true] {
                    let failures = run(&new_report, structural, seq(&[]), &[], threads, every).unwrap_err();
                    assert_eq!(failures.len(), 1, "{threads} threads");
                    assert_eq!(failures[0][0].message, expected, "{threads} threads, every {every}");
                }
            }
        }
    }

    #[test]
    fn in_the_walk_the_earliest_instruction_decides() {
        let words = big_words();
        let module = Module::read(&words).unwrap();
        let options = ValOptions::default();
        let new_report = || Report { module: &module, options: &options, errors: Vec::new(), limit: 100 };
        let ok = |_: &mut Report| {};
        let (before, at7, at3, at3_too) =
            (fail("before the walk"), fail_at(7, "at 7"), fail_at(3, "at 3"), fail_at(3, "at 3 too"));
        let (whole, after) = (fail("the whole module"), fail_at(1, "after the walk"));
        let (before, at7, at3, at3_too): (Pass, Pass, Pass, Pass) = (&before, &at7, &at3, &at3_too);
        let (whole, after, ok): (Pass, Pass, Pass) = (&whole, &after, &ok);
        // (passes, walk, the deciding pass's first message)
        let cases: [(&[Pass], (usize, usize), &str); 6] = [
            (&[ok, at7, at3, after], (1, 3), "at 3"),
            (&[ok, at7, at3_too, at3, after], (1, 4), "at 3 too"),
            (&[before, at7, at3], (1, 3), "before the walk"),
            (&[ok, whole, at7], (1, 3), "at 7"),
            (&[ok, at7, after, at3], (1, 2), "at 7"),
            (&[ok, ok, after, at3], (1, 2), "after the walk"),
        ];
        for threads in [1, 2, 4] {
            for (passes, walk, expected) in cases {
                for every in [false, true] {
                    let independent = Independent { passes, walk };
                    let failures = run(&new_report, &[during(&ok)], independent, &[], threads, every).unwrap_err();
                    assert_eq!(failures[0][0].message, expected, "{threads} threads, every {every}");
                    if every {
                        let failing = passes.iter().filter(|&&p| !std::ptr::addr_eq(p as *const _, ok as *const _));
                        assert_eq!(failures.len(), failing.count(), "{threads} threads");
                    }
                }
            }
        }
    }
}
