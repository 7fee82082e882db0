//! Printing a module on two threads, in the layouts where a line depends on
//! its instruction alone: without `--comment`, `--offsets`,
//! `--nested-indent` and `--reorder-blocks` (each carries state from line to
//! line) — the default layout and `--raw-id`, with or without indentation,
//! header and colour.
//!
//! The instruction stream is cut in two at an instruction boundary. This
//! thread prints the first part and streams it to the sink; a second thread
//! prints the second part into a buffer, written after the first part.
//!
//! Why the text is byte for byte what one thread prints:
//! - Friendly names are computed whole, by the one-pass
//!   [`IdNames::friendly`] every layout uses, before either thread prints
//!   a line (the second thread waits for them).
//! - The cut is the first instruction that starts at or after a word offset
//!   computed from the module's length alone. The second thread walks the
//!   instructions before the cut with the same parser and options, without
//!   printing, so it finds the same boundary and reaches it in the state the
//!   first thread's parser would have there: types (literal widths),
//!   imported sets, ids already defined, the first id past the bound.
//! - The printer keeps nothing from one line to the next in these layouts,
//!   so each part's text is the one-thread text of its instructions.
//! - Errors: a parse error before the cut ends the output there (the second
//!   part is dropped), where one thread would stop; one after the cut ends
//!   the output after the second part's text up to it. A failed write is
//!   returned as soon as it happens, as with one thread.
//!
//! Measured on the 1 MB module on two cores (see the README's speed
//! section): the names pass is about a fifth of one thread's time, the
//! walk to the cut less than a tenth.

use super::{DisError, DisOptions, Listed, Printer};
use crate::binary::{BinaryError, Header, InstructionParser, ParserOptions};
use crate::module::names::IdNames;
use std::io::Write;
use std::sync::mpsc;
use std::sync::OnceLock;

/// Below this many words, starting a thread costs more than it saves.
const SPLIT_AT_LEAST: usize = 1 << 15;

/// From this many words (2 MiB) on, one thread prints: the second part's
/// text, held until the first is written, took the peak memory of the 5 MB
/// modules past the limit of input + output + 16 MB (45 MB for 37 MB), and
/// one thread already prints them about 30 times as fast as spirv-dis.
const SPLIT_BELOW: usize = 1 << 19;

/// Whether `options` and the module's size call for two threads.
pub(super) fn applies(words: &[u32], options: &DisOptions) -> bool {
    (SPLIT_AT_LEAST..SPLIT_BELOW).contains(&words.len())
        && !options.comment
        && !options.offsets
        && !options.nested_indent
        && !options.reorder_blocks
        && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// The word offset the cut is at or just after. With friendly names the
/// first thread computes them while the second walks to the cut, so the
/// halves are even; without, the second thread's walk to the cut is extra
/// work, and its part is smaller to make up for it.
pub(super) fn cut_target(len: usize, options: &DisOptions) -> usize {
    if options.friendly_names {
        len / 2
    } else {
        len / 100 * 56
    }
}

/// The second part: its text, how its walk ended, and what was noticed in
/// the whole module (its walk starts at the top). `None` when the walk to
/// the cut failed (the first part then fails at the same place).
type SecondPart = Option<(Vec<u8>, Result<(), BinaryError>, Listed)>;

pub(super) fn run<'a>(
    words: &[u32],
    header: &Header,
    options: &'a DisOptions,
    parser_options: ParserOptions,
    out: &mut Vec<u8>,
    sink: Option<&'a mut dyn Write>,
    cut: usize,
) -> Result<Listed, DisError> {
    let raw = IdNames::raw();
    let friendly: OnceLock<IdNames> = OnceLock::new();
    std::thread::scope(|s| {
        let (names_ready, wait_for_names) = mpsc::sync_channel::<()>(1);
        let (raw, friendly) = (&raw, &friendly);
        let second = s.spawn(move || -> SecondPart {
            let mut parser = InstructionParser::new(words, parser_options).ok()?;
            while parser.position() < cut {
                match parser.next() {
                    None => break,
                    Some(Err(_)) => return None,
                    Some(Ok(_)) => {}
                }
            }
            let names = if options.friendly_names {
                // An error here means the first thread panicked.
                wait_for_names.recv().ok()?;
                friendly.get()?
            } else {
                raw
            };
            // The listing is about twice the module's size in bytes (reserving more
            // showed in the peak memory, with huge pages).
            let mut p = Printer::new(
                options,
                names,
                Vec::with_capacity(words.len().saturating_sub(parser.position()) * 4 * 2),
                None,
            );
            let result = loop {
                match parser.next() {
                    None => break Ok(()),
                    Some(Err(e)) => break Err(e),
                    Some(Ok(inst)) => p.instruction(&inst, None),
                }
            };
            Some((p.out, result, Listed::noticed(&parser)))
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
        let first = print_first(&mut p, words, parser_options, cut);
        let flushed = p.flush();
        let listed = match (first, flushed) {
            (Err(e), _) => Err(e),
            (Ok(_), Err(e)) => Err(e.into()),
            (Ok(()), Ok(())) => {
                let Some((text, result, noticed)) = second.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
                else {
                    unreachable!("the walk to the cut failed where the first part did not");
                };
                let written = match p.sink.as_mut() {
                    Some(sink) => sink.write_all(&text),
                    None => {
                        p.out.extend_from_slice(&text);
                        Ok(())
                    }
                };
                written.map_err(DisError::from).and(result.map_err(DisError::from)).map(|()| noticed)
            }
        };
        *out = std::mem::take(&mut p.out);
        listed
    })
}

/// Prints the instructions before the cut; the text stays in (or has gone
/// through) `p`.
fn print_first(
    p: &mut Printer<'_, '_>,
    words: &[u32],
    parser_options: ParserOptions,
    cut: usize,
) -> Result<(), DisError> {
    let mut parser = InstructionParser::new(words, parser_options)?;
    while parser.position() < cut {
        match parser.next() {
            None => break,
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(inst)) => p.instruction(&inst, None),
        }
        p.flush_if_large()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::words_from_bytes;

    fn listing(words: &[u32], options: &DisOptions, cut: Option<usize>) -> (Vec<u8>, String) {
        let parser_options = ParserOptions {
            check_bound: options.check_bound,
            spirv_tools_ext_sets: !options.all_ext_inst_names,
            ..ParserOptions::default()
        };
        let mut out = Vec::new();
        let result = Header::read(words).map_err(DisError::from).and_then(|header| match cut {
            Some(cut) => run(words, &header, options, parser_options, &mut out, None, cut),
            None => super::super::run_serial(words, &header, options, parser_options, &mut out, None),
        });
        (out, format!("{result:?}"))
    }

    /// Every module of the corpus, whole and cut short, with the cut at
    /// several places: the same text and outcome as one thread.
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
        for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "spv")) {
            let Ok((words, _)) = words_from_bytes(&std::fs::read(path).unwrap()) else { continue };
            for len in [words.len(), words.len() * 2 / 3, words.len() - 1] {
                let words = &words[..len];
                for options in &option_sets {
                    let one = listing(words, options, None);
                    for cut in [0, len / 3, len / 2, len - 1, len + 7] {
                        let two = listing(words, options, Some(cut));
                        assert!(one == two, "{} cut short to {len} words, cut at {cut}, {options:?}", path.display());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} listings compared");
    }
}
