//! A module laid out as SPIRV-Tools' optimizer IR holds it, which is what
//! spirv-diff compares: instructions sorted into the module's sections,
//! functions split into parameters and blocks, and each line instruction
//! (`OpLine`, `OpNoLine`, `DebugLine`, `DebugNoLine`) attached to the
//! instruction after it rather than standing on its own. As the optimizer's
//! loader does, a line also carries over: each later instruction up to the
//! block's end gets a copy of it (a `DebugLine` copy takes a new id, past
//! the header's bound). `DebugScope` and `DebugNoScope` are dropped, as the
//! optimizer folds them into scopes.
//!
//! Instructions are named by their index in [`Module::insts`]; a copied
//! line instruction by an index past those (see [`Layout::copies`]).

use super::DiffError;
use crate::binary::ExtSet;
use crate::grammar::op;
use crate::module::Module;
use crate::peer_opcodes;
use rustc_hash::{FxHashMap, FxHashSet};

/// One block: its label and the instructions after it.
pub(crate) struct Block {
    pub label: usize,
    pub insts: Vec<usize>,
}

/// One function.
pub(crate) struct Function {
    /// Its OpFunction's result id.
    pub id: u32,
    pub def: usize,
    pub params: Vec<usize>,
    /// Debug-info instructions between the parameters and the first block.
    pub header_debug: Vec<usize>,
    pub blocks: Vec<Block>,
    pub end: usize,
    /// Non-semantic instructions after the function, which the optimizer
    /// keeps with it.
    pub non_semantic: Vec<usize>,
}

/// The module's sections, in the optimizer's order.
#[derive(Default)]
pub(crate) struct Layout {
    pub capabilities: Vec<usize>,
    pub extensions: Vec<usize>,
    pub ext_inst_imports: Vec<usize>,
    pub memory_model: Option<usize>,
    pub entry_points: Vec<usize>,
    pub execution_modes: Vec<usize>,
    pub debugs1: Vec<usize>,
    pub debugs2: Vec<usize>,
    pub debugs3: Vec<usize>,
    pub ext_inst_debuginfo: Vec<usize>,
    pub annotations: Vec<usize>,
    pub types_values: Vec<usize>,
    pub functions: Vec<Function>,
    /// The line instructions attached to an instruction (those just before
    /// it, or a copy of the last line carried over).
    pub lines: FxHashMap<usize, Vec<usize>>,
    /// Copies of line instructions: the original's index and the copy's
    /// result id (0 for `OpLine`). Copy `k` is instruction `insts + k`.
    pub copies: Vec<(usize, u32)>,
    /// The id bound once the copies took theirs.
    pub bound: u32,
}

// Instruction numbers shared by the DebugInfo sets.
const DEBUG_SCOPE: u32 = 23;
const DEBUG_NO_SCOPE: u32 = 24;
const DEBUG_DECLARE: u32 = 28;
const DEBUG_VALUE: u32 = 29;
const DEBUG_FUNCTION_DEFINITION: u32 = 101;
const DEBUG_LINE: u32 = 103;
const DEBUG_NO_LINE: u32 = 104;

/// Which kind of extended set an `OpExtInst` belongs to.
#[derive(PartialEq, Eq)]
enum SetKind {
    None,
    DebugInfo,
    OpenClDebugInfo,
    ShaderDebugInfo,
    NonSemantic,
}

fn set_kind(m: &Module, i: usize) -> SetKind {
    // The loader's spvIsExtendedInstruction: both kinds of OpExtInst.
    if !matches!(m.opcode(i), op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
        return SetKind::None;
    }
    match m.insts()[i].ext_set() {
        Some(ExtSet::Known(s)) => match s.import_name {
            "DebugInfo" => SetKind::DebugInfo,
            "OpenCL.DebugInfo.100" => SetKind::OpenClDebugInfo,
            "NonSemantic.Shader.DebugInfo.100" => SetKind::ShaderDebugInfo,
            _ if s.non_semantic => SetKind::NonSemantic,
            _ => SetKind::None,
        },
        Some(ExtSet::UnknownNonSemantic) => SetKind::NonSemantic,
        None => SetKind::None,
    }
}

/// The extended instruction number of an `OpExtInst`.
fn ext_number(m: &Module, i: usize) -> u32 {
    if m.insts()[i].word_count() > 4 {
        m.words()[m.insts()[i].offset() + 4]
    } else {
        u32::MAX
    }
}

fn is_terminator(opcode: u16) -> bool {
    crate::module::functions::TERMINATOR_SET.contains(opcode)
}

impl Layout {
    /// Sorts `m`'s instructions as the optimizer's loader does, rejecting
    /// what it rejects.
    pub fn new(m: &Module) -> Result<Layout, DiffError> {
        let mut l = Layout { bound: m.header().bound, ..Layout::default() };
        let n = m.insts().len();
        let mut pending: Vec<usize> = Vec::new();
        // The line carried over to the next instruction without its own.
        let mut last_line: Option<usize> = None;
        let mut function: Option<Function> = None;
        let mut block: Option<Block> = None;
        let bad = |i: usize, what: &str| DiffError::Layout { inst: i, message: what.to_string() };
        for i in 0..m.insts().len() {
            let opcode = m.opcode(i);
            let kind = set_kind(m, i);
            let number = if kind != SetKind::None { ext_number(m, i) } else { 0 };
            let is_line = opcode == op::OpLine
                || opcode == op::OpNoLine
                || (kind == SetKind::ShaderDebugInfo && (number == DEBUG_LINE || number == DEBUG_NO_LINE));
            if is_line {
                last_line = None;
                pending.push(i);
                continue;
            }
            let debug_info = matches!(kind, SetKind::DebugInfo | SetKind::OpenClDebugInfo | SetKind::ShaderDebugInfo);
            if debug_info && (number == DEBUG_SCOPE || number == DEBUG_NO_SCOPE) {
                continue;
            }
            if let Some(&last) = pending.last() {
                let no_line = m.opcode(last) == op::OpNoLine
                    || (set_kind(m, last) == SetKind::ShaderDebugInfo && ext_number(m, last) == DEBUG_NO_LINE);
                if !no_line {
                    last_line = Some(l.copy(m, last));
                }
                l.lines.insert(i, std::mem::take(&mut pending));
            } else if let Some(line) = last_line {
                l.lines.insert(i, vec![line]);
                let original = if line >= n { l.copies[line - n].0 } else { line };
                last_line = Some(l.copy(m, original));
            }
            match opcode {
                op::OpFunction => {
                    if function.is_some() {
                        return Err(bad(i, "function inside function"));
                    }
                    let id = m.result_id(i).unwrap_or(0);
                    function = Some(Function {
                        id,
                        def: i,
                        params: Vec::new(),
                        header_debug: Vec::new(),
                        blocks: Vec::new(),
                        end: usize::MAX,
                        non_semantic: Vec::new(),
                    });
                }
                op::OpFunctionEnd => {
                    let Some(mut f) = function.take() else {
                        return Err(bad(i, "OpFunctionEnd without corresponding OpFunction"));
                    };
                    if block.is_some() {
                        return Err(bad(i, "OpFunctionEnd inside basic block"));
                    }
                    f.end = i;
                    l.functions.push(f);
                }
                op::OpLabel => {
                    if function.is_none() {
                        return Err(bad(i, "OpLabel outside function"));
                    }
                    if block.is_some() {
                        return Err(bad(i, "OpLabel inside basic block"));
                    }
                    block = Some(Block { label: i, insts: Vec::new() });
                }
                _ if is_terminator(opcode) => {
                    let Some(f) = function.as_mut() else {
                        return Err(bad(i, "terminator instruction outside function"));
                    };
                    let Some(mut b) = block.take() else {
                        return Err(bad(i, "terminator instruction outside basic block"));
                    };
                    b.insts.push(i);
                    f.blocks.push(b);
                    last_line = None;
                }
                op::OpGraphARM | op::OpGraphEndARM => return Err(bad(i, "graphs are not supported")),
                _ => {
                    match function.as_mut() {
                        None => l.global(m, i, opcode, &kind).map_err(|what| bad(i, what))?,
                        Some(f) => {
                            if debug_info {
                                let in_header = matches!(number, DEBUG_DECLARE | DEBUG_VALUE);
                                let in_block = kind == SetKind::ShaderDebugInfo && number == DEBUG_FUNCTION_DEFINITION;
                                match (&mut block, in_header || in_block) {
                                    (Some(b), true) => b.insts.push(i),
                                    // The loader reports it and goes on without it.
                                    (None, true) if kind == SetKind::ShaderDebugInfo => {}
                                    (None, true) => f.header_debug.push(i),
                                    (_, false) => {
                                        return Err(bad(i, "debug info instruction not allowed inside a function"))
                                    }
                                }
                            } else {
                                match &mut block {
                                    Some(b) => b.insts.push(i),
                                    None if opcode == op::OpFunctionParameter => f.params.push(i),
                                    None => return Err(bad(
                                        i,
                                        "non-OpFunctionParameter instruction inside function but outside basic block",
                                    )),
                                }
                            }
                        }
                    }
                }
            }
        }
        if function.is_some() {
            // The loader keeps an unfinished function, which spirv-diff then
            // cannot walk.
            return Err(DiffError::Layout { inst: m.insts().len(), message: "missing OpFunctionEnd".into() });
        }
        if l.memory_model.is_none() {
            return Err(DiffError::Layout { inst: m.insts().len(), message: "missing OpMemoryModel".into() });
        }
        Ok(l)
    }

    /// A copy of line instruction `original`; a `DebugLine` copy takes the
    /// next id, as the optimizer's loader gives it one.
    fn copy(&mut self, m: &Module, original: usize) -> usize {
        // The optimizer's id limit, past which it hands out 0.
        const MAX_ID_BOUND: u32 = 0x3f_ffff;
        let id = if m.opcode(original) == op::OpExtInst {
            if self.bound < MAX_ID_BOUND {
                self.bound += 1;
                self.bound - 1
            } else {
                0
            }
        } else {
            0
        };
        self.copies.push((original, id));
        m.insts().len() + self.copies.len() - 1
    }

    /// Places an instruction outside any function.
    fn global(&mut self, m: &Module, i: usize, opcode: u16, kind: &SetKind) -> Result<(), &'static str> {
        let info = m.insts()[i].info();
        let section = match opcode {
            op::OpCapability | op::OpConditionalCapabilityINTEL => &mut self.capabilities,
            op::OpExtension | op::OpConditionalExtensionINTEL => &mut self.extensions,
            op::OpExtInstImport => &mut self.ext_inst_imports,
            op::OpMemoryModel => {
                self.memory_model = Some(i);
                return Ok(());
            }
            op::OpEntryPoint => &mut self.entry_points,
            op::OpExecutionMode | op::OpExecutionModeId => &mut self.execution_modes,
            op::OpSourceContinued | op::OpSource | op::OpSourceExtension | op::OpString => &mut self.debugs1,
            op::OpName | op::OpMemberName => &mut self.debugs2,
            op::OpModuleProcessed => &mut self.debugs3,
            _ if info.class == "Annotation" => &mut self.annotations,
            // The optimizer's loader sorts by SPIRV-Tools' own lists of
            // types and constants (OpAsmINTEL is a constant to it).
            op::OpTypeForwardPointer => &mut self.types_values,
            _ if peer_opcodes::generates_type(opcode) => &mut self.types_values,
            op::OpVariable | op::OpUntypedVariableKHR | op::OpUndef => &mut self.types_values,
            _ if peer_opcodes::is_constant(opcode) => &mut self.types_values,
            _ => match kind {
                SetKind::DebugInfo | SetKind::OpenClDebugInfo | SetKind::ShaderDebugInfo => {
                    &mut self.ext_inst_debuginfo
                }
                SetKind::NonSemantic => match self.functions.last_mut() {
                    Some(f) => &mut f.non_semantic,
                    None => &mut self.types_values,
                },
                SetKind::None => return Err("unhandled instruction outside a function"),
            },
        };
        section.push(i);
        Ok(())
    }

    /// `i` preceded by its line instructions.
    pub fn push_with_lines(&self, out: &mut Vec<usize>, i: usize) {
        if let Some(lines) = self.lines.get(&i) {
            out.extend_from_slice(lines);
        }
        out.push(i);
    }

    /// Every instruction of a function, its line instructions included, in
    /// the optimizer's walking order.
    pub fn function_insts(&self, f: &Function) -> Vec<usize> {
        let mut out = Vec::new();
        self.push_with_lines(&mut out, f.def);
        for &p in f.params.iter().chain(&f.header_debug) {
            self.push_with_lines(&mut out, p);
        }
        for b in &f.blocks {
            self.push_with_lines(&mut out, b.label);
            for &i in &b.insts {
                self.push_with_lines(&mut out, i);
            }
        }
        self.push_with_lines(&mut out, f.end);
        for &i in &f.non_semantic {
            self.push_with_lines(&mut out, i);
        }
        out
    }

    /// A function's header as spirv-diff lists it: everything up to (not
    /// including) its first OpLabel.
    pub fn function_header(&self, f: &Function) -> Vec<usize> {
        let mut out = Vec::new();
        self.push_with_lines(&mut out, f.def);
        for &p in f.params.iter().chain(&f.header_debug) {
            self.push_with_lines(&mut out, p);
        }
        // A declaration's header would run on to its OpFunctionEnd, which
        // its body ends with too (spirv-diff crashes on declarations; here
        // the OpFunctionEnd is shown once, with the body).
        if let Some(b) = f.blocks.first() {
            out.extend_from_slice(self.lines.get(&b.label).map_or(&[][..], |v| v));
        }
        out
    }

    /// A function's body as spirv-diff compares it: its blocks in
    /// structured order (a depth-first walk from the entry block that takes
    /// a header's merge block, then its continue target, before the
    /// branch targets; unreachable blocks left out), each with its line
    /// instructions, then the OpFunctionEnd.
    pub fn function_body(&self, m: &Module, f: &Function) -> Vec<usize> {
        let mut body = Vec::new();
        if !f.blocks.is_empty() {
            let by_label: FxHashMap<u32, usize> =
                f.blocks.iter().enumerate().filter_map(|(k, b)| m.result_id(b.label).map(|id| (id, k))).collect();
            let successors = |k: usize| -> Vec<usize> { structured_successors(m, &f.blocks[k], &by_label) };
            let mut post = Vec::with_capacity(f.blocks.len());
            let mut seen = FxHashSet::default();
            seen.insert(0usize);
            let mut work: Vec<(usize, Vec<usize>, usize)> = vec![(0, successors(0), 0)];
            while let Some(top) = work.last_mut() {
                if top.2 == top.1.len() {
                    post.push(top.0);
                    work.pop();
                } else {
                    let child = top.1[top.2];
                    top.2 += 1;
                    if seen.insert(child) {
                        work.push((child, successors(child), 0));
                    }
                }
            }
            for &k in post.iter().rev() {
                let b = &f.blocks[k];
                self.push_with_lines(&mut body, b.label);
                for &i in &b.insts {
                    self.push_with_lines(&mut body, i);
                }
            }
        }
        body.push(f.end);
        body
    }
}

/// A block's successors for the structured order: merge block and continue
/// target first (when the instruction before the terminator declares
/// them), then the terminator's targets in operand order.
fn structured_successors(m: &Module, b: &Block, by_label: &FxHashMap<u32, usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let Some(&last) = b.insts.last() else { return out };
    let word = |i: usize, k: usize| -> u32 { m.words().get(m.insts()[i].offset() + k).copied().unwrap_or(0) };
    let mut push = |id: u32| {
        if let Some(&k) = by_label.get(&id) {
            out.push(k);
        }
    };
    if b.insts.len() >= 2 {
        let merge = b.insts[b.insts.len() - 2];
        match m.opcode(merge) {
            op::OpLoopMerge => {
                push(word(merge, 1));
                push(word(merge, 2));
            }
            op::OpSelectionMerge => push(word(merge, 1)),
            _ => {}
        }
    }
    match m.opcode(last) {
        op::OpBranch => push(word(last, 1)),
        op::OpBranchConditional => {
            push(word(last, 2));
            push(word(last, 3));
        }
        op::OpSwitch => {
            // Selector, default, then (literal, label) pairs; a literal's
            // width is the selector's.
            push(word(last, 2));
            let operands = m.operands(last);
            for o in operands.iter().skip(2) {
                if o.kind.info().category == crate::grammar::Category::Id {
                    push(word(last, o.offset as usize));
                }
            }
        }
        _ => {}
    }
    out
}
