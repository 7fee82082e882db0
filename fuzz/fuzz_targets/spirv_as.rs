//! Arbitrary bytes → assembler, read as the CLI reads them (bytes that are
//! not UTF-8 kept for string literals). Must never panic; an accepted text must give
//! a module the reader accepts (ids past the bound aside), and every error
//! must point inside the text. The shortcut for common instructions must
//! give exactly what the general path gives, words and diagnostics, and so
//! must splitting the text between threads (at points taken from the text:
//! line starts, which workers usually get to keep, and arbitrary bytes).
//! The lexer must lose no byte: its tokens put together give the text back.
#![no_main]
use gpuasm_spirv::binary::{InstructionParser, ParserOptions};
use gpuasm_spirv::text::{assemble, assemble_with_warnings, text_from_bytes, AsmOptions, Lexer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, raw_bytes) = text_from_bytes(data);
    let text: &str = &text;
    let mut at = 0;
    for token in Lexer::new(text) {
        assert_eq!(token.span.start, at);
        assert!(token.span.end > at && &text[token.span.clone()] == token.text);
        at = token.span.end;
    }
    assert_eq!(at, text.len());
    for preserve in [false, true] {
        let options = AsmOptions::default().preserve_numeric_ids(preserve).raw_bytes(raw_bytes);
        let result = assemble(text, &options);
        let general = assemble(text, &options.clone().general_only(true));
        assert_eq!(format!("{result:?}"), format!("{general:?}"));
        if !preserve {
            let one_pass = format!("{:?}", assemble_with_warnings(text, &options).map(|a| (a.words, a.warnings)));
            for split_at in splits(text) {
                let split = options.clone().split_at(Some(split_at));
                let got = format!("{:?}", assemble_with_warnings(text, &split).map(|a| (a.words, a.warnings)));
                assert_eq!(got, one_pass);
            }
        }
        match result {
            Ok(words) => {
                assert_eq!(words[0], 0x0723_0203);
                // Walk it: must not panic (it may be invalid SPIR-V).
                if let Ok(mut p) = InstructionParser::new(&words, ParserOptions::default().check_bound(false)) {
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

/// Split points from the text itself: line starts, thirds, and bytes
/// picked by a hash of it.
fn splits(text: &str) -> Vec<(usize, Vec<usize>)> {
    let lines: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let pick = |k: u64| (hash.rotate_left(k as u32 * 13) % (text.len() as u64 + 1)) as usize;
    let mut plans = vec![(pick(1), vec![pick(2), pick(3)])];
    if lines.len() > 2 {
        // At most 16 segments: a thread each, and thousands of threads per
        // input would leave the fuzzer little time for anything else.
        let step = (lines.len() - 2).div_ceil(15);
        plans.push((lines[1], lines[2..].iter().copied().step_by(step).collect()));
        plans.push((0, vec![lines[lines.len() / 3], lines[2 * lines.len() / 3]]));
    }
    plans
}
