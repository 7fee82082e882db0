//! SPIR-V assembly text: the lexer, the assembler (text → binary) and its
//! diagnostics, and [`parse`] (text → a [`crate::module::Module`] that
//! keeps where each instruction, operand and id name stands in the text).
//!
//! [`assemble`] is the inverse of [`crate::dis::disassemble`]: for every
//! module, disassembling and assembling again gives back the same words
//! (apart from the generator word, and the bound, which becomes the largest
//! id + 1).
//!
//! The module owns [`AsmOptions`] (one switch per spirv-as option), the
//! entry points ([`assemble`], [`assemble_with_warnings`],
//! [`assemble_to_writer`]), the lexer, and the errors: every problem in
//! the text is a [`Diagnostic`] (collected in [`Diagnostics`]); only
//! streaming adds [`StreamError`], for a failed write.
//!
//! ```
//! use gpuasm_spirv::text::{assemble, assemble_with_warnings, AsmOptions};
//! let assembled = assemble_with_warnings("OpCapability Shader\n%f = OpTypeFloat 32\n", &AsmOptions::default()).unwrap();
//! assert_eq!(&assembled.words[5..], &[0x0002_0011, 1, 0x0003_0016, 1, 32]);
//! assert!(assembled.warnings.items.is_empty());
//!
//! let errors = assemble("OpCapability Shadr\n", &AsmOptions::default()).unwrap_err();
//! assert_eq!(errors.items[0].line, 1);
//! assert!(errors.render("a.spvasm", "OpCapability Shadr\n").starts_with("a.spvasm:1:14: error: "));
//! ```

mod assemble;
pub mod diagnostic;
mod lex;
pub(crate) mod literal;
mod parse;
mod raw_bytes;

#[cfg(feature = "test-switches")]
pub use assemble::segments_adopted;
pub use assemble::{
    assemble, assemble_to_writer, assemble_with_warnings, AsmOptions, Assembled, StreamError, Streamed,
};
pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use lex::{Lexer, Token, TokenKind};
pub use parse::{parse, Parsed};
pub use raw_bytes::{text_from_bytes, RawBytes};
