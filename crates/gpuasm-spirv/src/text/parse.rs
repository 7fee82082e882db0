//! Assembly text to a [`Module`] that knows where each of its parts was
//! written: for tools that point into the text (line:column diagnostics, a
//! language server).
//!
//! Owns [`parse`] and [`Parsed`] (the words and the spans, which
//! [`crate::module::spans`] holds). The text is read by the assembler's
//! general path on the calling thread, which records spans as it reads;
//! [`super::assemble`] records none and keeps its shortcut and its threads.

use super::assemble::{assemble_with_spans, AsmOptions};
use super::diagnostic::{Diagnostic, Diagnostics, Severity};
use super::lex::Cursor;
use crate::binary::BinaryError;
use crate::module::spans::TextSpans;
use crate::module::Module;

/// A text assembled with its spans kept: see [`parse`].
#[derive(Clone, Debug)]
pub struct Parsed<'t> {
    words: Vec<u32>,
    warnings: Diagnostics,
    spans: TextSpans<'t>,
}

/// Assembles `text` as [`super::assemble`] does (same words, same
/// diagnostics), keeping where every instruction, operand and id name
/// stands in it.
///
/// ```
/// use gpuasm_spirv::text::{parse, AsmOptions};
/// let text = "OpCapability Shader\n%f32 = OpTypeFloat 32\n%one = OpConstant %f32 1.0\n";
/// let parsed = parse(text, &AsmOptions::default()).unwrap();
/// let module = parsed.module().unwrap();
/// // Instruction 2, `%one = OpConstant %f32 1.0`: operands are result
/// // type, result, value.
/// assert_eq!(&text[module.span(2).unwrap()], "%one = OpConstant %f32 1.0");
/// assert_eq!(&text[module.operand_span(2, 0).unwrap()], "%f32");
/// assert_eq!(&text[module.operand_span(2, 2).unwrap()], "1.0");
/// // Names in the text, and where a byte is.
/// let one = module.id_named("one").unwrap();
/// assert_eq!(module.def_index(one), Some(2));
/// assert_eq!(module.text_name(one), Some("one"));
/// assert_eq!(module.locate(text.find("%f32 1").unwrap()), Some((2, Some(0))));
/// assert_eq!(parsed.line_col(module.span(2).unwrap().start), (3, 1));
/// ```
pub fn parse<'t>(text: &'t str, options: &AsmOptions) -> Result<Parsed<'t>, Diagnostics> {
    if u32::try_from(text.len()).is_err() {
        let message = "the text is too large to keep spans for: 4 GiB or more".to_string();
        let d = Diagnostic { severity: Severity::Error, line: 1, column: 1, span: 0..0, message, help: None };
        return Err(Diagnostics { items: vec![d] });
    }
    let (words, warnings, mut spans) = assemble_with_spans(text, options)?;
    spans.name_ids(&words);
    Ok(Parsed { words, warnings, spans })
}

impl<'t> Parsed<'t> {
    /// The module's words, header included (those [`super::assemble`]
    /// gives).
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// The words, without the spans.
    pub fn into_words(self) -> Vec<u32> {
        self.words
    }

    /// Things spirv-as accepts silently but that are likely mistakes.
    pub fn warnings(&self) -> &Diagnostics {
        &self.warnings
    }

    /// The spans.
    pub fn spans(&self) -> &TextSpans<'t> {
        &self.spans
    }

    /// The module, with its spans: [`Module::span`],
    /// [`Module::operand_span`] and the like answer from the text. An
    /// error only where `!<integer>` words made a binary that does not
    /// parse.
    pub fn module(&self) -> Result<Module<'_>, BinaryError> {
        Ok(Module::read(&self.words)?.with_text(&self.spans))
    }

    /// The 1-based line and column (in bytes) of byte `at` of the text, as
    /// diagnostics give them.
    pub fn line_col(&self, at: usize) -> (u32, u32) {
        let (line, col) = Cursor::line_col(self.spans.text(), at);
        (line + 1, col + 1)
    }
}
