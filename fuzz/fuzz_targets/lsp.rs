//! Arbitrary text → every language-server feature, at positions taken from
//! the input (in and out of range), after an edit taken from it too. Must
//! never panic.
#![no_main]
use gpuasm_lsp::diagnostics::{self, Settings};
use gpuasm_lsp::document::Document;
use gpuasm_lsp::{completion, formatting, hover, navigation, semantic_tokens, symbols};
use libfuzzer_sys::fuzz_target;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

fuzz_target!(|data: &[u8]| {
    // The first 8 bytes place things; the rest is the text.
    let (head, rest) = data.split_at(data.len().min(8));
    let mut head = head.to_vec();
    head.resize(8, 0);
    let text = String::from_utf8_lossy(rest).into_owned();
    let uri: Uri = "file:///fuzz.spvasm".parse().unwrap();
    let mut doc = Document::new(text, 1);
    let pos = |a: u8, b: u8| Position::new(u32::from(a % 64), u32::from(b % 96));
    for k in 0..3 {
        let p = pos(head[2 * k], head[2 * k + 1]);
        let _ = hover::hover(&doc, p);
        let _ = navigation::definition(&doc, &uri, p);
        let _ = navigation::references(&doc, &uri, p, true);
        let _ = navigation::highlights(&doc, p);
        let _ = navigation::prepare_rename(&doc, p);
        let _ = navigation::rename(&doc, &uri, p, "%renamed");
        let _ = completion::complete(&doc, p);
        if k == 0 {
            // Cut a piece out and put a `%` in, then go on with the new text.
            let (start, end) = (pos(head[6], head[7]), pos(head[6].wrapping_add(head[7] % 3), head[0]));
            let change = TextDocumentContentChangeEvent { range: Some(Range::new(start, end)), range_length: None, text: "%".into() };
            doc.apply(vec![change], 2);
        }
    }
    let _ = diagnostics::compute(&uri, &doc, &Settings::default());
    let _ = symbols::document_symbols(&doc);
    let _ = symbols::folding_ranges(&doc);
    let _ = semantic_tokens::full(&doc);
    let _ = formatting::format(&doc);
});
