//! Variable pointers (spirv-val's logical pointer pass, SPIR-V 2.16.1 with
//! the VariablePointers capabilities): a logical pointer is a variable
//! pointer when it comes, through any operand chain, from OpSelect, OpPhi,
//! OpFunctionCall, OpPtrAccessChain, OpLoad or OpConstantNull. Such a
//! pointer must not be OpArrayLength's operand, must not point to a matrix,
//! into one, or to an array of Block structures, and without
//! VariablePointers an OpSelect or OpPhi picks within one buffer.
//!
//! Tracing goes backwards from a pointer through access chains, selects,
//! phis, calls and returns, copies, and the stores into Function or
//! Private variables that hold pointers.

use crate::grammar::{capability, decoration, op, storage_class as sc, OperandKind};
use crate::module::Module;
use rustc_hash::{FxHashMap, FxHashSet};

pub(super) struct VariablePointers<'a, 'm> {
    m: &'a Module<'m>,
    /// VariablePointers is declared (selects may mix buffers).
    any_buffer: bool,
    /// id → (instruction, operand index) of each use.
    uses: FxHashMap<u32, Vec<(usize, usize)>>,
    /// OpFunctionParameter instruction → (function id, parameter index).
    params: FxHashMap<usize, (u32, usize)>,
    /// Function id → its OpReturnValue instructions.
    returns: FxHashMap<u32, Vec<usize>>,
    memo: FxHashMap<u32, bool>,
    /// Some instruction makes a variable pointer at all (a pointer result of
    /// one of the opcodes that start one); without one no rule here applies
    /// and the tables above stay empty.
    any_source: bool,
}

/// The opcodes whose (pointer) result is a variable pointer.
const SOURCES: [u16; 8] = [
    op::OpPtrAccessChain,
    op::OpUntypedPtrAccessChainKHR,
    op::OpUntypedInBoundsPtrAccessChainKHR,
    op::OpLoad,
    op::OpSelect,
    op::OpPhi,
    op::OpFunctionCall,
    op::OpConstantNull,
];

const MATRIX_COLUMN: &str = "Variable pointer must not point to a column or a component of a column of a matrix";
const BLOCK_ARRAY: &str = "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs";
const MATRIX: &str = "Variable pointer must not point to an object that is or contains a matrix";

impl<'a, 'm> VariablePointers<'a, 'm> {
    pub fn new(m: &'a Module<'m>, caps: &FxHashSet<u32>) -> Self {
        let any_source = m.insts.iter().any(|inst| {
            SOURCES.contains(&inst.opcode())
                && matches!(m.def_opcode(m.result_type_at(inst)), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR))
        });
        let mut uses: FxHashMap<u32, Vec<(usize, usize)>> = FxHashMap::default();
        let mut params = FxHashMap::default();
        let mut returns: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
        let (mut function, mut param) = (0, 0);
        for i in (0..m.insts.len()).filter(|_| any_source) {
            for (k, id) in m.id_operands(i) {
                uses.entry(id).or_default().push((i, k));
            }
            match m.opcode(i) {
                op::OpFunction => (function, param) = (m.result_id_word(i), 0),
                op::OpFunctionParameter => {
                    params.insert(i, (function, param));
                    param += 1;
                }
                op::OpReturnValue => returns.entry(function).or_default().push(i),
                _ => {}
            }
        }
        VariablePointers {
            m,
            any_buffer: caps.contains(&capability::VariablePointers),
            uses,
            params,
            returns,
            memo: FxHashMap::default(),
            any_source,
        }
    }

    fn logical_pointer(&self, id: u32) -> bool {
        let ty = self.m.type_of(id);
        matches!(self.m.def_opcode(ty), Some(op::OpTypePointer | op::OpTypeUntypedPointerKHR))
            && self.m.def_word(ty, 2) != Some(sc::PhysicalStorageBuffer)
    }

    /// The arguments calls pass for parameter instruction `p`.
    fn arguments(&self, p: usize) -> Vec<u32> {
        let m = self.m;
        let Some(&(function, index)) = self.params.get(&p) else { return Vec::new() };
        self.uses
            .get(&function)
            .into_iter()
            .flatten()
            .filter(|&&(c, k)| k == 2 && m.opcode(c) == op::OpFunctionCall && m.operands(c).len() > 3 + index)
            .map(|&(c, _)| m.word(c, 3 + index))
            .collect()
    }

    /// Whether `id` is a variable pointer (spirv-val's `IsVariablePointer`).
    fn is_variable_pointer(&mut self, id: u32) -> bool {
        if let Some(&v) = self.memo.get(&id) {
            return v;
        }
        let m = self.m;
        let Some(i) = m.def_index(id) else { return false };
        self.memo.insert(id, false);
        let v = match m.opcode(i) {
            op::OpPtrAccessChain
            | op::OpUntypedPtrAccessChainKHR
            | op::OpUntypedInBoundsPtrAccessChainKHR
            | op::OpLoad
            | op::OpSelect
            | op::OpPhi
            | op::OpFunctionCall
            | op::OpConstantNull => true,
            op::OpFunctionParameter => {
                self.logical_pointer(id) && self.arguments(i).into_iter().any(|a| self.is_variable_pointer(a))
            }
            _ => {
                let operands: Vec<u32> = (0..m.operands(i).len())
                    .filter(|&k| m.operands(i)[k].kind == OperandKind::IdRef)
                    .map(|k| m.word(i, k))
                    .collect();
                operands.into_iter().any(|o| self.logical_pointer(o) && self.is_variable_pointer(o))
            }
        };
        self.memo.insert(id, v);
        v
    }

    /// spirv-val's `ContainsType(ty, is matrix, false)`.
    fn contains_matrix(&self, ty: u32, depth: u32) -> bool {
        let m = self.m;
        match m.def_opcode(ty) {
            _ if depth > 64 => false,
            Some(op::OpTypeMatrix) => true,
            Some(
                op::OpTypeArray
                | op::OpTypeRuntimeArray
                | op::OpTypeVector
                | op::OpTypeImage
                | op::OpTypeSampledImage
                | op::OpTypeCooperativeMatrixNV
                | op::OpTypeCooperativeMatrixKHR
                | op::OpTypeCooperativeVectorNV,
            ) => self.contains_matrix(m.def_word(ty, 2).unwrap_or(0), depth + 1),
            Some(op::OpTypeStruct) => {
                (2..=m.operands_len_of(ty)).any(|w| self.contains_matrix(m.def_word(ty, w).unwrap_or(0), depth + 1))
            }
            _ => false,
        }
    }

    /// An array (or runtime array) of Block or BufferBlock structures.
    fn block_array(&self, ty: u32) -> bool {
        let m = self.m;
        if !matches!(m.def_opcode(ty), Some(op::OpTypeArray | op::OpTypeRuntimeArray)) {
            return false;
        }
        let element = m.def_word(ty, 2).unwrap_or(0);
        m.def_opcode(element) == Some(op::OpTypeStruct)
            && (m.has_decoration(element, decoration::Block) || m.has_decoration(element, decoration::BufferBlock))
    }

    /// The instructions a pointer at instruction `i` may come from (one step
    /// back); access chains only when `through_chains`.
    fn sources(&self, i: usize, through_chains: bool) -> Vec<usize> {
        let m = self.m;
        let def = |id: u32| m.def_index(id);
        let n = m.operands(i).len();
        match m.opcode(i) {
            op::OpAccessChain | op::OpInBoundsAccessChain | op::OpPtrAccessChain if through_chains => {
                def(m.word(i, 2)).into_iter().collect()
            }
            op::OpUntypedAccessChainKHR | op::OpUntypedInBoundsAccessChainKHR | op::OpUntypedPtrAccessChainKHR
                if through_chains =>
            {
                def(m.word(i, 3)).into_iter().collect()
            }
            op::OpPhi => (2..n).step_by(2).filter_map(|k| def(m.word(i, k))).collect(),
            op::OpSelect => [3, 4].iter().filter_map(|&k| def(m.word(i, k))).collect(),
            op::OpFunctionParameter => self.arguments(i).into_iter().filter_map(def).collect(),
            op::OpFunctionCall => self.returns.get(&m.word(i, 2)).cloned().unwrap_or_default(),
            op::OpReturnValue | op::OpStore => def(m.word(i, 0)).into_iter().collect(),
            op::OpCopyObject | op::OpLoad => def(m.word(i, 2)).into_iter().collect(),
            op::OpVariable | op::OpUntypedVariableKHR if matches!(m.word(i, 2), sc::Function | sc::Private) => {
                let init = if m.opcode(i) == op::OpUntypedVariableKHR { 4 } else { 3 };
                let mut out: Vec<usize> = (n > init).then(|| def(m.word(i, init))).flatten().into_iter().collect();
                // The objects stored through the variable (or a chain into it).
                let mut stack: Vec<(usize, usize)> = self.uses.get(&m.result_id_word(i)).cloned().unwrap_or_default();
                let mut seen = FxHashSet::default();
                while let Some((u, k)) = stack.pop() {
                    if !seen.insert(u) {
                        continue;
                    }
                    if m.opcode(u) == op::OpStore && k == 0 {
                        out.extend(def(m.word(u, 1)));
                    } else if m.result_id_word(u) != 0 {
                        stack.extend(self.uses.get(&m.result_id_word(u)).into_iter().flatten());
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// Walks back from instruction `start`, calling `check` on each.
    fn trace(
        &self,
        start: usize,
        through_chains: bool,
        check: &mut dyn FnMut(usize) -> Option<&'static str>,
    ) -> Option<&'static str> {
        let mut stack = vec![start];
        let mut seen = FxHashSet::default();
        while let Some(i) = stack.pop() {
            if !seen.insert(i) {
                continue;
            }
            if let Some(message) = check(i) {
                return Some(message);
            }
            stack.extend(self.sources(i, through_chains));
        }
        None
    }

    /// An access chain that steps onto or into a matrix (spirv-val's
    /// `CheckMatrixElement{Typed,Untyped}`; the untyped one ends with a
    /// period).
    fn steps_into_matrix(&self, i: usize, untyped_rule: bool) -> Option<&'static str> {
        let m = self.m;
        let opcode = m.opcode(i);
        let (mut ty, start) = match opcode {
            op::OpAccessChain | op::OpInBoundsAccessChain | op::OpPtrAccessChain => {
                let pointee = m.def_word(m.type_of(m.word(i, 2)), 3).unwrap_or(0);
                (pointee, if opcode == op::OpPtrAccessChain { 4 } else { 3 })
            }
            op::OpUntypedAccessChainKHR | op::OpUntypedInBoundsAccessChainKHR | op::OpUntypedPtrAccessChainKHR
                if untyped_rule =>
            {
                (m.word(i, 2), if opcode == op::OpUntypedPtrAccessChainKHR { 5 } else { 4 })
            }
            _ => return None,
        };
        let message = if untyped_rule {
            "Variable pointer must not point to a column or a component of a column of a matrix."
        } else {
            MATRIX_COLUMN
        };
        if m.def_opcode(ty) == Some(op::OpTypeMatrix) {
            return Some(message);
        }
        for k in start..m.operands(i).len() {
            ty = match m.def_opcode(ty) {
                Some(op::OpTypeStruct) => {
                    let member = super::memory::constant_u64(m, m.word(i, k)).unwrap_or(0);
                    m.def_word(ty, 2 + member as usize).unwrap_or(0)
                }
                Some(op::OpTypeMatrix) => {
                    let column = m.def_word(ty, 2).unwrap_or(0);
                    m.def_word(column, 2).unwrap_or(0)
                }
                _ => m.def_word(ty, 2).unwrap_or(0),
            };
            if m.def_opcode(ty) == Some(op::OpTypeMatrix) {
                return Some(message);
            }
        }
        None
    }

    /// spirv-val's variable pointer rules for instruction `i`.
    pub fn problem(&mut self, i: usize) -> Option<&'static str> {
        if !self.any_source {
            return None;
        }
        let m = self.m;
        let inst = &m.insts[i];
        match inst.opcode() {
            op::OpArrayLength | op::OpUntypedArrayLengthKHR => {
                let ptr = m.word(i, if inst.opcode() == op::OpArrayLength { 2 } else { 3 });
                return self.is_variable_pointer(ptr).then_some("Pointer operand must not be a variable pointer");
            }
            op::OpLoad | op::OpStore => {
                let (ptr, data) = if inst.opcode() == op::OpLoad {
                    (m.word(i, 2), m.result_type_at(inst))
                } else {
                    (m.word(i, 0), m.type_of(m.word(i, 1)))
                };
                let untyped = m.def_opcode(m.type_of(ptr)) == Some(op::OpTypeUntypedPointerKHR);
                if untyped && self.is_variable_pointer(ptr) && self.contains_matrix(data, 0) {
                    return Some(MATRIX);
                }
            }
            _ => {}
        }
        let id = m.result_id_at(inst);
        if id == 0 || !self.logical_pointer(id) || !self.is_variable_pointer(id) {
            return None;
        }
        let result_type = m.result_type_at(inst);
        if !self.any_buffer && matches!(inst.opcode(), op::OpSelect | op::OpPhi) {
            let mut sources = FxHashSet::default();
            let mut same_buffer = |k: usize| {
                let buffer = matches!(m.opcode(k), op::OpVariable | op::OpUntypedVariableKHR)
                    && matches!(m.word(k, 2), sc::StorageBuffer | sc::Workgroup);
                if buffer {
                    sources.insert(k);
                }
                (sources.len() > 1)
                    .then_some("Variable pointers must point into the same structure (or OpConstantNull)")
            };
            if let Some(message) = self.trace(i, true, &mut same_buffer) {
                return Some(message);
            }
        }
        if m.def_opcode(result_type) == Some(op::OpTypeUntypedPointerKHR) {
            if let Some(message) = self.trace(i, true, &mut |k| self.steps_into_matrix(k, true)) {
                return Some(message);
            }
            let bare_chain = m.operands(i).len() == 3
                && matches!(
                    inst.opcode(),
                    op::OpUntypedAccessChainKHR | op::OpUntypedInBoundsAccessChainKHR | op::OpUntypedPtrAccessChainKHR
                );
            if !bare_chain {
                let mut block_array = |k: usize| {
                    let data = match m.opcode(k) {
                        op::OpUntypedVariableKHR if m.operands(k).len() > 3 => m.word(k, 3),
                        op::OpVariable => m.def_word(m.result_type_word(k), 3).unwrap_or(0),
                        _ => return None,
                    };
                    self.block_array(data).then_some(BLOCK_ARRAY)
                };
                return self.trace(i, false, &mut block_array);
            }
            return None;
        }
        let pointee = m.def_word(result_type, 3).unwrap_or(0);
        if self.block_array(pointee) {
            return Some(BLOCK_ARRAY);
        }
        if self.contains_matrix(pointee, 0) {
            return Some(MATRIX);
        }
        let float = super::shapes::shape(m, pointee).is_some_and(|s| s.base == op::OpTypeFloat);
        if float {
            return self.trace(i, true, &mut |k| self.steps_into_matrix(k, false));
        }
        None
    }
}
