//! The Mali-200/400 ("Utgard") PP fragment-shader ISA: a bit-exact encoder
//! and decoder, the assembler for gpuasm's syntax and its canonical
//! disassembler (see the ISA notes in the repository's spec and seed 004).
//!
//! ```
//! use gpuasm_mali::{assemble, disassemble, DisOptions};
//! let words = assemble("stop, mov.v0 $0 ^const0.yyyx, const0 1 0 0 0").unwrap();
//! assert_eq!(words, [0x0002_0425, 0x0000_015c, 0x01e0_07cf, 0, 0]);
//! assert_eq!(disassemble(&words, &DisOptions::default()), "stop, mov.v0 $0 ^const0.yyyx, const0 1 0 0 0\n");
//! ```

pub mod asm;
pub mod dis;
pub mod operand;
pub mod program;
pub mod units;

pub use asm::{assemble, assemble_with_warnings};
pub use dis::{disassemble, DisOptions};
pub use program::{decode, Instruction};

/// The crate README's example, compiled (and for Mali run) as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
