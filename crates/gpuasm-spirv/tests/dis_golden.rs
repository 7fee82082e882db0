//! Golden tests: every module of the in-repo corpora disassembled with every
//! option set must equal spirv-dis 2025.5's stored output byte for byte.
//!
//! `tests/corpus/spv` is the shared upstream corpus; `tests/corpus/glslang`
//! is ours (`scripts/gen-glslang-corpus`). Each holds `NAME.spv` and
//! `dis.tar.xz` with `dis/NAME.<suffix>`.

mod common;

use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble_to, Options};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Option set of each stored suffix (as in the corpus README).
fn options_for(suffix: &str) -> Options {
    let mut o = Options { check_bound: false, ..Options::default() };
    match suffix {
        "dis" => {}
        "raw.dis" => o.friendly_names = false,
        "nohdr.dis" => {
            o.header = false;
            o.friendly_names = false;
            o.indent = false;
        }
        "comment.dis" => o.comment = true,
        "offsets.dis" => o.offsets = true,
        "nested.dis" => o.nested_indent = true,
        "reorder.dis" => o.reorder_blocks = true,
        "nrc.dis" => {
            o.nested_indent = true;
            o.reorder_blocks = true;
            o.comment = true;
        }
        "color.dis" => o.color = true,
        other => panic!("unknown suffix {other}"),
    }
    o
}

const SUFFIXES: [&str; 9] =
    ["raw.dis", "nohdr.dis", "comment.dis", "offsets.dis", "nested.dis", "reorder.dis", "nrc.dis", "color.dis", "dis"];

fn split_name(path: &str) -> (String, &'static str) {
    let name = path.strip_prefix("dis/").unwrap_or(path);
    for s in SUFFIXES {
        if let Some(stem) = name.strip_suffix(&format!(".{s}")) {
            return (stem.to_string(), s);
        }
    }
    panic!("unrecognised expected-output name {path}");
}

fn check_corpus(name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name);
    let expected = common::read_tar_xz(&format!("{name}/dis.tar.xz"));
    assert!(!expected.is_empty(), "no expected outputs in {}", dir.display());
    let mut per_suffix: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (path, want) in &expected {
        let (stem, suffix) = split_name(path);
        let bytes = std::fs::read(dir.join(format!("{stem}.spv"))).unwrap();
        let (words, _) = words_from_bytes(&bytes).unwrap();
        let mut got = Vec::new();
        let result = disassemble_to(&words, &options_for(suffix), &mut got);
        let entry = per_suffix.entry(suffix).or_default();
        entry.1 += 1;
        if result.is_ok() && &got == want {
            entry.0 += 1;
        } else {
            failures.push(format!("{stem}.{suffix}: {:?}", result.err()));
        }
    }
    for (suffix, (ok, total)) in &per_suffix {
        println!("{name} {suffix:12} {ok}/{total} identical");
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn upstream_corpus_matches_spirv_dis() {
    check_corpus("spv");
}

#[test]
fn glslang_corpus_matches_spirv_dis() {
    check_corpus("glslang");
}
