//! The reader's shortcuts (precomputed layouts, the OpExtInst and OpConstant
//! fast cases) must decode exactly as the general, grammar-driven path does:
//! the same operands for every instruction and the same error at the same
//! place. Checked over every module of the corpora, valid and mutated.

mod common;

use common::{corpus, read_tar_xz, words};
use gpuasm_spirv::binary::{InstructionParser, ParserOptions};

/// Everything the parser reports, instruction by instruction, as text.
fn decode(words: &[u32], options: ParserOptions) -> Vec<String> {
    let mut out = Vec::new();
    let mut parser = match InstructionParser::new(words, options) {
        Ok(p) => p,
        Err(e) => return vec![format!("{e:?}")],
    };
    while let Some(inst) = parser.next() {
        out.push(match inst {
            Ok(i) => format!(
                "{} {} {} {} {:?} {:?}",
                i.offset,
                i.opcode,
                i.result_type,
                i.result_id,
                i.ext_set.map(|s| s.is_non_semantic()),
                i.operands
            ),
            Err(e) => format!("error {e:?}"),
        });
    }
    out
}

fn check(name: &str, words: &[u32], failures: &mut Vec<String>) {
    for (check_bound, all_sets) in [(true, true), (false, false)] {
        let base = ParserOptions { check_bound, spirv_tools_ext_sets: all_sets, ..ParserOptions::default() };
        let fast = decode(words, base);
        let general = decode(words, ParserOptions { general_only: true, ..base });
        if fast != general {
            let at = fast.iter().zip(&general).position(|(a, b)| a != b).unwrap_or(fast.len().min(general.len()));
            failures.push(format!(
                "{name} (check_bound {check_bound}): instruction {at}\n  shortcuts: {:?}\n  general:   {:?}",
                fast.get(at),
                general.get(at)
            ));
        }
    }
}

#[test]
fn shortcuts_decode_as_the_general_path_does() {
    let mut failures = Vec::new();
    let mut n = 0;
    for dir in ["spv", "glslang"] {
        for entry in std::fs::read_dir(corpus(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "spv") {
                check(&path.display().to_string(), &words(&std::fs::read(&path).unwrap()), &mut failures);
                n += 1;
            }
        }
    }
    for tar in ["mutants/mutants.tar.xz", "invalid/invalid.tar.xz"] {
        for (name, bytes) in read_tar_xz(tar) {
            if name.ends_with(".spv") {
                check(&name, &words(&bytes), &mut failures);
                n += 1;
            }
        }
    }
    assert!(n > 9000, "corpus went missing: {n} modules");
    assert!(
        failures.is_empty(),
        "{} of {n} modules differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}
