//! Printing validation errors: by word offset for a binary, or, for a
//! module assembled from text, at their place in it (`file:line:col`, the
//! line, a caret under the offending operand, and a note at the definition
//! of each id the message names), as people or as JSON records.

use crate::report::{self, Note, Record, Source, TextSpan};
use gpuasm_diag::{Diagnostic, Diagnostics, Severity};
use gpuasm_spirv::grammar::OperandKind;
use gpuasm_spirv::module::source_lines::source_note;
use gpuasm_spirv::module::Module;
use gpuasm_spirv::validate::{ErrorKind, ValidationError};
use std::ops::Range;

/// The stable name of an error's rule family (the `[Kind]` of the text
/// output, `kind` in JSON).
fn kind_name(e: &ValidationError) -> String {
    format!("{:?}", e.kind)
}

/// The error's word offset where it means one: an instruction's, or where
/// the binary stops reading (an error of the whole module has none).
fn word_offset(e: &ValidationError) -> Option<usize> {
    (e.instruction_index.is_some() || e.kind == ErrorKind::Binary).then_some(e.word_offset)
}

/// Errors of the module `words` (read from a binary), each with a note at
/// the definition of each id its message names: the word it is at and the
/// instruction.
pub fn binary_errors(file: &str, words: &[u32], errors: &[ValidationError]) {
    // Read again only now, on the way out (it was valid enough to validate).
    let module = Module::read(words).ok();
    for e in errors {
        let notes: Vec<String> = module.as_ref().map_or_else(Vec::new, |m| definitions(m, e));
        if report::json() {
            let kind = kind_name(e);
            let mut r = Record::new(Severity::Error, &kind, &e.message, Some(file));
            r.word_offset = word_offset(e);
            r.instruction_index = e.instruction_index;
            r.instruction = e.instruction.as_deref().map(str::trim);
            r.notes = notes.into_iter().map(|message| Note { message, span: None }).collect();
            let at = module.as_ref().zip(e.instruction_index).and_then(|(m, i)| m.source_position(i));
            r.source = at.as_ref().map(Source::of);
            r.emit();
        } else {
            messageln!("gpuasm: error: {file}: word {}: {} [{:?}]", e.word_offset, e.message, e.kind);
            if let Some(i) = &e.instruction {
                messageln!("  {i}");
            }
            for note in notes {
                messageln!("  note: {note}");
            }
            if let Some(source) = module.as_ref().zip(e.instruction_index).and_then(|(m, i)| source_note(m, i)) {
                message!("{source}");
            }
        }
    }
}

/// `%name is defined at word N: <instruction>` for each id the error's
/// message names, other than the offending instruction's result.
fn definitions(module: &Module<'_>, e: &ValidationError) -> Vec<String> {
    let names = module.names();
    e.named_ids()
        .into_iter()
        .filter_map(|id| {
            let def = module.def_index(id).filter(|&d| Some(d) != e.instruction_index)?;
            let name = names.get(id).map_or_else(|| id.to_string(), str::to_string);
            let text = gpuasm_spirv::dis::instruction_text(&module.view(def), names);
            Some(format!("%{name} is defined at word {}: {}", module.insts()[def].offset(), text.trim()))
        })
        .collect()
}

/// Errors of `module`, which was assembled from `text` with its spans.
pub fn text_errors(file: &str, text: &str, module: &Module<'_>, errors: &[ValidationError]) {
    for e in errors {
        let (span, notes) = place(module, e);
        if report::json() {
            let kind = kind_name(e);
            let mut r = Record::new(Severity::Error, &kind, &e.message, Some(file));
            r.word_offset = word_offset(e);
            r.instruction_index = e.instruction_index;
            r.instruction = e.instruction.as_deref().map(str::trim);
            r.span = span.map(|s| TextSpan::find(text, s));
            r.notes =
                notes.into_iter().map(|(message, at)| Note { message, span: Some(TextSpan::find(text, at)) }).collect();
            let at = e.instruction_index.and_then(|i| module.source_position(i));
            r.source = at.as_ref().map(Source::of);
            r.emit();
            continue;
        }
        let Some(span) = span else {
            // An error of the whole module: no place to show.
            messageln!("{file}: error: {}", e.message);
            continue;
        };
        let mut items = vec![diagnostic(text, Severity::Error, span, e.message.clone())];
        items.extend(notes.into_iter().map(|(message, at)| diagnostic(text, Severity::Note, at, message)));
        message!("{}", Diagnostics { items }.render(file, text));
        if let Some(source) = e.instruction_index.and_then(|i| source_note(module, i)) {
            message!("{source}");
        }
    }
}

/// The `K` of spirv-val's `... operand index K`, counted as
/// [`Module::operands`] counts (result type and result first).
fn operand_index(message: &str) -> Option<usize> {
    let (_, after) = message.split_once("operand index ")?;
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    after[..digits].parse().ok()
}

/// A note's message and the bytes it points at.
type Related = (String, Range<usize>);

fn diagnostic(text: &str, severity: Severity, span: Range<usize>, message: String) -> Diagnostic {
    let at = TextSpan::find(text, span.clone());
    Diagnostic { severity, line: at.line, column: at.column, span, message, help: None }
}

/// Where an error points: under the first operand of its instruction
/// that its message names (by id, or as `operand index K`; or its result
/// type, when the message speaks of it; else the whole instruction), and
/// a note at the
/// definition of each id the message names, other than the instruction
/// itself.
fn place(module: &Module<'_>, e: &ValidationError) -> (Option<Range<usize>>, Vec<Related>) {
    let ids = e.named_ids();
    let span = e.instruction_index.and_then(|i| {
        let named = ids.iter().find_map(|&id| module.id_operands(i).find(|&(_, o)| o == id).map(|(k, _)| k));
        // spirv-val's messages call the result type so when they do not
        // name it.
        let result_type = || {
            let k = module.operands(i).iter().position(|o| o.kind == OperandKind::IdResultType)?;
            e.message.contains("Result Type").then_some(k)
        };
        named
            .or_else(|| operand_index(&e.message))
            .or_else(result_type)
            .and_then(|k| module.operand_span(i, k))
            .or_else(|| module.span(i))
    });
    let notes = ids
        .iter()
        .filter_map(|&id| {
            let def = module.def_index(id)?;
            if Some(def) == e.instruction_index {
                return None;
            }
            let result = module.operands(def).iter().position(|o| o.kind == OperandKind::IdResult);
            let at = result.and_then(|k| module.operand_span(def, k)).or_else(|| module.span(def))?;
            let name = module.text_name(id).map_or_else(|| id.to_string(), str::to_string);
            Some((format!("%{name} (id {id}) is defined here"), at))
        })
        .collect();
    (span, notes)
}
