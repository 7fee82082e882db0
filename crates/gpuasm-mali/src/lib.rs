//! The Mali-200/400 ("Utgard") PP fragment-shader ISA, as Mesa's lima
//! driver emits it: a bit-exact encoder and decoder, the assembler for
//! gpuasm's syntax and its canonical disassembler (see the ISA notes in the
//! repository's spec and seed 004). The crate owns:
//!
//! - [`program`]: instructions as a control word and unit fields, with
//!   [`decode`] and [`Instruction::encode`];
//! - [`asm`]: text to words, every error reported as a [`Diagnostic`]
//!   (the types of the `gpuasm-diag` crate, re-exported here);
//! - [`dis`]: words to text that assembles back to the same words;
//! - [`hex`]: hex listings, the text form of program words;
//! - [`half`]: the binary16 numbers of the embedded constants.
//!
//! ```
//! use gpuasm_mali::{assemble, disassemble, DisOptions};
//! let words = assemble("stop, mov.v0 $0 ^const0.yyyx, const0 1 0 0 0").unwrap();
//! assert_eq!(words, [0x0002_0425, 0x0000_015c, 0x01e0_07cf, 0, 0]);
//! assert_eq!(disassemble(&words, &DisOptions::default()), "stop, mov.v0 $0 ^const0.yyyx, const0 1 0 0 0\n");
//! ```

#![deny(missing_docs)]

pub mod asm;
pub mod dis;
pub mod half;
pub mod hex;
mod operand;
pub mod program;
mod units;

pub use asm::{assemble, assemble_with_warnings};
pub use dis::{disassemble, DisOptions};
pub use gpuasm_diag::{Diagnostic, Diagnostics, Severity};
pub use program::{decode, DecodeError, Instruction};

/// The crate README's example, compiled (and for Mali run) as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
