//! No text and no position makes a feature panic: corpus texts with random
//! edits (at any position, in or out of range), then every request at
//! random positions.

use gpuasm_lsp::diagnostics::{self, Settings};
use gpuasm_lsp::document::Document;
use gpuasm_lsp::{completion, formatting, hover, navigation, semantic_tokens, symbols};
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A spread of the in-repo assembly corpora: every 16th text, up to 64 KiB.
fn corpus() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-spirv/tests/corpus/asm");
        let mut paths = Vec::new();
        for dir in ["asm", "unit", "asm-rejected"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
            paths.extend(entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "spvasm")));
        }
        paths.sort();
        let mut texts: Vec<String> = paths
            .iter()
            .step_by(16)
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter(|t| t.len() <= 64 * 1024)
            .collect();
        texts.push(String::new());
        texts
    })
}

/// Pieces an edit inserts: the syntax's own characters, names, and text
/// that is not ASCII.
const PIECES: &[&str] = &[
    "%",
    "=",
    " = ",
    "Op",
    "OpTypeInt 32",
    "%x = OpExtInst %f %g Sqrt",
    "\"",
    "\"a\\\"",
    "\n",
    ";",
    " ",
    "|",
    "Aligned|",
    "é",
    "𝄞",
    "\0",
    "(",
    ")",
    ",",
    "0x",
    "-1.5e3",
    "!7",
    "OpUnknown(1, 2)",
    "OpFunction",
    "OpFunctionEnd",
    "OpLabel",
    "%main",
    "\r\n",
    "\t",
    "OpSwitch %s %d 1",
];

fn position() -> impl Strategy<Value = Position> {
    (0u32..400, 0u32..120).prop_map(|(l, c)| Position::new(l, c))
}

fn edit() -> impl Strategy<Value = TextDocumentContentChangeEvent> {
    (position(), 0u32..3, 0u32..40, proptest::collection::vec(0..PIECES.len(), 0..4)).prop_map(
        |(start, lines, cols, pieces)| {
            let end = Position::new(start.line + lines, if lines == 0 { start.character + cols } else { cols });
            TextDocumentContentChangeEvent {
                range: Some(Range::new(start, end)),
                range_length: None,
                text: pieces.iter().map(|&i| PIECES[i]).collect(),
            }
        },
    )
}

fn every_request(uri: &Uri, doc: &Document, pos: Position) {
    let _ = hover::hover(doc, pos);
    let _ = navigation::definition(doc, uri, pos);
    let _ = navigation::references(doc, uri, pos, true);
    let _ = navigation::highlights(doc, pos);
    let _ = navigation::prepare_rename(doc, pos);
    let _ = navigation::rename(doc, uri, pos, "%renamed");
    let _ = completion::complete(doc, pos);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_and_requests_never_panic(
        file in any::<prop::sample::Index>(),
        edits in proptest::collection::vec(edit(), 1..6),
        positions in proptest::collection::vec(position(), 1..24),
    ) {
        let texts = corpus();
        let uri: Uri = "file:///fuzz.spvasm".parse().unwrap();
        let mut doc = Document::new(texts[file.index(texts.len())].clone(), 1);
        for (v, e) in edits.into_iter().enumerate() {
            doc.apply(vec![e], v as i32 + 2);
            // Positions near the text: the lines it has.
            let lines = doc.text.lines().count() as u32 + 1;
            for p in &positions {
                every_request(&uri, &doc, Position::new(p.line % lines, p.character));
                every_request(&uri, &doc, *p);
            }
        }
        let _ = diagnostics::compute(&uri, &doc, &Settings::default());
        let _ = symbols::document_symbols(&doc);
        let _ = symbols::folding_ranges(&doc);
        let _ = semantic_tokens::full(&doc);
        let _ = formatting::format(&doc);
    }
}

#[test]
fn every_request_at_every_byte_of_some_texts() {
    let uri: Uri = "file:///all.spvasm".parse().unwrap();
    for text in corpus().iter().take(6) {
        let doc = Document::new(text.clone(), 1);
        for at in (0..=text.len()).step_by(7) {
            every_request(&uri, &doc, doc.lines.position(text, at));
        }
    }
}
