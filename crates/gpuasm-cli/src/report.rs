//! How diagnostics reach the user: gcc-style text (`file:line:col`, the
//! source line and a caret, rendered by `gpuasm_diag`) or, with
//! `--error-format json`, one JSON record a line on standard error (the
//! schema: docs/error-format-json.md). Every subcommand's errors and
//! warnings go through here; exit codes do not depend on the format.

use clap::ValueEnum;
use gpuasm_diag::{Diagnostics, Severity};
use serde::Serialize;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// How diagnostics are printed (`--error-format`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ErrorFormat {
    // (Plain comments: documented variants would make clap print every
    // subcommand's help in its long form.)
    // For people: `file:line:col: error: ...`, the line and a caret.
    #[default]
    Human,
    // For tools: one JSON object a line (docs/error-format-json.md).
    Json,
}

/// Set once by the subcommand, before anything is printed; `main` reads it
/// for the errors that end a command.
static JSON: AtomicBool = AtomicBool::new(false);

/// Chooses the format for the rest of the run.
pub fn set_format(format: ErrorFormat) {
    JSON.store(format == ErrorFormat::Json, Ordering::Relaxed);
}

/// Whether diagnostics are JSON records.
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Where something is in a text: bytes `start..end`, and the 1-based line
/// and column (in bytes) of its start and of the position just past its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TextSpan {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl TextSpan {
    /// `range` of `text`, whose start is already known to be at
    /// `line:column`: only the range itself is scanned for line breaks.
    pub fn at(text: &str, range: Range<usize>, line: u32, column: u32) -> TextSpan {
        let start = range.start.min(text.len());
        let end = range.end.clamp(start, text.len());
        let inside = &text.as_bytes()[start..end];
        let (end_line, end_column) = match inside.iter().rposition(|&b| b == b'\n') {
            None => (line, column + (end - start) as u32),
            Some(last) => {
                let breaks = inside.iter().filter(|&&b| b == b'\n').count() as u32;
                (line + breaks, (end - (start + last + 1)) as u32 + 1)
            }
        };
        TextSpan { start, end, line, column, end_line, end_column }
    }

    /// `range` of `text`, its line counted from the start of the text.
    pub fn find(text: &str, range: Range<usize>) -> TextSpan {
        let start = range.start.min(text.len());
        let before = &text.as_bytes()[..start];
        let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        TextSpan::at(text, range, line, (start - line_start) as u32 + 1)
    }
}

/// Something a diagnostic involves, and where it is.
#[derive(Clone, Debug, Serialize)]
pub struct Note {
    pub message: String,
    pub span: Option<TextSpan>,
}

/// One diagnostic, as one line of `--error-format json`.
#[derive(Debug, Serialize)]
pub struct Record<'a> {
    /// `error`, `warning` or `note`.
    pub severity: &'static str,
    /// The rule or stage, stable: a validator `ErrorKind`, `Assembly`,
    /// `Binary`, `Command`...
    pub kind: &'a str,
    pub message: &'a str,
    /// The input as named on the command line (`<stdin>` for `-`); null
    /// when the error is not about an input.
    pub file: Option<&'a str>,
    /// Word offset in the module (header included), when known.
    pub word_offset: Option<usize>,
    /// Index of the instruction in the module, when the error concerns one.
    pub instruction_index: Option<usize>,
    /// The offending token (or instruction) in the text, when the input is
    /// a text.
    pub span: Option<TextSpan>,
    /// The high-level source position from debug info (`OpLine`,
    /// `DebugLine`) in effect at the offending instruction.
    pub source: Option<Source<'a>>,
    /// The offending instruction, disassembled.
    pub instruction: Option<&'a str>,
    /// A suggestion.
    pub help: Option<&'a str>,
    pub notes: Vec<Note>,
}

/// A position in the shader's own source, as debug info records it.
#[derive(Debug, Serialize)]
pub struct Source<'a> {
    /// The file name the module gives (`OpString`).
    pub file: &'a str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column; null when the compiler recorded none.
    pub column: Option<u32>,
    /// The line's text, when the module carries the file's text.
    pub line_text: Option<&'a str>,
}

impl<'a> Source<'a> {
    /// The JSON form of `at`.
    pub fn of(at: &gpuasm_spirv::module::source_lines::SourcePosition<'a>) -> Source<'a> {
        Source {
            file: at.file,
            line: at.line,
            column: (at.column != 0).then_some(at.column),
            line_text: at.source_line_text(),
        }
    }
}

impl Record<'_> {
    /// A record with only what every diagnostic has.
    pub fn new<'a>(severity: Severity, kind: &'a str, message: &'a str, file: Option<&'a str>) -> Record<'a> {
        Record {
            severity: severity_name(severity),
            kind,
            message,
            file,
            word_offset: None,
            instruction_index: None,
            span: None,
            source: None,
            instruction: None,
            help: None,
            notes: Vec::new(),
        }
    }

    /// Prints the record as one line.
    pub fn emit(&self) {
        // Serializing plain strings, numbers and options cannot fail.
        let line = serde_json::to_string(self).expect("a record serializes");
        messageln!("{line}");
    }
}

pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// An assembler's diagnostics on `text` (errors and warnings), of `kind`.
pub fn text_diagnostics(file: &str, text: &str, diags: &Diagnostics, kind: &str) {
    if !json() {
        message!("{}", diags.render(file, text));
        return;
    }
    crate::io::hold_messages(|| {
        for d in &diags.items {
            let mut r = Record::new(d.severity, kind, &d.message, Some(file));
            r.span = Some(TextSpan::at(text, d.span.clone(), d.line, d.column));
            r.help = d.help.as_deref();
            r.emit();
        }
    });
}

/// A problem with no place in a text: `gpuasm: error: FILE: MESSAGE`.
pub fn plain(severity: Severity, file: &str, kind: &str, message: &str, word_offset: Option<usize>) {
    if json() {
        let mut r = Record::new(severity, kind, message, Some(file));
        r.word_offset = word_offset;
        r.emit();
    } else {
        messageln!("gpuasm: {}: {file}: {message}", severity_name(severity));
    }
}

/// A closing line for people (`gpuasm: 2 errors in a.spvasm; nothing
/// written`); JSON readers count the records instead.
pub fn summary(line: std::fmt::Arguments<'_>) {
    if !json() {
        messageln!("{line}");
    }
}

/// `n error` or `n errors`.
pub fn errors(n: usize) -> String {
    format!("{n} error{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::TextSpan;

    #[test]
    fn spans_count_lines_and_columns() {
        let text = "ab\ncd ef\ngh";
        let s = TextSpan::find(text, 6..8);
        assert_eq!((s.line, s.column, s.end_line, s.end_column), (2, 4, 2, 6));
        let s = TextSpan::find(text, 4..10);
        assert_eq!((s.line, s.column, s.end_line, s.end_column), (2, 2, 3, 2));
        assert_eq!(TextSpan::at(text, 0..2, 1, 1), TextSpan::find(text, 0..2));
    }
}
