//! Bytes (binary or hex text) → words → walk every instruction with full
//! operand decoding. Must never panic; every error must point inside the
//! input; the reader's shortcuts must decode exactly as its general path.
#![no_main]
use gpuasm_spirv::binary::{looks_like_hex_text, words_from_bytes, words_from_hex_text, InstructionParser, ParserOptions};
use libfuzzer_sys::fuzz_target;

fn walk(words: &[u32], options: ParserOptions) -> Vec<String> {
    let Ok(mut parser) = InstructionParser::new(words, options) else {
        return Vec::new();
    };
    let mut seen = Vec::new();
    while let Some(inst) = parser.next() {
        match inst {
            Ok(inst) => {
                for o in inst.operands {
                    assert!(o.offset as usize + o.num_words as usize <= inst.words.len());
                }
                seen.push(format!("{} {} {} {:?}", inst.offset, inst.result_type, inst.result_id, inst.operands));
            }
            Err(e) => {
                assert!(e.word_offset() <= words.len());
                seen.push(format!("{e:?}"));
            }
        }
    }
    seen
}

fuzz_target!(|data: &[u8]| {
    let loaded = if looks_like_hex_text(data) { words_from_hex_text(data) } else { words_from_bytes(data) };
    let Ok((words, _)) = loaded else { return };
    for check_bound in [true, false] {
        let options = ParserOptions::default().check_bound(check_bound);
        let fast = walk(&words, options);
        assert_eq!(fast, walk(&words, options.general_only(true)));
    }
});
