//! Diagnostics on assembly text: the types and rendering of the
//! [`gpuasm_diag`] crate, which the Mali assembler shares, re-exported here
//! where the SPIR-V assembler's users have always found them.

pub use gpuasm_diag::{nearest, Diagnostic, Diagnostics, Severity};
