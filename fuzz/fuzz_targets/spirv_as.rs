//! Arbitrary text → assembler. Must never panic; an accepted text must give
//! a module the reader accepts (ids past the bound aside), and every error
//! must point inside the text. The shortcut for common instructions must
//! give exactly what the general path gives, words and diagnostics.
#![no_main]
use gpuasm_spirv::binary::{InstructionParser, ParserOptions};
use gpuasm_spirv::text::{assemble, AsmOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for preserve in [false, true] {
        let options = AsmOptions { preserve_numeric_ids: preserve, ..AsmOptions::default() };
        let result = assemble(text, &options);
        let general = assemble(text, &AsmOptions { general_only: true, ..options.clone() });
        assert_eq!(format!("{result:?}"), format!("{general:?}"));
        match result {
            Ok(words) => {
                assert_eq!(words[0], 0x0723_0203);
                // Walk it: must not panic (it may be invalid SPIR-V).
                if let Ok(mut p) = InstructionParser::new(&words, ParserOptions { check_bound: false, ..Default::default() }) {
                    while let Some(Ok(_)) = p.next() {}
                }
            }
            Err(diags) => {
                for d in diags.items {
                    assert!(d.span.start <= text.len());
                    let _ = d.to_string();
                }
            }
        }
    }
});
