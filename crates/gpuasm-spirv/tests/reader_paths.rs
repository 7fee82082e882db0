//! The reader's shortcuts (precomputed layouts, the OpExtInst and OpConstant
//! fast cases) must decode exactly as the general, grammar-driven path does:
//! the same operands for every instruction and the same error at the same
//! place. Checked over every module of the corpora, valid and mutated, one
//! trial per module (`<corpus>/FILE`).

mod common;

use common::{ensure, read_tar_xz, words, Failed, Trial};
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

fn check(name: &str, words: &[u32]) -> Result<(), Failed> {
    let mut failures = Vec::new();
    for (check_bound, all_sets) in [(true, true), (false, false)] {
        let base = ParserOptions::default().check_bound(check_bound).spirv_tools_ext_sets(all_sets);
        let fast = decode(words, base);
        let general = decode(words, base.general_only(true));
        if fast != general {
            let at = fast.iter().zip(&general).position(|(a, b)| a != b).unwrap_or(fast.len().min(general.len()));
            failures.push(format!(
                "{name} (check_bound {check_bound}): instruction {at}\n  shortcuts: {:?}\n  general:   {:?}",
                fast.get(at),
                general.get(at)
            ));
        }
    }
    common::all_of(failures)
}

fn main() {
    let mut all = Vec::new();
    let mut n = 0;
    for dir in ["spv", "glslang"] {
        for path in common::modules(dir) {
            n += 1;
            let name = format!("{dir}/{}", common::file_name(&path));
            all.push(Trial::test(name.clone(), move || check(&name, &words(&std::fs::read(&path).unwrap()))));
        }
    }
    for (dir, files) in [("mutants", read_tar_xz("mutants/mutants.tar.xz")), ("invalid", common::read_dir("invalid"))] {
        for (file, bytes) in files {
            if file.ends_with(".spv") {
                n += 1;
                let name = format!("{dir}/{file}");
                all.push(Trial::test(name.clone(), move || check(&name, &words(&bytes))));
            }
        }
    }
    all.push(Trial::test("corpus: more than 9000 modules", move || {
        ensure(n > 9000, || format!("corpus went missing: {n} modules"))
    }));
    common::run(all)
}
