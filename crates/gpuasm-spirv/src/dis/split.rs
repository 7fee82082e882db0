//! Printing a module on two threads, in the layouts where a line depends on
//! its instruction alone: without `--comment`, `--offsets`,
//! `--nested-indent` and `--reorder-blocks` (each carries state from line to
//! line) — the default layout and `--raw-id`, with or without indentation,
//! header and colour.
//!
//! The instruction stream is cut into chunks at instruction boundaries.
//! This thread prints the first chunk; after it, each thread takes the next
//! chunk nobody has taken, so that the one with less to do besides
//! printing (the second: this one also starts the process, computes the
//! friendly names and writes everything) prints more. This thread writes
//! the chunks in order: its own as it prints them when all before them
//! are written, else from a buffer; the second thread's from the buffers
//! it hands over, a piece of a chunk at a time (so that the first thread
//! writes a chunk while the rest of it is printed), which come back to it
//! for reuse (fresh memory costs a page fault per 4 KiB). Each thread
//! skips the chunks the other prints
//! ([`InstructionParser::skip_to`]: word counts, result ids, and in full
//! only the declarations later instructions are read with). A module under
//! 2 MiB is cut once; a larger one every 512 KiB, so that at most six
//! chunks' text (about 8 MB) waits in memory (the peak stays within input
//! + output + 16 MB).
//!
//! Why the text is byte for byte what one thread prints:
//! - Friendly names are computed whole, by the one-pass
//!   [`IdNames::friendly`] every layout uses, before either thread prints
//!   a line (the second thread waits for them).
//! - A chunk starts at the first instruction that starts at or after a word
//!   offset computed from the module's length alone. Skipping and reading
//!   both step by word counts, so both threads find the same boundaries.
//!   As long as the instructions before a boundary read without error, a
//!   parser that skipped some of them is there in the state one thread's
//!   parser would have: types (literal widths), imported sets, ids already
//!   defined with their types. (Instructions the full reading could return
//!   undecoded, which defines no result id, are read in full.)
//! - The printer keeps nothing from one line to the next in these layouts,
//!   so each chunk's text is the one-thread text of its instructions.
//! - Errors: the thread printing a chunk finds its first parse error, with
//!   what one thread would report there: a chunk ends at its first error
//!   only if none came before, so the printing thread's state is right
//!   there. The output ends at it: the text before it is written (the
//!   chunks before, and the part of its own chunk printed), then the error
//!   is returned. A thread whose skipping fails stops taking chunks: the
//!   other prints the chunk it failed in, and fails there too. A failed
//!   write is returned as soon as it happens, as with one thread (the
//!   second thread stops at its next chunk).
//! - What the readers notice on the way (the first id past the bound,
//!   undecoded instructions) each notices in its own chunks; the two are
//!   merged, earliest first, at the end.
//!
//! Measured on the 1 MB module (callgrind, per thread): the names pass is
//! about a third of the first thread's instructions; skipping a chunk
//! costs about a tenth of printing it (reading it in full, as before, a
//! third).

use super::{DisError, DisOptions, Listed, Printer, FLUSH_AT};
use crate::binary::{BinaryError, Header, InstructionParser, ParserOptions};
use crate::module::names::IdNames;
use crate::placement::Placement;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::OnceLock;

/// Below this many words, starting a thread costs more than it saves.
const SPLIT_AT_LEAST: usize = 1 << 15;

/// From this many words (2 MiB) on, the module is cut every [`CHUNK`]
/// words: one cut in the middle held half the listing in memory (it took
/// the peak of the 5 MB modules past input + output + 16 MB).
const CHUNKED_FROM: usize = 1 << 19;

/// Words per chunk of a large module (512 KiB; about 1.3 MB of text):
/// small enough that the threads' shares even out to within a chunk.
const CHUNK: usize = 1 << 17;

/// A module cut once has the second thread hand its text over in pieces
/// of about this many bytes, so that the first thread, done with its own
/// chunk, writes the second thread's text while the rest of it is
/// printed: on the 1 MB modules the second thread's whole chunk (1.6 MB of
/// text) had been written only after its last line, 0.4–0.5 ms after the
/// first thread had nothing else to do. A module cut into many chunks
/// hands them over whole, with room for [`WAITING`] of them as before: its
/// last chunk is a small part of its text, and each piece is a write and a
/// hand-over more. (Tiny in tests, whose modules are small, and there for
/// every module.)
const PIECE: usize = if cfg!(test) { 64 } else { FULL_PIECE };

/// [`PIECE`] outside tests.
const FULL_PIECE: usize = 1 << 18;

/// How many of the second thread's chunks may wait to be written. This
/// thread takes them only between two chunks of its own, and writing adds
/// to each of those: with room for one, the second thread, finding it
/// taken, waited 20–25 ms of the 100 ms the 19 MB module takes with
/// `--raw-id`. With room for four the first thread's own printing and
/// writing bound the run instead: 2% less wall time (median of 61
/// alternating runs 0.981, 95% interval 0.956–0.996).
const WAITING: usize = 4;

/// About how many pieces a chunk's text makes (2.3–2.9 bytes of text a
/// byte of module, see below).
const PIECES_PER_CHUNK: usize = (CHUNK * 4 * 3).div_ceil(FULL_PIECE);

/// Whether `options` and the module's size call for two threads.
pub(super) fn applies(words: &[u32], options: &DisOptions) -> bool {
    words.len() >= SPLIT_AT_LEAST
        && !options.comment
        && !options.offsets
        && !options.nested_indent
        && !options.reorder_blocks
        && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// The word offsets chunks start at or just after. A module cut once is cut
/// a little before the middle: the first thread also starts the process
/// and opens the output, while the second skips the first chunk
/// ([`InstructionParser::skip_to`]). With friendly names, which the first
/// thread computes while the second waits, it is cut at 42%: by
/// callgrind's count of each thread's instructions when it was chosen,
/// 43.7M/35.7M on the 1 MB module (whose names pass is twice the SSA
/// one's) and 30.8M/30.6M on the 1 MB SSA one, against 46.6M/33.3M and
/// 33.2M/28.6M at 47%. The second thread also takes the page faults of
/// its buffer, the first writes the file: since the names pass got
/// cheaper, cuts from 36% to 46% time the same within noise. With
/// `--raw-id` the parts are even at 49%.
pub(super) fn cuts(len: usize, friendly_names: bool) -> Vec<usize> {
    if len >= CHUNKED_FROM {
        (1..len.div_ceil(CHUNK)).map(|k| k * CHUNK).collect()
    } else if friendly_names {
        vec![len / 100 * 42]
    } else {
        vec![len / 100 * 49]
    }
}

/// A piece of the text of one of the second thread's chunks.
struct Piece {
    /// The chunk's number.
    chunk: usize,
    text: Vec<u8>,
    /// The parse error that ended the chunk, if one did (in its last piece).
    failed: Option<BinaryError>,
    /// Whether the chunk ends with this piece.
    last: bool,
}

/// A buffer for a piece of `room` bytes: one the first thread has written
/// and given back, else a new one (the text is rarely copied to a larger
/// buffer as it grows; room not written to is not touched).
fn piece_buffer(written: &mpsc::Receiver<Vec<u8>>, room: usize) -> Vec<u8> {
    let mut buffer = written.try_recv().unwrap_or_default();
    buffer.clear();
    buffer.reserve(room);
    buffer
}

/// Prints the instructions from the parser's position up to `end` (the
/// first one starting at or after it excluded), stopping once `p` holds
/// `piece` bytes: whether the chunk is done, and the parse error that
/// ended it, if one did.
fn print_piece(
    parser: &mut InstructionParser<'_>,
    p: &mut Printer<'_, '_>,
    end: usize,
    piece: usize,
) -> (bool, Option<BinaryError>) {
    while parser.position() < end {
        match parser.next() {
            None => break,
            Some(Err(e)) => return (true, Some(e)),
            Some(Ok(inst)) => p.instruction(&inst, None),
        }
        if p.out.len() >= piece {
            // At the module's end the next call finds nothing: an empty
            // last piece.
            return (parser.position() >= end, None);
        }
    }
    (true, None)
}

/// Chunk `k` of a module cut at `cuts`: the word offsets it starts at or
/// after and ends before.
fn bounds(cuts: &[usize], k: usize) -> (usize, usize) {
    let start = if k == 0 { 0 } else { cuts[k - 1] };
    (start, cuts.get(k).copied().unwrap_or(usize::MAX))
}

/// Prints a whole chunk ([`print_piece`]); the parse error that stopped
/// it, if one did. `stream` writes full buffers as it goes.
fn print_chunk(
    parser: &mut InstructionParser<'_>,
    p: &mut Printer<'_, '_>,
    end: usize,
    stream: bool,
) -> Result<Option<BinaryError>, DisError> {
    let piece = if stream { FLUSH_AT } else { usize::MAX };
    loop {
        let (done, failed) = print_piece(parser, p, end, piece);
        if done {
            return Ok(failed);
        }
        p.flush_if_large()?;
    }
}

pub(super) fn run<'a>(
    words: &[u32],
    header: &Header,
    options: &'a DisOptions,
    parser_options: ParserOptions,
    out: &mut Vec<u8>,
    sink: Option<&'a mut dyn Write>,
    cuts: &[usize],
) -> Result<Listed, DisError> {
    let raw = IdNames::raw();
    let friendly: OnceLock<IdNames> = OnceLock::new();
    let count = cuts.len() + 1;
    // Chunk 0 is this thread's; the next one to take.
    let next = AtomicUsize::new(1);
    // Each thread on a CPU of its own (see `placement`).
    let placement = Placement::new();
    std::thread::scope(|s| {
        let (names_ready, wait_for_names) = mpsc::sync_channel::<()>(1);
        // Up to [`WAITING`] chunks' pieces waiting here, one being
        // printed, and this thread's own in a buffer: the memory bound.
        let piece = if count == 2 || cfg!(test) { PIECE } else { usize::MAX };
        let waiting = if piece == usize::MAX { WAITING } else { WAITING * PIECES_PER_CHUNK };
        let (send_chunk, chunks) = mpsc::sync_channel::<Piece>(waiting);
        let (give_back, written) = mpsc::sync_channel::<Vec<u8>>(waiting);
        let (raw, friendly, next, placement) = (&raw, &friendly, &next, &placement);
        let second = s.spawn(move || {
            placement.pin_helper(1);
            let Ok(mut parser) = InstructionParser::new(words, parser_options) else { return None };
            let mut names = None;
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= count {
                    break;
                }
                let (start, end) = bounds(cuts, k);
                // Skipping needs no names: done while the first thread
                // computes them.
                if parser.skip_to(start).is_err() {
                    return None;
                }
                let names = match names {
                    Some(names) => names,
                    None if options.friendly_names => {
                        // An error here means the first thread panicked.
                        let Ok(()) = wait_for_names.recv() else { return None };
                        let n = friendly.get()?;
                        *names.insert(n)
                    }
                    None => *names.insert(raw),
                };
                // Room for a piece and a long line past it; for a whole
                // chunk 4 times its size in bytes (its listing is 2.3 times
                // with --raw-id, 2.9 times with names on the bench's
                // modules).
                let room = if piece == usize::MAX {
                    end.min(words.len()).saturating_sub(start) * 4 * 4
                } else {
                    piece + piece / 4
                };
                let mut p = Printer::new(options, names, piece_buffer(&written, room), None);
                loop {
                    let (last, failed) = print_piece(&mut parser, &mut p, end, piece);
                    let stop = failed.is_some();
                    let text =
                        std::mem::replace(&mut p.out, if last { Vec::new() } else { piece_buffer(&written, room) });
                    // The first thread is gone (a failed write): stop.
                    if send_chunk.send(Piece { chunk: k, text, failed, last }).is_err() || stop {
                        return None;
                    }
                    if last {
                        break;
                    }
                }
            }
            Some(Listed::noticed(&parser))
        });

        let _pinned = placement.pin_here();
        let names = if options.friendly_names {
            let limit = options.names_limit_for(words);
            let names = friendly.get_or_init(|| IdNames::friendly(words, parser_options, limit));
            if !names.is_complete() {
                // Nothing printed yet; the second thread, told nothing,
                // stops.
                drop(names_ready);
                return Err(DisError::NamesTooLarge { limit });
            }
            let _ = names_ready.send(());
            names
        } else {
            raw
        };
        let mut p = Printer::new(options, names, std::mem::take(out), sink);
        if options.header {
            p.header(header);
        }
        let chunks = Chunks { count, next, cuts, received: &chunks, give_back: &give_back, written: 0 };
        let result = print_chunks(&mut p, words, parser_options, chunks, second);
        if let Err(DisError::Io(e)) = result {
            return Err(DisError::Io(e));
        }
        // As on one thread: the text before a parse error is written first.
        let flushed = p.flush();
        *out = std::mem::take(&mut p.out);
        flushed?;
        result
    })
}

/// The second thread, until joined.
type Second<'s> = Option<std::thread::ScopedJoinHandle<'s, Option<Listed>>>;

/// This thread's side of the chunks: which to take next, and the second
/// thread's to write in order.
struct Chunks<'s> {
    count: usize,
    next: &'s AtomicUsize,
    cuts: &'s [usize],
    received: &'s mpsc::Receiver<Piece>,
    give_back: &'s mpsc::SyncSender<Vec<u8>>,
    /// How many chunks are written.
    written: usize,
}

impl Chunks<'_> {
    /// Writes the second thread's chunks up to chunk `k` (excluded), in
    /// order, as they come; the first one's parse error.
    fn write_theirs_before(
        &mut self,
        p: &mut Printer<'_, '_>,
        k: usize,
        second: &mut Second<'_>,
    ) -> Result<(), DisError> {
        while self.written < k {
            let Ok(Piece { chunk, text, failed, last }) = self.received.recv() else {
                // The second thread ended without a chunk it took: it
                // panicked (its skipping fails only after this thread's
                // printing failed, which ends the listing first).
                match second.take().map(|s| s.join()) {
                    Some(Err(panic)) => std::panic::resume_unwind(panic),
                    _ => unreachable!("the second thread stopped where this one did not"),
                }
            };
            debug_assert_eq!(chunk, self.written, "the second thread's chunks come in order");
            write_text(p, &text)?;
            let _ = self.give_back.try_send(text);
            if let Some(e) = failed {
                return Err(e.into());
            }
            if last {
                self.written += 1;
            }
        }
        Ok(())
    }
}

/// Appends `text` to what `p` has printed, through its sink if it has one.
fn write_text(p: &mut Printer<'_, '_>, text: &[u8]) -> Result<(), DisError> {
    match p.sink.as_mut() {
        Some(_) => {
            p.flush()?;
            p.sink.as_mut().map_or(Ok(()), |sink| sink.write_all(text))?;
        }
        None => p.out.extend_from_slice(text),
    }
    Ok(())
}

/// This thread's part: prints chunk 0 and the chunks it takes after it,
/// and writes every chunk in order.
fn print_chunks(
    p: &mut Printer<'_, '_>,
    words: &[u32],
    parser_options: ParserOptions,
    mut chunks: Chunks<'_>,
    second: std::thread::ScopedJoinHandle<'_, Option<Listed>>,
) -> Result<Listed, DisError> {
    let mut second = Some(second);
    let mut parser = InstructionParser::new(words, parser_options)?;
    // This thread's text of a chunk it printed before those of the second
    // thread ahead of it were written.
    let mut mine = Vec::new();
    let mut k = 0;
    while k < chunks.count {
        let (start, end) = bounds(chunks.cuts, k);
        // Fails only where the second thread's chunk does (it reports it).
        if parser.skip_to(start).is_err() {
            break;
        }
        if chunks.written == k {
            if let Some(e) = print_chunk(&mut parser, p, end, true)? {
                return Err(e.into());
            }
        } else {
            #[cfg(test)]
            tests::AHEAD.fetch_add(1, Ordering::Relaxed);
            let mut q = Printer::new(p.opts, p.names, std::mem::take(&mut mine), None);
            let failed = print_chunk(&mut parser, &mut q, end, false)?;
            mine = q.out;
            chunks.write_theirs_before(p, k, &mut second)?;
            write_text(p, &mine)?;
            mine.clear();
            if let Some(e) = failed {
                return Err(e.into());
            }
        }
        chunks.written += 1;
        k = chunks.next.fetch_add(1, Ordering::Relaxed);
    }
    let count = chunks.count;
    chunks.write_theirs_before(p, count, &mut second)?;
    let mine = Listed::noticed(&parser);
    match second.map(|s| s.join()) {
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        Some(Ok(theirs)) => Ok(mine.merged(theirs)),
        None => Ok(mine),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks this thread printed ahead of the second thread's before
    /// them (into a buffer).
    pub(super) static AHEAD: AtomicUsize = AtomicUsize::new(0);

    /// A sink that takes `room` bytes, then fails.
    struct Sink {
        taken: Vec<u8>,
        room: usize,
    }

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.taken.len() + buf.len() > self.room {
                return Err(std::io::Error::other("full"));
            }
            self.taken.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The text (in `out`, or through a sink with `room` bytes) and the
    /// outcome, on one thread (`cuts` `None`) or two.
    fn listing(words: &[u32], options: &DisOptions, cuts: Option<&[usize]>, room: Option<usize>) -> (Vec<u8>, String) {
        let parser_options = ParserOptions {
            check_bound: options.check_bound,
            spirv_tools_ext_sets: !options.all_ext_inst_names,
            ..ParserOptions::default()
        };
        let mut out = Vec::new();
        let mut sink = room.map(|room| Sink { taken: Vec::new(), room });
        let result = Header::read(words).map_err(DisError::from).and_then(|header| {
            let to = sink.as_mut().map(|s| s as &mut dyn Write);
            match cuts {
                Some(cuts) => run(words, &header, options, parser_options, &mut out, to, cuts),
                None => super::super::run_serial(words, &header, options, parser_options, &mut out, to),
            }
        });
        if let Some(sink) = sink {
            // What reached the sink; `out` holds what did not, if anything.
            let mut taken = sink.taken;
            if result.is_ok() {
                taken.extend_from_slice(&out);
            }
            return (taken, format!("{result:?}"));
        }
        (out, format!("{result:?}"))
    }

    /// Every module of the corpus, whole and cut short, cut once at several
    /// places and into several chunks: the same text and outcome as one
    /// thread, in a buffer or through a sink (one that fills up too).
    #[test]
    fn two_threads_print_what_one_prints() {
        let mut checked = 0;
        let option_sets = [
            DisOptions::default(),
            DisOptions::default().friendly_names(false),
            DisOptions::default().indent(false).header(false).color(true),
            DisOptions::default().check_bound(true),
            // `gpuasm dis`'s default: undecodable instructions printed raw.
            DisOptions::default().handle_unknown_opcodes(true),
            DisOptions::default().friendly_names(false).handle_unknown_opcodes(true),
        ];
        for (n, path, words) in crate::binary::test_corpus() {
            let damaged = crate::binary::damaged(&words, 37, n % 24);
            for (words, len) in [
                (&words, words.len()),
                (&words, words.len() * 2 / 3),
                (&words, words.len() - 1),
                (&damaged, damaged.len()),
            ] {
                let words = &words[..len];
                let cut_sets: [Vec<usize>; 8] = [
                    vec![0],
                    vec![len / 3],
                    vec![len / 2],
                    vec![len - 1],
                    vec![len + 7],
                    (1..5).map(|k| k * len / 5).collect(),
                    (1..9).map(|k| k * len / 9).collect(),
                    vec![1, 1, 2, len / 2, len / 2 + 1],
                ];
                // The default, and one other option set in turn (all of
                // them for every module took minutes in a debug build).
                for options in [&option_sets[0], &option_sets[1 + n % (option_sets.len() - 1)]] {
                    let whole = listing(words, options, None, None).0;
                    // Through a sink for one module in four (threads cost time).
                    let rooms = if n % 4 == 0 { &[None, Some(usize::MAX), Some(len * 3)][..] } else { &[None] };
                    for &room in rooms {
                        let one = listing(words, options, None, room);
                        for cuts in &cut_sets {
                            let two = listing(words, options, Some(cuts), room);
                            let at = || {
                                format!(
                                    "{} cut short to {len} words, cuts {cuts:?}, room {room:?}, {options:?}",
                                    path.display()
                                )
                            };
                            if room == Some(len * 3) {
                                // A full sink: the same outcome; what got
                                // through before it (a prefix) depends on
                                // when buffers are written.
                                assert_eq!(one.1, two.1, "{}", at());
                                assert!(whole.starts_with(&two.0), "{}", at());
                            } else {
                                assert!(one == two, "{}", at());
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} listings compared");
        // Both ways this thread prints: streaming, and ahead of the other.
        assert!(AHEAD.load(Ordering::Relaxed) > 100, "{} chunks printed ahead", AHEAD.load(Ordering::Relaxed));
    }
}
