//! The assembler's diagnostics: errors placed at a word of the text, and
//! the warnings for ids used but never defined.

use super::ids::first_number_uses;
use super::Assembler;
use crate::grammar::{OperandKind, Quantifier};
use crate::text::diagnostic::{Diagnostic, Severity};
use crate::text::lex::{Cursor, Position};
use rustc_hash::FxHashSet;

/// At most this many ids used but never defined are reported.
const MAX_UNDEFINED_REPORTED: usize = 20;

impl<'t> Assembler<'t, '_> {
    pub(super) fn error_at(&self, pos: Position, len: usize, message: impl Into<String>) -> Diagnostic {
        let (line, column) = Cursor::line_col(self.text, pos.index);
        Diagnostic {
            severity: Severity::Error,
            line: line + 1,
            column: column + 1,
            span: pos.index..pos.index + len,
            message: message.into(),
            help: None,
        }
    }

    pub(super) fn error_here(&self, message: impl Into<String>) -> Diagnostic {
        let (w, _) = self.cur.word();
        self.error_at(self.cur.pos, w.len(), message)
    }

    pub(super) fn opname(&self) -> &'static str {
        self.info.map_or("instruction", |i| i.name)
    }

    pub(super) fn missing_operand(&self, kind: OperandKind, name: &str, found: &str) -> Diagnostic {
        let what = if name.is_empty() { kind.name().to_string() } else { format!("'{name}' ({})", kind.name()) };
        let mut d =
            self.error_at(self.cur.pos, 1, format!("{} expects an operand {what}, but found {found}", self.opname()));
        if let Some(info) = self.info {
            let required = info.operands.iter().filter(|o| o.quantifier == Quantifier::One).count();
            let given = self.words.len().saturating_sub(1);
            d.help =
                Some(format!("{} takes at least {required} operands; {given} operand words were given", info.name));
        }
        // Point at the instruction that lacks the operand.
        if let Some((p, n)) = self.opcode_at {
            d = Diagnostic { help: d.help, ..self.error_at(p, n, d.message) };
        }
        d
    }

    pub(super) fn result_error(&self, message: impl Into<String>) -> Diagnostic {
        match self.result {
            Some((n, p)) => self.error_at(p, n.len(), message),
            None => self.error_here(message),
        }
    }

    /// Warnings for ids that are used but never defined.
    pub(super) fn check_definitions(&mut self) {
        let ids = &self.ids;
        if ids.all_defined() {
            return;
        }
        // Numbers keep no position: find the first uses in the text, in one
        // pass (only the earliest are reported).
        let numbers: FxHashSet<u32> = ids.numbered().filter(|&(id, _)| !ids.is_defined(id)).map(|(_, v)| v).collect();
        let numbered = first_number_uses(self.text, &numbers, MAX_UNDEFINED_REPORTED);
        let mut undefined: Vec<usize> =
            ids.named().filter(|&(id, _)| !ids.is_defined(id)).map(|(_, at)| at).chain(numbered).collect();
        undefined.sort_unstable();
        for start in undefined.into_iter().take(MAX_UNDEFINED_REPORTED) {
            // The name's first occurrence; its '%' is one byte before.
            let len = self.ids.name_at(start).len();
            let at = start - 1;
            let name = &self.text[at..at + len + 1];
            let mut d = self.error_at(Position { index: at }, len + 1, format!("{name} is used but never defined"));
            d.severity = Severity::Warning;
            self.diags.items.push(d);
        }
    }
}
