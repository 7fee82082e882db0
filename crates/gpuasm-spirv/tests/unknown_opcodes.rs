//! Instructions spirv-dis cannot decode, printed as `OpUnknown(opcode, word
//! count)` and their words (`DisOptions::handle_unknown_opcodes`, newer
//! spirv-dis's `--handle-unknown-opcodes`).
//!
//! Every corpus module is patched so that some instructions no longer
//! decode: an unknown opcode, an unknown enumerant, an unknown instruction
//! of `GLSL.std.450`, an import of an unknown set. Then:
//! - the listing is spirv-dis 2025.5's stored listing of the unpatched
//!   module with exactly the patched lines replaced by the `OpUnknown` form
//!   SPIRV-Tools' `disassemble.cpp` prints (an instruction that does not
//!   decode changes no other line in these layouts);
//! - `gpuasm as` reads the listing back to the same words (all but the
//!   generator and the bound, which counts the ids `as` sees: those inside
//!   `OpUnknown` are plain numbers to it, hence SPIRV-Tools' note);
//! - without the option the module is rejected, as by spirv-dis 2025.5.

mod common;

use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
use gpuasm_spirv::dis::{disassemble, disassemble_to, DisOptions};
use gpuasm_spirv::grammar::{self, op};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::TargetEnv;
use std::collections::BTreeMap;

/// An opcode no grammar has.
const UNKNOWN_OPCODE: u32 = 0xfffe;

/// A patched module: its words, and for each patched instruction, the
/// index of its line in a listing without header.
struct Patched {
    words: Vec<u32>,
    raw_lines: Vec<usize>,
}

/// Patches every fifth instruction that defines nothing a later line
/// depends on (no result, not a name or decoration, which give friendly
/// names), the memory model's addressing model, every `GLSL.std.450`
/// instruction number in one module of three and, in another of three, the
/// import's name (the import and its instructions are then all raw).
fn patch(words: &[u32], seed: usize) -> Patched {
    let mut out = words.to_vec();
    let mut raw_lines = Vec::new();
    let mut glsl_import = None;
    let mut parser = InstructionParser::new(words, ParserOptions::default().check_bound(false)).unwrap();
    let mut index = 0;
    while let Some(Ok(inst)) = parser.next() {
        let at = inst.offset;
        let names = matches!(
            inst.opcode,
            op::OpName | op::OpMemberName | op::OpDecorate | op::OpMemberDecorate | op::OpEntryPoint
        );
        if inst.opcode == op::OpExtInstImport && inst.string(1) == b"GLSL.std.450" {
            glsl_import = Some(inst.result_id);
            if seed % 3 == 1 {
                // 'G' is the first byte of the string's first word.
                out[at + 2] = (out[at + 2] & !0xff) | u32::from(b'X');
                raw_lines.push(index);
            }
        } else if inst.opcode == op::OpExtInst && Some(inst.words[3]) == glsl_import && seed % 3 != 2 {
            if seed.is_multiple_of(3) {
                out[at + 4] = 0xffff;
            }
            raw_lines.push(index);
        } else if inst.opcode == op::OpMemoryModel {
            out[at + 1] = 0x7fff_0000;
            raw_lines.push(index);
        } else if !inst.info.has_result && !names && (index + seed).is_multiple_of(5) {
            out[at] = (out[at] & 0xffff_0000) | UNKNOWN_OPCODE;
            raw_lines.push(index);
        }
        index += 1;
    }
    Patched { words: out, raw_lines }
}

/// The line SPIRV-Tools prints for an instruction it cannot decode.
fn unknown_line(words: &[u32], indent: bool) -> String {
    let mut line = if indent { " ".repeat(15) } else { String::new() };
    line += &format!("OpUnknown({}, {})", words[0] & 0xffff, words.len());
    for w in &words[1..] {
        line += &format!(" {w}");
    }
    line + "  ; note: ID bound may be incorrect after reassembly"
}

/// The instructions of a module, by word range.
fn instruction_words(words: &[u32]) -> Vec<&[u32]> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        out.push(&words[at..at + n]);
        at += n;
    }
    out
}

/// Checks one module under one option set; `None` when it passes.
fn check(name: &str, words: &[u32], patched: &Patched, peer: &[u8], options: &DisOptions) -> Option<String> {
    let header_lines = if options.header { 5 } else { 0 };
    let insts = instruction_words(&patched.words);
    let mut want: Vec<String> = String::from_utf8_lossy(peer).lines().map(str::to_string).collect();
    if want.len() != header_lines + instruction_words(words).len() {
        // A string with a line break in it: not the simple layout this test needs.
        return None;
    }
    for &i in &patched.raw_lines {
        want[header_lines + i] = unknown_line(insts[i], options.indent);
    }
    let want = want.join("\n") + "\n";
    let options = options.clone().handle_unknown_opcodes(true);
    let mut got = Vec::new();
    let listed = match disassemble_to(&patched.words, &options, &mut got) {
        Ok(listed) => listed,
        Err(e) => return Some(format!("{name}: {e}")),
    };
    let got = String::from_utf8_lossy(&got);
    if got != want {
        let line = want.lines().zip(got.lines()).position(|(a, b)| a != b);
        return Some(format!("{name}: listing differs at line {line:?}"));
    }
    if listed.undecoded.0 != patched.raw_lines.len() {
        return Some(format!("{name}: {} undecoded, {} patched", listed.undecoded.0, patched.raw_lines.len()));
    }
    None
}

/// A corpus module: file name, words, spirv-dis's stored listings by suffix.
type Module = (String, Vec<u32>, BTreeMap<String, Vec<u8>>);

fn corpus_modules(corpus: &str) -> Vec<Module> {
    let stored = common::read_tar_xz(&format!("{corpus}/dis.tar.xz"));
    let mut out = Vec::new();
    for path in common::modules(corpus) {
        let name = common::file_name(&path);
        let stem = name.strip_suffix(".spv").unwrap().to_string();
        let Ok((words, _)) = words_from_bytes(&std::fs::read(&path).unwrap()) else { continue };
        let listings: BTreeMap<String, Vec<u8>> = ["dis", "raw.dis", "nohdr.dis"]
            .iter()
            .filter_map(|s| Some((s.to_string(), stored.get(&format!("dis/{stem}.{s}"))?.clone())))
            .collect();
        if listings.len() == 3 {
            out.push((name, words, listings));
        }
    }
    out
}

#[test]
fn patched_corpus_listings_are_spirv_dis_with_unknown_lines() {
    let option_sets = [
        ("dis", DisOptions::default()),
        ("raw.dis", DisOptions::default().friendly_names(false)),
        ("nohdr.dis", DisOptions::default().header(false).friendly_names(false).indent(false)),
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut raw_lines = 0;
    for corpus in ["spv", "glslang"] {
        for (seed, (name, words, listings)) in corpus_modules(corpus).into_iter().enumerate() {
            let patched = patch(&words, seed);
            // Only modules spirv-dis reads whole (and so would list).
            if disassemble(&words, &DisOptions::default()).is_err() {
                continue;
            }
            raw_lines += patched.raw_lines.len();
            for (suffix, options) in &option_sets {
                let options = options.clone().check_bound(false);
                failures.extend(check(&name, &words, &patched, &listings[*suffix], &options));
                checked += 1;
            }
            if disassemble(&patched.words, &DisOptions::default()).is_ok() && !patched.raw_lines.is_empty() {
                failures.push(format!("{name}: read without the option"));
            }
        }
    }
    assert!(checked > 3000 && raw_lines > 5_000, "only {checked} listings, {raw_lines} unknown lines");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

#[test]
fn patched_corpus_round_trips_through_the_assembler() {
    let dis_options = DisOptions::default().friendly_names(false).check_bound(false).handle_unknown_opcodes(true);
    let mut failures = Vec::new();
    for corpus in ["spv", "glslang"] {
        for (seed, (name, words, _)) in corpus_modules(corpus).into_iter().enumerate() {
            let patched = patch(&words, seed);
            let Ok(text) = disassemble(&patched.words, &dis_options) else { continue };
            let minor = ((words[1] >> 8) & 0xff) as u8;
            let options = AsmOptions::default()
                .target_env(Some(TargetEnv::Universal(minor)))
                .preserve_numeric_ids(true)
                .generator(words[2]);
            match assemble(&text, &options) {
                Ok(back) if back[..3] == patched.words[..3] && back[4..] == patched.words[4..] => {}
                Ok(_) => failures.push(format!("{name}: words differ")),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

#[test]
fn upstream_examples() {
    // SPIRV-Tools' test/handle_unknown_opcodes_test.cpp: an unknown opcode
    // and an unknown GLSL.std.450 instruction number.
    let glsl = u32::from_le_bytes(*b"GLSL");
    let std_ = u32::from_le_bytes(*b".std");
    let v450 = u32::from_le_bytes(*b".450");
    #[rustfmt::skip]
    let words = [
        0x0723_0203, 0x0001_0000, 0, 4, 0,
        (2 << 16) | 17, 1,
        (6 << 16) | 11, 1, glsl, std_, v450, 0,
        (3 << 16) | 14, 0, 1,
        (2 << 16) | 19, 2,
        (3 << 16) | UNKNOWN_OPCODE, 42, 99,
        (5 << 16) | 12, 2, 3, 1, 65535,
    ];
    let options = DisOptions::default().header(false).friendly_names(false).handle_unknown_opcodes(true);
    let text = disassemble(&words, &options).unwrap();
    assert!(text.contains("OpUnknown(65534, 3) 42 99"), "{text}");
    assert!(text.contains("OpUnknown(12, 5) 2 3 1 65535"), "{text}");
    assert!(grammar::instruction(UNKNOWN_OPCODE as u16).is_none());
    assert!(disassemble(&words, &DisOptions::default()).is_err());
}
