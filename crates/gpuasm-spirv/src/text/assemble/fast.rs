//! The assembler's shortcut for the common instruction: an opcode whose
//! operands are ids, plain decimal integers, plain strings and enumerants
//! without parameters, each written the usual way. It reads such an
//! instruction in one pass, without the expected-operand stack.
//!
//! Anything else makes it give up, and the general path reads the
//! instruction again from its start. Giving up is always safe: up to that
//! point the shortcut has done only what the general path does in the same
//! order (numbering ids as they first appear, marking the result defined),
//! so the second reading finds the same ids and reports the same errors.

use super::{Assembler, Position, ID_CHAR};
use crate::grammar::{self, op, Category, InstructionInfo, OperandKind, Quantifier};
use crate::text::cursor::{is_word_end, starts_with_op};

/// What the shortcut made of an instruction.
pub(super) enum Fast {
    /// Read and emitted (or failed at `finish`, with the general path's error).
    Done(Result<(), crate::text::Diagnostic>),
    /// Not a case for the shortcut: start over on the general path.
    GiveUp,
}

impl<'t> Assembler<'t, '_> {
    pub(super) fn fast_instruction(&mut self) -> Fast {
        let text = self.cur.text_bytes();
        let first_pos = self.cur.pos;
        let mut p = first_pos.index;
        // `%name = ` in front of the opcode.
        let mut result = None;
        if text[p] == b'%' {
            let Some((end, _)) = scan_id(text, p) else { return Fast::GiveUp };
            result = Some((&self.text[p..end], first_pos));
            p = skip_blanks(text, end);
            if text.get(p) != Some(&b'=') || !is_word_end(text, p + 1) {
                return Fast::GiveUp;
            }
            p = skip_blanks(text, p + 1);
        }
        if !starts_with_op(text, p) {
            return Fast::GiveUp;
        }
        let name_end = p + text[p..].iter().position(|&c| !ID_CHAR[c as usize]).unwrap_or(text.len() - p);
        if !is_word_end(text, name_end) {
            return Fast::GiveUp;
        }
        let Some(info) = grammar::instruction_by_name(&self.text[p..name_end]) else { return Fast::GiveUp };
        if !shortcut_opcode(info) || !info.available_in(self.version) || info.has_result != result.is_some() {
            return Fast::GiveUp;
        }
        self.words.clear();
        self.info = Some(info);
        self.result = result;
        self.opcode_at = Some((Position { index: p }, name_end - p));
        self.words.push(0);
        self.cur.pos = Position { index: name_end };

        for spec in info.operands {
            let kind = spec.kind;
            if kind == OperandKind::IdResult {
                let Some((name, pos)) = self.result else { return Fast::GiveUp };
                let Ok(id) = self.id_word(&name[1..], pos) else { return Fast::GiveUp };
                self.ids.define(id);
                self.words.push(id);
                continue;
            }
            loop {
                // Is there an operand here, or has the instruction ended?
                let present = self.cur.advance() && {
                    let (w, next) = self.cur.word();
                    !self.cur.word_starts_instruction(w, next)
                };
                if !present {
                    if spec.quantifier == Quantifier::One {
                        return Fast::GiveUp; // the general path reports it
                    }
                    return Fast::Done(self.finish(info));
                }
                if !self.fast_operand(kind) {
                    return Fast::GiveUp;
                }
                if spec.quantifier != Quantifier::Variadic {
                    break;
                }
            }
        }
        Fast::Done(self.finish(info))
    }

    /// One operand at the cursor; false to give up.
    #[inline]
    fn fast_operand(&mut self, kind: OperandKind) -> bool {
        let text = self.cur.text_bytes();
        let at = self.cur.pos.index;
        match kind.info().category {
            Category::Id => {
                if text[at] != b'%' {
                    return false;
                }
                let Some((end, small)) = scan_id(text, at) else { return false };
                let small = small.filter(|&v| v < self.ids.numeric_cap);
                let id = self.ids.get_scanned(&self.text[at + 1..end], at + 1, small);
                if kind == OperandKind::IdResultType {
                    self.result_type_id = id;
                }
                self.words.push(id);
                self.cur.pos = Position { index: end };
                true
            }
            Category::Literal if kind == OperandKind::LiteralInteger => {
                // Plain decimal: no sign, no base prefix, no leading zero.
                let digits = text[at..].iter().take_while(|c| c.is_ascii_digit()).count();
                let end = at + digits;
                if digits == 0 || digits > 10 || (digits > 1 && text[at] == b'0') || !is_word_end(text, end) {
                    return false;
                }
                let value = text[at..end].iter().fold(0u64, |v, &c| v * 10 + (c - b'0') as u64);
                let Ok(value) = u32::try_from(value) else { return false };
                self.words.push(value);
                self.cur.pos = Position { index: end };
                true
            }
            Category::Literal if kind == OperandKind::LiteralString => {
                // A quoted string without escapes, followed by a delimiter.
                if text[at] != b'"' {
                    return false;
                }
                let Some(len) = text[at + 1..].iter().position(|&c| c == b'"' || c == b'\\') else { return false };
                let end = at + 1 + len;
                if text[end] != b'"' || !is_word_end(text, end + 1) {
                    return false;
                }
                crate::text::literal::push_string_words(&text[at + 1..end], &mut self.words);
                self.cur.pos = Position { index: end + 1 };
                true
            }
            Category::ValueEnum | Category::BitEnum => {
                let (w, next) = self.cur.word();
                match kind.enumerant_by_name(w) {
                    // A mask name standing for several bits would take
                    // the parameters of each: the general path's business.
                    Some(e)
                        if e.parameters.is_empty()
                            && (kind.info().category == Category::ValueEnum || e.value.count_ones() <= 1) =>
                    {
                        self.words.push(e.value);
                        self.cur.pos = next;
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

/// Opcodes the shortcut leaves alone: those whose operands depend on
/// earlier instructions (imported sets, switch selector types) or that the
/// general path must see (`OpUnknown` is not in the grammar).
fn shortcut_opcode(info: &InstructionInfo) -> bool {
    !matches!(info.opcode, op::OpExtInstImport | op::OpExtInst | op::OpExtInstWithForwardRefsKHR | op::OpSwitch)
}

/// An id word `%name` at `at`: the end of the name and its value when it is
/// a small canonical decimal. `None` unless the name is well formed and
/// followed by a delimiter.
#[inline]
fn scan_id(text: &[u8], at: usize) -> Option<(usize, Option<usize>)> {
    let start = at + 1;
    let mut i = start;
    let mut value = 0usize;
    let mut digits = true;
    while let Some(&c) = text.get(i) {
        if !ID_CHAR[c as usize] {
            break;
        }
        digits &= c.is_ascii_digit();
        value = value.wrapping_mul(10).wrapping_add(c.wrapping_sub(b'0') as usize);
        i += 1;
    }
    let len = i - start;
    if len == 0 || !is_word_end(text, i) {
        return None;
    }
    let canonical = digits && len <= 9 && !(text[start] == b'0' && len > 1);
    Some((i, canonical.then_some(value)))
}

/// Past spaces and tabs (an instruction's words are on one line in the
/// usual text; anything else is left to the general path).
#[inline]
fn skip_blanks(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && (text[i] == b' ' || text[i] == b'\t') {
        i += 1;
    }
    i
}
