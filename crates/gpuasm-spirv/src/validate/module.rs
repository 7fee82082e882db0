//! The module representation every validation pass reads: instructions in
//! order, their operands, and where each id is defined. Built once by the
//! binary reader.

use super::opcode_set::OpcodeSet;
use crate::binary::{
    BinaryError, Header, Instruction, InstructionParser, ParsedOperand, ParserOptions, StoredInstruction,
};
use crate::grammar::{op, Category, OperandKind};
use rustc_hash::FxHashMap;

/// One instruction, kept with the range of its operands.
pub type Inst = StoredInstruction;

/// Result id → index of its defining instruction (the last one, if an id is
/// defined twice). Looked up for nearly every operand by every pass, so ids
/// below the header's bound index a table when that bound is within a small
/// multiple of the module's size (as in every module a compiler writes);
/// other ids, and every id under a huge bound, go to a hash map.
pub struct Defs {
    dense: Vec<usize>,
    sparse: FxHashMap<u32, usize>,
}

impl Defs {
    const NONE: usize = usize::MAX;

    fn new(bound: u32, words: usize) -> Defs {
        let dense = if (bound as usize) <= 4 * words + 1024 { vec![Self::NONE; bound as usize] } else { Vec::new() };
        Defs { dense, sparse: FxHashMap::default() }
    }

    fn insert(&mut self, id: u32, at: usize) {
        match self.dense.get_mut(id as usize) {
            Some(slot) => *slot = at,
            None => {
                self.sparse.insert(id, at);
            }
        }
    }

    /// Where `id` is defined.
    #[inline]
    pub fn get(&self, id: &u32) -> Option<&usize> {
        match self.dense.get(*id as usize) {
            Some(at) => (*at != Self::NONE).then_some(at),
            None => self.sparse.get(id),
        }
    }

    /// Whether `id` is defined.
    #[inline]
    pub fn contains_key(&self, id: &u32) -> bool {
        self.get(id).is_some()
    }
}

impl std::ops::Index<&u32> for Defs {
    type Output = usize;

    #[inline]
    fn index(&self, id: &u32) -> &usize {
        self.get(id).expect("an id the module defines")
    }
}

/// A whole module.
pub struct Module<'w> {
    pub words: &'w [u32],
    pub header: Header,
    pub insts: Vec<Inst>,
    operands: Vec<ParsedOperand>,
    /// Result id → index of its defining instruction.
    pub defs: Defs,
    /// The operands of every OpCapability (not the implied ones).
    pub declared_capabilities: rustc_hash::FxHashSet<u32>,
    /// Every opcode the module uses: passes whose rule family is absent
    /// skip their walk.
    present: Box<OpcodeSet>,
}

impl<'w> Module<'w> {
    /// Reads a module; a binary that does not parse is an error.
    ///
    /// A large module with several functions is read by two threads, one
    /// from the start, the other from a function near the middle (after
    /// reading the declarations before the first function, which the
    /// operands of later instructions may need). When either meets an
    /// error, or both define the same id, the module is read again in one
    /// go, so errors are exactly those of a plain read.
    pub fn read(words: &'w [u32]) -> Result<Module<'w>, BinaryError> {
        let parser = InstructionParser::new(words, ParserOptions::default())?;
        let header = *parser.header();
        let shape = Shape::of(words);
        let split = shape.split(words.len()).filter(|_| super::schedule::threads() > 1);
        let read = match split {
            Some(split) => read_split(words, &shape, split).map_or_else(|| read_all(parser, &shape, words.len()), Ok),
            None => read_all(parser, &shape, words.len()),
        }?;
        if cfg!(fuzzing) && split.is_some() {
            let whole = read_all(InstructionParser::new(words, ParserOptions::default())?, &shape, words.len())?;
            read.assert_same(&whole);
        }
        let Read { insts, operands, defs, present, .. } = read;
        let mut m = Module { words, header, insts, operands, defs, declared_capabilities: Default::default(), present };
        // OpConditionalCapabilityINTEL declares its capability too.
        m.declared_capabilities = (0..m.insts.len())
            .filter_map(|i| match m.insts[i].opcode() {
                op::OpCapability => Some(m.word(i, 0)),
                op::OpConditionalCapabilityINTEL => Some(m.word(i, 1)),
                _ => None,
            })
            .collect();
        Ok(m)
    }

    /// Whether some instruction has this opcode.
    #[inline]
    pub(crate) fn uses(&self, opcode: u16) -> bool {
        self.present.contains(opcode)
    }

    /// Whether some instruction has one of these opcodes.
    pub(crate) fn uses_any(&self, opcodes: &OpcodeSet) -> bool {
        self.present.intersects(opcodes)
    }

    /// The reader's view of instruction `i` (for printing it).
    pub fn view(&self, i: usize) -> Instruction<'_> {
        self.insts[i].view(self.words, &self.operands)
    }

    #[inline]
    pub fn operands(&self, i: usize) -> &[ParsedOperand] {
        &self.operands[self.insts[i].operands.clone()]
    }

    /// The first word of operand `k` of instruction `i`.
    #[inline]
    pub fn word(&self, i: usize, k: usize) -> u32 {
        let inst = &self.insts[i];
        let o = self.operands[inst.operands.clone()][k];
        self.words[inst.offset + o.offset as usize]
    }

    /// Every id operand (not the result) of instruction `i`: (operand index, id).
    #[inline]
    pub fn id_operands(&self, i: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let base = self.insts[i].offset;
        self.operands(i)
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind != OperandKind::IdResult && o.kind.info().category == Category::Id)
            .map(move |(k, o)| (k, self.words[base + o.offset as usize]))
    }

    /// The instruction defining `id`.
    #[inline]
    pub fn def(&self, id: u32) -> Option<&Inst> {
        self.defs.get(&id).map(|&i| &self.insts[i])
    }

    /// Where the instruction defining `id` stands.
    #[inline]
    pub fn def_index(&self, id: u32) -> Option<usize> {
        self.defs.get(&id).copied()
    }

    /// The type id of a value id (0 if it has none).
    #[inline]
    pub fn type_of(&self, id: u32) -> u32 {
        self.def(id).map_or(0, |d| d.result_type)
    }

    /// Whether `id` is defined by a type declaration.
    #[inline]
    pub fn is_type(&self, id: u32) -> bool {
        self.def(id).is_some_and(|d| d.info.declares_type)
    }

    /// The opcode that defines `id`, if any.
    #[inline]
    pub fn def_opcode(&self, id: u32) -> Option<u16> {
        self.def(id).map(Inst::opcode)
    }

    /// How many operands (result type and result included) define `id`.
    #[inline]
    pub fn operands_len_of(&self, id: u32) -> usize {
        self.defs.get(&id).map_or(0, |&i| self.insts[i].operands.len())
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
    #[inline]
    pub fn def_word(&self, id: u32, k: usize) -> Option<u32> {
        let d = self.def(id)?;
        (k < d.word_count).then(|| self.words[d.offset + k])
    }
}

/// Where a module's instructions start, as their word counts say (before
/// any checking): to size the tables and split the reading.
struct Shape {
    count: usize,
    /// Word offsets of the OpFunction instructions.
    functions: Vec<usize>,
}

impl Shape {
    fn of(words: &[u32]) -> Shape {
        let (mut count, mut functions, mut at) = (0, Vec::new(), crate::binary::HEADER_WORDS);
        while let Some(&first) = words.get(at) {
            if first as u16 == op::OpFunction {
                functions.push(at);
            }
            count += 1;
            at += ((first >> 16) as usize).max(1);
        }
        Shape { count, functions }
    }

    /// The function to start a second reader at: the one that shares the
    /// words most evenly, the second reader also reading the declarations
    /// before the first function. `None` for a module too small to share.
    fn split(&self, len: usize) -> Option<usize> {
        let first = *self.functions.first()?;
        let even = (first + len) / 2;
        let at = self.functions[1..].iter().copied().min_by_key(|&f| f.abs_diff(even))?;
        let small = self.count < super::schedule::PARALLEL_FROM && !cfg!(fuzzing);
        (!small).then_some(at)
    }
}

/// What reading fills.
struct Read {
    insts: Vec<Inst>,
    operands: Vec<ParsedOperand>,
    /// Filled by a reader from the start only (the other's definitions are
    /// added as the parts are joined).
    defs: Defs,
    keep_defs: bool,
    present: Box<OpcodeSet>,
}

impl Read {
    /// For about `count` instructions in `words` words; `defs` for a module
    /// of `bound` and `all_words`, if kept.
    fn new(count: usize, words: usize, defs: Option<(u32, usize)>) -> Read {
        let (bound, all_words) = defs.unwrap_or((0, 0));
        Read {
            insts: Vec::with_capacity(count),
            // Every operand has a word of its own: the words bound them.
            operands: Vec::with_capacity(words.saturating_sub(count)),
            defs: Defs::new(bound, all_words),
            keep_defs: defs.is_some(),
            present: Box::new(OpcodeSet::new(&[])),
        }
    }

    fn push(&mut self, inst: &Instruction<'_>) {
        self.present.insert(inst.info.opcode);
        let start = self.operands.len();
        self.operands.extend_from_slice(inst.operands);
        if inst.result_id != 0 && self.keep_defs {
            self.defs.insert(inst.result_id, self.insts.len());
        }
        self.insts.push(Inst::new(inst, start..self.operands.len()));
    }

    /// Fuzzing: a split read gives what a whole read gives.
    fn assert_same(&self, whole: &Read) {
        assert_eq!(self.insts.len(), whole.insts.len());
        for (a, b) in self.insts.iter().zip(&whole.insts) {
            assert_eq!((a.offset, a.result_id, a.result_type), (b.offset, b.result_id, b.result_type));
            let (x, y) = (&self.operands[a.operands.clone()], &whole.operands[b.operands.clone()]);
            assert_eq!(format!("{x:?}"), format!("{y:?}"));
            assert_eq!(self.defs.get(&a.result_id), whole.defs.get(&b.result_id));
        }
    }
}

/// Reads every instruction with one parser.
fn read_all(mut parser: InstructionParser<'_>, shape: &Shape, words: usize) -> Result<Read, BinaryError> {
    let bound = parser.header().bound;
    let mut read = Read::new(shape.count, words, Some((bound, words)));
    while let Some(inst) = parser.next() {
        read.push(&inst?);
    }
    Ok(read)
}

/// Reads the module in two parts on two threads; `None` when the parts do
/// not fit together (an error in either, an id both define).
fn read_split(words: &[u32], shape: &Shape, split: usize) -> Option<Read> {
    let first_function = shape.functions[0];
    let (front, back) = std::thread::scope(|s| {
        let back = s.spawn(|| -> Option<Read> {
            let mut parser = InstructionParser::new(words, ParserOptions::default()).ok()?;
            while parser.position() < first_function {
                parser.next()?.ok()?;
            }
            parser.skip_to(split);
            let mut read = Read::new(shape.count / 2, words.len() - split, None);
            while let Some(inst) = parser.next() {
                read.push(&inst.ok()?);
            }
            Some(read)
        });
        let front = (|| -> Option<Read> {
            let mut parser = InstructionParser::new(&words[..split], ParserOptions::default()).ok()?;
            let bound = parser.header().bound;
            let mut read = Read::new(shape.count, split, Some((bound, words.len())));
            while let Some(inst) = parser.next() {
                read.push(&inst.ok()?);
            }
            Some(read)
        })();
        (front, back.join().ok().flatten())
    });
    let (mut read, back) = (front?, back?);
    let (base, shift) = (read.insts.len(), read.operands.len());
    for (k, inst) in back.insts.into_iter().enumerate() {
        if inst.result_id != 0 {
            if read.defs.contains_key(&inst.result_id) {
                return None;
            }
            read.defs.insert(inst.result_id, base + k);
        }
        let operands = inst.operands.start + shift..inst.operands.end + shift;
        read.insts.push(Inst { operands, ..inst });
    }
    read.operands.extend_from_slice(&back.operands);
    read.present.extend(&back.present);
    Some(read)
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
    use super::*;

    /// A module of `functions` functions of `adds` additions each.
    fn big_module(functions: usize, adds: usize) -> Vec<u32> {
        let mut text = String::from(
            "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%int = OpTypeInt 32 1\n\
             %one = OpConstant %int 1\n%fn = OpTypeFunction %int %int\n",
        );
        for f in 0..functions {
            text += &format!("%f{f} = OpFunction %int None %fn\n%p{f} = OpFunctionParameter %int\n%l{f} = OpLabel\n");
            text += &format!("%v{f}_0 = OpIAdd %int %p{f} %one\n");
            for k in 1..adds {
                text += &format!("%v{f}_{k} = OpIAdd %int %v{f}_{} %one\n", k - 1);
            }
            text += &format!("OpReturnValue %v{f}_{}\nOpFunctionEnd\n", adds - 1);
        }
        crate::text::assemble(&text, &Default::default()).unwrap()
    }

    fn whole(words: &[u32]) -> Result<Read, BinaryError> {
        read_all(InstructionParser::new(words, ParserOptions::default()).unwrap(), &Shape::of(words), words.len())
    }

    #[test]
    fn a_split_read_gives_what_a_whole_read_gives() {
        let words = big_module(9, 4000);
        let shape = Shape::of(&words);
        let split = shape.split(words.len()).expect("large enough to split");
        assert!(split > shape.functions[0]);
        let read = read_split(&words, &shape, split).expect("the parts fit");
        read.assert_same(&whole(&words).unwrap());
        assert!(Module::read(&words).is_ok());
    }

    #[test]
    fn an_id_defined_in_both_parts_is_the_error_a_whole_read_finds() {
        let mut words = big_module(9, 4000);
        let shape = Shape::of(&words);
        let split = shape.split(words.len()).unwrap();
        // Give the last instruction defining a result id before the split
        // and the first one after it the same result id.
        let result_at = |at: usize| at + 2;
        let mut before = 0;
        let mut at = crate::binary::HEADER_WORDS;
        while at < split {
            if words[at] as u16 == op::OpIAdd {
                before = at;
            }
            at += (words[at] >> 16) as usize;
        }
        let after = (split..).find(|&at| words[at] as u16 == op::OpIAdd).unwrap();
        words[result_at(after)] = words[result_at(before)];
        assert!(read_split(&words, &shape, split).is_none());
        let expected = whole(&words).err().expect("a duplicate id");
        let got = Module::read(&words).err().expect("a duplicate id");
        assert_eq!(got.to_string(), expected.to_string());
        assert_eq!(got.word_offset(), expected.word_offset());
    }
}
