//! Golden tests: every module of the in-repo corpora disassembled with every
//! option set must equal spirv-dis 2025.5's stored output byte for byte.
//!
//! `tests/corpus/spv` is the shared upstream corpus; `tests/corpus/glslang`
//! is ours (`scripts/gen-glslang-corpus`). Each holds `NAME.spv` and
//! `dis.tar.xz` with `dis/NAME.<suffix>`. One trial per module, named
//! `<corpus>/NAME`, checks all of its option sets.

mod common;

use common::{ensure, first_difference, Failed, Trial};
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble_to, DisOptions};
use std::collections::BTreeMap;

/// Option set of each stored suffix (as in the corpus README).
fn options_for(suffix: &str) -> DisOptions {
    let mut o = DisOptions::default().check_bound(false);
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

/// One module under every option set spirv-dis's output was stored for.
fn check_module(corpus: &str, stem: &str, expected: &[(&'static str, Vec<u8>)]) -> Result<(), Failed> {
    let path = common::corpus(corpus).join(format!("{stem}.spv"));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (words, _) = words_from_bytes(&bytes).map_err(|e| format!("{}: {e:?}", path.display()))?;
    let mut failures = Vec::new();
    for (suffix, want) in expected {
        let mut got = Vec::new();
        match disassemble_to(&words, &options_for(suffix), &mut got) {
            Ok(_) if &got == want => {}
            Ok(_) => {
                failures.push(format!("{stem}.{suffix} differs from spirv-dis at {}", first_difference(want, &got)))
            }
            Err(e) => failures.push(format!("{stem}.{suffix}: {e:?}")),
        }
    }
    common::all_of(failures)
}

fn trials(corpus: &'static str, out: &mut Vec<Trial>) {
    let mut by_module: BTreeMap<String, Vec<(&'static str, Vec<u8>)>> = BTreeMap::new();
    for (path, want) in common::read_tar_xz(&format!("{corpus}/dis.tar.xz")) {
        let (stem, suffix) = split_name(&path);
        by_module.entry(stem).or_default().push((suffix, want));
    }
    let count = by_module.len();
    out.push(Trial::test(format!("{corpus}: expected outputs present"), move || {
        ensure(count > 0, || format!("no expected outputs in {corpus}/dis.tar.xz"))
    }));
    for (stem, expected) in by_module {
        out.push(Trial::test(format!("{corpus}/{stem}"), move || check_module(corpus, &stem, &expected)));
    }
}

fn main() {
    let mut all = Vec::new();
    trials("spv", &mut all);
    trials("glslang", &mut all);
    common::run(all)
}
