//! The instruction parser: walks the instruction stream and decodes every
//! operand from the grammar, including the context-dependent cases (literal
//! widths from result or selector types, extended-instruction operands from
//! the imported set, OpSpecConstantOp's embedded opcode, enumerant and mask
//! parameters).
//!
//! It borrows the module's words and reuses two small buffers, so walking a
//! module allocates nothing per instruction.

use super::idmap::IdTypes;
use super::{BinaryError, BinaryErrorKind as K, Header, IdMap, HEADER_WORDS};
use crate::grammar::{self, op, Category, ExtInstSet, InstructionInfo, OperandKind, OperandSpec, Quantifier};
use rustc_hash::FxHashMap;

/// Options for [`InstructionParser`]. Built from the default with one
/// method per field:
///
/// ```
/// use gpuasm_spirv::binary::ParserOptions;
/// let options = ParserOptions::default().check_bound(false);
/// assert!(!options.check_bound && options.spirv_tools_ext_sets);
/// ```
#[derive(Copy, Clone, Debug)]
#[non_exhaustive]
pub struct ParserOptions {
    /// Reject ids at or above the header's bound. spirv-dis does not check
    /// this; we do by default because such a module is broken.
    pub check_bound: bool,
    /// Treat the extended sets SPIRV-Tools 2025.5 has no grammar for as
    /// unknown `NonSemantic.*` sets, as spirv-dis and spirv-as do.
    pub spirv_tools_ext_sets: bool,
    /// Return an instruction spirv-dis cannot decode (an unknown opcode,
    /// enumerant or mask bit, an unknown instruction of a semantic extended
    /// set or of a set whose import name is unknown) undecoded, with
    /// [`Instruction::raw`] set, instead of failing: what `spirv-dis
    /// --handle-unknown-opcodes` prints as `OpUnknown`.
    pub raw_unknown: bool,
    /// Decode every instruction the general, grammar-stack way, skipping the
    /// precomputed shortcuts (set only through the `test-switches` feature).
    pub(crate) general_only: bool,
}

impl Default for ParserOptions {
    fn default() -> Self {
        ParserOptions { check_bound: true, spirv_tools_ext_sets: true, raw_unknown: false, general_only: false }
    }
}

impl ParserOptions {
    /// Sets [`ParserOptions::check_bound`].
    pub fn check_bound(mut self, check_bound: bool) -> Self {
        self.check_bound = check_bound;
        self
    }

    /// Sets [`ParserOptions::raw_unknown`].
    pub fn raw_unknown(mut self, raw_unknown: bool) -> Self {
        self.raw_unknown = raw_unknown;
        self
    }

    /// Sets [`ParserOptions::spirv_tools_ext_sets`].
    pub fn spirv_tools_ext_sets(mut self, spirv_tools_ext_sets: bool) -> Self {
        self.spirv_tools_ext_sets = spirv_tools_ext_sets;
        self
    }

    /// Decode every instruction the general, grammar-stack way, skipping the
    /// precomputed shortcuts. The result is the same; tests and fuzzing use
    /// this to prove it. Only with the `test-switches` feature, which is not
    /// part of the stable API.
    #[cfg(feature = "test-switches")]
    pub fn general_only(mut self, general_only: bool) -> Self {
        self.general_only = general_only;
        self
    }
}

/// A floating-point format: width and `FPEncoding` (if any), as an
/// `OpTypeFloat` declares it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    /// Width in bits, as declared (not checked: spirv-dis reads any width).
    pub width: u32,
    /// The `FPEncoding` operand of `OpTypeFloat`, if present.
    pub encoding: Option<u32>,
}

/// How a literal number operand is to be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumberKind {
    /// Not a number (or a type that is not a scalar number).
    None,
    /// An unsigned integer this many bits wide (also plain one-word
    /// literals such as `LiteralInteger`, as 32 bits).
    Unsigned(u32),
    /// A signed integer this many bits wide.
    Signed(u32),
    /// A floating-point number.
    Float(FloatFormat),
}

/// One decoded operand: where its words are and what they mean.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParsedOperand {
    /// Index of the first word within the instruction (word 0 is the
    /// opcode/word-count word).
    pub offset: u16,
    /// How many words the operand takes (a string's include its NUL word).
    pub num_words: u16,
    /// The operand's kind; for enumerant parameters, extended-instruction
    /// operands and OpSpecConstantOp operands, the kind the grammar gives
    /// them there.
    pub kind: OperandKind,
    /// For literal numbers, how to read them; [`NumberKind::None`] for
    /// anything else.
    pub number: NumberKind,
}

/// The extended instruction set an `OpExtInstImport` selected.
#[derive(Copy, Clone, Debug)]
pub enum ExtSet {
    /// A set whose grammar we have (with
    /// [`ParserOptions::spirv_tools_ext_sets`], only those SPIRV-Tools
    /// 2025.5 knows).
    Known(&'static ExtInstSet),
    /// A `NonSemantic.*` set we have no grammar for: its instructions take ids.
    UnknownNonSemantic,
}

impl ExtSet {
    /// Whether the set's instructions carry no semantics (`NonSemantic.*`).
    pub fn is_non_semantic(self) -> bool {
        match self {
            ExtSet::Known(s) => s.non_semantic,
            ExtSet::UnknownNonSemantic => true,
        }
    }

    /// Non-semantic or one of the debug-information sets.
    pub(crate) fn is_debug_or_non_semantic(self) -> bool {
        self.is_non_semantic() || matches!(self, ExtSet::Known(s) if s.import_name.contains("DebugInfo"))
    }
}

/// An instruction kept after the parser moved on: where it is in the
/// module, and where its operands are in a list the keeper owns.
#[derive(Clone, Debug)]
pub struct StoredInstruction {
    /// Word offset of the instruction in the module.
    pub offset: usize,
    /// The instruction's word count.
    pub word_count: usize,
    /// The instruction's grammar entry.
    pub info: &'static InstructionInfo,
    /// `0` when there is none.
    pub result_type: u32,
    /// `0` when there is none.
    pub result_id: u32,
    /// For `OpExtInst`, the set its instruction number belongs to.
    pub ext_set: Option<ExtSet>,
    /// Where the operands are in the keeper's list.
    pub operands: std::ops::Range<usize>,
    /// See [`Instruction::raw`].
    pub raw: bool,
}

impl StoredInstruction {
    /// Keeps `inst`, whose operands the keeper copied to `operands`.
    pub fn new(inst: &Instruction<'_>, operands: std::ops::Range<usize>) -> Self {
        StoredInstruction {
            offset: inst.offset,
            word_count: inst.words.len(),
            info: inst.info,
            result_type: inst.result_type,
            result_id: inst.result_id,
            ext_set: inst.ext_set,
            operands,
            raw: inst.raw,
        }
    }

    /// The reader's view again, over the module words and the keeper's operands.
    #[inline]
    pub fn view<'a>(&self, words: &'a [u32], operands: &'a [ParsedOperand]) -> Instruction<'a> {
        let words = &words[self.offset..self.offset + self.word_count];
        Instruction {
            words,
            offset: self.offset,
            opcode: words[0] as u16,
            info: self.info,
            result_type: self.result_type,
            result_id: self.result_id,
            ext_set: self.ext_set,
            operands: &operands[self.operands.clone()],
            raw: self.raw,
        }
    }
}

/// One decoded instruction, borrowing the module words and the parser's
/// operand buffer.
#[derive(Copy, Clone, Debug)]
pub struct Instruction<'a> {
    /// All words of the instruction, the opcode word first.
    pub words: &'a [u32],
    /// Word offset of the instruction in the module.
    pub offset: usize,
    /// The opcode (the low 16 bits of the first word).
    pub opcode: u16,
    /// The instruction's grammar entry: name, class, operand list.
    pub info: &'static InstructionInfo,
    /// `0` when there is none.
    pub result_type: u32,
    /// `0` when there is none.
    pub result_id: u32,
    /// For `OpExtInst`, the set its instruction number belongs to.
    pub ext_set: Option<ExtSet>,
    /// Every operand in order, the result type and result id included.
    pub operands: &'a [ParsedOperand],
    /// Only with [`ParserOptions::raw_unknown`]: the instruction could not
    /// be decoded (see [`InstructionParser::undecoded`] for why). Its
    /// operands are not to be read as the grammar's; an unknown opcode's
    /// [`Instruction::info`] is [`UNKNOWN_INSTRUCTION`].
    pub raw: bool,
}

/// The grammar entry of an instruction whose opcode is unknown, read with
/// [`ParserOptions::raw_unknown`]: no operands, no class.
pub static UNKNOWN_INSTRUCTION: InstructionInfo = InstructionInfo {
    name: "OpUnknown",
    opcode: u16::MAX,
    class: "",
    operands: &[],
    capabilities: &[],
    extensions: &[],
    version: None,
    last_version: None,
    aliases: &[],
    provisional: false,
    has_result_type: false,
    has_result: false,
    declares_type: false,
    fast_prefix: 0,
    fast_tail: false,
    string_tail: false,
};

impl<'a> Instruction<'a> {
    /// The first word of operand `i`.
    #[inline]
    pub fn word(&self, i: usize) -> u32 {
        self.words[self.operands[i].offset as usize]
    }

    /// The words of operand `i`.
    #[inline]
    pub fn operand_words(&self, i: usize) -> &'a [u32] {
        let o = &self.operands[i];
        &self.words[o.offset as usize..o.offset as usize + o.num_words as usize]
    }

    /// Decodes operand `i` as a literal string (up to its NUL).
    pub fn string(&self, i: usize) -> &'a [u8] {
        literal_string_bytes(self.operand_words(i))
    }
}

/// The bytes of a literal string stored in `words`, up to the first NUL.
pub fn literal_string_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and any byte pattern is a valid u8; the
    // slice covers exactly the same memory. Strings are little-endian in
    // host-order words, so on big-endian hosts we would need a copy; the
    // compile-time check below rules that target out.
    #[cfg(target_endian = "big")]
    compile_error!("gpuasm-spirv assumes a little-endian host");
    let bytes = unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 4) };
    // Most strings (names) end within a few words: a word at a time costs
    // less there than setting up memchr.
    const SHORT: usize = 4;
    for (i, &w) in words.iter().take(SHORT).enumerate() {
        if let Some(at) = first_zero_byte(w) {
            return &bytes[..i * 4 + at];
        }
    }
    if words.len() <= SHORT {
        return bytes;
    }
    let end = memchr::memchr(0, &bytes[SHORT * 4..]).map_or(bytes.len(), |e| SHORT * 4 + e);
    &bytes[..end]
}

/// The index of the first zero byte of `w` in memory order (little-endian),
/// if it has one. The lowest flagged byte of the usual test is always a
/// zero byte (only bytes above a zero one can be flagged falsely).
#[inline]
fn first_zero_byte(w: u32) -> Option<usize> {
    let flags = w.wrapping_sub(0x0101_0101) & !w & 0x8080_8080;
    (flags != 0).then(|| (flags.trailing_zeros() / 8) as usize)
}

#[derive(Copy, Clone)]
struct Expected {
    spec: OperandSpec,
    /// The literal of an OpSwitch target pair, sized by the selector's type.
    switch_literal: bool,
}

/// Walks the instructions of a module, checking each against the grammar
/// as SPIRV-Tools' binary parser does for spirv-dis and spirv-val (see
/// [`ParserOptions`] for where we differ), and stops at the first error.
///
/// It is not an [`Iterator`]: each [`Instruction`] borrows the parser's
/// operand list until the next call to [`InstructionParser::next`].
pub struct InstructionParser<'w> {
    words: &'w [u32],
    pos: usize,
    header: Header,
    options: ParserOptions,
    failed: bool,
    operands: Vec<ParsedOperand>,
    /// The current instruction's operands when a static layout fits.
    current: Option<&'static [ParsedOperand]>,
    /// With `current`: the index of the layout it is a prefix of.
    current_index: usize,
    /// How many nonzero ids the shortcuts take: id `w` is fine when
    /// `w.wrapping_sub(1) < id_span`, one comparison for both checks.
    /// Others go the general way, which rejects or notes them.
    id_span: u32,
    /// Without the bound check: the first id at or above the bound, and
    /// the word it is at.
    past_bound: Option<(u32, usize)>,
    expected: Vec<Expected>,
    /// Result id → its type id (type ids map to themselves, untyped results to 0).
    id_types: IdTypes,
    /// Type id → the number kind it declares.
    /// A hash map, not a table by id: types are few, and a table reaching
    /// a type declared late held 16 bytes for every id before it.
    number_types: FxHashMap<u32, NumberKind>,
    imports: IdMap<ExtSet>,
    /// With [`ParserOptions::raw_unknown`]: imports of sets we do not know
    /// (their `OpExtInst`s are read raw), how many instructions were read
    /// raw, and why the first one was.
    unknown_imports: Vec<(u32, String)>,
    raw_count: usize,
    first_raw: Option<(K, usize)>,
    /// Why the instruction being read, once read to its end, is to be
    /// returned raw.
    pending_raw: Option<Raw>,
}

impl<'w> InstructionParser<'w> {
    /// Reads the header (see [`Header::read`]) and prepares to walk the
    /// instructions.
    pub fn new(words: &'w [u32], options: ParserOptions) -> Result<Self, BinaryError> {
        let header = Header::read(words)?;
        let cap = words.len().min(header.bound as usize).saturating_add(1);
        Ok(InstructionParser {
            words,
            pos: HEADER_WORDS,
            header,
            options,
            failed: false,
            operands: Vec::with_capacity(16),
            current: None,
            current_index: 0,
            id_span: header.bound.saturating_sub(1),
            past_bound: None,
            expected: Vec::with_capacity(16),
            id_types: IdTypes::with_cap(cap),
            number_types: FxHashMap::default(),
            imports: IdMap::with_cap(cap),
            unknown_imports: Vec::new(),
            raw_count: 0,
            first_raw: None,
            pending_raw: None,
        })
    }

    /// The module header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Without [`ParserOptions::check_bound`]: the first id read so far that
    /// is at or above the header's bound, and the word it is at.
    pub fn first_id_past_bound(&self) -> Option<(u32, usize)> {
        self.past_bound
    }

    /// With [`ParserOptions::raw_unknown`]: how many instructions were read
    /// raw so far, and what stopped the first one from being decoded (the
    /// error it would have been without the option) and the word it is at.
    pub fn undecoded(&self) -> (usize, Option<&(K, usize)>) {
        (self.raw_count, self.first_raw.as_ref())
    }

    /// Word offset of the next instruction.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The operands of the instruction [`InstructionParser::next`] returned
    /// last: `Ok(k)` when they are the first ones of the `k`th static layout
    /// (see [`static_layouts`]), which a keeper need not copy, else the
    /// parser's own list.
    pub(crate) fn last_operands(&self) -> Result<usize, &[ParsedOperand]> {
        match self.current {
            Some(_) => Ok(self.current_index),
            None => Err(&self.operands),
        }
    }

    /// Every result id read so far and its type (a type id its own), for
    /// a keeper of the module: the walk is over or abandoned.
    pub(crate) fn take_id_types(&mut self) -> IdTypes {
        std::mem::replace(&mut self.id_types, IdTypes::with_cap(0))
    }

    /// The number kind declared by a type id seen so far:
    /// [`NumberKind::None`] for other types, `None` for ids not (yet)
    /// declared as types.
    pub fn number_type(&self, type_id: u32) -> Option<NumberKind> {
        self.number_types.get(&type_id).copied()
    }

    /// The next instruction, `None` at the end or after an error.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> Option<Result<Instruction<'_>, BinaryError>> {
        if self.failed || self.pos >= self.words.len() {
            return None;
        }
        let start = self.pos;
        if !self.options.general_only {
            if let Some(inst) = self.parse_static(start) {
                return Some(Ok(inst));
            }
        }
        self.next_general(start)
    }

    /// The target id and name of the instruction here when it is an
    /// `OpName` that [`Self::next`] would read without error, moving past
    /// it as `next` would; `None`, having changed nothing, for anything
    /// else (`next` then reads it, and reports what is wrong). For the
    /// friendly names' pass: the names of a large module are thousands of
    /// `OpName`s, on which the general path spends hundreds of
    /// instructions each.
    #[inline]
    pub(crate) fn next_name(&mut self) -> Option<(u32, &'w [u8])> {
        let words = self.words;
        let first = *words.get(self.pos)?;
        let wc = (first >> 16) as usize;
        if self.failed || first as u16 != op::OpName || wc < 3 {
            return None;
        }
        let inst = words.get(self.pos..self.pos + wc)?;
        // An id 0 is an error; one past the bound an error or a note.
        if inst[1] == 0 || inst[1] >= self.header.bound {
            return None;
        }
        // Its NUL in the last word: no words after the string.
        let name = literal_string_bytes(&inst[2..]);
        if name.len() / 4 + 3 != wc {
            return None;
        }
        self.pos += wc;
        self.current = None;
        Some((inst[1], name))
    }

    /// Moves past the instructions that start before `end` without decoding
    /// them, for a reader whose partner prints them (`gpuasm dis` on two
    /// threads): afterwards this parser reads on exactly as if it had read
    /// them, provided they read without error, which the partner checks.
    /// Only what later instructions are read with is kept: result ids and
    /// their types, number types, imported sets. Instructions that may
    /// change more than that, or that the full reading might return raw
    /// (whose result ids are then not defined), are read in full; what they
    /// notice (ids past the bound, undecoded instructions) is forgotten, as
    /// the partner notices it. The error of such a reading that failed.
    pub(crate) fn skip_to(&mut self, end: usize) -> Result<(), BinaryError> {
        let noticed = (self.raw_count, self.first_raw.take(), self.past_bound);
        let ok = self.skip_to_inner(end);
        (self.raw_count, self.first_raw, self.past_bound) = noticed;
        ok
    }

    fn skip_to_inner(&mut self, end: usize) -> Result<(), BinaryError> {
        let words = self.words;
        while self.pos < end && self.pos < words.len() && !self.failed {
            let start = self.pos;
            let first = words[start];
            let wc = (first >> 16) as usize;
            let skip = match words.get(start..start + wc) {
                Some(inst) if wc != 0 => self.skippable(inst),
                _ => None,
            };
            let Some(fast) = skip else {
                match self.next() {
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => return Err(e),
                    None => break,
                }
            };
            if fast.result_offset != 0 && fast.result_offset < wc {
                let id = words[start + fast.result_offset];
                if id != 0 {
                    let type_id = if fast.type_offset != 0 { words[start + fast.type_offset] } else { 0 };
                    self.id_types.define(id, type_id);
                }
            }
            self.pos = start + wc;
        }
        Ok(())
    }

    /// The facts of `inst` when [`Self::skip_to`] may hop over it: it
    /// declares no type or set, and no operand could make the full reading
    /// return it raw (an unknown enumerant, extended instruction or
    /// opcode).
    #[inline]
    fn skippable(&self, inst: &[u32]) -> Option<&'static FastInfo> {
        let fast = fast_info(grammar::instruction_index(inst[0] as u16)?);
        match fast.skip {
            Skip::Never => None,
            Skip::Always => Some(fast),
            Skip::PlainEnums => {
                let count = inst.len() - 1;
                if count.wrapping_sub(fast.fit_min as usize) >= fast.fit_range as usize {
                    return None;
                }
                let live = if count >= 64 { u64::MAX } else { (1u64 << count) - 1 };
                let mut enums = fast.enum_mask & live;
                while enums != 0 {
                    let k = enums.trailing_zeros() as usize;
                    enums &= enums - 1;
                    if !enum_without_parameters(fast.layout[k].kind, inst[k + 1]) {
                        return None;
                    }
                }
                Some(fast)
            }
            Skip::KnownExtInst => {
                let (set, number) = (*inst.get(3)?, *inst.get(4)?);
                match self.imports.get(set)? {
                    ExtSet::Known(set) if set.instruction(number)?.all_ids => Some(fast),
                    ExtSet::Known(_) => None,
                    ExtSet::UnknownNonSemantic => Some(fast),
                }
            }
        }
    }

    /// Whether a parser that skips to any of `cuts` (see [`Self::skip_to`])
    /// and reads on from there reads the rest as one reading the whole
    /// module does, wherever that one meets no error before the cut; and
    /// notices nothing while skipping. The first cut that differs, and
    /// how, otherwise (for the fuzz targets and tests).
    #[cfg(feature = "test-switches")]
    #[doc(hidden)]
    pub fn check_skip(words: &[u32], options: ParserOptions, cuts: &[usize]) -> Result<(), String> {
        /// Each instruction's offset and result, or the error, from `parser` on.
        fn rest(parser: &mut InstructionParser<'_>) -> Vec<String> {
            let mut seen = Vec::new();
            while let Some(r) = parser.next() {
                seen.push(match r {
                    Ok(i) => format!(
                        "{} {} {} {} {} {:?}",
                        i.offset, i.opcode, i.result_type, i.result_id, i.raw, i.operands
                    ),
                    Err(e) => format!("{e:?}"),
                });
            }
            seen.push(format!("{:?} {:?}", parser.undecoded(), parser.first_id_past_bound()));
            seen
        }
        if InstructionParser::new(words, options).is_err() {
            return Ok(());
        }
        for &cut in cuts {
            // The whole reading's instructions from the cut on, if none
            // before it failed.
            let mut parser = InstructionParser::new(words, options).map_err(|e| format!("{e:?}"))?;
            let mut reference = InstructionParser::new(words, options).map_err(|e| format!("{e:?}"))?;
            let mut clean = true;
            while reference.pos < cut && reference.pos < words.len() {
                match reference.next() {
                    Some(Ok(_)) => {}
                    _ => {
                        clean = false;
                        break;
                    }
                }
            }
            if !clean {
                continue;
            }
            let before = (parser.undecoded().0, parser.first_id_past_bound());
            if let Err(e) = parser.skip_to(cut) {
                return Err(format!("cut {cut}: skipping failed with {e:?} where reading did not"));
            }
            if parser.pos != reference.pos {
                return Err(format!("cut {cut}: skipped to {}, read to {}", parser.pos, reference.pos));
            }
            if (parser.undecoded().0, parser.first_id_past_bound()) != before || parser.first_raw.is_some() {
                return Err(format!("cut {cut}: skipping noticed something"));
            }
            // What the reference notices before the cut is not the skipper's.
            reference.raw_count = 0;
            reference.first_raw = None;
            reference.past_bound = None;
            let (a, b) = (rest(&mut parser), rest(&mut reference));
            if a != b {
                let k = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
                return Err(format!("cut {cut}: after skipping {:?}, after reading {:?}", a.get(k), b.get(k)));
            }
        }
        Ok(())
    }

    /// The common case, kept small enough to inline: a non-type instruction
    /// whose operands fit its precomputed layout, every id in range, every
    /// enumerant known and without parameters, the result id new. `None`
    /// (having changed nothing) sends the instruction down the general path.
    #[inline(always)]
    fn parse_static(&mut self, start: usize) -> Option<Instruction<'w>> {
        let words = self.words;
        let first = words[start];
        let wc = (first >> 16) as usize;
        let inst = words.get(start..start + wc)?;
        let index = grammar::instruction_index(first as u16)?;
        let fast = fast_info(index);
        let count = wc.wrapping_sub(1);
        if count.wrapping_sub(fast.fit_min as usize) >= fast.fit_range as usize || fast.is_type {
            return None;
        }
        let span = self.id_span;
        let live = if count >= 64 { u64::MAX } else { (1u64 << count) - 1 };
        let ids = fast.id_mask & live;
        let bad = if ids == live {
            // Every operand is an id (the usual case): one straight loop.
            inst[1..].iter().fold(false, |bad, &w| bad | (w.wrapping_sub(1) >= span))
        } else {
            let mut ids = ids;
            let mut bad = false;
            while ids != 0 {
                let k = ids.trailing_zeros() as usize;
                ids &= ids - 1;
                bad |= inst[k + 1].wrapping_sub(1) >= span;
            }
            bad
        };
        if bad {
            return None;
        }
        let layout: &'static [ParsedOperand] = &fast.layout[..count];
        let mut enums = fast.enum_mask & live;
        while enums != 0 {
            let k = enums.trailing_zeros() as usize;
            enums &= enums - 1;
            if !enum_without_parameters(layout[k].kind, inst[k + 1]) {
                return None;
            }
        }
        let result_type = if fast.result_type_at != 0 { inst[fast.result_type_at as usize] } else { 0 };
        let mut result_id = 0;
        if fast.result_at != 0 {
            result_id = inst[fast.result_at as usize];
            if !self.id_types.define(result_id, result_type) {
                return None;
            }
        }
        self.pos = start + wc;
        self.current = Some(layout);
        self.current_index = index;
        let info = fast.info;
        Some(Instruction {
            words: inst,
            offset: start,
            opcode: info.opcode,
            info,
            result_type,
            result_id,
            ext_set: None,
            operands: layout,
            raw: false,
        })
    }

    #[inline(never)]
    fn next_general(&mut self, start: usize) -> Option<Result<Instruction<'_>, BinaryError>> {
        match self.parse_one(start) {
            Ok((info, result_type, result_id, ext_set, raw)) => {
                let wc = (self.words[start] >> 16) as usize;
                self.pos = start + wc;
                let words = &self.words[start..start + wc];
                Some(Ok(Instruction {
                    words,
                    offset: start,
                    opcode: words[0] as u16,
                    info,
                    result_type,
                    result_id,
                    ext_set,
                    operands: if raw { &[] } else { self.current.unwrap_or(&self.operands) },
                    raw,
                }))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn parse_one(
        &mut self,
        start: usize,
    ) -> Result<(&'static InstructionInfo, u32, u32, Option<ExtSet>, bool), BinaryError> {
        let words = self.words;
        let first = words[start];
        let wc = (first >> 16) as usize;
        let opcode = first as u16;
        if wc == 0 {
            return Err(BinaryError::new(K::ZeroWordCount { opcode }, start));
        }
        if start + wc > words.len() {
            return Err(BinaryError::new(
                K::TruncatedInstruction { opcode, word_count: wc as u32, available: words.len() - start },
                start,
            ));
        }
        self.current = None;
        self.operands.clear();
        let Some(index) = grammar::instruction_index(opcode) else {
            let e = BinaryError::new(K::UnknownOpcode { opcode }, start);
            return self.raw_or(e, &UNKNOWN_INSTRUCTION, (0, 0));
        };
        let fast = fast_info(index);
        let info = fast.info;
        let inst = &words[start..start + wc];

        let mut st = State { w: 1, result_type: 0, result_id: 0, ext_set: None };
        // The static layouts were tried (see `parse_static`); what is left
        // needs the general path, after two shortcuts for frequent cases.
        let general_only = self.options.general_only;
        if general_only || !self.parse_common_variable(opcode, inst, &mut st) {
            st = State { w: 1, result_type: 0, result_id: 0, ext_set: None };
            self.operands.clear();
            let n = match general_only {
                true => 0,
                false => match self.parse_fast(info, inst, start, &mut st) {
                    Ok(n) => n,
                    Err(e) => return self.raw_or(e, info, (st.result_type, st.result_id)),
                },
            };
            if let Err(e) = self.parse_general(info, n, inst, start, &mut st) {
                // The result id read before the error stays the instruction's, as in spirv-dis.
                return self.raw_or(e, info, (st.result_type, st.result_id));
            }
        }
        let raw = self.pending_raw.is_some() && self.take_pending_raw(info);

        if st.result_id != 0 {
            let is_type = fast.is_type;
            if !self.id_types.define(st.result_id, if is_type { st.result_id } else { st.result_type }) {
                return Err(BinaryError::new(K::DuplicateResultId { id: st.result_id }, start + fast.result_offset));
            }
            if is_type {
                let kind = match opcode {
                    op::OpTypeInt if wc >= 4 => {
                        if inst[3] != 0 {
                            NumberKind::Signed(inst[2])
                        } else {
                            NumberKind::Unsigned(inst[2])
                        }
                    }
                    op::OpTypeFloat if wc >= 3 => {
                        NumberKind::Float(FloatFormat { width: inst[2], encoding: inst.get(3).copied() })
                    }
                    _ => NumberKind::None,
                };
                self.number_types.insert(st.result_id, kind);
            }
        }
        Ok((info, st.result_type, st.result_id, st.ext_set, raw))
    }

    /// Returns the instruction just read raw, as [`Self::pending_raw`] says.
    #[cold]
    fn take_pending_raw(&mut self, info: &'static InstructionInfo) -> bool {
        let Some(why) = self.pending_raw.take() else { return false };
        let e = self.raw_error(why);
        self.raw_or(e, info, (0, 0)).is_ok()
    }

    /// The error an instruction read raw for `why` is without the option.
    #[cold]
    fn raw_error(&self, why: Raw) -> BinaryError {
        match why {
            Raw::ExtInst { set, number, at } => BinaryError::new(K::UnknownExtInst { set, number }, at),
            Raw::Import { id, at } => {
                let name = self.unknown_imports.iter().find(|(i, _)| *i == id).map(|(_, n)| n.clone());
                BinaryError::new(K::UnknownImport { name: name.unwrap_or_default() }, at)
            }
        }
    }

    /// With [`ParserOptions::raw_unknown`], an instruction that failed with
    /// `e` for want of grammar (as spirv-dis `--handle-unknown-opcodes`
    /// decides) is returned raw; any other error stands.
    #[cold]
    #[allow(clippy::type_complexity)]
    fn raw_or(
        &mut self,
        e: BinaryError,
        info: &'static InstructionInfo,
        (result_type, result_id): (u32, u32),
    ) -> Result<(&'static InstructionInfo, u32, u32, Option<ExtSet>, bool), BinaryError> {
        let undecodable = matches!(
            e.kind(),
            K::UnknownOpcode { .. }
                | K::UnknownEnumerant { .. }
                | K::UnknownMaskBits { .. }
                | K::UnknownExtInst { .. }
                | K::UnknownImport { .. }
        );
        if !self.options.raw_unknown || !undecodable {
            return Err(e);
        }
        self.operands.clear();
        self.pending_raw = None;
        self.raw_count += 1;
        self.first_raw.get_or_insert_with(|| (e.kind().clone(), e.word_offset()));
        Ok((info, result_type, result_id, None, true))
    }

    /// The two frequent instructions whose layout depends on earlier ones:
    /// `OpExtInst` of an all-id extended instruction and `OpConstant` /
    /// `OpSpecConstant`. False when the instruction is anything else or
    /// anything about it is unusual; the general path then starts over and
    /// reports what is wrong.
    #[inline]
    fn parse_common_variable(&mut self, opcode: u16, inst: &[u32], st: &mut State) -> bool {
        let wc = inst.len();
        let ids_ok = |ids: &[u32], span: u32| ids.iter().all(|&w| w.wrapping_sub(1) < span);
        let plain = |offset: usize, kind: OperandKind| ParsedOperand {
            offset: offset as u16,
            num_words: 1,
            kind,
            number: NumberKind::None,
        };
        match opcode {
            op::OpExtInst if wc >= 5 && ids_ok(&inst[1..4], self.id_span) => {
                let Some(ExtSet::Known(set)) = self.imports.get(inst[3]) else { return false };
                let Some(ei) = set.instruction(inst[4]) else { return false };
                if !ei.all_ids || ei.operands.len() != wc - 5 || !ids_ok(&inst[5..], self.id_span) {
                    return false;
                }
                self.operands.extend_from_slice(&[
                    plain(1, OperandKind::IdResultType),
                    plain(2, OperandKind::IdResult),
                    plain(3, OperandKind::IdRef),
                    ParsedOperand {
                        offset: 4,
                        num_words: 1,
                        kind: OperandKind::LiteralExtInstInteger,
                        number: NumberKind::Unsigned(32),
                    },
                ]);
                self.operands.extend(ei.operands.iter().enumerate().map(|(i, spec)| plain(5 + i, spec.kind)));
                st.ext_set = Some(ExtSet::Known(set));
            }
            op::OpConstant | op::OpSpecConstant if wc >= 4 && ids_ok(&inst[1..3], self.id_span) => {
                let number = match self.number_types.get(&inst[1]).copied() {
                    Some(
                        n @ (NumberKind::Unsigned(width)
                        | NumberKind::Signed(width)
                        | NumberKind::Float(FloatFormat { width, .. })),
                    ) if literal_words(width) == wc - 3 => n,
                    _ => return false,
                };
                self.operands.extend_from_slice(&[
                    plain(1, OperandKind::IdResultType),
                    plain(2, OperandKind::IdResult),
                    ParsedOperand {
                        offset: 3,
                        num_words: (wc - 3) as u16,
                        kind: OperandKind::LiteralContextDependentNumber,
                        number,
                    },
                ]);
            }
            _ => return false,
        }
        st.result_type = inst[1];
        st.result_id = inst[2];
        st.w = wc;
        true
    }

    /// The fast-path operands (see [`InstructionInfo::fast_prefix`]).
    /// Returns how many operand specs it consumed; the general path takes
    /// the rest.
    #[inline]
    fn parse_fast(
        &mut self,
        info: &'static InstructionInfo,
        inst: &[u32],
        start: usize,
        st: &mut State,
    ) -> Result<usize, BinaryError> {
        let wc = inst.len();
        let prefix = info.fast_prefix as usize;
        let specs = info.operands;
        for (n, spec) in specs[..prefix].iter().enumerate() {
            if st.w >= wc {
                return Err(BinaryError::new(
                    K::MissingOperand { opname: info.name, operand: spec.name, index: n },
                    start + st.w,
                ));
            }
            if !self.one_word_operand(info, spec.kind, inst, start, st)? {
                return Ok(n);
            }
        }
        if info.string_tail && st.w < wc {
            let bytes = literal_string_bytes(&inst[st.w..]);
            let num_words = bytes.len() / 4 + 1;
            if st.w + num_words != wc {
                // No NUL, or words after it: the general path reports it.
                return Ok(prefix);
            }
            self.operands.push(ParsedOperand {
                offset: st.w as u16,
                num_words: num_words as u16,
                kind: OperandKind::LiteralString,
                number: NumberKind::None,
            });
            st.w = wc;
            return Ok(specs.len());
        }
        if !info.fast_tail {
            return Ok(prefix);
        }
        let spec = specs[prefix];
        let repeat = spec.quantifier == Quantifier::Variadic;
        while st.w < wc {
            if !self.one_word_operand(info, spec.kind, inst, start, st)? {
                return Ok(prefix);
            }
            if !repeat {
                break;
            }
        }
        Ok(specs.len())
    }

    /// Takes a one-word operand; false (taking nothing) when it is an
    /// enumerant the general path must handle (unknown, or with parameters).
    #[inline]
    fn one_word_operand(
        &mut self,
        info: &'static InstructionInfo,
        kind: OperandKind,
        inst: &[u32],
        start: usize,
        st: &mut State,
    ) -> Result<bool, BinaryError> {
        let word = inst[st.w];
        let number = match kind.info().category {
            Category::Literal => NumberKind::Unsigned(32),
            Category::ValueEnum | Category::BitEnum => {
                if !enum_without_parameters(kind, word) || kind == OperandKind::InitializationModeQualifier {
                    return Ok(false);
                }
                NumberKind::None
            }
            _ => {
                self.check_id(info, kind, word, start + st.w, st)?;
                NumberKind::None
            }
        };
        self.operands.push(ParsedOperand { offset: st.w as u16, num_words: 1, kind, number });
        st.w += 1;
        Ok(true)
    }

    /// Operands of any layout, driven by a stack of expected operands that
    /// enumerant parameters, extended instructions and OpSpecConstantOp push
    /// onto.
    fn parse_general(
        &mut self,
        info: &'static InstructionInfo,
        first_spec: usize,
        inst: &[u32],
        start: usize,
        st: &mut State,
    ) -> Result<(), BinaryError> {
        let wc = inst.len();
        let rest = &info.operands[first_spec..];
        if rest.is_empty() {
            if st.w < wc {
                return Err(BinaryError::new(
                    K::ExtraWords { opname: info.name, expected: st.w, word_count: wc },
                    start,
                ));
            }
            return Ok(());
        }
        self.expected.clear();
        self.expected.extend(rest.iter().rev().map(|&spec| Expected { spec, switch_literal: false }));
        let mut index = first_spec;
        while let Some(exp) = self.expected.pop() {
            if st.w >= wc {
                if exp.spec.quantifier == Quantifier::One {
                    return Err(BinaryError::new(
                        K::MissingOperand { opname: info.name, operand: exp.spec.name, index },
                        start + st.w,
                    ));
                }
                continue;
            }
            if exp.spec.quantifier == Quantifier::Variadic {
                self.expected.push(exp);
            }
            self.parse_operand(info, inst, start, exp, st)?;
            index += 1;
        }
        if st.w < wc {
            return Err(BinaryError::new(K::ExtraWords { opname: info.name, expected: st.w, word_count: wc }, start));
        }
        Ok(())
    }

    /// Checks an id operand and records what it tells about the instruction.
    #[inline]
    fn check_id(
        &mut self,
        info: &'static InstructionInfo,
        kind: OperandKind,
        word: u32,
        at: usize,
        st: &mut State,
    ) -> Result<(), BinaryError> {
        match kind {
            OperandKind::IdResultType => {
                if word == 0 {
                    return Err(BinaryError::new(K::ZeroId { what: "result type id" }, at));
                }
                st.result_type = word;
            }
            OperandKind::IdResult => {
                if word == 0 {
                    return Err(BinaryError::new(K::ZeroId { what: "result id" }, at));
                }
                if self.id_types.is_defined(word) {
                    return Err(BinaryError::new(K::DuplicateResultId { id: word }, at));
                }
                st.result_id = word;
            }
            _ => {
                if word == 0 {
                    return Err(BinaryError::new(K::ZeroId { what: "id operand" }, at));
                }
                if st.w == 3 && (info.opcode == op::OpExtInst || info.opcode == op::OpExtInstWithForwardRefsKHR) {
                    match self.imports.get(word) {
                        Some(set) => st.ext_set = Some(set),
                        // Its import named a set we do not know (see `raw_unknown`).
                        None if self.unknown_imports.iter().any(|(id, _)| *id == word) => {
                            self.pending_raw = Some(Raw::Import { id: word, at });
                        }
                        None => return Err(BinaryError::new(K::NotAnImport { id: word }, at)),
                    }
                }
            }
        }
        if word >= self.header.bound {
            if self.options.check_bound {
                return Err(BinaryError::new(K::IdOutOfBound { id: word, bound: self.header.bound }, at));
            }
            self.past_bound.get_or_insert((word, at));
        }
        Ok(())
    }

    fn parse_operand(
        &mut self,
        info: &'static InstructionInfo,
        inst: &[u32],
        start: usize,
        exp: Expected,
        st: &mut State,
    ) -> Result<(), BinaryError> {
        let kind = exp.spec.kind;
        let w = st.w;
        let word = inst[w];
        let at = start + w;
        let kinfo = kind.info();
        let mut number = NumberKind::None;
        let mut num_words = 1usize;
        match kinfo.category {
            Category::Id => self.check_id(info, kind, word, at, st)?,
            Category::Literal => match kind {
                OperandKind::LiteralString => {
                    let bytes = literal_string_bytes(&inst[w..]);
                    if bytes.len() == (inst.len() - w) * 4 {
                        return Err(BinaryError::new(K::UnterminatedString { opname: info.name }, at));
                    }
                    num_words = bytes.len() / 4 + 1;
                    if info.opcode == op::OpExtInstImport && st.result_id != 0 {
                        match std::str::from_utf8(bytes).ok().and_then(grammar::ext_inst_set) {
                            Some(s) if s.known_to_spirv_tools || !self.options.spirv_tools_ext_sets => {
                                self.imports.insert(st.result_id, ExtSet::Known(s))
                            }
                            Some(_) => self.imports.insert(st.result_id, ExtSet::UnknownNonSemantic),
                            None if bytes.starts_with(b"NonSemantic.") => {
                                self.imports.insert(st.result_id, ExtSet::UnknownNonSemantic)
                            }
                            // The import and each instruction of the set are raw
                            // (spirv-as would not read the import back).
                            None if self.options.raw_unknown => {
                                let name = String::from_utf8_lossy(bytes).into_owned();
                                self.unknown_imports.push((st.result_id, name));
                                self.pending_raw = Some(Raw::Import { id: st.result_id, at });
                            }
                            None => {
                                let name = String::from_utf8_lossy(bytes).into_owned();
                                return Err(BinaryError::new(K::UnknownImport { name }, at));
                            }
                        }
                    }
                }
                OperandKind::LiteralFloat => number = NumberKind::Float(FloatFormat { width: 32, encoding: None }),
                OperandKind::LiteralContextDependentNumber => {
                    if info.opcode == op::OpConstant || info.opcode == op::OpSpecConstant {
                        number = self.numeric_type(st.result_type, at)?;
                    } else {
                        number = NumberKind::Unsigned(32);
                    }
                }
                OperandKind::LiteralExtInstInteger => {
                    number = NumberKind::Unsigned(32);
                    // The extended instruction's operands replace OpExtInst's
                    // trailing `IdRef*`: extra words are an error, as in
                    // spirv-dis. OpExtInstWithForwardRefsKHR keeps it after
                    // them (SPIRV-Tools drops it for OpExtInst alone).
                    let keep_ids = info.opcode != op::OpExtInst;
                    if !keep_ids {
                        self.expected.clear();
                    }
                    match st.ext_set {
                        Some(ExtSet::Known(set)) => match set.instruction(word) {
                            Some(ei) => self.push_specs(ei.operands, false),
                            None if set.non_semantic && keep_ids => {}
                            None if set.non_semantic => self.push_variadic_ids(),
                            None => {
                                if !self.options.raw_unknown {
                                    let kind = K::UnknownExtInst { set: set.import_name, number: word };
                                    return Err(BinaryError::new(kind, at));
                                }
                                // spirv-dis reads the rest as ids, then prints it all raw.
                                self.pending_raw = Some(Raw::ExtInst { set: set.import_name, number: word, at });
                                if !keep_ids {
                                    self.push_variadic_ids();
                                }
                            }
                        },
                        Some(ExtSet::UnknownNonSemantic) if keep_ids => {}
                        Some(ExtSet::UnknownNonSemantic) => self.push_variadic_ids(),
                        None if self.pending_raw.is_some() && keep_ids => {}
                        None if self.pending_raw.is_some() => self.push_variadic_ids(),
                        None => return Err(BinaryError::new(K::NotAnImport { id: 0 }, at)),
                    }
                }
                OperandKind::LiteralSpecConstantOpInteger => {
                    let embedded = u16::try_from(word)
                        .ok()
                        .filter(|&op| grammar::spec_constant_op_allowed(op))
                        .and_then(grammar::instruction)
                        .ok_or_else(|| BinaryError::new(K::UnknownSpecConstantOp { opcode: word }, at))?;
                    let ops = embedded.operands;
                    let skip = ops
                        .iter()
                        .take_while(|o| matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult))
                        .count();
                    self.push_specs(&ops[skip..], false);
                }
                _ => {
                    // LiteralInteger: one word, unless it is an OpSwitch case
                    // value, whose width is the selector's.
                    number = NumberKind::Unsigned(32);
                    if exp.switch_literal {
                        number = self.switch_selector_type(inst, at)?;
                    }
                }
            },
            Category::ValueEnum => {
                if kind == OperandKind::InitializationModeQualifier {
                    // SPIRV-Tools' binary parser has no case for this kind:
                    // spirv-dis and spirv-val stop with an internal error.
                    return Err(BinaryError::new(K::UnreadableOperandKind { kind: kinfo.name }, at));
                }
                let e = kind
                    .enumerant(word)
                    .ok_or_else(|| BinaryError::new(K::UnknownEnumerant { kind: kinfo.name, value: word }, at))?;
                if !e.parameters.is_empty() {
                    self.push_specs(e.parameters, false);
                }
            }
            Category::BitEnum => {
                // Parameters follow in order of increasing bit; pushed
                // highest bit first so the lowest is on top of the stack.
                let mut bits = word;
                let mut unknown = 0;
                while bits != 0 {
                    let bit = bits & bits.wrapping_neg();
                    bits ^= bit;
                    if kind.enumerant(bit).is_none() {
                        unknown |= bit;
                    }
                }
                if unknown != 0 {
                    return Err(BinaryError::new(
                        K::UnknownMaskBits { kind: kinfo.name, value: word, bits: unknown },
                        at,
                    ));
                }
                let mut bits = word;
                while bits != 0 {
                    let bit = 1u32 << (31 - bits.leading_zeros());
                    bits ^= bit;
                    let e = kind.enumerant(bit).expect("checked above");
                    if !e.parameters.is_empty() {
                        self.push_specs(e.parameters, false);
                    }
                }
            }
            Category::Composite => {
                let switch = info.opcode == op::OpSwitch;
                // SPIRV-Tools reads OpPhi's (value, parent) pairs as a plain
                // sequence of ids, so spirv-dis prints an odd count; the
                // validator is the one to object. The other pairs need both.
                let second = match kind {
                    OperandKind::PairIdRefIdRef => Quantifier::Optional,
                    _ => Quantifier::One,
                };
                for (k, &base) in kinfo.bases.iter().enumerate().rev() {
                    self.expected.push(Expected {
                        spec: OperandSpec {
                            kind: base,
                            quantifier: if k == 0 { Quantifier::One } else { second },
                            name: "",
                        },
                        switch_literal: switch && base == OperandKind::LiteralInteger,
                    });
                }
                return Ok(());
            }
        }
        if let NumberKind::Unsigned(width) | NumberKind::Signed(width) | NumberKind::Float(FloatFormat { width, .. }) =
            number
        {
            num_words = literal_words(width);
        }
        if w + num_words > inst.len() {
            return Err(BinaryError::new(K::TruncatedNumber { opname: info.name, needed: num_words }, at));
        }
        self.operands.push(ParsedOperand { offset: w as u16, num_words: num_words as u16, kind, number });
        st.w = w + num_words;
        Ok(())
    }

    fn push_specs(&mut self, specs: &'static [OperandSpec], switch_literal: bool) {
        self.expected.extend(specs.iter().rev().map(|&spec| Expected { spec, switch_literal }));
    }

    fn push_variadic_ids(&mut self) {
        self.expected.push(Expected {
            spec: OperandSpec { kind: OperandKind::IdRef, quantifier: Quantifier::Variadic, name: "" },
            switch_literal: false,
        });
    }

    fn numeric_type(&self, type_id: u32, at: usize) -> Result<NumberKind, BinaryError> {
        match self.number_types.get(&type_id).copied() {
            Some(NumberKind::None) | None => Err(BinaryError::new(K::NotANumericType { type_id }, at)),
            Some(k) => Ok(k),
        }
    }

    fn switch_selector_type(&self, inst: &[u32], at: usize) -> Result<NumberKind, BinaryError> {
        let selector = inst[1];
        let err = |reason| BinaryError::new(K::BadSwitchSelector { id: selector, reason }, at);
        let ty = match self.id_types.type_of(selector) {
            Some(t) if t != 0 => t,
            _ => return Err(err("has no type")),
        };
        if ty == selector {
            return Err(err("is a type, not a value"));
        }
        match self.number_types.get(&ty).copied() {
            Some(k @ (NumberKind::Unsigned(_) | NumberKind::Signed(_))) => Ok(k),
            _ => Err(err("is not a scalar integer")),
        }
    }
}

/// Why an instruction read to its end is to be returned raw (see
/// [`ParserOptions::raw_unknown`]).
#[derive(Copy, Clone)]
enum Raw {
    /// An instruction number its semantic set does not have.
    ExtInst { set: &'static str, number: u32, at: usize },
    /// An import of an unknown set, or an instruction of one (`id` is the import).
    Import { id: u32, at: usize },
}

struct State {
    w: usize,
    result_type: u32,
    result_id: u32,
    ext_set: Option<ExtSet>,
}

/// Static layouts cover at most this many operands (one bit each in the
/// masks below); longer instructions take the general path.
const MAX_STATIC_OPERANDS: usize = 63;

/// Per-instruction facts derived once from the grammar tables.
struct FastInfo {
    /// Bit k: operand k (word k + 1) of `layout` is an id.
    id_mask: u64,
    /// Bit k: operand k is an enumerant (checked for parameters).
    enum_mask: u64,
    /// Word index of the result type and result id (0: none).
    result_type_at: u8,
    result_at: u8,
    /// Operand layout for the fast prefix (and, with `fast_tail`, up to
    /// `MAX_STATIC_TAIL` repetitions of the tail operand).
    layout: Vec<ParsedOperand>,
    /// The layout fits operand counts `fit_min .. fit_min + fit_range`.
    fit_min: u8,
    fit_range: u8,
    info: &'static InstructionInfo,
    /// The instruction declares a type (SPIRV-Tools' `spvOpcodeGeneratesType`).
    is_type: bool,
    /// Word index of the result id within the instruction (0: none).
    result_offset: usize,
    /// Word index of the result type id within the instruction (0: none).
    type_offset: usize,
    /// Whether [`InstructionParser::skip_to`] may hop over the instruction.
    skip: Skip,
}

/// When [`InstructionParser::skip_to`] may hop over an instruction.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Skip {
    /// Never: it declares a type or an extended set, or carries an opcode.
    Never,
    /// Always (given its word count): no operand can make it raw.
    Always,
    /// When its operands fit the static layout and every enumerant there
    /// is known and without parameters.
    PlainEnums,
    /// `OpExtInst*`: when the set is imported and the instruction known and
    /// all ids (or the set is a `NonSemantic.*` one we have no grammar for).
    KnownExtInst,
}

/// The static operand layout of instruction index `index` (see
/// [`grammar::instruction_index`]): the operands of an instruction read by
/// a static layout are its first ones.
pub(crate) fn static_layout(index: usize) -> &'static [ParsedOperand] {
    &fast_info(index).layout
}

/// The facts of instruction index `index`, derived on first use: deriving
/// all of them up front wrote over half a megabyte (the long variadic
/// layouts), which took 0.5 ms of every run on a small module.
#[inline]
fn fast_info(index: usize) -> &'static FastInfo {
    static INFOS: [std::sync::OnceLock<FastInfo>; grammar::INSTRUCTION_COUNT] =
        [const { std::sync::OnceLock::new() }; grammar::INSTRUCTION_COUNT];
    INFOS[index].get_or_init(|| FastInfo::new(&grammar::INSTRUCTIONS[index]))
}

impl FastInfo {
    fn new(info: &'static InstructionInfo) -> FastInfo {
        let prefix = info.fast_prefix as usize;
        let plain = |kind: OperandKind, offset: usize| ParsedOperand {
            offset: offset as u16,
            num_words: 1,
            kind,
            number: if kind == OperandKind::LiteralInteger { NumberKind::Unsigned(32) } else { NumberKind::None },
        };
        let mut layout: Vec<ParsedOperand> =
            info.operands[..prefix].iter().enumerate().map(|(i, s)| plain(s.kind, i + 1)).collect();
        if info.fast_tail {
            let tail = info.operands[prefix];
            let reps =
                if tail.quantifier == Quantifier::Variadic { MAX_STATIC_OPERANDS.saturating_sub(prefix) } else { 1 };
            for r in 0..reps {
                layout.push(plain(tail.kind, prefix + r + 1));
            }
        }
        let mut id_mask = 0u64;
        let mut enum_mask = 0u64;
        let (mut result_type_at, mut result_at) = (0u8, 0u8);
        for (k, o) in layout.iter().enumerate().take(64) {
            match (o.kind, o.kind.info().category) {
                (OperandKind::IdResultType, _) => {
                    result_type_at = (k + 1) as u8;
                    id_mask |= 1 << k;
                }
                (OperandKind::IdResult, _) => {
                    result_at = (k + 1) as u8;
                    id_mask |= 1 << k;
                }
                (_, Category::Id) => id_mask |= 1 << k,
                (_, Category::ValueEnum | Category::BitEnum) => enum_mask |= 1 << k,
                _ => {}
            }
        }
        let fit_range = if info.fast_tail {
            (layout.len() - prefix + 1) as u8
        } else {
            info.operands[prefix..].iter().all(|s| s.quantifier != Quantifier::One) as u8
        };
        FastInfo {
            id_mask,
            enum_mask,
            result_type_at,
            result_at,
            layout,
            fit_min: prefix as u8,
            fit_range,
            info,
            is_type: info.class == "Type-Declaration" && info.has_result,
            result_offset: info.operands.iter().position(|s| s.kind == OperandKind::IdResult).map_or(0, |i| i + 1),
            type_offset: info.has_result_type as usize,
            skip: skip_kind(info),
        }
    }
}

/// How [`InstructionParser::skip_to`] treats an instruction (see [`Skip`]).
fn skip_kind(info: &InstructionInfo) -> Skip {
    let declares = info.declares_type || info.opcode == op::OpExtInstImport;
    let carries_opcode = info.operands.iter().any(|s| s.kind == OperandKind::LiteralSpecConstantOpInteger);
    if declares || carries_opcode {
        return Skip::Never;
    }
    if info.operands.iter().any(|s| s.kind == OperandKind::LiteralExtInstInteger) {
        return Skip::KnownExtInst;
    }
    let enums = info.operands.iter().any(|s| matches!(s.kind.info().category, Category::ValueEnum | Category::BitEnum));
    if enums {
        Skip::PlainEnums
    } else {
        Skip::Always
    }
}

/// A known enumerant (or mask of known bits) none of which takes parameters.
#[inline]
fn enum_without_parameters(kind: OperandKind, word: u32) -> bool {
    let info = kind.info();
    if info.category == Category::ValueEnum {
        if word < 64 {
            return info.plain_mask >> word & 1 != 0;
        }
        return kind.enumerant(word).is_some_and(|e| e.parameters.is_empty());
    }
    if word == 0 {
        return info.plain_mask >> 32 & 1 != 0;
    }
    word & !(info.plain_mask as u32) == 0
}

/// The words a literal number of a type `width` bits wide takes, counted as
/// spirv-dis counts them: rounded up in 32-bit arithmetic and kept to 16
/// bits, so width 0 takes none and width 2^22 + 32 takes one.
fn literal_words(width: u32) -> usize {
    (width.wrapping_add(31) / 32) as u16 as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> [ParserOptions; 4] {
        let o = ParserOptions::default();
        [o, o.raw_unknown(true), o.check_bound(false), o.check_bound(false).raw_unknown(true)]
    }

    /// The string of a run of words ends at its first zero byte, or runs to
    /// the end: the word-at-a-time search against a byte-at-a-time one, with
    /// the zero byte at every place of every one of 0 to 7 words, and bytes
    /// around it that the word test could mistake for zero (0x01, 0x80,
    /// 0xff, 0x00 after the first).
    #[test]
    fn a_string_ends_at_its_first_zero_byte() {
        let naive = |bytes: &[u8]| bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        let mut checked = 0;
        for len in 0..8usize {
            for zero in 0..=len * 4 {
                for fill in [b'a', 0x01, 0x80, 0xff] {
                    for after in [fill, 0x00, 0x01, 0x80] {
                        let mut bytes = vec![fill; len * 4];
                        if zero < bytes.len() {
                            bytes[zero] = 0;
                            for b in &mut bytes[zero + 1..] {
                                *b = after;
                            }
                        }
                        let words: Vec<u32> =
                            bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
                        let got = literal_string_bytes(&words);
                        assert_eq!(got, &bytes[..naive(&bytes)], "{bytes:02x?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    /// Skipping to a cut and reading on gives what reading all the way
    /// gives, over the disassembler's corpus, whole and with words damaged.
    #[test]
    fn skipping_reads_on_as_reading_does() {
        let mut checked = 0;
        for (n, path, words) in crate::binary::test_corpus() {
            let damaged = crate::binary::damaged(&words, 29, n % 20);
            for words in [&words, &damaged] {
                let cuts: Vec<usize> = (1..4).map(|k| k * words.len() / 4).collect();
                // Undecodable instructions read raw, and one other set in turn.
                for options in [options()[1], options()[n % 4]] {
                    let r = InstructionParser::check_skip(words, options, &cuts);
                    assert_eq!(r, Ok(()), "{} {options:?}", path.display());
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} modules checked");
    }

    /// Reads `words` with `next_name` first and with `next` alone, and
    /// checks that `next_name` takes exactly the `OpName`s `next` reads
    /// without error, with the same target and name, leaving the parser
    /// where `next` does. How many it took, and how many `OpName`s it left.
    fn read_names_apart(words: &[u32], options: ParserOptions, what: &str) -> (usize, usize) {
        let (mut taken, mut left) = (0, 0);
        let (Ok(mut a), Ok(mut b)) = (InstructionParser::new(words, options), InstructionParser::new(words, options))
        else {
            return (0, 0);
        };
        loop {
            let at = a.position();
            let apart = a.next_name();
            let Some(Ok(inst)) = b.next() else {
                assert_eq!(apart, None, "{what} word {at}");
                return (taken, left);
            };
            let whole = (inst.opcode == op::OpName).then(|| (inst.words[1], inst.string(1)));
            match apart {
                Some(apart) => {
                    assert_eq!(Some(apart), whole, "{what} word {at}");
                    taken += 1;
                }
                None => {
                    left += usize::from(whole.is_some());
                    assert!(a.next().is_some_and(|r| r.is_ok()), "{what} word {at}");
                }
            }
            assert_eq!(a.position(), b.position(), "{what} word {at}");
        }
    }

    /// `next_name` over the corpus, whole and with words damaged, and on
    /// each way an `OpName` can be wrong.
    #[test]
    fn names_read_apart_are_read_as_next_reads_them() {
        let (mut taken, mut left) = (0, 0);
        for (n, path, words) in crate::binary::test_corpus() {
            let damaged = crate::binary::damaged(&words, 13, n % 20);
            for words in [&words, &damaged] {
                for options in [options()[n % 4], options()[(n + 1) % 4]] {
                    let (t, l) = read_names_apart(words, options, &path.display().to_string());
                    (taken, left) = (taken + t, left + l);
                }
            }
        }
        assert!(taken > 10_000, "{taken} names read apart, {left} left to next");
        // OpName %1 "a"; the bound is 20.
        let name = |words: &[u32]| [&[MAGIC_WORD, 0x0001_0000, 0, 20, 0][..], words].concat();
        let good = name(&[(3 << 16) | 5, 1, 0x61]);
        let bad = [
            name(&[(3 << 16) | 5, 0, 0x61]),        // id 0
            name(&[(3 << 16) | 5, 25, 0x61]),       // past the bound
            name(&[(3 << 16) | 5, 1, 0x6161_6161]), // no NUL
            name(&[(4 << 16) | 5, 1, 0x61, 0x62]),  // a word after the NUL
            name(&[(2 << 16) | 5, 1]),              // no name
            name(&[(1 << 16) | 5]),                 // no operands
            name(&[(5 << 16) | 5, 1, 0x61]),        // cut short
        ];
        for options in options() {
            assert_eq!(read_names_apart(&good, options, "good"), (1, 0));
            for (i, words) in bad.iter().enumerate() {
                assert_eq!(read_names_apart(words, options, &format!("bad {i}")).0, 0, "bad {i} {options:?}");
            }
        }
        // Past the bound reads without error when the bound is not checked.
        assert_eq!(read_names_apart(&bad[1], options()[2], "past the bound"), (0, 1));
    }

    /// The cases a skip could get wrong, each before the cut at the last
    /// instruction (which defines id 3 again): an instruction read raw for
    /// an unknown enumerant, also among an extended instruction's operands,
    /// defines no result id (one of an unknown extended instruction does),
    /// and a declaration read raw while skipping is not counted.
    #[test]
    fn skipping_leaves_raw_results_undefined() {
        let head = [MAGIC_WORD, 0x0001_0000, 0, 20, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1];
        let types = [(4 << 16) | 21, 1, 32, 1, (4 << 16) | 32, 2, 6, 1];
        let variable = |storage: u32| [(4 << 16) | 59, 2, 3, storage];
        let import = [
            (6 << 16) | 11,
            4,
            u32::from_le_bytes(*b"GLSL"),
            u32::from_le_bytes(*b".std"),
            u32::from_le_bytes(*b".450"),
            0,
        ];
        let ext_inst = [(6 << 16) | 12, 1, 3, 4, 9999, 1];
        let debug_info: Vec<u32> = [(8 << 16) | 11, 4]
            .into_iter()
            .chain(b"OpenCL.DebugInfo.100\0\0\0\0".chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())))
            .collect();
        let debug_type = [(8 << 16) | 12, 1, 3, 4, 2, 1, 1, 0x7777];
        let image = [(9 << 16) | 25, 6, 1, 0x7777, 0, 0, 0, 1, 0];
        let cases: [(&str, Vec<u32>); 4] = [
            ("unknown storage class", [&head[..], &types, &variable(0x7777), &variable(6)].concat()),
            ("unknown extended instruction", [&head[..], &types, &import, &ext_inst, &variable(6)].concat()),
            ("unknown debug encoding", [&head[..], &types, &debug_info, &debug_type, &variable(6)].concat()),
            ("unknown dimension", [&head[..], &types, &image, &variable(6)].concat()),
        ];
        for (what, words) in cases {
            let cut = words.len() - 4;
            for options in options() {
                let r = InstructionParser::check_skip(&words, options, &[cut]);
                assert_eq!(r, Ok(()), "{what} {options:?}");
            }
            // The case is what it says: an instruction read raw.
            let mut parser = InstructionParser::new(&words, ParserOptions::default().raw_unknown(true)).unwrap();
            let mut outcomes = Vec::new();
            while let Some(r) = parser.next() {
                outcomes.push(r.map(|i| i.raw).map_err(|e| e.to_string()));
            }
            assert!(outcomes.contains(&Ok(true)), "{what}: {outcomes:?}");
        }
    }

    const MAGIC_WORD: u32 = crate::binary::MAGIC;
}
