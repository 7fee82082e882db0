//! The message loop: answers `initialize`, keeps the document store in step
//! with the client's notifications, publishes diagnostics once the queue of
//! incoming messages is empty (a burst of edits is checked once), and hands
//! each request to the feature that answers it. A panic in a feature
//! becomes an error answer: one bad request never takes the server down.

use crate::diagnostics::{self, Settings};
use crate::document::Store;
use crate::{completion, formatting, hover, navigation, semantic_tokens, symbols};
use gpuasm_spirv::TargetEnv;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use serde::de::DeserializeOwned;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// How the server is started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The environment to assemble and validate for (`--target-env`);
    /// the client's `initializationOptions.targetEnv` or the
    /// `gpuasm.targetEnv` setting overrides it.
    pub target_env: Option<TargetEnv>,
}

/// What the server offers.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["%".into(), "|".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic_tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

/// Serves one client over `connection` until it asks to exit.
pub fn run(connection: &Connection, options: Options) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let init = serde_json::to_value(InitializeResult {
        capabilities: capabilities(),
        server_info: Some(ServerInfo { name: "gpuasm lsp".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
    })?;
    let (id, params) = connection.initialize_start()?;
    connection.initialize_finish(id, init)?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let mut server = Server {
        store: Store::default(),
        settings: Settings { target_env: options.target_env },
        dirty: BTreeSet::new(),
    };
    if let Some(env) = params.initialization_options.as_ref().and_then(target_env_in) {
        server.settings.target_env = Some(env);
    }
    loop {
        // Publish once nothing else waits: a burst of edits is checked once.
        let msg = match connection.receiver.try_recv() {
            Ok(msg) => msg,
            Err(_) => {
                server.publish(connection)?;
                match connection.receiver.recv() {
                    Ok(msg) => msg,
                    Err(_) => return Ok(()),
                }
            }
        };
        match msg {
            Message::Request(request) => {
                // After `shutdown` the client sends `exit`, or just goes
                // away (as Neovim does when it quits at once): both end
                // the loop, quietly.
                let response = match request.method.as_str() {
                    req::Shutdown::METHOD => Response::new_ok(request.id, ()),
                    _ => server.answer(request),
                };
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(n) if n.method == notif::Exit::METHOD => return Ok(()),
            Message::Notification(n) => server.notified(n),
            Message::Response(_) => {}
        }
    }
}

/// A `targetEnv` field (in initialization options, or under `gpuasm` in
/// the settings).
fn target_env_in(value: &serde_json::Value) -> Option<TargetEnv> {
    let name = value.get("targetEnv").or_else(|| value.get("gpuasm")?.get("targetEnv"))?.as_str()?;
    TargetEnv::parse(name)
}

struct Server {
    store: Store,
    settings: Settings,
    /// Documents whose diagnostics are out of date.
    dirty: BTreeSet<String>,
}

fn params<P: DeserializeOwned>(value: serde_json::Value) -> Option<P> {
    serde_json::from_value(value).ok()
}

impl Server {
    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                if let Some(p) = params::<DidOpenTextDocumentParams>(n.params) {
                    self.dirty.insert(p.text_document.uri.as_str().to_string());
                    self.store.open(p.text_document.uri, p.text_document.text, p.text_document.version);
                }
            }
            notif::DidChangeTextDocument::METHOD => {
                if let Some(p) = params::<DidChangeTextDocumentParams>(n.params) {
                    self.dirty.insert(p.text_document.uri.as_str().to_string());
                    self.store.change(&p.text_document.uri, p.content_changes, p.text_document.version);
                }
            }
            notif::DidCloseTextDocument::METHOD => {
                if let Some(p) = params::<DidCloseTextDocumentParams>(n.params) {
                    self.store.close(&p.text_document.uri);
                    self.dirty.insert(p.text_document.uri.as_str().to_string());
                }
            }
            notif::DidChangeConfiguration::METHOD => {
                if let Some(p) = params::<DidChangeConfigurationParams>(n.params) {
                    if let Some(env) = target_env_in(&p.settings) {
                        self.settings.target_env = Some(env);
                        self.dirty.extend(self.store.uris().map(|u| u.as_str().to_string()));
                    }
                }
            }
            _ => {}
        }
    }

    /// Publishes the diagnostics of every document edited since the last
    /// time (an empty list for one closed).
    fn publish(&mut self, connection: &Connection) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        for uri in std::mem::take(&mut self.dirty) {
            let Ok(uri) = uri.parse::<Uri>() else { continue };
            let (diagnostics, version) = match self.store.get(&uri) {
                Some(doc) => {
                    let found = catch_unwind(AssertUnwindSafe(|| diagnostics::compute(&uri, doc, &self.settings)));
                    (found.unwrap_or_default(), Some(doc.version))
                }
                None => (Vec::new(), None),
            };
            let params = PublishDiagnosticsParams { uri, diagnostics, version };
            let n = Notification::new(notif::PublishDiagnostics::METHOD.into(), params);
            connection.sender.send(Message::Notification(n))?;
        }
        Ok(())
    }

    /// The answer to one request.
    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let store = &self.store;
        macro_rules! on_doc {
            ($r:ty, $p:ident, $uri:expr, |$doc:ident| $body:expr) => {
                self.run::<$r>(request, |$p| {
                    let uri: &Uri = $uri;
                    let Some($doc) = store.get(uri) else { return Ok(None) };
                    $body
                })
            };
        }
        let method = request.method.clone();
        match method.as_str() {
            req::HoverRequest::METHOD => {
                on_doc!(req::HoverRequest, p, &p.text_document_position_params.text_document.uri, |doc| Ok(
                    hover::hover(doc, p.text_document_position_params.position)
                ))
            }
            req::GotoDefinition::METHOD => {
                on_doc!(req::GotoDefinition, p, &p.text_document_position_params.text_document.uri, |doc| Ok(
                    navigation::definition(
                        doc,
                        &p.text_document_position_params.text_document.uri,
                        p.text_document_position_params.position
                    )
                ))
            }
            req::References::METHOD => {
                on_doc!(req::References, p, &p.text_document_position.text_document.uri, |doc| Ok(
                    navigation::references(
                        doc,
                        &p.text_document_position.text_document.uri,
                        p.text_document_position.position,
                        p.context.include_declaration
                    )
                ))
            }
            req::DocumentHighlightRequest::METHOD => {
                on_doc!(req::DocumentHighlightRequest, p, &p.text_document_position_params.text_document.uri, |doc| Ok(
                    navigation::highlights(doc, p.text_document_position_params.position)
                ))
            }
            req::PrepareRenameRequest::METHOD => {
                on_doc!(req::PrepareRenameRequest, p, &p.text_document.uri, |doc| Ok(navigation::prepare_rename(
                    doc, p.position
                )))
            }
            req::Rename::METHOD => on_doc!(req::Rename, p, &p.text_document_position.text_document.uri, |doc| {
                let at = &p.text_document_position;
                navigation::rename(doc, &at.text_document.uri, at.position, &p.new_name).map(Some)
            }),
            req::Completion::METHOD => {
                on_doc!(req::Completion, p, &p.text_document_position.text_document.uri, |doc| Ok(
                    completion::complete(doc, p.text_document_position.position)
                ))
            }
            req::DocumentSymbolRequest::METHOD => {
                on_doc!(req::DocumentSymbolRequest, p, &p.text_document.uri, |doc| Ok(Some(
                    DocumentSymbolResponse::Nested(symbols::document_symbols(doc))
                )))
            }
            req::FoldingRangeRequest::METHOD => {
                on_doc!(req::FoldingRangeRequest, p, &p.text_document.uri, |doc| Ok(Some(symbols::folding_ranges(doc))))
            }
            req::SemanticTokensFullRequest::METHOD => {
                on_doc!(req::SemanticTokensFullRequest, p, &p.text_document.uri, |doc| Ok(Some(
                    SemanticTokensResult::Tokens(semantic_tokens::full(doc))
                )))
            }
            req::Formatting::METHOD => {
                on_doc!(req::Formatting, p, &p.text_document.uri, |doc| Ok(formatting::format(doc)))
            }
            _ => Response::new_err(id, ErrorCode::MethodNotFound as i32, format!("unknown request {method}")),
        }
    }

    /// Decodes a request's parameters, runs `f` on them, and encodes its
    /// answer (an `Err` is a refusal shown to the user).
    fn run<R: req::Request>(
        &self,
        request: Request,
        f: impl FnOnce(R::Params) -> Result<R::Result, String>,
    ) -> Response {
        let id = request.id;
        let p: R::Params = match serde_json::from_value(request.params) {
            Ok(p) => p,
            Err(e) => return Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string()),
        };
        match catch_unwind(AssertUnwindSafe(|| f(p))) {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err(refusal)) => Response::new_err(id, ErrorCode::RequestFailed as i32, refusal),
            Err(_) => Response::new_err(id, ErrorCode::InternalError as i32, format!("{} failed", R::METHOD)),
        }
    }
}
