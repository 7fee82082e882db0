//! Printing a module on two threads, in the layouts where a line depends on
//! its instruction alone: without `--comment`, `--offsets`,
//! `--nested-indent` and `--reorder-blocks` (each carries state from line to
//! line) — the default layout and `--raw-id`, with or without indentation,
//! header and colour.
//!
//! The instruction stream is cut into chunks at instruction boundaries.
//! This thread prints the even chunks and streams them to the sink; a second
//! thread prints the odd ones, each into a buffer this thread writes after
//! the chunk before it. Each thread reads (without printing) the chunks the
//! other prints, so both read the whole module. A module under 2 MiB is cut
//! once; a larger one every 1 MiB, so at most two chunks' text waits in
//! memory (the peak stays within input + output + 16 MB).
//!
//! Why the text is byte for byte what one thread prints:
//! - Friendly names are computed whole, by the one-pass
//!   [`IdNames::friendly`] every layout uses, before either thread prints
//!   a line (the second thread waits for them).
//! - A chunk starts at the first instruction that starts at or after a word
//!   offset computed from the module's length alone. Both threads read every
//!   instruction with the same parser and options, so they find the same
//!   boundaries and reach each in the state one thread's parser would have
//!   there: types (literal widths), imported sets, ids already defined, the
//!   first id past the bound.
//! - The printer keeps nothing from one line to the next in these layouts,
//!   so each chunk's text is the one-thread text of its instructions.
//! - Errors: both parsers meet a parse error at the same instruction. The
//!   output ends there: the text before it is written (the part of its
//!   chunk the second thread printed, if the chunk is the second thread's),
//!   then the error is returned. A failed write is returned as soon as it
//!   happens, as with one thread (the second thread stops at its next chunk).
//!
//! Measured on the 1 MB module on two cores (see the README's speed
//! section): the names pass is about a fifth of one thread's time, reading
//! a chunk without printing it about a third of printing it.

use super::{DisError, DisOptions, Listed, Printer};
use crate::binary::{BinaryError, Header, InstructionParser, ParserOptions};
use crate::module::names::IdNames;
use std::io::Write;
use std::sync::mpsc;
use std::sync::OnceLock;

/// Below this many words, starting a thread costs more than it saves.
const SPLIT_AT_LEAST: usize = 1 << 15;

/// From this many words (2 MiB) on, the module is cut every [`CHUNK`]
/// words: the second thread's text waits for the first's, and one cut in
/// the middle held half the listing in memory (it took the peak of the
/// 5 MB modules past input + output + 16 MB).
const CHUNKED_FROM: usize = 1 << 19;

/// Words per chunk of a large module (1 MiB; about 2.5 MB of text).
const CHUNK: usize = 1 << 18;

/// Whether `options` and the module's size call for two threads.
pub(super) fn applies(words: &[u32], options: &DisOptions) -> bool {
    words.len() >= SPLIT_AT_LEAST
        && !options.comment
        && !options.offsets
        && !options.nested_indent
        && !options.reorder_blocks
        && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// The word offsets chunks start at or just after. A module cut once: with
/// friendly names the first thread computes them while the second reads
/// the first chunk, so the halves are even; without, that reading is extra
/// work for the second thread, and its part is smaller to make up for it.
pub(super) fn cuts(len: usize, options: &DisOptions) -> Vec<usize> {
    if len >= CHUNKED_FROM {
        (1..len.div_ceil(CHUNK)).map(|k| k * CHUNK).collect()
    } else if options.friendly_names {
        vec![len / 2]
    } else {
        vec![len / 100 * 56]
    }
}

/// One of the second thread's chunks: its text, and whether a parse error
/// ended it.
type Chunk = (Vec<u8>, bool);

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
    let end_of = |j: usize| cuts.get(j).copied().unwrap_or(usize::MAX);
    std::thread::scope(|s| {
        let (names_ready, wait_for_names) = mpsc::sync_channel::<()>(1);
        // One chunk in the channel, one being printed: the memory bound.
        let (send_chunk, chunks) = mpsc::sync_channel::<Chunk>(1);
        let (raw, friendly) = (&raw, &friendly);
        let second = s.spawn(move || {
            let Ok(mut parser) = InstructionParser::new(words, parser_options) else { return };
            let mut names = None;
            for j in 0..=cuts.len() {
                if parser.position() >= words.len() {
                    return;
                }
                let end = end_of(j);
                if j % 2 == 0 {
                    if !read_to(&mut parser, end) {
                        return;
                    }
                    continue;
                }
                let names = match names {
                    Some(names) => names,
                    None if options.friendly_names => {
                        // An error here means the first thread panicked.
                        let Ok(()) = wait_for_names.recv() else { return };
                        let Some(n) = friendly.get() else { return };
                        *names.insert(n)
                    }
                    None => *names.insert(raw),
                };
                // The listing is about twice the chunk's size in bytes.
                let size = end.min(words.len()).saturating_sub(parser.position()) * 4 * 2;
                let mut p = Printer::new(options, names, Vec::with_capacity(size), None);
                let failed = loop {
                    if parser.position() >= end {
                        break false;
                    }
                    match parser.next() {
                        None => break false,
                        Some(Err(_)) => break true,
                        Some(Ok(inst)) => p.instruction(&inst, None),
                    }
                };
                // The first thread is gone (a failed write): stop.
                if send_chunk.send((p.out, failed)).is_err() || failed {
                    return;
                }
            }
        });

        let names = if options.friendly_names {
            let names = friendly.get_or_init(|| IdNames::friendly(words, parser_options));
            let _ = names_ready.send(());
            names
        } else {
            raw
        };
        let mut p = Printer::new(options, names, std::mem::take(out), sink);
        if options.header {
            p.header(header);
        }
        let result = print_even_chunks(&mut p, words, parser_options, cuts, &chunks, second);
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

/// Reads, without printing, the instructions that start before `end`;
/// false if the parser stopped on an error.
fn read_to(parser: &mut InstructionParser<'_>, end: usize) -> bool {
    while parser.position() < end {
        match parser.next() {
            None => break,
            Some(Err(_)) => return false,
            Some(Ok(_)) => {}
        }
    }
    true
}

/// This thread's part: prints the even chunks and writes the second
/// thread's odd ones in between.
fn print_even_chunks(
    p: &mut Printer<'_, '_>,
    words: &[u32],
    parser_options: ParserOptions,
    cuts: &[usize],
    chunks: &mpsc::Receiver<Chunk>,
    second: std::thread::ScopedJoinHandle<'_, ()>,
) -> Result<Listed, DisError> {
    let mut parser = InstructionParser::new(words, parser_options)?;
    for j in 0..=cuts.len() {
        if parser.position() >= words.len() {
            break;
        }
        let end = cuts.get(j).copied().unwrap_or(usize::MAX);
        if j % 2 == 0 {
            while parser.position() < end {
                match parser.next() {
                    None => break,
                    Some(Err(e)) => return Err(e.into()),
                    Some(Ok(inst)) => p.instruction(&inst, None),
                }
                p.flush_if_large()?;
            }
            continue;
        }
        let mut failed: Option<BinaryError> = None;
        while parser.position() < end {
            match parser.next() {
                None => break,
                Some(Err(e)) => {
                    failed = Some(e);
                    break;
                }
                Some(Ok(_)) => {}
            }
        }
        let Ok((text, _)) = chunks.recv() else {
            // The second thread ended without this chunk: it panicked.
            match second.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the second thread stopped where this one did not"),
            }
        };
        match p.sink.as_mut() {
            Some(_) => {
                p.flush()?;
                p.sink.as_mut().map_or(Ok(()), |sink| sink.write_all(&text))?;
            }
            None => p.out.extend_from_slice(&text),
        }
        if let Some(e) = failed {
            return Err(e.into());
        }
    }
    Ok(Listed::noticed(&parser))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::words_from_bytes;

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
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/spv");
        let mut checked = 0;
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let option_sets = [
            DisOptions::default(),
            DisOptions::default().friendly_names(false),
            DisOptions::default().indent(false).header(false).color(true),
            DisOptions::default().check_bound(true),
        ];
        for (n, path) in files.iter().filter(|p| p.extension().is_some_and(|e| e == "spv")).enumerate() {
            let Ok((words, _)) = words_from_bytes(&std::fs::read(path).unwrap()) else { continue };
            for len in [words.len(), words.len() * 2 / 3, words.len() - 1] {
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
                for options in &option_sets {
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
        assert!(checked > 20_000, "only {checked} listings compared");
    }
}
