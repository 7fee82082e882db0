//! One module of the two being compared: its layout and the lookups the
//! matching asks of it (which instruction defines an id, its names and
//! decorations), with operands numbered as the optimizer's IR numbers them
//! ("operands" include the result type and id; "in operands" do not).

use super::layout::Layout;
use super::DiffError;
use crate::binary::literal_string_bytes;
use crate::grammar::{op, Category, OperandKind};
use crate::module::Module;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// "No instruction" in the id table.
const NONE: u32 = u32::MAX;

pub(crate) struct Side<'m> {
    pub m: &'m Module<'m>,
    pub layout: Layout,
    /// The header's id bound.
    pub bound: u32,
    /// id -> defining instruction (ids of the sections spirv-diff maps;
    /// grown with empty entries for fresh ids before output).
    inst_map: Vec<u32>,
    /// id -> its OpName and OpMemberName instructions.
    names: FxHashMap<u32, Vec<u32>>,
    /// id -> its OpDecorate and OpMemberDecorate instructions.
    decorations: FxHashMap<u32, Vec<u32>>,
    /// id -> the OpTypeForwardPointer that declares it.
    forward_pointers: FxHashMap<u32, u32>,
    /// Function id -> the function's place in the layout, in id order.
    pub funcs: BTreeMap<u32, usize>,
    /// Function id -> its body in structured order.
    pub bodies: BTreeMap<u32, Vec<usize>>,
    /// Function id -> the execution model of its first entry point: sorting
    /// the execution modes asks it at each comparison, and a scan of the
    /// entry points each time made the sort quadratic (20,000 entry points:
    /// 8.5 s).
    execution_models: FxHashMap<u32, u32>,
}

impl<'m> Side<'m> {
    pub fn new(m: &'m Module<'m>) -> Result<Side<'m>, DiffError> {
        let layout = Layout::new(m)?;
        // The id tables are indexed by id: refuse a bound far past both what
        // the module could use and what SPIRV-Tools' optimizer allows
        // (optimized modules keep the bound of their larger originals)
        // rather than allocate for it.
        const OPTIMIZER_MAX_BOUND: usize = 0x40_0000;
        if m.header().bound as usize > (4 * m.words().len() + 1024).max(OPTIMIZER_MAX_BOUND) {
            return Err(DiffError::Bound { bound: m.header().bound, words: m.words().len() });
        }
        let bound = layout.bound;
        let n = bound as usize;
        let mut side = Side {
            m,
            layout,
            bound,
            inst_map: vec![NONE; n],
            names: FxHashMap::default(),
            decorations: FxHashMap::default(),
            forward_pointers: FxHashMap::default(),
            funcs: BTreeMap::new(),
            bodies: BTreeMap::new(),
            execution_models: FxHashMap::default(),
        };
        let l = &side.layout;
        let mut defined: Vec<usize> = Vec::new();
        for section in [&l.ext_inst_imports, &l.debugs1, &l.debugs2, &l.debugs3, &l.ext_inst_debuginfo, &l.types_values]
        {
            defined.extend_from_slice(section);
        }
        for f in &l.functions {
            defined.extend(l.function_insts(f));
        }
        for i in defined {
            let id = side.result_id(i);
            if id != 0 {
                if let Some(slot) = side.inst_map.get_mut(id as usize) {
                    *slot = i as u32;
                }
            }
        }
        let mut infos = Vec::new();
        for section in [&l.debugs2, &l.annotations, &l.types_values] {
            infos.extend_from_slice(section);
        }
        for i in infos {
            let target = side.single_word_operand(i, 0);
            // spirv-diff's tables hold ids below the bound only.
            if target as usize >= n {
                continue;
            }
            let list = match m.opcode(i) {
                op::OpName | op::OpMemberName => &mut side.names,
                op::OpDecorate | op::OpMemberDecorate => &mut side.decorations,
                op::OpTypeForwardPointer => {
                    side.forward_pointers.insert(target, i as u32);
                    continue;
                }
                _ => continue,
            };
            list.entry(target).or_default().push(i as u32);
        }
        for &i in &side.layout.entry_points {
            let (model, id) = (side.single_word_operand(i, 0), side.single_word_operand(i, 1));
            side.execution_models.entry(id).or_insert(model);
        }
        for (k, f) in side.layout.functions.iter().enumerate() {
            side.funcs.insert(f.id, k);
            side.bodies.insert(f.id, side.layout.function_body(m, f));
        }
        Ok(side)
    }

    /// The instruction defining `id`.
    pub fn inst(&self, id: u32) -> Option<usize> {
        self.inst_map.get(id as usize).copied().filter(|&i| i != NONE).map(|i| i as usize)
    }

    pub fn is_defined(&self, id: u32) -> bool {
        self.inst(id).is_some()
    }

    /// Grows the id table to `bound` (fresh ids define nothing).
    pub fn grow(&mut self, bound: u32) {
        if (bound as usize) > self.inst_map.len() {
            self.inst_map.resize(bound as usize, NONE);
        }
    }

    /// Instructions and line copies.
    pub fn inst_count(&self) -> usize {
        self.m.insts().len() + self.layout.copies.len()
    }

    /// The module instruction `i` is (a copy's original).
    pub fn orig(&self, i: usize) -> usize {
        let n = self.m.insts().len();
        if i < n {
            i
        } else {
            self.layout.copies[i - n].0
        }
    }

    pub fn info(&self, i: usize) -> &'static crate::grammar::InstructionInfo {
        self.m.insts()[self.orig(i)].info()
    }

    /// Instruction `i` for printing.
    pub fn view(&self, i: usize) -> crate::binary::Instruction<'_> {
        let mut view = self.m.view(self.orig(i));
        view.result_id = self.result_id(i);
        view
    }

    pub fn opcode(&self, i: usize) -> u16 {
        self.m.opcode(self.orig(i))
    }

    /// The opcode of the instruction defining `id`.
    pub fn id_opcode(&self, id: u32) -> Option<u16> {
        self.inst(id).map(|i| self.opcode(i))
    }

    pub fn result_id(&self, i: usize) -> u32 {
        let n = self.m.insts().len();
        if i < n {
            self.m.result_id(i).unwrap_or(0)
        } else {
            self.layout.copies[i - n].1
        }
    }

    pub fn type_id(&self, i: usize) -> u32 {
        self.m.result_type(self.orig(i)).unwrap_or(0)
    }

    pub fn num_operands(&self, i: usize) -> usize {
        self.m.operands(self.orig(i)).len()
    }

    /// Where the in operands start.
    fn in_start(&self, i: usize) -> usize {
        let info = self.info(i);
        info.has_result_type as usize + info.has_result as usize
    }

    /// The words of in operands, summed (the optimizer's
    /// `NumInOperandWords`).
    pub fn num_in_operand_words(&self, i: usize) -> usize {
        let operands = self.m.operands(self.orig(i));
        operands[self.in_start(i).min(operands.len())..].iter().map(|o| o.num_words as usize).sum()
    }

    /// Operand `k`: its kind and words.
    pub fn operand(&self, i: usize, k: usize) -> Option<(OperandKind, &'m [u32])> {
        let i = self.orig(i);
        let o = *self.m.operands(i).get(k)?;
        let start = self.m.insts()[i].offset() + o.offset as usize;
        Some((o.kind, &self.m.words()[start..start + o.num_words as usize]))
    }

    pub fn in_operand(&self, i: usize, k: usize) -> Option<(OperandKind, &'m [u32])> {
        self.operand(i, self.in_start(i) + k)
    }

    /// The first word of operand `k`, 0 when there is none.
    pub fn single_word_operand(&self, i: usize, k: usize) -> u32 {
        self.operand(i, k).and_then(|(_, w)| w.first().copied()).unwrap_or(0)
    }

    pub fn single_word_in_operand(&self, i: usize, k: usize) -> u32 {
        self.in_operand(i, k).and_then(|(_, w)| w.first().copied()).unwrap_or(0)
    }

    /// The first OpName of `id`.
    pub fn name(&self, id: u32) -> Option<&'m [u8]> {
        let list = self.names.get(&id)?;
        let i = *list.iter().find(|&&i| self.opcode(i as usize) == op::OpName)? as usize;
        Some(self.operand(i, 1).map_or(&[][..], |(_, w)| literal_string_bytes(w)))
    }

    /// The name with any `(argument types)` cut off; empty when unnamed.
    pub fn sanitized_name(&self, id: u32) -> Vec<u8> {
        let name = self.name(id).unwrap_or(&[]);
        let end = name.iter().position(|&c| c == b'(').unwrap_or(name.len());
        name[..end].to_vec()
    }

    /// The value of `OpDecorate id decoration value`.
    pub fn decoration(&self, id: u32, decoration: u32) -> Option<u32> {
        let list = self.decorations.get(&id)?;
        list.iter().map(|&i| i as usize).find_map(|i| {
            (self.opcode(i) == op::OpDecorate
                && self.single_word_operand(i, 0) == id
                && self.single_word_operand(i, 1) == decoration)
                .then(|| self.single_word_operand(i, 2))
        })
    }

    pub fn forward_pointer(&self, id: u32) -> Option<usize> {
        self.forward_pointers.get(&id).map(|&i| i as usize)
    }

    /// Whether `id` is a struct with a member decorated BuiltIn Position,
    /// PointSize, ClipDistance or CullDistance (gl_PerVertex; the first
    /// BuiltIn member decoration decides).
    pub fn is_per_vertex_type(&self, id: u32) -> bool {
        const BUILT_IN: u32 = 11;
        let Some(list) = self.decorations.get(&id) else { return false };
        for &i in list {
            let i = i as usize;
            if self.opcode(i) == op::OpMemberDecorate
                && self.single_word_operand(i, 0) == id
                && self.single_word_operand(i, 2) == BUILT_IN
            {
                // Position, PointSize, ClipDistance, CullDistance.
                return matches!(self.single_word_operand(i, 3), 0 | 1 | 3 | 4);
            }
        }
        false
    }

    /// A variable's pointee type and storage class.
    pub fn var_type(&self, var: u32) -> (u32, u32) {
        let Some(v) = self.inst(var) else { return (0, u32::MAX) };
        let class = self.single_word_in_operand(v, 0);
        let pointee = self.inst(self.type_id(v)).map_or(0, |p| self.single_word_in_operand(p, 1));
        (pointee, class)
    }

    pub fn is_per_vertex_variable(&self, var: u32) -> bool {
        let (mut ty, _) = self.var_type(var);
        if let Some(t) = self.inst(ty) {
            if self.opcode(t) == op::OpTypeArray {
                ty = self.single_word_in_operand(t, 0);
            }
        }
        self.is_per_vertex_type(ty)
    }

    /// The storage class of the first pointer to `ty` (or to an array of
    /// it); Output when there is none.
    pub fn per_vertex_storage_class(&self, mut ty: u32) -> u32 {
        for &i in &self.layout.types_values {
            match self.opcode(i) {
                op::OpTypeArray if self.single_word_in_operand(i, 0) == ty => ty = self.result_id(i),
                op::OpTypePointer if self.single_word_in_operand(i, 1) == ty => {
                    return self.single_word_in_operand(i, 0)
                }
                _ => {}
            }
        }
        3 // Output
    }

    /// The execution model of the entry point of function `id`.
    pub fn execution_model(&self, id: u32) -> u32 {
        // spirv-diff's answer when there is none.
        self.execution_models.get(&id).copied().unwrap_or(0xfff)
    }

    pub fn is_op(&self, id: u32, opcode: u16) -> bool {
        self.id_opcode(id) == Some(opcode)
    }

    /// An `OpConstant` of an integer type.
    pub fn is_constant_uint(&self, id: u32) -> bool {
        match self.inst(id) {
            Some(c) if self.opcode(c) == op::OpConstant => self.is_op(self.type_id(c), op::OpTypeInt),
            _ => false,
        }
    }

    pub fn constant_uint(&self, id: u32) -> u32 {
        self.inst(id).map_or(0, |c| self.single_word_in_operand(c, 0))
    }
}

/// Whether operands of this kind hold ids.
pub(crate) fn is_id(kind: OperandKind) -> bool {
    kind.info().category == Category::Id
}
