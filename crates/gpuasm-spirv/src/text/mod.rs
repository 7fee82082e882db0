//! SPIR-V assembly text: the lexer, the assembler (text → binary) and its
//! diagnostics.
//!
//! [`assemble`] is the inverse of [`crate::dis::disassemble`]: for every
//! module, disassembling and assembling again gives back the same words
//! (apart from the generator word, and the bound, which becomes the largest
//! id + 1).

mod assemble;
pub mod diagnostic;
mod lex;
pub(crate) mod literal;
mod raw_bytes;

#[cfg(feature = "test-switches")]
pub use assemble::segments_adopted;
pub use assemble::{
    assemble, assemble_to_writer, assemble_with_warnings, AsmOptions, Assembled, StreamError, Streamed,
};
pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use lex::{Lexer, Token, TokenKind};
pub use raw_bytes::{text_from_bytes, RawBytes};
