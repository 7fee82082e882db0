//! Bytes → if the reader accepts them as a module, `dis --raw-id` then
//! `as --preserve-numeric-ids` must give back the same words (generator and
//! bound aside: the bound becomes the largest id + 1).
#![no_main]
use gpuasm_spirv::binary::{words_from_bytes, InstructionParser, ParserOptions};
use gpuasm_spirv::dis::{disassemble, Options};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::TargetEnv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((words, _)) = words_from_bytes(data) else { return };
    let Ok(mut parser) = InstructionParser::new(&words, ParserOptions::default()) else { return };
    let mut max_id = 0;
    loop {
        match parser.next() {
            None => break,
            Some(Err(_)) => return,
            Some(Ok(inst)) => {
                for (i, o) in inst.operands.iter().enumerate() {
                    if o.kind.info().category == gpuasm_spirv::grammar::Category::Id {
                        max_id = max_id.max(inst.word(i));
                    }
                }
            }
        }
    }
    let minor = ((words[1] >> 8) & 0xff) as u8;
    if words[1] & 0xff00_00ff != 0x0001_0000 || minor > 6 {
        return; // versions spirv-as cannot write
    }
    let text = disassemble(&words, &Options { friendly_names: false, ..Options::default() }).unwrap();
    let options = AsmOptions {
        target_env: Some(TargetEnv::Universal(minor)),
        preserve_numeric_ids: true,
        generator: words[2],
        ..AsmOptions::default()
    };
    let back = assemble(&text, &options).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back[..3], words[..3]);
    assert_eq!(back[3], max_id + 1);
    assert_eq!(back[4..], words[4..], "{text}");
});
