//! SPIR-V assembly text: the lexer, the assembler (text → binary) and its
//! diagnostics, and [`parse`] (text → a [`crate::module::Module`] that
//! keeps where each instruction, operand and id name stands in the text).
//!
//! [`assemble`] is the inverse of [`crate::dis::disassemble`]: for every
//! module, disassembling and assembling again gives back the same words
//! (apart from the generator word, and the bound, which becomes the largest
//! id + 1).

mod assemble;
pub mod diagnostic;
mod lex;
pub(crate) mod literal;
mod parse;
mod raw_bytes;

pub use assemble::{
    assemble, assemble_to_writer, assemble_with_warnings, segments_adopted, AsmOptions, Assembled, StreamError,
    Streamed,
};
pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use lex::{Lexer, Token, TokenKind};
pub use parse::{parse, Parsed};
pub use raw_bytes::{text_from_bytes, RawBytes};
