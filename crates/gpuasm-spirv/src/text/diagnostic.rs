//! Diagnostics on assembly text: the types and rendering of the
//! [`gpuasm_diag`] crate, which the Mali assembler shares, re-exported here
//! where the SPIR-V assembler's users have always found them.
//!
//! ```
//! use gpuasm_spirv::text::{assemble, diagnostic::Severity, AsmOptions};
//! let text = "%x = OpTypeInt 32\n";
//! let diagnostics = assemble(text, &AsmOptions::default()).unwrap_err();
//! let first = &diagnostics.items[0];
//! assert_eq!((first.severity, first.line), (Severity::Error, 1));
//! assert!(diagnostics.render("a.spvasm", text).contains(" 1 | %x = OpTypeInt 32\n"));
//! ```

pub use gpuasm_diag::{nearest, Diagnostic, Diagnostics, Severity};
