//! A language server for SPIR-V assembly (`gpuasm lsp`), built on
//! gpuasm-spirv's assembler, validator and grammar tables.
//!
//! The server speaks the Language Server Protocol through `lsp-server`
//! (over stdio with [`run_stdio`], or over any [`Connection`] with [`run`]).
//! Each feature is a module with one job:
//!
//! - [`server`]: the message loop, which hands each request to a feature;
//! - [`document`]: the open documents and their edits; [`position`]: byte
//!   offsets to LSP positions; [`syntax`]: a text's statements, read
//!   whether or not it assembles;
//! - [`diagnostics`]: assembler errors and warnings, validator errors;
//! - [`hover`], [`navigation`] (definition, references, highlights,
//!   rename), [`completion`], [`symbols`] (outline and folding),
//!   [`semantic_tokens`] and [`formatting`] (the spirv-dis layout).
//!
//! ```
//! use gpuasm_lsp::{document::Document, hover};
//! use lsp_types::{HoverContents, Position};
//! let doc = Document::new("%f = OpTypeFloat 32\n".into(), 1);
//! let hover = hover::hover(&doc, Position::new(0, 8)).unwrap();
//! let HoverContents::Markup(text) = hover.contents else { panic!() };
//! assert!(text.value.contains("OpTypeFloat"));
//! ```

pub mod completion;
pub mod diagnostics;
pub mod document;
pub mod formatting;
pub mod hover;
pub mod navigation;
pub mod operands;
pub mod position;
pub mod semantic_tokens;
pub mod server;
pub mod symbols;
pub mod syntax;

pub use lsp_server::Connection;
pub use server::{run, Options};

/// Serves one client over stdin and stdout until it exits.
pub fn run_stdio(options: Options) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (connection, io_threads) = Connection::stdio();
    run(&connection, options)?;
    // The reader thread ends at end of input; the writer when the
    // connection's sender is dropped.
    drop(connection);
    io_threads.join()?;
    Ok(())
}
