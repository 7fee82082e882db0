//! Round trip over every module of the golden corpora: `dis --raw-id` then
//! `as --preserve-numeric-ids` gives back the same module: every word but
//! the generator, and the bound, which becomes the largest id + 1 (the
//! reference round trip in `spv/ROUNDTRIP.tsv` shows spirv-as does the same).
//! One trial per module, named `<corpus>/FILE`.

mod common;

use common::{ensure, Failed, Trial};
use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
use gpuasm_spirv::dis::{disassemble, DisOptions};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::TargetEnv;
use std::path::Path;

fn max_id_plus_one(words: &[u32]) -> u32 {
    let mut parser = InstructionParser::new(words, ParserOptions::default().check_bound(false)).unwrap();
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

fn round_trip(path: &Path) -> Result<(), Failed> {
    let raw = DisOptions::default().friendly_names(false).check_bound(false);
    let (words, _) = words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let text = disassemble(&words, &raw).unwrap();
    let minor = ((words[1] >> 8) & 0xff) as u8;
    let options = AsmOptions::default()
        .target_env(Some(TargetEnv::Universal(minor)))
        .preserve_numeric_ids(true)
        .generator(words[2]);
    let back = assemble(&text, &options).map_err(|d| format!("{}: {d}", path.display()))?;
    let bound = max_id_plus_one(&words);
    ensure(back.len() == words.len() && back[..3] == words[..3] && back[3] == bound && back[4..] == words[4..], || {
        let at = (0..back.len().max(words.len())).find(|&i| {
            if i == 3 {
                back.get(3) != Some(&bound)
            } else {
                back.get(i) != words.get(i)
            }
        });
        format!("{}: words differ ({} back, {} in), first at word {at:?}", path.display(), back.len(), words.len())
    })
}

fn trials(corpus: &'static str, at_least: usize, out: &mut Vec<Trial>) {
    let modules = common::modules(corpus);
    let n = modules.len();
    out.push(Trial::test(format!("{corpus}: more than {at_least} modules"), move || {
        ensure(n > at_least, || format!("corpus went missing: {n} modules"))
    }));
    for path in modules {
        out.push(Trial::test(format!("{corpus}/{}", common::file_name(&path)), move || round_trip(&path)));
    }
}

fn main() {
    let mut all = Vec::new();
    trials("spv", 900, &mut all);
    trials("glslang", 400, &mut all);
    common::run(all)
}
