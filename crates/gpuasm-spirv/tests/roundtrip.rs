//! Round trip over every module of the golden corpora: `dis --raw-id` then
//! `as --preserve-numeric-ids` gives back the same module: every word but
//! the generator, and the bound, which becomes the largest id + 1 (the
//! reference round trip in `spv/ROUNDTRIP.tsv` shows spirv-as does the same).

mod common;

use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
use gpuasm_spirv::dis::{disassemble, Options};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::TargetEnv;

fn max_id_plus_one(words: &[u32]) -> u32 {
    let mut parser = InstructionParser::new(words, ParserOptions { check_bound: false, ..Default::default() }).unwrap();
    let mut max = 0;
    while let Some(Ok(inst)) = parser.next() {
        for (i, o) in inst.operands.iter().enumerate() {
            if o.kind.info().category == gpuasm_spirv::grammar::Category::Id {
                max = max.max(inst.word(i));
            }
        }
    }
    max + 1
}

fn round_trip_dir(dir: &str) -> usize {
    let raw = Options { friendly_names: false, check_bound: false, ..Options::default() };
    let mut n = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(common::corpus(dir)).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "spv") {
            continue;
        }
        let (words, _) = words_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let text = disassemble(&words, &raw).unwrap();
        let minor = ((words[1] >> 8) & 0xff) as u8;
        let options = AsmOptions {
            target_env: Some(TargetEnv::Universal(minor)),
            preserve_numeric_ids: true,
            generator: words[2],
            ..AsmOptions::default()
        };
        n += 1;
        match assemble(&text, &options) {
            Ok(back) => {
                let ok = back.len() == words.len()
                    && back[..3] == words[..3]
                    && back[3] == max_id_plus_one(&words)
                    && back[4..] == words[4..];
                if !ok {
                    failures.push(format!("{}: words differ", path.display()));
                }
            }
            Err(d) => failures.push(format!("{}: {d}", path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    n
}

#[test]
fn upstream_modules_round_trip() {
    assert!(round_trip_dir("spv") > 900);
}

#[test]
fn glslang_modules_round_trip() {
    assert!(round_trip_dir("glslang") > 400);
}
