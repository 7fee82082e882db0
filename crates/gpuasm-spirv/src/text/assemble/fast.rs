//! The assembler's shortcut for the common instruction: one line holding an
//! opcode whose operands are ids, plain decimal integers, plain strings,
//! enumerants without parameters, scalar constants and extended
//! instructions, each written the usual way. It reads a run of such lines
//! in one pass, without the expected-operand stack and without looking
//! ahead.
//!
//! Anything else makes it stop, and the general path reads that instruction
//! from its start. Stopping is always safe: up to that point the shortcut
//! has done only what the general path does in the same order (numbering
//! ids as they first appear, marking results defined), so the second
//! reading finds the same ids and reports the same errors.
//!
//! Where the general path looks ahead to see whether an optional operand
//! follows, the shortcut ends the instruction at the end of its line and
//! lets the next instruction confirm it: if the next word does not begin
//! an instruction, the general path would have read it as an operand, so
//! the shortcut takes the instruction back and leaves it to the general
//! path.

use super::{Assembler, Import, TypeClass};
use crate::grammar::{op, Category, InstructionInfo, OperandKind, OperandSpec, Quantifier};
use crate::text::lex::scan::{
    instruction_prefix, is_word_end, scan_id, skip_gap, skip_trivia, starts_with_op, word_end, ResultName,
};
use crate::text::lex::Position;
use crate::text::literal::{self, NumberType};

/// An instruction that ended at the end of its line while optional operands
/// could still have followed: it stands once the next word begins an
/// instruction.
struct Tentative {
    start: usize,
    out_at: usize,
    undo: Undo,
}

/// What finishing an instruction recorded, to be forgotten if it is taken
/// back.
#[derive(Default)]
struct Undo {
    type_added: Option<u32>,
    value_added: Option<u32>,
}

impl<'t> Assembler<'t, '_> {
    /// Reads instructions on the shortcut for as long as it can, from the
    /// cursor (at a word or the end). Leaves the cursor at the first
    /// instruction it did not read, or at the end.
    pub(super) fn fast_run(&mut self) {
        let text = self.cur.text_bytes();
        let mut p = self.cur.pos.index;
        let mut pending: Option<Tentative> = None;
        loop {
            if p >= text.len() {
                self.cur.pos = Position { index: p };
                return;
            }
            // Past `stop` the run ends as before a word the shortcut cannot
            // read: the instruction pending, if any, must be confirmed.
            let start = if p < self.stop { instruction_prefix(text, p) } else { None };
            let Some((result, op_start, op_end)) = start else {
                self.cur.pos = Position { index: p };
                if let Some(t) = pending {
                    let (w, next) = self.cur.word();
                    if !self.cur.word_starts_instruction(w, next) {
                        self.take_back(t);
                    }
                }
                return;
            };
            // The word begins an instruction: whatever was pending stands.
            if pending.take().is_some() {
                self.flush_if_full();
            }
            let out_at = self.out.len();
            let Some((end, open, info)) = self.fast_instruction(text, result, op_start, op_end) else {
                self.truncate_out(out_at);
                self.cur.pos = Position { index: p };
                return;
            };
            let Some(undo) = self.fast_finish(info, out_at) else {
                self.truncate_out(out_at);
                self.cur.pos = Position { index: p };
                return;
            };
            let next = skip_trivia(text, end);
            // `=` next means the last id (on an earlier line) is the result
            // of the next instruction: only the next word can tell.
            if open || text.get(next) == Some(&b'=') {
                pending = Some(Tentative { start: p, out_at, undo });
            } else {
                self.flush_if_full();
            }
            p = next;
        }
    }

    /// Forgets an instruction whose end the next word did not confirm, and
    /// puts the cursor back at its start.
    fn take_back(&mut self, t: Tentative) {
        self.truncate_out(t.out_at);
        if let Some(id) = t.undo.type_added {
            self.known.forget(id);
        }
        if let Some(id) = t.undo.value_added {
            self.known.forget_value(id);
        }
        self.cur.pos = Position { index: t.start };
    }

    /// One instruction, its words appended to `out`. Returns where it ended
    /// and whether it ended at the end of its line with optional operands
    /// still possible; `None` to leave it to the general path.
    #[inline]
    fn fast_instruction(
        &mut self,
        text: &'t [u8],
        result: Option<ResultName>,
        op_start: usize,
        op_end: usize,
    ) -> Option<(usize, bool, &'static InstructionInfo)> {
        let info = self.opcodes.get(text, op_start, op_end)?;
        if info.has_result != result.is_some() {
            return None;
        }
        let out_at = self.out.len();
        self.out.push(info.opcode as u32);
        let mut specs: &'static [OperandSpec] = info.operands;
        let mut i = 0;
        let mut p = op_end;
        let mut result_type = 0;
        while let Some(spec) = specs.get(i) {
            let kind = spec.kind;
            if kind == OperandKind::IdResult {
                let (start, end, small) = result?;
                let small = small.filter(|&v| v < self.ids.numeric_cap);
                let id = self.ids.get_scanned(&text[start + 1..end], start + 1, small);
                self.ids.define(id);
                self.push_out_id(id);
                i += 1;
                continue;
            }
            p = skip_gap(text, p);
            match text.get(p) {
                None | Some(b'\n' | b';') => {
                    // The end of the line: the general path reports a
                    // missing operand.
                    return (spec.quantifier != Quantifier::One).then_some((p, true, info));
                }
                Some(b'O') if starts_with_op(text, p) => return None,
                _ => {}
            }
            if kind == OperandKind::LiteralExtInstInteger {
                if info.opcode != op::OpExtInst {
                    // OpExtInstWithForwardRefsKHR: trailing ids follow.
                    return None;
                }
                // The extended instruction's operands replace OpExtInst's
                // trailing ids.
                let (w, end) = self.word_at(p);
                let Import::Known(set) = *self.imports.get(&self.out.pending()[out_at + 3])? else { return None };
                let ei = set.instruction_by_name(w)?;
                self.out.push(ei.opcode);
                specs = ei.operands;
                i = 0;
                p = end;
                continue;
            }
            p = self.fast_operand(text, p, kind, &mut result_type)?;
            if spec.quantifier != Quantifier::Variadic {
                i += 1;
            }
        }
        Some((p, false, info))
    }

    /// One operand at `at` (a word on the line); returns where it ends.
    #[inline]
    fn fast_operand(&mut self, text: &'t [u8], at: usize, kind: OperandKind, result_type: &mut u32) -> Option<usize> {
        match kind.info().category {
            Category::Id => {
                if text[at] != b'%' {
                    return None;
                }
                let (end, small) = scan_id(text, at)?;
                // `%x = ...` begins the next instruction.
                let next = skip_gap(text, end);
                if text.get(next) == Some(&b'=') {
                    return None;
                }
                let small = small.filter(|&v| v < self.ids.numeric_cap);
                let id = self.ids.get_scanned(&text[at + 1..end], at + 1, small);
                if kind == OperandKind::IdResultType {
                    *result_type = id;
                }
                self.push_out_id(id);
                Some(next)
            }
            Category::Literal => match kind {
                OperandKind::LiteralInteger => {
                    // Plain decimal: no sign, no base prefix, no leading zero.
                    let digits = text[at..].iter().take_while(|c| c.is_ascii_digit()).count();
                    let end = at + digits;
                    if digits == 0 || digits > 10 || (digits > 1 && text[at] == b'0') || !is_word_end(text, end) {
                        return None;
                    }
                    let value = text[at..end].iter().fold(0u64, |v, &c| v * 10 + (c - b'0') as u64);
                    self.out.push(u32::try_from(value).ok()?);
                    Some(end)
                }
                OperandKind::LiteralString => {
                    // A quoted string without escapes, followed by a delimiter.
                    if text[at] != b'"' {
                        return None;
                    }
                    // Strings here are short names: a plain loop beats
                    // memchr's set-up.
                    let len = text[at + 1..].iter().position(|&c| c == b'"' || c == b'\\')?;
                    let end = at + 1 + len;
                    if text[end] != b'"' || !is_word_end(text, end + 1) {
                        return None;
                    }
                    match self.options.raw_bytes {
                        Some(raw) => literal::push_string_words(&raw.restore(&text[at + 1..end]), self.out.buffer()),
                        None => literal::push_string_words(&text[at + 1..end], self.out.buffer()),
                    }
                    Some(end + 1)
                }
                OperandKind::LiteralContextDependentNumber => {
                    let ty = match self.known.class(*result_type)? {
                        TypeClass::Int { width, signed } => NumberType::Int { width: *width, signed: *signed },
                        TypeClass::Float { width, encoding } => {
                            NumberType::Float { width: *width, encoding: *encoding }
                        }
                        TypeClass::Other => return None,
                    };
                    let (w, end) = self.word_at(at);
                    literal::encode_number(w, ty, self.out.buffer()).ok()?;
                    Some(end)
                }
                _ => None,
            },
            category @ (Category::ValueEnum | Category::BitEnum) => {
                let (w, end) = self.word_at(at);
                let e = kind.enumerant_by_name(w)?;
                // A mask name standing for several bits would take the
                // parameters of each: the general path's business.
                if !e.parameters.is_empty() || (category == Category::BitEnum && e.value.count_ones() > 1) {
                    return None;
                }
                self.out.push(e.value);
                Some(end)
            }
            _ => None,
        }
    }

    /// The word at `at` and where it ends.
    #[inline(always)]
    fn word_at(&self, at: usize) -> (&'t str, usize) {
        let end = word_end(self.cur.text_bytes(), at);
        (&self.cur.source()[at..end], end)
    }

    /// Records types and value types and sets the word count, as
    /// [`Assembler::finish`] does; `None` where that would fail (the general
    /// path then reports it).
    #[inline]
    fn fast_finish(&mut self, info: &'static InstructionInfo, out_at: usize) -> Option<Undo> {
        let words = &mut self.out.pending()[out_at..];
        let n = words.len();
        if n > 0xffff {
            return None;
        }
        let opcode = info.opcode;
        words[0] |= (n as u32) << 16;
        let mut undo = Undo::default();
        if super::records_type(info) && n >= 2 {
            let id = words[1];
            let class = match opcode {
                op::OpTypeInt if n == 4 => TypeClass::Int { width: words[2], signed: words[3] != 0 },
                op::OpTypeFloat if n == 3 || n == 4 => {
                    TypeClass::Float { width: words[2], encoding: words.get(3).copied() }
                }
                op::OpTypeInt | op::OpTypeFloat => return None,
                _ => TypeClass::Other,
            };
            if self.known.is_declared(id) {
                return None;
            }
            self.known.declare(id, class);
            undo.type_added = Some(id);
        } else if info.has_result_type && n >= 3 {
            let (ty, value) = (words[1], words[2]);
            if self.known.note_value(value, ty) {
                undo.value_added = Some(value);
            }
        }
        Some(undo)
    }
}

/// Opcodes the shortcut leaves alone: those that change how later
/// instructions read (imported sets) or whose operands depend on the type
/// of an earlier value (switch literals).
pub(super) fn shortcut_opcode(info: &InstructionInfo) -> bool {
    !matches!(info.opcode, op::OpExtInstImport | op::OpSwitch)
}
