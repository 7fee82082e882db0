//! The module representation: instructions in order with their word
//! offsets and operands (decoded once, from the grammar), where each id is
//! defined, the capabilities declared and implied, and the opcodes used.
//! Built once by the binary reader ([`Module::read`]); the validator's
//! passes read it. Beside it, each owning one fact found on first use:
//! [`functions`] (functions and their blocks), `decorations` (each id's
//! decorations), [`names`] (friendly names, as spirv-dis prints them),
//! `capabilities` (those implied), and the graph algorithms over a
//! function's blocks (`dominators.rs`).
//!
//! A module assembled by `text::parse` also knows its text:
//! [`spans`] owns the byte range of every instruction and operand and the
//! name each id had, which [`Module::span`], [`Module::operand_span`],
//! [`Module::locate`] and [`Module::text_name`] read. A module read from a
//! binary has none (those give `None`), and the reader never records any.
//!
//! ```
//! use gpuasm_spirv::module::Module;
//! let words = gpuasm_spirv::text::assemble(
//!     "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%int = OpTypeInt 32 1\n",
//!     &Default::default(),
//! )
//! .unwrap();
//! let module = Module::read(&words).unwrap();
//! let int = module.result_id(2).unwrap();
//! assert_eq!(module.def(int).map(|d| d.info().name), Some("OpTypeInt"));
//! assert_eq!(module.name(int), Some("int"));
//! assert_eq!(module.span(2), None); // read from a binary: no text
//! ```

pub(crate) mod capabilities;
pub(crate) mod decorations;
pub(crate) mod dominators;
pub mod functions;
pub mod names;
pub(crate) mod opcode_set;
pub mod source_lines;
pub mod spans;

use crate::binary::idmap::IdTypes;
use crate::binary::static_layout;
use crate::binary::{BinaryError, ExtSet, Header, Instruction, InstructionParser, ParsedOperand, ParserOptions};
use crate::grammar::InstructionInfo;
use crate::grammar::{op, Category, OperandKind};
use functions::Function;
use names::IdNames;
use opcode_set::OpcodeSet;
use rustc_hash::FxHashMap;
use spans::TextSpans;
use std::ops::Range;
use std::sync::OnceLock;

/// One instruction: where it is, what it is, its result, and where its
/// decoded operands are.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Word offset in the module (modules are shorter than 2^31 words).
    pub(crate) offset: u32,
    pub(crate) word_count: u16,
    opcode: u16,
    /// Where the operands are and, for `OpExtInst`, its set: see
    /// [`OperandsAt`].
    operands: OperandsAt,
}

// Every pass walks the instructions: kept small, more of them share a cache
// line, and a large module's list stays small (it was 48 bytes, then 24,
// 20 and 16: at 12 the list of a 19 MB module is 14 MB smaller than at
// 24). The result type and id are not kept: they are the words after the
// opcode's, which [`Module::result_type`] and [`Module::result_id`] read.
const _: () = assert!(std::mem::size_of::<Inst>() == 12);

/// Where an instruction's operands are, in one word. Either the first
/// `len` of static layout `layout` (most instructions: nothing is copied):
/// `STATIC | layout << 16 | len`; or entry `list` of the module's distinct
/// operand lists, with the instruction's extended set (instructions read by
/// a static layout have none): `set << LIST_BITS | list`.
#[derive(Copy, Clone, Debug)]
struct OperandsAt(u32);

/// Marks an [`OperandsAt`] that names a static layout.
const STATIC: u32 = 1 << 31;
/// Bits of an [`OperandsAt`] for the index of a distinct operand list; the
/// five above them hold its [`ExtSetCode`].
const LIST_BITS: u32 = 26;
// Static layouts are numbered by instruction, below 2^15; the set codes
// fit in five bits.
const _: () = assert!(crate::grammar::INSTRUCTION_COUNT < 1 << 15);
const _: () = assert!(crate::grammar::EXT_INST_SETS.len() + 2 <= 1 << (31 - LIST_BITS));

impl OperandsAt {
    fn layout(layout: usize, len: usize) -> OperandsAt {
        OperandsAt(STATIC | (layout as u32) << 16 | len as u32)
    }

    /// `None` past the list-index bits (a module of over 2^26 distinct
    /// operand lists, which no compiler writes).
    fn list(list: usize, set: ExtSetCode) -> Option<OperandsAt> {
        (list < 1 << LIST_BITS).then_some(OperandsAt((set.0 as u32) << LIST_BITS | list as u32))
    }

    /// `Ok((layout, len))` for a static layout, else `Err(list)`.
    #[inline(always)]
    fn get(self) -> Result<(usize, usize), usize> {
        if self.0 & STATIC != 0 {
            Ok(((self.0 >> 16 & 0x7fff) as usize, (self.0 & 0xffff) as usize))
        } else {
            Err((self.0 & ((1 << LIST_BITS) - 1)) as usize)
        }
    }

    #[inline]
    fn ext_set(self) -> ExtSetCode {
        ExtSetCode(if self.0 & STATIC != 0 { 0 } else { (self.0 >> LIST_BITS) as u8 })
    }
}

/// An `Option<ExtSet>` in one byte: 0 for none, 1 for an unknown
/// non-semantic set, `2 + k` for entry `k` of the grammar's sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct ExtSetCode(u8);

impl ExtSetCode {
    fn new(set: Option<ExtSet>) -> ExtSetCode {
        match set {
            None => ExtSetCode(0),
            Some(ExtSet::UnknownNonSemantic) => ExtSetCode(1),
            Some(ExtSet::Known(s)) => {
                let k = crate::grammar::EXT_INST_SETS
                    .iter()
                    .position(|e| std::ptr::eq(e, s))
                    .expect("the parser's sets are the grammar's");
                ExtSetCode(2 + k as u8)
            }
        }
    }

    #[inline]
    fn get(self) -> Option<ExtSet> {
        match self.0 {
            0 => None,
            1 => Some(ExtSet::UnknownNonSemantic),
            k => Some(ExtSet::Known(&crate::grammar::EXT_INST_SETS[k as usize - 2])),
        }
    }
}

/// The operand lists of the instructions that have no static layout, each
/// distinct list kept once: in a large module most are repeats (every
/// `OpName` with a name of the same length, every `OpExtInst` of the same
/// instruction and arity), and a copy of each took a fifth of the memory
/// the module is read into.
#[derive(Default)]
struct OperandLists {
    /// The lists, back to back.
    operands: Vec<ParsedOperand>,
    /// Each distinct list: where it starts in `operands`, and its length.
    lists: Vec<(u32, u32)>,
    /// A list's hash → the list seen first with that hash (another list
    /// with the same hash is kept again, unshared).
    by_hash: FxHashMap<u64, u32>,
}

impl OperandLists {
    /// The index of `operands` among the distinct lists (added if not
    /// there yet).
    fn intern(&mut self, operands: &[ParsedOperand]) -> usize {
        let hash = {
            let mut h = rustc_hash::FxHasher::default();
            std::hash::Hash::hash(operands, &mut h);
            std::hash::Hasher::finish(&h)
        };
        let next = self.lists.len() as u32;
        let k = *self.by_hash.entry(hash).or_insert(next);
        if k != next {
            let (start, len) = self.lists[k as usize];
            if self.operands[start as usize..(start + len) as usize] == *operands {
                return k as usize;
            }
        }
        self.lists.push((self.operands.len() as u32, operands.len() as u32));
        self.operands.extend_from_slice(operands);
        self.lists.len() - 1
    }
}

impl Inst {
    /// The opcode.
    #[inline]
    pub fn opcode(&self) -> u16 {
        self.opcode
    }

    /// Where the instruction starts, in words from the start of the module.
    pub fn offset(&self) -> usize {
        self.offset as usize
    }

    /// How many words it takes.
    pub fn word_count(&self) -> usize {
        self.word_count as usize
    }

    /// Its grammar entry.
    #[inline]
    pub fn info(&self) -> &'static InstructionInfo {
        // The parser knew the opcode: it has an entry.
        &crate::grammar::INSTRUCTIONS[crate::grammar::OPCODE_INDEX[self.opcode as usize] as usize]
    }

    /// For OpExtInst, the extended instruction set it belongs to.
    #[inline]
    pub fn ext_set(&self) -> Option<ExtSet> {
        self.operands.ext_set().get()
    }
}

/// Result id → index of its defining instruction (the last one, if an id is
/// defined twice). Looked up for nearly every operand by every pass, so ids
/// below the header's bound index a table when that bound is within a small
/// multiple of the module's size (as in every module a compiler writes);
/// other ids, and every id under a huge bound, go to a hash map.
pub(crate) struct Defs {
    dense: Vec<u32>,
    sparse: FxHashMap<u32, u32>,
}

impl Defs {
    const NONE: u32 = u32::MAX;

    fn new(bound: u32, words: usize) -> Defs {
        let dense = if (bound as usize) <= 4 * words + 1024 { vec![Self::NONE; bound as usize] } else { Vec::new() };
        Defs { dense, sparse: FxHashMap::default() }
    }

    /// `at` fits: modules are shorter than 2^31 words, so they have fewer
    /// instructions.
    fn insert(&mut self, id: u32, at: usize) {
        match self.dense.get_mut(id as usize) {
            Some(slot) => *slot = at as u32,
            None => {
                self.sparse.insert(id, at as u32);
            }
        }
    }

    /// Where `id` is defined.
    #[inline]
    pub fn get(&self, id: u32) -> Option<usize> {
        match self.dense.get(id as usize) {
            Some(&at) => (at != Self::NONE).then_some(at as usize),
            None => self.sparse.get(&id).map(|&at| at as usize),
        }
    }

    /// Where `id`, which the module defines, is defined.
    #[inline]
    pub fn at(&self, id: u32) -> usize {
        self.get(id).expect("an id the module defines")
    }

    /// Whether `id` is defined.
    #[inline]
    pub fn contains_key(&self, id: &u32) -> bool {
        self.get(*id).is_some()
    }
}

/// A whole module.
///
/// ```
/// use gpuasm_spirv::module::Module;
/// let words = gpuasm_spirv::text::assemble(
///     "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n", &Default::default()).unwrap();
/// let module = Module::read(&words).unwrap();
/// assert_eq!(module.insts().len(), 3);
/// let void = module.result_id(2).unwrap();
/// assert_eq!(module.def(void).map(|d| d.info().name), Some("OpTypeVoid"));
/// ```
pub struct Module<'w> {
    pub(crate) words: &'w [u32],
    pub(crate) header: Header,
    pub(crate) insts: Vec<Inst>,
    /// Each instruction's opcode, by index: the passes that look for a few
    /// opcodes scan this (2 bytes an instruction) instead of `insts`.
    opcodes: Vec<u16>,
    /// The operands of the instructions no static layout describes, each
    /// distinct list once.
    operands: Vec<ParsedOperand>,
    /// Where each distinct list starts in `operands`, and its length.
    lists: Vec<(u32, u32)>,
    /// The static operand layouts (by instruction index) the instructions
    /// use, filled in as they are read (the others are left empty).
    layouts: Vec<&'static [ParsedOperand]>,
    /// Result id → index of its defining instruction.
    pub(crate) defs: Defs,
    /// Result id → its type, as the reader found them: one look-up for the
    /// most asked question about an operand, where `defs` takes two.
    id_types: IdTypes,
    /// The operands of every OpCapability (not the implied ones).
    pub(crate) declared_capabilities: rustc_hash::FxHashSet<u32>,
    /// Those and every capability they imply.
    pub(crate) capabilities: rustc_hash::FxHashSet<u32>,
    /// Every opcode the module uses: passes whose rule family is absent
    /// skip their walk.
    present: Box<OpcodeSet>,
    /// Found on first use.
    functions: OnceLock<Vec<Function>>,
    /// Found on first use.
    decorations: OnceLock<FxHashMap<u32, Vec<decorations::Applied>>>,
    /// Found on first use.
    names: OnceLock<IdNames>,
    /// Found on first use.
    source_lines: OnceLock<source_lines::SourceLines>,
    /// The text it was assembled from, if it was (see `text::parse`).
    text: Option<&'w TextSpans<'w>>,
}

impl<'w> Module<'w> {
    /// Reads a module; a binary that does not parse is an error.
    pub fn read(words: &'w [u32]) -> Result<Module<'w>, BinaryError> {
        Module::read_with(words, ParserOptions::default())
    }

    /// Reads a module with the reader's options (`check_bound(false)`
    /// takes ids past the bound, as spirv-dis and spirv-cfg do).
    pub fn read_with(words: &'w [u32], options: ParserOptions) -> Result<Module<'w>, BinaryError> {
        let mut parser = InstructionParser::new(words, options)?;
        let header = *parser.header();
        // Instruction offsets and indices are u32s, and the passes use
        // bit 31 of some as a mark.
        if words.len() >= 1 << 31 {
            return Err(BinaryError::new(crate::binary::BinaryErrorKind::TooLarge { words: words.len() }, 0));
        }
        // Sized up front: growing these by doubling costs copies and, at the
        // peak, room for both copies.
        let mut count = 0;
        let mut at = 5;
        while let Some(&first) = words.get(at) {
            count += 1;
            at += ((first >> 16) as usize).max(1);
        }
        let mut insts = Vec::with_capacity(count);
        let mut opcodes = Vec::with_capacity(count);
        let mut operands = OperandLists::default();
        let mut layouts: Vec<&'static [ParsedOperand]> = vec![&[]; crate::grammar::INSTRUCTION_COUNT];
        let mut defs = Defs::new(header.bound, words.len());
        let mut present = Box::new(OpcodeSet::new(&[]));
        loop {
            let inst = match parser.next() {
                None => break,
                Some(inst) => inst?,
            };
            present.insert(inst.info.opcode);
            opcodes.push(inst.info.opcode);
            if inst.result_id != 0 {
                defs.insert(inst.result_id, insts.len());
            }
            let (offset, word_count, opcode) = (inst.offset, inst.words.len() as u16, inst.info.opcode);
            let ext_set = ExtSetCode::new(inst.ext_set);
            // The operands are no more than the words, a u16.
            let len = inst.operands.len();
            let at = match parser.last_operands() {
                Ok(layout) => {
                    debug_assert!(ext_set.get().is_none(), "static layouts are not extended instructions");
                    if layouts[layout].is_empty() {
                        layouts[layout] = static_layout(layout);
                    }
                    OperandsAt::layout(layout, len)
                }
                Err(list) => {
                    let k = operands.intern(list);
                    let Some(at) = OperandsAt::list(k, ext_set) else {
                        let kind = crate::binary::BinaryErrorKind::TooManyOperandLists;
                        return Err(BinaryError::new(kind, offset));
                    };
                    at
                }
            };
            insts.push(Inst { offset: offset as u32, word_count, opcode, operands: at });
        }
        let id_types = parser.take_id_types();
        let mut m = Module {
            words,
            header,
            insts,
            opcodes,
            operands: operands.operands,
            lists: operands.lists,
            layouts,
            defs,
            id_types,
            declared_capabilities: Default::default(),
            capabilities: Default::default(),
            present,
            functions: OnceLock::new(),
            decorations: OnceLock::new(),
            names: OnceLock::new(),
            source_lines: OnceLock::new(),
            text: None,
        };
        // OpConditionalCapabilityINTEL declares its capability too.
        m.declared_capabilities = (0..m.insts.len())
            .filter_map(|i| match m.opcode(i) {
                op::OpCapability => Some(m.word(i, 0)),
                op::OpConditionalCapabilityINTEL => Some(m.word(i, 1)),
                _ => None,
            })
            .collect();
        m.capabilities = capabilities::implied_by(&m.declared_capabilities);
        Ok(m)
    }

    /// The module with the text it was assembled from.
    pub(crate) fn with_text(mut self, text: &'w TextSpans<'w>) -> Module<'w> {
        self.text = Some(text);
        self
    }

    /// The opcode of instruction `i`.
    #[inline]
    pub fn opcode(&self, i: usize) -> u16 {
        self.opcodes[i]
    }

    /// The module's words.
    pub fn words(&self) -> &'w [u32] {
        self.words
    }

    /// Its header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Its instructions, in order.
    pub fn insts(&self) -> &[Inst] {
        &self.insts
    }

    /// Whether capability `cap` is declared, or implied by one declared.
    pub fn has_capability(&self, cap: u32) -> bool {
        self.capabilities.contains(&cap)
    }

    /// The module's functions and their blocks (found on first use, once
    /// whichever thread asks first).
    pub fn functions(&self) -> &[Function] {
        self.functions.get_or_init(|| functions::find(self))
    }

    /// Every id's decorations (group decorations copied to the group's
    /// targets), sorted as spirv-val keeps them: on the whole id before
    /// its members, then by decoration.
    pub(crate) fn decorations(&self) -> &FxHashMap<u32, Vec<decorations::Applied>> {
        self.decorations.get_or_init(|| decorations::find(self))
    }

    /// Whether `id` or one of its members carries `decoration`, directly
    /// or through a decoration group (spirv-val's `HasDecoration`).
    pub(crate) fn has_decoration(&self, id: u32, decoration: u32) -> bool {
        self.decorations().get(&id).is_some_and(|list| list.iter().any(|a| a.0 == decoration))
    }

    /// Friendly names for every id, as spirv-dis prints them (found on
    /// first use).
    pub fn names(&self) -> &IdNames {
        // A module read with the bound checked has no id past it, so not
        // checking it here changes nothing for it and lets a module read
        // without the check be named whole.
        let options = ParserOptions::default().check_bound(false);
        self.names.get_or_init(|| IdNames::friendly(self.words, options, IdNames::limit(self.words.len())))
    }

    /// The friendly name of `id` (`int`, `_ptr_Function_float`, an
    /// `OpName`), or `None` where spirv-dis shows the id as its number.
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names().get(id)
    }

    /// The high-level source position in effect at instruction `i`, from
    /// the module's `OpLine`s or `DebugLine`s, with the file's text when
    /// the module carries it (see [`source_lines`]; found on first use).
    pub fn source_position(&self, i: usize) -> Option<source_lines::SourcePosition<'_>> {
        self.source_lines.get_or_init(|| source_lines::SourceLines::find(self)).position(i)
    }

    /// The instruction that starts at word `offset` of the module (header
    /// included), as a validation error gives it.
    pub fn inst_at_offset(&self, offset: usize) -> Option<usize> {
        self.insts.binary_search_by_key(&offset, |inst| inst.offset as usize).ok()
    }

    /// The text the module was assembled from, if it was read by
    /// `text::parse`.
    pub fn text_spans(&self) -> Option<&'w TextSpans<'w>> {
        self.text
    }

    /// The text's record of instruction `i`.
    fn inst_span(&self, i: usize) -> Option<(&'w TextSpans<'w>, &'w spans::InstSpan)> {
        let text = self.text?;
        let inst = self.insts.get(i)?;
        Some((text, text.inst(inst.offset as usize, inst.word_count as usize)?))
    }

    /// The bytes of instruction `i` in the text, from its `%result` (or its
    /// opcode) to the end of its last operand; `None` for a module read
    /// from a binary.
    pub fn span(&self, i: usize) -> Option<Range<usize>> {
        self.inst_span(i).map(|(_, s)| s.bytes())
    }

    /// The bytes of the opcode name of instruction `i` in the text.
    pub fn opcode_span(&self, i: usize) -> Option<Range<usize>> {
        let (text, s) = self.inst_span(i)?;
        text.token_at_word(s, 0)
    }

    /// The bytes of operand `k` of instruction `i` in the text (`k` counts
    /// as [`Module::operands`] does: result type and result included).
    pub fn operand_span(&self, i: usize, k: usize) -> Option<Range<usize>> {
        let (text, s) = self.inst_span(i)?;
        text.token_at_word(s, self.operands(i).get(k)?.offset as usize)
    }

    /// The instruction whose text holds byte `at` of the text, and the
    /// operand there, if `at` is on one.
    pub fn locate(&self, at: usize) -> Option<(usize, Option<usize>)> {
        let i = self.inst_at_offset(self.text?.inst_offset_at(at)?)?;
        let k = (0..self.operands(i).len()).find(|&k| self.operand_span(i, k).is_some_and(|r| r.contains(&at)));
        Some((i, k))
    }

    /// The name `id` had in the text, without `%` (`foo` for `%foo`).
    pub fn text_name(&self, id: u32) -> Option<&'w str> {
        self.text?.text_name(id)
    }

    /// The id that `name` (without `%`) stood for in the text.
    pub fn id_named(&self, name: &str) -> Option<u32> {
        self.text?.id_named(name)
    }

    /// Whether some instruction has this opcode.
    #[inline]
    pub(crate) fn uses(&self, opcode: u16) -> bool {
        self.present.contains(opcode)
    }

    /// The opcodes the module's instructions use.
    pub(crate) fn opcodes_used(&self) -> impl Iterator<Item = u16> + '_ {
        self.present.iter()
    }

    /// Whether some instruction has one of these opcodes.
    pub(crate) fn uses_any(&self, opcodes: &OpcodeSet) -> bool {
        self.present.intersects(opcodes)
    }

    /// The reader's view of instruction `i` (for printing it).
    pub fn view(&self, i: usize) -> Instruction<'_> {
        let inst = &self.insts[i];
        Instruction {
            words: &self.words[inst.offset as usize..inst.offset as usize + inst.word_count as usize],
            offset: inst.offset as usize,
            opcode: inst.opcode,
            info: inst.info(),
            result_type: self.result_type_at(inst),
            result_id: self.result_id_at(inst),
            ext_set: inst.ext_set(),
            operands: self.operands(i),
            raw: false,
        }
    }

    /// The decoded operands of instruction `i` (result type and result
    /// included), each with its word offset in the instruction.
    #[inline]
    pub fn operands(&self, i: usize) -> &[ParsedOperand] {
        self.operands_of(&self.insts[i])
    }

    #[inline(always)]
    fn operands_of(&self, inst: &Inst) -> &[ParsedOperand] {
        match inst.operands.get() {
            Ok((layout, len)) => &self.layouts[layout][..len],
            Err(list) => {
                let (start, len) = self.lists[list];
                &self.operands[start as usize..(start + len) as usize]
            }
        }
    }

    /// The first word of operand `k` of instruction `i`.
    #[inline(always)]
    pub fn word(&self, i: usize, k: usize) -> u32 {
        let inst = &self.insts[i];
        let o = self.operands_of(inst)[k];
        self.words[inst.offset as usize + o.offset as usize]
    }

    /// Every id operand (not the result) of instruction `i`: (operand index, id).
    #[inline]
    pub fn id_operands(&self, i: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let base = self.insts[i].offset as usize;
        self.operands(i)
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind != OperandKind::IdResult && o.kind.info().category == Category::Id)
            .map(move |(k, o)| (k, self.words[base + o.offset as usize]))
    }

    /// The id instruction `i` defines, if it defines one.
    #[inline]
    pub fn result_id(&self, i: usize) -> Option<u32> {
        Some(self.result_id_at(&self.insts[i])).filter(|&id| id != 0)
    }

    /// The id instruction `i` defines, 0 when it defines none.
    #[inline]
    pub(crate) fn result_id_word(&self, i: usize) -> u32 {
        self.result_id_at(&self.insts[i])
    }

    /// The id `inst` defines, 0 when it defines none: the word after the
    /// opcode's, or after the result type's.
    #[inline]
    pub(crate) fn result_id_at(&self, inst: &Inst) -> u32 {
        let info = inst.info();
        self.leading_word(inst, info.has_result, 1 + info.has_result_type as usize)
    }

    /// Word `at` of `inst` when `present` (the grammar gives the instruction
    /// that operand there, and the reader checked the word is there), else 0.
    #[inline]
    fn leading_word(&self, inst: &Inst, present: bool, at: usize) -> u32 {
        if present && (inst.word_count as usize) > at {
            self.words[inst.offset as usize + at]
        } else {
            0
        }
    }

    /// The result type of instruction `i`, if it has one.
    #[inline]
    pub fn result_type(&self, i: usize) -> Option<u32> {
        Some(self.result_type_at(&self.insts[i])).filter(|&t| t != 0)
    }

    /// The result type of instruction `i`, 0 when it has none.
    #[inline]
    pub(crate) fn result_type_word(&self, i: usize) -> u32 {
        self.result_type_at(&self.insts[i])
    }

    /// The result type's id, 0 when it has none: the instruction's second
    /// word when the grammar gives it one.
    #[inline]
    pub(crate) fn result_type_at(&self, inst: &Inst) -> u32 {
        self.leading_word(inst, inst.info().has_result_type, 1)
    }

    /// The instruction defining `id`.
    #[inline(always)]
    pub fn def(&self, id: u32) -> Option<&Inst> {
        self.defs.get(id).map(|i| &self.insts[i])
    }

    /// Where the instruction defining `id` stands.
    #[inline]
    pub fn def_index(&self, id: u32) -> Option<usize> {
        self.defs.get(id)
    }

    /// The type id of a value id (0 if it has none).
    #[inline(always)]
    pub fn type_of(&self, id: u32) -> u32 {
        // The reader's table holds a type as its own type, and 0 for ids
        // it has not seen defined.
        match self.id_types.type_or_zero(id) {
            t if t != id => t,
            _ => 0,
        }
    }

    /// Whether `id` is defined by a type declaration.
    #[inline]
    pub fn is_type(&self, id: u32) -> bool {
        self.def(id).is_some_and(|d| d.info().declares_type)
    }

    /// The opcode that defines `id`, if any.
    #[inline]
    pub fn def_opcode(&self, id: u32) -> Option<u16> {
        self.def(id).map(Inst::opcode)
    }

    /// How many operands (result type and result included) define `id`.
    #[inline]
    pub fn operands_len_of(&self, id: u32) -> usize {
        self.defs.get(id).map_or(0, |i| self.operands(i).len())
    }

    /// How many elements a vector, matrix, structure or array type (of
    /// constant length) has.
    pub fn element_count(&self, ty: u32) -> Option<u32> {
        match self.def_opcode(ty)? {
            op::OpTypeVector | op::OpTypeMatrix => self.def_word(ty, 3),
            op::OpTypeStruct => Some(self.operands_len_of(ty).saturating_sub(1) as u32),
            op::OpTypeArray => self.constant_value(self.def_word(ty, 3)?),
            _ => None,
        }
    }

    /// The value of a 32-bit integer constant, OpConstantNull as 0, as
    /// spirv-val's `EvalInt32IfConst` finds it (no other width, no spec
    /// constant).
    pub fn int32_constant(&self, id: u32) -> Option<u32> {
        let ty = self.type_of(id);
        let int32 = self.def_opcode(ty) == Some(op::OpTypeInt) && self.def_word(ty, 2) == Some(32);
        match self.def_opcode(id)? {
            op::OpConstant if int32 => self.def_word(id, 3),
            op::OpConstantNull if int32 => Some(0),
            _ => None,
        }
    }

    /// The (low word of the) value of an OpConstant.
    pub fn constant_value(&self, id: u32) -> Option<u32> {
        (self.def_opcode(id)? == op::OpConstant).then(|| self.def_word(id, 3)).flatten()
    }

    /// The type of element `k` of a composite type.
    pub fn element_type(&self, ty: u32, k: usize) -> Option<u32> {
        match self.def_opcode(ty)? {
            op::OpTypeStruct => self.def_word(ty, 2 + k),
            _ => self.def_word(ty, 2),
        }
    }

    /// The addressing model OpMemoryModel names (it stands near the start).
    pub fn addressing_model(&self) -> Option<u32> {
        self.insts.iter().position(|i| i.opcode() == op::OpMemoryModel).map(|i| self.word(i, 0))
    }

    /// Word `k` (0 = opcode word) of the instruction defining `id`.
    #[inline(always)]
    pub fn def_word(&self, id: u32, k: usize) -> Option<u32> {
        let d = self.def(id)?;
        (k < d.word_count as usize).then(|| self.words[d.offset as usize + k])
    }
}

/// Each function's callees, in call order (calls outside a function are
/// filed under 0).
pub(crate) fn callees(m: &Module) -> FxHashMap<u32, Vec<u32>> {
    let mut calls: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut function = 0;
    for i in 0..m.insts.len() {
        match m.opcode(i) {
            op::OpFunction => function = m.result_id_word(i),
            op::OpFunctionCall => calls.entry(function).or_default().push(m.word(i, 2)),
            _ => {}
        }
    }
    calls
}

/// For each function, the entry points (among `entries`) whose call tree
/// reaches it, given each function's callees.
pub(crate) fn entry_points_reaching(entries: &[u32], calls: &FxHashMap<u32, Vec<u32>>) -> FxHashMap<u32, Vec<u32>> {
    let mut reached_by: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for &entry in entries {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![entry];
        while let Some(f) = stack.pop() {
            if seen.insert(f) {
                reached_by.entry(f).or_default().push(entry);
                stack.extend(calls.get(&f).into_iter().flatten().copied());
            }
        }
    }
    reached_by
}

/// Whether an opcode makes a constant (spirv-val's `spvOpcodeIsConstant`).
pub(crate) fn is_constant(opcode: u16) -> bool {
    matches!(
        opcode,
        op::OpConstantTrue
            | op::OpConstantFalse
            | op::OpConstant
            | op::OpConstantComposite
            | op::OpConstantSampler
            | op::OpConstantNull
            | op::OpSpecConstantTrue
            | op::OpSpecConstantFalse
            | op::OpSpecConstant
            | op::OpSpecConstantComposite
            | op::OpSpecConstantOp
            | op::OpConstantCompositeReplicateEXT
            | op::OpSpecConstantCompositeReplicateEXT
    )
}

#[cfg(test)]
mod tests {
    /// One per instruction: its size is most of the validator's memory.
    #[test]
    fn an_instruction_stays_small() {
        assert!(std::mem::size_of::<super::Inst>() <= 48, "{}", std::mem::size_of::<super::Inst>());
    }
}
