//! A test client: runs the server on a thread over an in-memory
//! connection, and speaks to it as an editor would.

#![allow(dead_code)]

use gpuasm_lsp::{Connection, Options};
use lsp_server::{Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::*;
use serde_json::{json, Value};
use std::thread::JoinHandle;
use std::time::Duration;

pub struct Client {
    conn: Connection,
    server: Option<JoinHandle<()>>,
    next_id: i32,
    /// Diagnostics published, in order.
    pub published: Vec<PublishDiagnosticsParams>,
}

impl Client {
    /// Starts a server and initializes it.
    pub fn start(options: Options, init: Value) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || gpuasm_lsp::run(&server, options).unwrap());
        let mut c = Client { conn, server: Some(handle), next_id: 0, published: Vec::new() };
        let caps: InitializeResult = serde_json::from_value(
            c.request_raw("initialize", json!({"capabilities": {}, "initializationOptions": init})).unwrap(),
        )
        .unwrap();
        assert!(caps.capabilities.hover_provider.is_some());
        c.notify("initialized", json!({}));
        c
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    fn recv(&mut self) -> Message {
        self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("the server answers")
    }

    /// Sends a request and waits for its answer (`Err`: an error answer).
    pub fn request_raw(&mut self, method: &str, params: Value) -> Result<Value, lsp_server::ResponseError> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            match self.recv() {
                Message::Response(Response { id: got, result, error }) if got == id => {
                    return match error {
                        Some(e) => Err(e),
                        None => Ok(result.unwrap_or(Value::Null)),
                    }
                }
                Message::Notification(n) => self.note(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    pub fn request<R: lsp_types::request::Request>(&mut self, params: R::Params) -> R::Result {
        let value = self.request_raw(R::METHOD, serde_json::to_value(params).unwrap()).unwrap();
        serde_json::from_value(value).unwrap()
    }

    fn note(&mut self, n: Notification) {
        if n.method == notification::PublishDiagnostics::METHOD {
            self.published.push(serde_json::from_value(n.params).unwrap());
        }
    }

    /// Waits for the next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &Uri) -> Vec<Diagnostic> {
        loop {
            if let Some(k) = self.published.iter().position(|p| &p.uri == uri) {
                return self.published.remove(k).diagnostics;
            }
            match self.recv() {
                Message::Notification(n) => self.note(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    pub fn open(&mut self, uri: &Uri, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri.as_str(), "languageId": "spirv", "version": 1, "text": text}}),
        );
    }

    pub fn change(&mut self, uri: &Uri, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri.as_str(), "version": version}, "contentChanges": changes}),
        );
    }

    /// Shuts the server down and waits for it to end.
    pub fn stop(mut self) {
        self.request_raw("shutdown", Value::Null).unwrap();
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

pub fn uri(s: &str) -> Uri {
    s.parse().unwrap()
}

/// `TextDocumentPositionParams` at the `n`th (0-based) occurrence of
/// `needle` in `text`, `offset` bytes into it.
pub fn at(uri: &Uri, text: &str, needle: &str, n: usize, offset: usize) -> TextDocumentPositionParams {
    let start = text.match_indices(needle).nth(n).unwrap_or_else(|| panic!("{needle} #{n}")).0 + offset;
    let line = text[..start].matches('\n').count() as u32;
    let col = (start - text[..start].rfind('\n').map_or(0, |p| p + 1)) as u32;
    TextDocumentPositionParams::new(TextDocumentIdentifier::new(uri.clone()), Position::new(line, col))
}
