//! Instructions read without the grammar: those written as `!<integer>`
//! words, and `OpUnknown(opcode, word count)` with its operands.

use super::{Assembler, OperandError};
use crate::text::diagnostic::Diagnostic;
use crate::text::lex::Position;
use crate::text::literal;

impl<'t> Assembler<'t, '_> {
    /// An instruction written as `!<integer>` words: emitted as written.
    pub(super) fn immediate_instruction(&mut self) -> Result<(), Diagnostic> {
        let (w, next) = self.cur.word();
        self.immediate_word(w)?;
        self.record(0, self.cur.pos.index, next.index);
        self.cur.pos = next;
        loop {
            if !self.cur.advance() || self.cur.is_start_of_new_inst() {
                break;
            }
            let (w, next) = self.cur.word();
            if w == "=" {
                return Err(self.error_here("'=' cannot follow an instruction written with !<integer>"));
            }
            self.untyped_operand(w, next)?;
        }
        self.emit_words();
        Ok(())
    }

    /// One operand of an instruction without a grammar (`!<integer>` or
    /// `OpUnknown`): any literal or id, then step past it.
    pub(super) fn untyped_operand(&mut self, w: &'t str, next: Position) -> Result<(), Diagnostic> {
        self.expected.clear();
        let at = self.words.len();
        match self.any_value(w) {
            Ok(()) => {}
            Err(OperandError::Hard(d) | OperandError::NoMatch(d)) => return Err(d),
        }
        self.record(at, self.cur.pos.index, next.index);
        self.cur.pos = next;
        Ok(())
    }

    /// `OpUnknown(opcode, word count)` followed by its operands.
    pub(super) fn unknown_instruction(&mut self) -> Result<(), Diagnostic> {
        let expect_char = |s: &mut Self, c: u8, what: &str| -> Result<(), Diagnostic> {
            if !s.cur.advance() {
                return Err(s.error_here(format!("expected '{}' {what}, found the end", c as char)));
            }
            if s.cur.peek() != c {
                return Err(s.error_here(format!("expected '{}' {what}", c as char)));
            }
            s.cur.bump();
            Ok(())
        };
        let number = |s: &mut Self, what: &str| -> Result<u32, Diagnostic> {
            if !s.cur.advance() {
                return Err(s.error_here(format!("expected the {what}, found the end")));
            }
            let (w, next) = s.cur.word();
            let v = literal::parse_c_u32(w)
                .filter(|&v| v <= 0xffff)
                .ok_or_else(|| s.error_here(format!("invalid {what} '{w}': expected a 16-bit number")))?;
            s.cur.pos = next;
            Ok(v)
        };
        expect_char(self, b'(', "after OpUnknown")?;
        let opcode = number(self, "opcode")?;
        expect_char(self, b',', "after the opcode")?;
        let count = number(self, "word count")?;
        if count == 0 {
            return Err(self.error_here("the word count (which includes the opcode word) must be at least 1"));
        }
        expect_char(self, b')', "after the word count")?;
        self.words.push((count << 16) | opcode);
        // `OpUnknown(opcode, count)` wrote the first word.
        self.record(0, self.opname_index.unwrap_or(self.cur.pos.index), self.cur.pos.index);
        for i in 1..count {
            let left = count - i;
            if !self.cur.advance() {
                return Err(self.error_here(format!("expected {left} more operands, found the end")));
            }
            if self.cur.is_start_of_new_inst() {
                return Err(self.error_here(format!("expected {left} more operands, found the next instruction")));
            }
            let (w, next) = self.cur.word();
            self.untyped_operand(w, next)?;
        }
        self.emit_words();
        Ok(())
    }
}
