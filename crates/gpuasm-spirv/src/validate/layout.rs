//! Logical layout (spec 2.4): module-level instructions in section order,
//! exactly one OpMemoryModel, and nothing module-level among functions.

use super::module::Module;
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;

/// Sections of spec 2.4, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Capabilities,
    Extensions,
    ExtInstImports,
    MemoryModel,
    EntryPoints,
    ExecutionModes,
    /// OpString, OpSource, OpSourceContinued, OpSourceExtension.
    DebugSource,
    /// OpName, OpMemberName.
    DebugNames,
    /// OpModuleProcessed.
    DebugProcessed,
    Annotations,
    /// Types, constants, global variables, OpUndef, lines, non-semantic
    /// extended instructions.
    Types,
    Functions,
}

fn non_semantic(set: Option<ExtSet>) -> bool {
    set.is_some_and(ExtSet::is_debug_or_non_semantic)
}

/// A NonSemantic set other than the debug information ones (which have
/// their own placement rules).
fn non_semantic_not_debug_info(set: Option<ExtSet>) -> bool {
    set.is_some_and(|s| s.is_non_semantic() && !matches!(s, ExtSet::Known(k) if k.import_name.contains("DebugInfo")))
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum DebugPlacement {
    /// Only in function bodies.
    Function,
    /// In either place (NonSemantic.Shader.DebugInfo's lines).
    Either,
    /// Only among the module-level declarations.
    Module,
}

/// Where a debug-information extended instruction may stand.
fn debug_info_placement(m: &Module, i: usize) -> Option<DebugPlacement> {
    let inst = &m.insts[i];
    if inst.opcode() != op::OpExtInst {
        return None;
    }
    let Some(ExtSet::Known(set)) = inst.ext_set else { return None };
    let shader = match set.import_name {
        "NonSemantic.Shader.DebugInfo.100" => true,
        "OpenCL.DebugInfo.100" | "DebugInfo" => false,
        _ => return None,
    };
    let number = m.word(i, 3);
    let name = set.instructions.iter().find(|e| e.opcode == number).map_or("", |e| e.name);
    Some(match name {
        "DebugScope" | "DebugNoScope" | "DebugDeclare" | "DebugValue" => DebugPlacement::Function,
        "DebugFunctionDefinition" if shader => DebugPlacement::Function,
        "DebugLine" | "DebugNoLine" if shader => DebugPlacement::Either,
        _ => DebugPlacement::Module,
    })
}

/// The section a module-level instruction belongs to; `None` for
/// instructions that only appear in function bodies.
fn section(m: &Module, i: usize) -> Option<Section> {
    let inst = &m.insts[i];
    let op = inst.opcode();
    Some(match op {
        op::OpCapability => Section::Capabilities,
        op::OpExtension => Section::Extensions,
        op::OpExtInstImport => Section::ExtInstImports,
        op::OpMemoryModel | op::OpSamplerImageAddressingModeNV => Section::MemoryModel,
        op::OpEntryPoint => Section::EntryPoints,
        op::OpExecutionMode | op::OpExecutionModeId => Section::ExecutionModes,
        op::OpString | op::OpSource | op::OpSourceContinued | op::OpSourceExtension => Section::DebugSource,
        op::OpName | op::OpMemberName => Section::DebugNames,
        op::OpModuleProcessed => Section::DebugProcessed,
        op::OpLine | op::OpNoLine | op::OpUndef => Section::Types,
        op::OpFunction => Section::Functions,
        op::OpExtInst | op::OpExtInstWithForwardRefsKHR if non_semantic(inst.ext_set) => Section::Types,
        _ if inst.info.class == "Annotation" => Section::Annotations,
        _ if inst.info.declares_type || op == op::OpTypeForwardPointer => Section::Types,
        _ if inst.info.class == "Constant-Creation" => Section::Types,
        op::OpVariable | op::OpUntypedVariableKHR => Section::Types,
        _ => return None,
    })
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut current = Section::Capabilities;
    let mut memory_models = 0;
    let mut in_functions = false;
    // Between OpFunction and OpFunctionEnd; between an OpLabel and its
    // block's terminator.
    let mut in_function = false;
    let mut in_block = false;
    for i in 0..m.insts.len() {
        let op = m.insts[i].opcode();
        let name = m.insts[i].info.name;
        if let Some(placement) = debug_info_placement(m, i) {
            if in_functions && placement == DebugPlacement::Module {
                r.error(ErrorKind::Layout, i, "Debug info extension instructions other than DebugScope, DebugNoScope, DebugDeclare, DebugValue must appear between section 9 (types, constants, global variables) and section 10 (function declarations)");
                continue;
            }
            if !in_functions && placement == DebugPlacement::Function {
                r.error(ErrorKind::Layout, i, "DebugScope, DebugNoScope, DebugDeclare, DebugValue of debug info extension must appear in a function body");
                continue;
            }
        }
        if in_functions {
            match op {
                op::OpLabel => in_block = true,
                op::OpFunction => (in_function, in_block) = (true, false),
                op::OpFunctionEnd => (in_function, in_block) = (false, false),
                _ if super::cfg::TERMINATORS.contains(&op) => in_block = false,
                op::OpExtInst | op::OpExtInstWithForwardRefsKHR
                    if in_function && !in_block && non_semantic_not_debug_info(m.insts[i].ext_set) =>
                {
                    r.error(
                        ErrorKind::Layout,
                        i,
                        "Non-semantic OpExtInst within function definition must appear in a block",
                    );
                    continue;
                }
                _ => {}
            }
            // Function bodies: module-level-only instructions may not appear.
            match section(m, i) {
                Some(s) if s < Section::Types => {
                    r.error(ErrorKind::Layout, i, format!("{name} cannot appear in a function"));
                }
                Some(Section::Types)
                    if m.insts[i].info.declares_type || m.insts[i].info.class == "Constant-Creation" =>
                {
                    r.error(ErrorKind::Layout, i, format!("{name} cannot appear in a function"));
                }
                _ => {}
            }
            continue;
        }
        let Some(s) = section(m, i) else {
            r.error(ErrorKind::Layout, i, format!("{name} must be in a function body"));
            continue;
        };
        if s == Section::Functions {
            in_functions = true;
            in_function = true;
        }
        if op == op::OpMemoryModel {
            memory_models += 1;
            if memory_models > 1 {
                r.error(ErrorKind::Layout, i, "a module has exactly one OpMemoryModel");
            }
        }
        if s > Section::MemoryModel && memory_models == 0 {
            r.error(ErrorKind::Layout, i, format!("{name} cannot appear before the memory model instruction"));
            continue;
        }
        if s < current {
            r.error(ErrorKind::Layout, i, format!("{name} is in an invalid layout section (spec 2.4)"));
            continue;
        }
        current = s;
    }
    if memory_models == 0 {
        r.module_error(ErrorKind::Layout, "missing the required OpMemoryModel instruction");
    }
}
