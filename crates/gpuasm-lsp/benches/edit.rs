//! How long the server takes, on a large text, from an edit to its
//! diagnostics, and to answer each request: prints the figures (it asserts
//! nothing about time). The text is the `1mb` benchmark shape
//! (`target/bench/big-40x200.spv`, made by scripts/bench-vs-spirv-tools)
//! disassembled, or the file named by `GPUASM_LSP_BENCH_TEXT`.
//!
//! `cargo bench -p gpuasm-lsp --bench edit`

use gpuasm_lsp::document::Document;
use gpuasm_lsp::{completion, formatting, hover, navigation, semantic_tokens, symbols, Connection, Options};
use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::Position;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

fn text() -> Option<String> {
    if let Ok(path) = std::env::var("GPUASM_LSP_BENCH_TEXT") {
        return std::fs::read_to_string(path).ok();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).unwrap();
    let bytes = std::fs::read(root.join("target/bench/big-40x200.spv")).ok()?;
    let (words, _) = gpuasm_spirv::binary::words_from_bytes(&bytes).ok()?;
    gpuasm_spirv::dis::disassemble(&words, &Default::default()).ok()
}

fn main() {
    let Some(text) = text() else {
        eprintln!("edit: skipped: target/bench/big-40x200.spv is missing (scripts/bench-vs-spirv-tools makes it)");
        return;
    };
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || gpuasm_lsp::run(&server, Options::default()).unwrap());
    let send = |m: Message| client.sender.send(m).unwrap();
    send(Message::Request(Request::new(RequestId::from(1), "initialize".into(), json!({"capabilities": {}}))));
    client.receiver.recv().unwrap();
    send(Message::Notification(Notification::new("initialized".into(), json!({}))));
    let uri = "file:///big.spvasm";
    let wait_diagnostics = || loop {
        if let Message::Notification(n) = client.receiver.recv_timeout(Duration::from_secs(120)).unwrap() {
            if n.method == "textDocument/publishDiagnostics" {
                return n.params["diagnostics"].as_array().map_or(0, Vec::len);
            }
        }
    };
    let lines = text.lines().count();
    println!("text: {} bytes, {lines} lines", text.len());
    let start = Instant::now();
    send(Message::Notification(Notification::new(
        "textDocument/didOpen".into(),
        json!({"textDocument": {"uri": uri, "languageId": "spirv", "version": 1, "text": text}}),
    )));
    let n = wait_diagnostics();
    println!("open -> diagnostics ({n}): {:?}", start.elapsed());
    // Edits in the middle of the text: a digit of a literal changes, back
    // and forth (the text stays valid).
    let line = (lines / 2) as u32;
    let mut times = Vec::new();
    for v in 0..6 {
        let edit = json!([{"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                           "text": if v % 2 == 0 { " " } else { "" }}]);
        let start = Instant::now();
        send(Message::Notification(Notification::new(
            "textDocument/didChange".into(),
            json!({"textDocument": {"uri": uri, "version": v + 2}, "contentChanges": edit}),
        )));
        wait_diagnostics();
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "edit -> diagnostics: median {:?} (min {:?}, max {:?})",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
    send(Message::Request(Request::new(RequestId::from(2), "shutdown".into(), json!(null))));
    send(Message::Notification(Notification::new("exit".into(), json!(null))));
    thread.join().unwrap();

    // Each request on its own, on the same text.
    let doc = Document::new(text, 1);
    let uri: lsp_types::Uri = uri.parse().unwrap();
    let at = doc.text.find("OpFAdd").map_or(Position::new(0, 0), |b| doc.lines.position(&doc.text, b + 2));
    let id = doc.text.rfind(" %").map_or(Position::new(0, 0), |b| doc.lines.position(&doc.text, b + 3));
    let time = |name: &str, f: &dyn Fn()| {
        let start = Instant::now();
        f();
        println!("{name}: {:?}", start.elapsed());
    };
    time("syntax (first request after an edit)", &|| {
        doc.syntax();
    });
    time("hover (opcode)", &|| drop(hover::hover(&doc, at)));
    time("hover (id)", &|| drop(hover::hover(&doc, id)));
    time("references", &|| drop(navigation::references(&doc, &uri, id, true)));
    time("rename", &|| drop(navigation::rename(&doc, &uri, id, "%bench_name")));
    time("completion (id)", &|| drop(completion::complete(&doc, id)));
    time("document symbols", &|| drop(symbols::document_symbols(&doc)));
    time("semantic tokens", &|| drop(semantic_tokens::full(&doc)));
    time("formatting", &|| drop(formatting::format(&doc)));
}
