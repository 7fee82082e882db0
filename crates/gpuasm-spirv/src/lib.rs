//! SPIR-V for gpuasm: grammar tables, a zero-copy binary reader, a
//! disassembler whose output matches SPIRV-Tools' `spirv-dis`, an
//! assembler whose output matches `spirv-as`, and a [`validate`]or that
//! gives `spirv-val`'s verdicts.
//!
//! Data flows one way: [`grammar`] tables → [`binary`] reader / [`text`]
//! parser → [`dis`] printer / encoder.
//!
//! ```
//! // A minimal module: header plus `OpCapability Shader`.
//! let words = [0x0723_0203, 0x0001_0000, 0, 1, 0, (2 << 16) | 17, 1];
//! let text = gpuasm_spirv::dis::disassemble(&words, &Default::default()).unwrap();
//! assert!(text.ends_with("OpCapability Shader\n"));
//! ```
//!
//! # Cargo features
//!
//! - `test-switches` (off by default): switches for the crate's own tests
//!   and fuzz targets, which check that the shortcuts and the parallel
//!   assembler give what the general, one-thread paths give:
//!   `ParserOptions::general_only`, `AsmOptions::general_only` and
//!   `AsmOptions::split_at`, and `text::segments_adopted`. **Not part of the
//!   stable API**: they may change or go in any release, and no build of
//!   the `gpuasm` binary enables them.

#![deny(missing_docs)]

pub mod binary;
pub mod cfg;
pub mod diff;
pub mod dis;
pub mod grammar;
pub mod link;
pub mod module;
mod name_map;
mod number;
pub(crate) mod peer_opcodes;
pub mod placement;
pub mod reflect;
pub mod target_env;
pub mod text;
pub mod validate;

pub use target_env::TargetEnv;

/// The crate README's example, compiled (and for Mali run) as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
