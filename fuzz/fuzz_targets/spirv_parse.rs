//! Arbitrary text → `text::parse`, the front end of the language server and
//! of text-mode validation. Must never panic; it must give exactly the words
//! and diagnostics `assemble` gives, and every span it records must lie in
//! the text, on character boundaries, inside its instruction's span, and be
//! found again by `Module::locate`. The module it makes is then validated
//! (text spans in hand), which must not panic either.
#![no_main]
use gpuasm_spirv::text::{assemble_with_warnings, parse, text_from_bytes, AsmOptions};
use gpuasm_spirv::validate::{validate_module, ValOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, raw_bytes) = text_from_bytes(data);
    let text: &str = &text;
    let options = AsmOptions::default().raw_bytes(raw_bytes);
    let parsed = parse(text, &options);
    let assembled = assemble_with_warnings(text, &options);
    let parsed = match (parsed, assembled) {
        (Ok(p), Ok(a)) => {
            assert_eq!(p.words(), &a.words[..]);
            assert_eq!(format!("{:?}", p.warnings()), format!("{:?}", a.warnings));
            p
        }
        (Err(p), Err(a)) => {
            assert_eq!(format!("{p:?}"), format!("{a:?}"));
            return;
        }
        (p, a) => panic!("parse and assemble disagree: {:?} vs {:?}", p.is_ok(), a.is_ok()),
    };
    let Ok(module) = parsed.module() else { return };
    let in_text = |r: &std::ops::Range<usize>| {
        r.start <= r.end && r.end <= text.len() && text.is_char_boundary(r.start) && text.is_char_boundary(r.end)
    };
    for i in 0..module.insts().len() {
        let Some(whole) = module.span(i) else { continue };
        assert!(in_text(&whole) && !whole.is_empty(), "instruction {i}: {whole:?}");
        assert_eq!(module.locate(whole.start).map(|(at, _)| at), Some(i));
        let inside = |r: &std::ops::Range<usize>| in_text(r) && whole.start <= r.start && r.end <= whole.end;
        if let Some(op) = module.opcode_span(i) {
            assert!(inside(&op), "instruction {i}: opcode {op:?} outside {whole:?}");
        }
        for k in 0..module.operands(i).len() {
            if let Some(r) = module.operand_span(i, k) {
                assert!(inside(&r), "instruction {i} operand {k}: {r:?} outside {whole:?}");
                if !r.is_empty() {
                    assert_eq!(module.locate(r.start).map(|(at, _)| at), Some(i));
                }
            }
        }
        if let Some(id) = module.result_id(i) {
            if let Some(name) = module.text_name(id) {
                assert_eq!(module.id_named(name), Some(id));
            }
        }
    }
    let (line, col) = parsed.line_col(text.len());
    assert!(line >= 1 && col >= 1);
    let options = ValOptions::default().max_errors(8);
    if let Err(errors) = validate_module(&module, &options) {
        for e in &errors {
            if let Some(i) = e.instruction_index {
                assert!(i < module.insts().len());
            }
        }
    }
});
