//! Assembling a large text on several threads, with exactly the result of
//! reading it in one pass.
//!
//! The main thread reads the text up to the first function (the module's
//! types, constants, names and decorations) and freezes the id names it
//! has numbered. The functions are cut into segments, several per thread.
//! The main thread reads segments from the front; workers take them from
//! the back, each on top of that frozen state, until the two meet, so
//! that a thread slowed down (by the machine, or by a harder part of the
//! text) only does less. A worker gives each name the frozen state lacks
//! a local number, and marks the output words holding one.
//!
//! The main thread then takes the workers' segments in order. A worker's
//! local names get the numbers one pass would have given them: the main
//! thread's number if it met the name first, else the next numbers in the
//! order the worker met them. Its marked words are rewritten and appended.
//!
//! A segment is thrown away, and the main thread reads it itself, whenever
//! the worker's reading might differ from the one-pass reading:
//! - the worker found an error (its diagnostics would lack context);
//! - the main thread's reading did not stop exactly where the segment
//!   starts (the split fell inside an instruction, such as a string
//!   spanning lines);
//! - the worker declared a type or imported a set under an id the main
//!   thread had meanwhile declared one under (one pass would report the
//!   second declaration), or read an OpSwitch whose selector the main
//!   thread had meanwhile given another type (its literals would be read
//!   with the other width).
//!
//! Anything else a worker cannot know, such as the type of a constant
//! declared after the fork, makes its reading fail, so that case is the
//! first one.
//!
//! Numbered names (`%123`) need no freezing: only the main thread writes
//! its number table, and a worker that finds a name there uses that
//! number, which is final (see [`Ids::get_rest`](super::ids)).
//!
//! When the output streams to a writer, a worker streams its words to an
//! unnamed temporary file, which the main thread reads back a chunk at a
//! time: memory stays bounded by the text, not the output.

use super::ids::{ones, Frozen, IdMap, Ids, LocalIds, Numbers, MAX_SPLIT_TEXT};
use super::known_types::{Added, Additions, KnownTypes};
use super::{AsmOptions, Assembler, Import};
use crate::binary::encode::{Encoder, Sink};
use crate::placement::Placement;
use crate::text::lex::scan::{instruction_prefix, is_word_end, line_start, next_line, skip_blanks};
use crate::text::lex::{Cursor, Position};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Segments taken over from workers, in this process (for tests).
pub static ADOPTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Texts shorter than this are read on one thread: a thread costs more
/// than it saves.
const MIN_TEXT: usize = 1 << 20;
/// The least text worth a segment of its own.
const MIN_SEGMENT: usize = 256 << 10;
/// Segments per thread: the threads' shares even out to within a segment.
const SEGMENTS_PER_THREAD: usize = 8;
/// Texts this long or longer have workers spill their words to temporary
/// files when the output streams, so that memory stays bounded by the
/// text: a worker's words are about a third of the text it read. Below,
/// they stay in memory: writing them out and reading them back was a
/// tenth of assembling a 4 MB text (the main thread reads them back alone).
const SPILL_FROM: usize = 16 << 20;
/// At most this many threads unless asked for more: merging is serial.
const MAX_AUTO_THREADS: usize = 8;
/// At most this many threads whatever is asked: each costs a stack, and
/// beyond a few the serial merge dominates anyway.
pub const MAX_THREADS: usize = 64;

/// Where to split a text: read up to `fork` first, then the segments that
/// begin at each of `starts` (the first one beginning where the main
/// thread's own first part ends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub fork: usize,
    pub starts: Vec<usize>,
    /// Worker threads to start.
    pub workers: usize,
    /// Whether the main thread reads segments itself once it has read up
    /// to the first start. Without, workers read them all (tests use this
    /// to make sure segments are taken over).
    pub main_reads: bool,
    /// Whether workers spill their words to temporary files when the
    /// output streams to a writer (else they keep them in memory).
    pub spill: bool,
}

/// The split for `src` (the text up to any NUL), or `None` to read it on
/// one thread.
pub(super) fn plan(src: &[u8], options: &AsmOptions) -> Option<Plan> {
    if options.preserve_numeric_ids {
        // Numbers depend on every name of the text (a dry run first).
        return None;
    }
    if let Some((fork, starts)) = &options.split_at {
        // Offsets chosen by a test may fall inside a character; readers
        // start at character boundaries.
        let boundary = |mut at: usize| {
            at = at.min(src.len());
            while at > 0 && at < src.len() && (src[at] as i8) < -0x40 {
                at -= 1;
            }
            at
        };
        let starts: Vec<usize> = starts.iter().map(|&s| boundary(s)).collect();
        // Tests split small texts: spill whenever the output streams, so
        // that they read spilled segments back.
        return Some(Plan { fork: boundary(*fork), workers: starts.len(), starts, main_reads: false, spill: true });
    }
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_AUTO_THREADS),
        n => n.min(MAX_THREADS),
    };
    if threads < 2 || src.len() < MIN_TEXT || src.len() >= MAX_SPLIT_TEXT || options.general_only {
        return None;
    }
    let fork = first_function(src)?;
    let rest = src.len() - fork;
    let n = (threads * SEGMENTS_PER_THREAD).min(rest / MIN_SEGMENT);
    if n < 2 {
        return None;
    }
    let mut starts: Vec<usize> = Vec::new();
    for k in 1..n {
        if let Some(s) = instruction_line(src, fork + rest * k / n) {
            if starts.last().is_none_or(|&l| s > l) {
                starts.push(s);
            }
        }
    }
    // No more workers than segments: extra ones would find nothing to read.
    let workers = (threads - 1).min(starts.len());
    let spill = src.len() >= SPILL_FROM;
    (!starts.is_empty()).then_some(Plan { fork, starts, workers, main_reads: true, spill })
}

/// Where the first line that begins with an `OpFunction` instruction
/// begins (its first word).
fn first_function(src: &[u8]) -> Option<usize> {
    for at in memchr::memmem::find_iter(src, b"OpFunction") {
        if !is_word_end(src, at + 10) {
            continue;
        }
        let first = skip_blanks(src, line_start(src, at));
        if instruction_prefix(src, first).is_some_and(|(_, op, _)| op == at) {
            return Some(first);
        }
    }
    None
}

/// The first word of the first line at or after byte `from` whose first
/// word begins an instruction.
fn instruction_line(src: &[u8], from: usize) -> Option<usize> {
    let mut line = next_line(src, from)?;
    while line < src.len() {
        let first = skip_blanks(src, line);
        if first < src.len() && instruction_prefix(src, first).is_some() {
            return Some(first);
        }
        line = next_line(src, line)?;
    }
    None
}

/// What workers start from: the main thread's state at the fork.
struct Fork {
    base: Arc<Frozen>,
    known: KnownTypes,
    imports: FxHashMap<u32, Import>,
}

/// Where a worker's words are.
enum Words {
    InMemory(Vec<u32>),
    /// Written to a temporary file, this many: when the output streams to a
    /// writer, a worker's words stay out of memory too.
    Spilled(std::fs::File, usize),
}

/// A worker's reading of one segment.
struct Segment {
    start: usize,
    /// Where its reading ended: the next instruction's start, or the end of
    /// the text.
    end: usize,
    ok: bool,
    out: Words,
    marks: Vec<u64>,
    ids: LocalIds,
    known: Additions,
    imports: Vec<(u32, Import)>,
    switch_selectors: Vec<(u32, super::TypeClass)>,
}

/// An output buffer for a segment of `len` bytes of text, its likely size
/// already touched: a new page costs a fault, which a worker waiting for
/// the fork can take without delaying anyone.
fn output_buffer(len: usize) -> Vec<u32> {
    // Disassembled text takes 9 to 12 bytes a word.
    let mut out = Vec::with_capacity(len / 8);
    // Not zeros: those the compiler may turn into an untouched allocation.
    out.resize(len / 12, 1);
    out.clear();
    out
}

/// Where a worker writes: into memory, or (`spill`) into a temporary file.
enum Output {
    Memory(Vec<u32>),
    Spill(std::io::BufWriter<std::fs::File>),
}

impl Output {
    /// The output for a segment of `len` bytes of text.
    fn new(spill: bool, len: usize) -> Output {
        if spill {
            if let Ok(file) = tempfile::tempfile() {
                return Output::Spill(std::io::BufWriter::with_capacity(1 << 16, file));
            }
        }
        Output::Memory(output_buffer(len))
    }
}

/// Which segments are still to be read: the main thread takes them from
/// the front, workers from the back.
struct Claims {
    /// The first segment nobody has taken.
    next: usize,
    /// Segments from here on are taken by workers.
    taken_from: usize,
    /// Where each segment's reading goes: taken by whoever reads it, so that
    /// a worker that panics drops it and the main thread stops waiting.
    senders: Vec<Option<std::sync::mpsc::Sender<Segment>>>,
}

impl Claims {
    /// Takes the last segment left, for a worker.
    fn take_last(&mut self) -> Option<(usize, std::sync::mpsc::Sender<Segment>)> {
        while self.taken_from > self.next {
            self.taken_from -= 1;
            if let Some(send) = self.senders[self.taken_from].take() {
                return Some((self.taken_from, send));
            }
        }
        None
    }

    /// Takes segment `i` for the main thread, which has read all before it,
    /// unless a worker has it.
    fn take_first(&mut self, i: usize) -> bool {
        if i < self.taken_from {
            self.next = i + 1;
            self.senders[i] = None;
            true
        } else {
            false
        }
    }
}

/// Leaves no segment waiting for a worker that panics: the main thread
/// reads those itself, and the panic goes on when the thread is joined.
struct ReleaseOnPanic<'a>(&'a Mutex<Claims>);

impl Drop for ReleaseOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut claims = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            claims.senders.iter_mut().for_each(|s| *s = None);
        }
    }
}

/// Output buffers, already touched, for a worker's likely `share` of the
/// text in segments of about `each` bytes.
fn ready_buffers(share: usize, each: usize) -> Vec<Vec<u32>> {
    (0..share.div_ceil(each.max(1))).map(|_| output_buffer(each)).collect()
}

/// Reads `src` from `start` (the first word of an instruction) until the
/// next instruction would start at or after `stop`, writing into `out`.
#[allow(clippy::too_many_arguments)]
fn work(
    text: &str,
    src: &str,
    options: &AsmOptions,
    fork: &Fork,
    start: usize,
    stop: usize,
    out: Output,
    numbers: &mut Option<Numbers>,
) -> Segment {
    let cur = Cursor::without_nul(src);
    let (memory, mut spill) = match out {
        Output::Memory(words) => (words, None),
        // A chunk and the longest instruction.
        Output::Spill(file) => (Vec::with_capacity(Encoder::CHUNK + 0x1_0000), Some(file)),
    };
    let encoder = Encoder::fragment(memory, spill.as_mut().map(|s| s as &mut dyn Sink));
    let ids = Ids::worker(text, fork.base.clone(), numbers.take());
    let mut a = Assembler::with_cursor(text, cur, options, ids, encoder);
    a.worker = true;
    a.known = fork.known.logging();
    a.imports = fork.imports.clone();
    a.cur.pos = Position { index: start };
    a.run_to(stop);
    a.flush_out();
    let end = if a.cur.has_text() { a.cur.pos.index } else { src.len() };
    let (marks, known) = (std::mem::take(&mut a.marks), a.known.additions());
    let (imports, switch_selectors) = (std::mem::take(&mut a.imports_added), std::mem::take(&mut a.switch_selectors));
    let (words, count, error) = a.out.finish_fragment();
    let ok = !a.diags.has_errors() && !a.gave_up && error.is_none();
    let (ids, spare) = a.ids.into_local();
    *numbers = spare;
    let (ok, out) = match spill.map(|s| s.into_inner()) {
        None => (ok, Words::InMemory(words)),
        Some(Ok(file)) => (ok, Words::Spilled(file, count)),
        Some(Err(_)) => (false, Words::InMemory(Vec::new())),
    };
    Segment { start, end, ok, out, marks, ids, known, imports, switch_selectors }
}

impl<'t> Assembler<'t, '_> {
    /// Reads the whole text (from its first word) as `plan` splits it.
    pub(super) fn run_split(&mut self, plan: Plan) {
        let src = self.cur.source();
        let mut starts = plan.starts;
        starts.retain(|&s| s > self.cur.pos.index && s < src.len());
        starts.sort_unstable();
        starts.dedup();
        if starts.is_empty() || plan.workers == 0 {
            self.run_to(usize::MAX);
            return;
        }
        // Segment i runs from bounds[i] to bounds[i + 1].
        let bounds: Vec<usize> = starts.iter().copied().chain([usize::MAX]).collect();
        let count = starts.len();
        let (text, options, spill) = (self.text, self.options, plan.spill && self.out.is_streaming());
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..count).map(|_| std::sync::mpsc::channel()).unzip();
        let claims =
            Mutex::new(Claims { next: 0, taken_from: count, senders: senders.into_iter().map(Some).collect() });
        // A worker's likely share of the segments' text, and their size,
        // for the buffers it makes ready.
        let segments = src.len() - starts[0];
        let share = segments / (plan.workers + usize::from(plan.main_reads));
        // Each thread on a CPU of its own (see `placement`).
        let placement = Placement::new();
        let (claims, bounds, placement) = (&claims, &bounds, &placement);
        std::thread::scope(|scope| {
            // Workers start at once, to make their output buffers ready while
            // this thread reads up to the fork; then they wait for its state.
            let forks: Vec<_> = (1..=plan.workers)
                .map(|k| {
                    let (send, receive) = std::sync::mpsc::channel::<Option<Arc<Fork>>>();
                    scope.spawn(move || {
                        placement.pin_helper(k);
                        let _guard = ReleaseOnPanic(claims);
                        let mut ready = if spill { Vec::new() } else { ready_buffers(share, segments / count) };
                        let Ok(Some(fork)) = receive.recv() else { return };
                        let mut numbers = None;
                        loop {
                            // Not in the loop's head: the lock would be held
                            // for the whole body.
                            let claim = claims.lock().unwrap_or_else(PoisonError::into_inner).take_last();
                            let Some((i, send)) = claim else { break };
                            let (start, stop) = (bounds[i], bounds[i + 1]);
                            let out = match ready.pop() {
                                Some(buffer) => Output::Memory(buffer),
                                None => Output::new(spill, stop.min(src.len()) - start),
                            };
                            // The main thread may have given up waiting.
                            let _ = send.send(work(text, src, options, &fork, start, stop, out, &mut numbers));
                        }
                    });
                    send
                })
                .collect();
            let _pinned = placement.pin_here();
            self.run_to(plan.fork);
            let fork = (!self.diags.has_errors() && self.cur.has_text()).then(|| {
                Arc::new(Fork { base: self.ids.freeze(), known: self.known.clone(), imports: self.imports.clone() })
            });
            // Without a fork no worker takes a segment, so this thread
            // must read them all.
            let main_reads = plan.main_reads || fork.is_none();
            for send in forks {
                // A worker that has gone (it cannot have) needs nothing.
                let _ = send.send(fork.clone());
            }
            self.run_to(starts[0]);
            for (i, receive) in receivers.into_iter().enumerate() {
                let next = bounds[i + 1];
                let mine = main_reads && claims.lock().unwrap_or_else(PoisonError::into_inner).take_first(i);
                if !mine {
                    // Fails only if the worker panicked: then read it here.
                    if let Ok(segment) = receive.recv() {
                        if self.cur.pos.index == segment.start && segment.ok && !self.diags.has_errors() {
                            self.adopt(segment, next != usize::MAX);
                        }
                    }
                }
                if self.cur.pos.index < next {
                    self.run_to(next);
                }
            }
        });
    }

    /// Appends a worker's segment as if this thread had read it, unless
    /// one pass would have read it differently. `more`: segments follow,
    /// which need what this one declared.
    fn adopt(&mut self, mut segment: Segment, more: bool) {
        if self.clashes(&segment) {
            return;
        }
        let map = self.ids.adopt(std::mem::take(&mut segment.ids));
        if more {
            // In text order, as one pass records them: a value noted twice
            // keeps its first type, and only integer types count.
            for &added in &segment.known.entries {
                match added {
                    Added::Type(t, class) => self.known.declare(map.get(t), class),
                    Added::Value(v, t) => _ = self.known.note_value(map.get(v), map.get(t)),
                }
            }
            for &(i, import) in &segment.imports {
                self.imports.insert(map.get(i), import);
            }
        }
        match &mut segment.out {
            Words::InMemory(out) => {
                let len = out.len();
                for i in ones(&segment.marks).take_while(|&i| i < len) {
                    out[i] = map.get(out[i]);
                }
                self.emit_segment(out);
            }
            Words::Spilled(file, count) => {
                if let Err(e) = self.emit_spilled(file, *count, &segment.marks, &map) {
                    self.out.fail(e);
                }
            }
        }
        self.cur.pos = Position { index: segment.end };
        ADOPTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Reads a spilled segment back a chunk at a time, rewrites its marked
    /// words by `map`, and writes it after the words of this thread.
    fn emit_spilled(
        &mut self,
        file: &mut std::fs::File,
        count: usize,
        marks: &[u64],
        map: &IdMap,
    ) -> std::io::Result<()> {
        use std::io::{Read, Seek};
        self.flush_out();
        file.rewind()?;
        const CHUNK: usize = 1 << 14;
        let mut bytes = vec![0u8; 4 * CHUNK];
        let mut marked = ones(marks).peekable();
        let mut done = 0;
        while done < count {
            let n = CHUNK.min(count - done);
            let chunk = &mut bytes[..4 * n];
            file.read_exact(chunk)?;
            while let Some(i) = marked.next_if(|&i| i < done + n) {
                let at = 4 * (i - done);
                let word: [u8; 4] = chunk[at..at + 4].try_into().expect("four bytes");
                chunk[at..at + 4].copy_from_slice(&map.get(u32::from_le_bytes(word)).to_le_bytes());
            }
            self.out.write_bytes(chunk);
            done += n;
        }
        Ok(())
    }

    /// Whether one pass would have read the segment differently from its
    /// worker, for want of what this thread declared meanwhile: a type or
    /// set again under an id (an error), or an OpSwitch selector of
    /// another type (other literal widths). Nothing else read depends on
    /// earlier declarations in a way a worker could get wrong unnoticed.
    fn clashes(&self, segment: &Segment) -> bool {
        let here = |id| self.ids.find_local(&segment.ids, id);
        let types = segment.known.entries.iter().filter_map(|a| match *a {
            Added::Type(t, _) => Some(t),
            Added::Value(..) => None,
        });
        types.into_iter().any(|t| here(t).is_some_and(|t| self.known.is_declared(t)))
            || segment.imports.iter().any(|&(i, _)| here(i).is_some_and(|i| self.imports.contains_key(&i)))
            || segment.switch_selectors.iter().any(|&(v, class)| {
                // This thread's definition came first, so its type counts.
                here(v).and_then(|v| self.known.value_class(v)).is_some_and(|&c| c != class)
            })
    }

    /// Appends finished words after those of this thread.
    fn emit_segment(&mut self, words: &[u32]) {
        self.flush_out();
        self.out.append(words);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of `functions` functions of `lines` loads and stores each.
    fn big_text(functions: usize, lines: usize) -> String {
        let mut t = String::from(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %int = OpTypeInt 32 1\n%ptr = OpTypePointer Function %int\n",
        );
        for f in 0..functions {
            t += &format!("%f{f} = OpFunction %void None %fn\n%l{f} = OpLabel\n%v{f} = OpVariable %ptr Function\n");
            for i in 0..lines {
                t += &format!("%{} = OpLoad %int %v{f}\nOpStore %v{f} %{}\n", f * lines + i + 100, f * lines + i + 100);
            }
            t += "OpReturn\nOpFunctionEnd\n";
        }
        t
    }

    #[test]
    fn split_offsets_inside_a_character_move_back_to_its_start() {
        // Found by the spirv_as fuzz target: a stand-in for a non-UTF-8 byte
        // is four bytes long, and a test's split offset fell inside one.
        let text = "OpCapability Shader\nOpSourceExtension \"\u{F00F7}\u{F00F7}\"\nOpMemoryModel Logical GLSL450\n";
        let inside = text.find('\u{F00F7}').unwrap() + 2;
        let options = AsmOptions { split_at: Some((inside, vec![inside + 4])), ..AsmOptions::default() };
        let plan = plan(text.as_bytes(), &options).unwrap();
        assert!(text.is_char_boundary(plan.fork) && plan.starts.iter().all(|&s| text.is_char_boundary(s)));
        let one = crate::text::assemble_with_warnings(text, &AsmOptions::default()).map(|a| a.words);
        let split = crate::text::assemble_with_warnings(text, &options).map(|a| a.words);
        assert_eq!(format!("{split:?}"), format!("{one:?}"));
    }

    #[test]
    fn plans_split_at_instructions_after_the_first_function() {
        let text = big_text(400, 150);
        assert!(text.len() > MIN_TEXT);
        let options = AsmOptions::default().threads(3);
        let plan = plan(text.as_bytes(), &options).expect("a large text is split");
        assert_eq!(&text[plan.fork..plan.fork + 22], "%f0 = OpFunction %void");
        assert_eq!((plan.workers, plan.main_reads), (2, true));
        // Eight segments a thread (the main thread's first one included) if
        // the text has enough for that many.
        let segments = (3 * SEGMENTS_PER_THREAD).min((text.len() - plan.fork) / MIN_SEGMENT);
        assert!(segments > 2);
        assert_eq!(plan.starts.len(), segments - 1);
        for &s in &plan.starts {
            assert!(s > plan.fork && text[..s].ends_with('\n'), "{s}");
            assert!(instruction_prefix(text.as_bytes(), s).is_some(), "{s}");
        }
        // Of about even length: within a function's worth of each other.
        let bounds: Vec<usize> = [plan.fork].iter().chain(&plan.starts).chain([&text.len()]).copied().collect();
        let lengths: Vec<usize> = bounds.windows(2).map(|w| w[1] - w[0]).collect();
        let (min, max) = (lengths.iter().min().unwrap(), lengths.iter().max().unwrap());
        assert!(max - min < 2 * 150 * 40, "{lengths:?}");
    }

    #[test]
    fn segments_are_taken_from_both_ends_until_they_meet() {
        let (senders, _receivers): (Vec<_>, Vec<_>) = (0..5).map(|_| std::sync::mpsc::channel()).unzip();
        let mut claims = Claims { next: 0, taken_from: 5, senders: senders.into_iter().map(Some).collect() };
        assert!(claims.take_first(0));
        assert_eq!(claims.take_last().map(|c| c.0), Some(4));
        assert_eq!(claims.take_last().map(|c| c.0), Some(3));
        assert!(claims.take_first(1));
        assert!(claims.take_first(2));
        assert!(!claims.take_first(3), "a worker has it");
        assert!(claims.take_last().is_none(), "nothing left");
    }

    #[test]
    fn small_or_functionless_or_one_thread_texts_are_not_split() {
        let options = AsmOptions::default().threads(2);
        assert_eq!(plan(big_text(20, 20).as_bytes(), &options), None);
        // Over a megabyte, but almost all before the first function.
        let mut text = String::from("OpCapability Shader\n");
        for i in 0..60_000 {
            text += &format!("%n{i} = OpTypeBool\n");
        }
        assert!(text.len() > MIN_TEXT);
        text += &big_text(1, 10);
        assert_eq!(plan(text.as_bytes(), &options), None);
        let big = big_text(400, 150);
        assert_eq!(plan(big.as_bytes(), &AsmOptions::default().threads(1)), None);
        let preserve = AsmOptions::default().threads(2).preserve_numeric_ids(true);
        assert_eq!(plan(big.as_bytes(), &preserve), None);
    }

    /// The automatic split of a large text gives what one pass gives, and
    /// is taken over (not read again).
    #[test]
    fn large_texts_split_by_themselves_like_one_pass() {
        let text = big_text(400, 150);
        let before = ADOPTED.load(std::sync::atomic::Ordering::Relaxed);
        let split = super::super::assemble(&text, &AsmOptions::default().threads(3)).unwrap();
        assert!(ADOPTED.load(std::sync::atomic::Ordering::Relaxed) >= before + 2);
        let one = super::super::assemble(&text, &AsmOptions::default().threads(1)).unwrap();
        assert_eq!(split, one);
        let mut streamed = std::io::Cursor::new(Vec::new());
        super::super::assemble_to_writer(&text, &AsmOptions::default().threads(3), &mut streamed).unwrap();
        assert_eq!(streamed.into_inner(), crate::binary::words_as_le_bytes(&one));
    }
}
