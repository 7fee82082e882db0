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

use super::{Assembler, Import, TypeClass, ID_CHAR, STREAM_CHUNK_WORDS};
use crate::grammar::{op, Category, InstructionInfo, OperandKind, OperandSpec, Quantifier};
use crate::text::cursor::{is_word_end, skip_blanks, skip_space, starts_with_op, Position};
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

/// A result id written in front of an instruction: where its name is and
/// its value if it is a small canonical decimal.
type ResultName = (usize, usize, Option<usize>);

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
            let start = if p < self.stop { prefix(text, p) } else { None };
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
            if pending.take().is_some() && self.out.len() >= STREAM_CHUNK_WORDS {
                self.flush_out();
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
            let next = skip_space(text, end);
            // `=` next means the last id (on an earlier line) is the result
            // of the next instruction: only the next word can tell.
            if open || text.get(next) == Some(&b'=') {
                pending = Some(Tentative { start: p, out_at, undo });
            } else if self.out.len() >= STREAM_CHUNK_WORDS {
                self.flush_out();
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
                let Import::Known(set) = *self.imports.get(&self.out[out_at + 3])? else { return None };
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
                        Some(raw) => literal::push_string_words(&raw.restore(&text[at + 1..end]), &mut self.out),
                        None => literal::push_string_words(&text[at + 1..end], &mut self.out),
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
                    literal::encode_number(w, ty, &mut self.out).ok()?;
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
    #[inline]
    fn word_at(&self, at: usize) -> (&'t str, usize) {
        let mut c = self.cur.clone();
        c.pos = Position { index: at };
        let (w, next) = c.word();
        (w, next.index)
    }

    /// Records types and value types and sets the word count, as
    /// [`Assembler::finish`] does; `None` where that would fail (the general
    /// path then reports it).
    #[inline]
    fn fast_finish(&mut self, info: &'static InstructionInfo, out_at: usize) -> Option<Undo> {
        let words = &mut self.out[out_at..];
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

/// The start of an instruction at `p`: `Op...`, or `%name = Op...` on one
/// line. Returns the result name and where the opcode name starts and ends.
#[inline(always)]
pub(super) fn prefix(text: &[u8], p: usize) -> Option<(Option<ResultName>, usize, usize)> {
    let mut q = p;
    let mut result = None;
    if text[q] == b'%' {
        let (end, small) = scan_id(text, q)?;
        result = Some((q, end, small));
        q = skip_gap(text, end);
        if text.get(q) != Some(&b'=') || !is_word_end(text, q + 1) {
            return None;
        }
        q = skip_gap(text, q + 1);
    }
    if !starts_with_op(text, q) {
        return None;
    }
    let end = id_chars_end(text, q + 3);
    is_word_end(text, end).then_some((result, q, end))
}

/// [`skip_blanks`], quicker over the usual single space between words.
#[inline(always)]
fn skip_gap(text: &[u8], p: usize) -> usize {
    let Some(&c) = text.get(p) else { return p };
    if c > b' ' || c == b'\n' {
        return p;
    }
    if c == b' ' && text.get(p + 1).is_some_and(|&d| d > b' ') {
        return p + 1;
    }
    skip_blanks(text, p)
}

/// Where the run of id characters (letters, digits, `_`) from `i` ends,
/// eight bytes at a time: names are short, and most fit one step.
#[inline]
fn id_chars_end(text: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = text.get(i..i + 8) {
        let stop = not_id_bytes(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < text.len() && ID_CHAR[text[i] as usize] {
        i += 1;
    }
    i
}

/// An id word `%name` at `at`: the end of the name and its value when it is
/// a small canonical decimal. `None` unless the name is well formed and
/// followed by a delimiter.
#[inline(always)]
fn scan_id(text: &[u8], at: usize) -> Option<(usize, Option<usize>)> {
    let start = at + 1;
    // Most names end within eight bytes: one step classifies the name and
    // reads its value if it is a number.
    if let Some(chunk) = text.get(start..start + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let (stop, digits) = classify(x);
        if stop != 0 {
            let len = (stop.trailing_zeros() / 8) as usize;
            let end = start + len;
            if len == 0 || !is_word_end(text, end) {
                return None;
            }
            let name = HIGH >> (64 - 8 * len);
            let number = digits & name == name && (len == 1 || chunk[0] != b'0');
            return Some((end, number.then(|| eight_digits(x << (64 - 8 * len)))));
        }
    }
    let i = id_chars_end(text, start);
    let len = i - start;
    if len == 0 || !is_word_end(text, i) {
        return None;
    }
    Some((i, super::ids::small_number(&text[start..i])))
}

/// The value of eight ASCII digits, the first in the low byte; zero bytes
/// count as leading zeros.
#[inline(always)]
fn eight_digits(x: u64) -> usize {
    let x = (x & 0x0f0f_0f0f_0f0f_0f0f).wrapping_mul(2561) >> 8;
    let x = (x & 0x00ff_00ff_00ff_00ff).wrapping_mul(6_553_601) >> 16;
    ((x & 0x0000_ffff_0000_ffff).wrapping_mul(42_949_672_960_001) >> 32) as usize
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `x` that is not an id character (a letter,
/// a digit or `_`).
#[inline]
fn not_id_bytes(x: u64) -> u64 {
    classify(x).0
}

/// The top bit of each byte of `x` that is not an id character, and of each
/// that is a digit.
#[inline(always)]
fn classify(x: u64) -> (u64, u64) {
    let y = x & !HIGH;
    // Top bit set where a (7-bit) byte is at least `n`.
    let ge = |v: u64, n: u8| (v + (0x80 - n as u64) * LOW) & HIGH;
    let digit = ge(y, b'0') & !ge(y, b'9' + 1);
    let l = y | (0x20 * LOW);
    let alpha = ge(l, b'a') & !ge(l, b'z' + 1);
    let v = y ^ (b'_' as u64 * LOW);
    let underscore = !(((v & !HIGH) + !HIGH) | v) & HIGH;
    ((!(digit | alpha | underscore) | x) & HIGH, digit & !x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_bytes_match_the_table() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut bytes = [b'a'; 8];
                bytes[pos] = b;
                let stop = not_id_bytes(u64::from_le_bytes(bytes));
                assert_eq!(stop & (0x80 << (pos * 8)) != 0, !ID_CHAR[b as usize], "byte {b:#x} at {pos}");
                assert_eq!(stop & !(0x80 << (pos * 8)), 0, "byte {b:#x} at {pos} marks others");
            }
        }
    }

    /// The one-step scan agrees with the byte-by-byte one on every short
    /// name, digits and other bytes mixed.
    #[test]
    fn one_step_scan_agrees_with_the_slow_one() {
        let alphabet = b"0129a_Z -\n;\x80";
        let mut name = [0u8; 12];
        name[0] = b'%';
        for seed in 0..200_000u64 {
            let mut r = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for b in name[1..].iter_mut() {
                *b = alphabet[(r % alphabet.len() as u64) as usize];
                r = r.rotate_left(5).wrapping_mul(0x2545_f491_4f6c_dd1d) ^ seed;
            }
            let end = id_chars_end(&name, 1);
            let slow =
                (end > 1 && is_word_end(&name, end)).then(|| (end, super::super::ids::small_number(&name[1..end])));
            assert_eq!(scan_id(&name, 0), slow, "{:?}", String::from_utf8_lossy(&name));
        }
    }

    #[test]
    fn ids_scan_like_spirv_as() {
        assert_eq!(scan_id(b"%abc_1 x", 0), Some((6, None)));
        assert_eq!(scan_id(b"%123\n", 0), Some((4, Some(123))));
        assert_eq!(scan_id(b"%0123 ", 0), Some((5, None)));
        assert_eq!(scan_id(b"%a_very_long_name_indeed;", 0), Some((24, None)));
        assert_eq!(scan_id(b"%1234567890", 0), Some((11, None)));
        assert_eq!(scan_id(b"%a-b", 0), None);
        assert_eq!(scan_id(b"% ", 0), None);
        assert_eq!(scan_id(b"%\xc3\xa9", 0), None);
        assert_eq!(scan_id(b"%0 ", 0), Some((2, Some(0))));
        assert_eq!(scan_id(b"%9876543 ", 0), Some((8, Some(9876543))));
        assert_eq!(scan_id(b"%12345678 ", 0), Some((9, Some(12345678))));
        assert_eq!(scan_id(b"%12a4 ", 0), Some((5, None)));
        assert_eq!(scan_id(b"%0x1 ", 0), Some((4, None)));
        assert_eq!(scan_id(b"%12\xb4 ", 0), None);
    }
}
