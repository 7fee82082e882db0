//! Logical layout (spec 2.4): module-level instructions in section order,
//! exactly one OpMemoryModel, and nothing module-level among functions.

use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;
use crate::module::Module;

/// Sections of spec 2.4, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Capabilities,
    Extensions,
    ExtInstImports,
    MemoryModel,
    /// OpSamplerImageAddressingModeNV (SPV_NV_bindless_texture).
    SamplerAddressingMode,
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
    /// Graph definitions (SPV_ARM_graph), after every function.
    Graphs,
}

/// Module-level instructions of extensions the grammar does not class as
/// types or constants, placed where spirv-val places them (its
/// `spvOpcodeGeneratesType`, `spvOpcodeIsConstant` and layout sections).
const EXTRA_SECTIONS: &[(u16, Section)] = &[
    (op::OpConditionalCapabilityINTEL, Section::Capabilities),
    (op::OpConditionalExtensionINTEL, Section::Extensions),
    (op::OpConditionalEntryPointINTEL, Section::EntryPoints),
    (op::OpGraphEntryPointARM, Section::Graphs),
    (op::OpGraphARM, Section::Graphs),
    (op::OpGraphInputARM, Section::Graphs),
    (op::OpGraphSetOutputARM, Section::Graphs),
    (op::OpGraphEndARM, Section::Graphs),
];

/// Where a graph definition stands (spirv-val's graph definition regions).
#[derive(Copy, Clone, PartialEq, Eq)]
enum GraphRegion {
    Outside,
    Begin,
    Inputs,
    Body,
    Outputs,
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
    /// Only among the module-level declarations.
    Module,
}

/// Where a debug-information extended instruction may stand.
fn debug_info_placement(m: &Module, i: usize) -> Option<DebugPlacement> {
    let inst = &m.insts[i];
    if inst.opcode() != op::OpExtInst {
        return None;
    }
    let Some(ExtSet::Known(set)) = inst.ext_set() else { return None };
    let shader = match set.import_name {
        "NonSemantic.Shader.DebugInfo.100" => true,
        "OpenCL.DebugInfo.100" | "DebugInfo" => false,
        _ => return None,
    };
    let number = m.word(i, 3);
    let name = set.instructions.iter().find(|e| e.opcode == number).map_or("", |e| e.name);
    Some(match name {
        "DebugScope" | "DebugNoScope" | "DebugDeclare" | "DebugValue" => DebugPlacement::Function,
        "DebugFunctionDefinition" | "DebugLine" | "DebugNoLine" if shader => DebugPlacement::Function,
        _ => DebugPlacement::Module,
    })
}

/// The section a module-level instruction belongs to; `None` for
/// instructions that only appear in function bodies.
fn section(m: &Module, i: usize) -> Option<Section> {
    let inst = &m.insts[i];
    let op = inst.opcode();
    if let Some(&(_, s)) = EXTRA_SECTIONS.iter().find(|&&(o, _)| o == op) {
        return Some(s);
    }
    Some(match op {
        op::OpCapability => Section::Capabilities,
        op::OpExtension => Section::Extensions,
        op::OpExtInstImport => Section::ExtInstImports,
        op::OpMemoryModel => Section::MemoryModel,
        op::OpSamplerImageAddressingModeNV => Section::SamplerAddressingMode,
        op::OpEntryPoint => Section::EntryPoints,
        op::OpExecutionMode | op::OpExecutionModeId => Section::ExecutionModes,
        op::OpString | op::OpSource | op::OpSourceContinued | op::OpSourceExtension => Section::DebugSource,
        op::OpName | op::OpMemberName => Section::DebugNames,
        op::OpModuleProcessed => Section::DebugProcessed,
        op::OpLine | op::OpNoLine | op::OpUndef => Section::Types,
        op::OpFunction => Section::Functions,
        op::OpExtInst | op::OpExtInstWithForwardRefsKHR if non_semantic(inst.ext_set()) => Section::Types,
        _ if inst.info().class == "Annotation" => Section::Annotations,
        _ if super::peer_opcodes::always_in_types(op) => Section::Types,
        op::OpVariable | op::OpUntypedVariableKHR => Section::Types,
        _ => return None,
    })
}

/// One instruction of the graph definitions section: only graph
/// instructions, OpCompositeExtract and OpExtInst stand there, a graph's
/// inputs right after its OpGraphARM and its outputs right before its
/// OpGraphEndARM.
fn graph_step(region: &mut GraphRegion, opcode: u16, name: &str) -> Result<(), String> {
    use GraphRegion::*;
    let at = *region;
    match opcode {
        op::OpGraphARM => {
            if at != Outside {
                return Err("Cannot define a graph in a graph".into());
            }
            *region = Begin;
        }
        op::OpGraphInputARM => {
            if !matches!(at, Begin | Inputs) {
                return Err(format!("{name} must immediately follow an OpGraphARM or OpGraphInputARM instruction."));
            }
            *region = Inputs;
        }
        op::OpGraphSetOutputARM => {
            if at == Outside {
                return Err(format!(
                    "{name} must immediately precede an OpGraphEndARM or OpGraphSetOutputARM instruction."
                ));
            }
            *region = Outputs;
        }
        op::OpGraphEndARM => {
            if at != Outputs {
                return Err(format!("{} must be preceded by at least one OpGraphSetOutputARM instruction", &name[2..]));
            }
            *region = Outside;
        }
        op::OpGraphEntryPointARM => {
            if at != Outside {
                return Err(format!("{} cannot appear in the definition of a graph", &name[2..]));
            }
        }
        op::OpCompositeExtract | op::OpExtInst | op::OpExtInstWithForwardRefsKHR => {
            if at == Outside {
                return Err(format!("{name} must appear in a graph body"));
            }
            if at == Outputs {
                return Err(format!("{} cannot appear after a graph output instruction", &name[2..]));
            }
            *region = Body;
        }
        _ => return Err(format!("{name} cannot appear in the graph definitions section")),
    }
    Ok(())
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    let mut current = Section::Capabilities;
    let mut memory_models = 0;
    let mut in_functions = false;
    // Between OpFunction and OpFunctionEnd; between an OpLabel and its
    // block's terminator.
    let mut in_function = false;
    let mut in_block = false;
    // In the graph definitions section, and where in a graph.
    let mut in_graphs = false;
    let mut region = GraphRegion::Outside;
    for i in 0..m.insts.len() {
        let op = m.opcode(i);
        let name = m.insts[i].info().name;
        if in_graphs || super::peer_opcodes::in_graph_section(op) {
            if !in_graphs && memory_models == 0 {
                r.error(
                    ErrorKind::Layout,
                    i,
                    format!("{} cannot appear before the memory model instruction", &name[2..]),
                );
            }
            in_graphs = true;
            // A call outside a function: `first_walk` reports it (spirv-val
            // checks a call's place before the layout).
            if op == op::OpFunctionCall && !in_function {
                continue;
            }
            if let Err(message) = graph_step(&mut region, op, name) {
                r.error(ErrorKind::Layout, i, message);
            }
            continue;
        }
        if let Some(placement) = debug_info_placement(m, i) {
            if in_functions && placement == DebugPlacement::Module {
                r.error(ErrorKind::Layout, i, "Debug info extension instructions other than DebugScope, DebugNoScope, DebugDeclare, DebugValue must appear between section 9 (types, constants, global variables) and section 10 (function declarations)");
                continue;
            }
            if !in_function && placement == DebugPlacement::Function {
                r.error(ErrorKind::Layout, i, "DebugScope, DebugNoScope, DebugDeclare, DebugValue of debug info extension must appear in a function body");
                continue;
            }
        }
        if in_functions {
            match op {
                op::OpLabel => in_block = true,
                op::OpFunction => (in_function, in_block) = (true, false),
                op::OpFunctionEnd => (in_function, in_block) = (false, false),
                _ if super::cfg::TERMINATOR_SET.contains(op) => in_block = false,
                op::OpExtInst | op::OpExtInstWithForwardRefsKHR
                    if in_function && !in_block && non_semantic_not_debug_info(m.insts[i].ext_set()) =>
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
            // Module-level-only instructions may not appear among the
            // functions. spirv-val moves past the function sections at
            // such an instruction and finds it out of place in the next
            // one, the graph definitions, hence its message.
            let out_of_place = match section(m, i) {
                Some(s) if s < Section::Types => true,
                Some(Section::Types) => super::peer_opcodes::always_in_types(m.opcode(i)),
                _ => false,
            };
            if out_of_place {
                r.error(ErrorKind::Layout, i, format!("{name} cannot appear in the graph definitions section"));
            }
            continue;
        }
        let Some(s) = section(m, i) else {
            // spirv-val moves on through the sections looking for this
            // one's: it stops at the memory model's if it has not been
            // seen, else in the functions', outside any block.
            let message =
                if memory_models > 0 && matches!(op, op::OpFunctionParameter | op::OpLabel | op::OpFunctionEnd) {
                    // The block pass reports these, in spirv-val's words.
                    continue;
                } else if op == op::OpFunctionCall {
                    // `first_walk` reports a call outside a function.
                    continue;
                } else if memory_models == 0 {
                    format!("{} cannot appear before the memory model instruction", &name[2..])
                } else {
                    format!("{} must appear in a block", &name[2..])
                };
            r.error(ErrorKind::Layout, i, message);
            continue;
        };
        if s == Section::Functions {
            in_functions = true;
            in_function = true;
        }
        if op == op::OpMemoryModel {
            memory_models += 1;
        }
        if s > Section::MemoryModel && memory_models == 0 {
            r.error(ErrorKind::Layout, i, format!("{} cannot appear before the memory model instruction", &name[2..]));
            continue;
        }
        if s < current {
            r.error(ErrorKind::Layout, i, format!("{} is in an invalid layout section", &name[2..]));
            continue;
        }
        // spirv-val's instruction pass, after the layout at the same
        // instruction.
        if op == op::OpMemoryModel && memory_models > 1 {
            r.error(ErrorKind::Layout, i, "OpMemoryModel should only be provided once.");
        }
        current = s;
    }
    if memory_models == 0 {
        r.module_error(ErrorKind::Layout, "Missing required OpMemoryModel instruction.");
    }
}
