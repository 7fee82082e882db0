//! NonSemantic.ClspvReflection instructions as spirv-val checks them: the
//! import names its version (`NonSemantic.ClspvReflection.N`), each
//! instruction needs the version that introduced it, returns void, and its
//! operands are 32-bit unsigned OpConstants, OpStrings, or references to
//! the set's Kernel and ArgumentInfo instructions.

use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::op;
use crate::module::Module;

const PREFIX: &str = "NonSemantic.ClspvReflection.";

/// What one operand must be, with spirv-val's name for it.
#[derive(Copy, Clone)]
enum Want {
    /// A 32-bit unsigned integer OpConstant.
    Uint(&'static str),
    /// An OpString.
    Str(&'static str),
    /// The set's Kernel instruction (from the same import).
    Kernel,
    /// The set's ArgumentInfo instruction, when present.
    ArgInfo,
}

use Want::*;

const BUFFER: &[Want] = &[Kernel, Uint("Ordinal"), Uint("DescriptorSet"), Uint("Binding"), ArgInfo];
const OFFSET_BUFFER: &[Want] =
    &[Kernel, Uint("Ordinal"), Uint("DescriptorSet"), Uint("Binding"), Uint("Offset"), Uint("Size"), ArgInfo];
const PUSH_CONSTANT_ARGUMENT: &[Want] = &[Kernel, Uint("Ordinal"), Uint("Offset"), Uint("Size"), ArgInfo];
const TRIPLE: &[Want] = &[Uint("X"), Uint("Y"), Uint("Z")];
const PUSH_CONSTANT: &[Want] = &[Uint("Offset"), Uint("Size")];
const INITIALIZED_DATA: &[Want] = &[Uint("DescriptorSet"), Uint("Binding"), Str("Data")];
const IMAGE_PUSH_CONSTANT: &[Want] = &[Kernel, Uint("Ordinal"), Uint("Offset"), Uint("Size")];
const IMAGE_UNIFORM: &[Want] =
    &[Kernel, Uint("Ordinal"), Uint("DescriptorSet"), Uint("Binding"), Uint("Offset"), Uint("Size")];
const PUSH_CONSTANT_DATA: &[Want] = &[Uint("Offset"), Uint("Size"), Str("Data")];

/// Per instruction (by grammar name): the version that introduced it and
/// its operands in order (the Kernel instruction itself is checked apart).
const RULES: &[(&str, u32, &[Want])] = &[
    ("Kernel", 1, &[]),
    (
        "ArgumentInfo",
        1,
        &[Str("Name"), Str("TypeName"), Uint("AddressQualifier"), Uint("AccessQualifier"), Uint("TypeQualifier")],
    ),
    ("ArgumentStorageBuffer", 1, BUFFER),
    ("ArgumentUniform", 1, BUFFER),
    ("ArgumentPodStorageBuffer", 1, OFFSET_BUFFER),
    ("ArgumentPodUniform", 1, OFFSET_BUFFER),
    ("ArgumentPodPushConstant", 1, PUSH_CONSTANT_ARGUMENT),
    ("ArgumentSampledImage", 1, BUFFER),
    ("ArgumentStorageImage", 1, BUFFER),
    ("ArgumentSampler", 1, BUFFER),
    ("ArgumentWorkgroup", 1, &[Kernel, Uint("Ordinal"), Uint("SpecId"), Uint("ElemSize"), ArgInfo]),
    ("SpecConstantWorkgroupSize", 1, TRIPLE),
    ("SpecConstantGlobalOffset", 1, TRIPLE),
    ("SpecConstantWorkDim", 1, &[Uint("Dim")]),
    ("PushConstantGlobalOffset", 1, PUSH_CONSTANT),
    ("PushConstantEnqueuedLocalSize", 1, PUSH_CONSTANT),
    ("PushConstantGlobalSize", 1, PUSH_CONSTANT),
    ("PushConstantRegionOffset", 1, PUSH_CONSTANT),
    ("PushConstantNumWorkgroups", 1, PUSH_CONSTANT),
    ("PushConstantRegionGroupOffset", 1, PUSH_CONSTANT),
    ("ConstantDataStorageBuffer", 1, INITIALIZED_DATA),
    ("ConstantDataUniform", 1, INITIALIZED_DATA),
    ("LiteralSampler", 1, &[Uint("DescriptorSet"), Uint("Binding"), Uint("Mask")]),
    ("PropertyRequiredWorkgroupSize", 1, &[Kernel, Uint("X"), Uint("Y"), Uint("Z")]),
    ("SpecConstantSubgroupMaxSize", 2, &[Uint("Size")]),
    ("ArgumentPointerPushConstant", 3, PUSH_CONSTANT_ARGUMENT),
    ("ArgumentPointerUniform", 3, OFFSET_BUFFER),
    ("ProgramScopeVariablesStorageBuffer", 3, INITIALIZED_DATA),
    ("ProgramScopeVariablePointerRelocation", 3, &[Uint("ObjectOffset"), Uint("PointerOffset"), Uint("PointerSize")]),
    ("ImageArgumentInfoChannelOrderPushConstant", 3, IMAGE_PUSH_CONSTANT),
    ("ImageArgumentInfoChannelDataTypePushConstant", 3, IMAGE_PUSH_CONSTANT),
    ("ImageArgumentInfoChannelOrderUniform", 3, IMAGE_UNIFORM),
    ("ImageArgumentInfoChannelDataTypeUniform", 3, IMAGE_UNIFORM),
    ("ArgumentStorageTexelBuffer", 4, BUFFER),
    ("ArgumentUniformTexelBuffer", 4, BUFFER),
    ("ConstantDataPointerPushConstant", 5, PUSH_CONSTANT_DATA),
    ("ProgramScopeVariablePointerPushConstant", 5, PUSH_CONSTANT_DATA),
    ("PrintfInfo", 5, &[Uint("PrintfID"), Str("FormatString")]),
    ("PrintfBufferStorageBuffer", 5, &[Uint("DescriptorSet"), Uint("Binding"), Uint("Size")]),
    ("PrintfBufferPointerPushConstant", 5, &[Uint("Offset"), Uint("Size"), Uint("BufferSize")]),
];

/// GLCompute (spec 3.3).
const GL_COMPUTE: u32 = 5;

fn is_uint32_constant(m: &Module, id: u32) -> bool {
    let Some(c) = m.def(id) else { return false };
    c.opcode() == op::OpConstant
        && m.def_opcode(m.result_type_at(c)) == Some(op::OpTypeInt)
        && m.def_word(m.result_type_at(c), 2) == Some(32)
        && m.def_word(m.result_type_at(c), 3) == Some(0)
}

/// The version an import string names, or spirv-val's complaint about it.
fn version(name: &[u8], revision: u32) -> Result<u32, &'static str> {
    let suffix = &name[PREFIX.len().min(name.len())..];
    if suffix.is_empty() {
        return Err("Missing NonSemantic.ClspvReflection import version");
    }
    let digits = suffix.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits < suffix.len() {
        return Err("NonSemantic.ClspvReflection import does not encode the version correctly");
    }
    let v = std::str::from_utf8(suffix).ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(u64::MAX) as u32;
    if v == 0 || v > revision {
        return Err("Unknown NonSemantic.ClspvReflection import version");
    }
    Ok(v)
}

pub(crate) fn check(m: &Module, r: &mut Report) {
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        if !matches!(inst.opcode(), op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
            continue;
        }
        let Some(ExtSet::Known(set)) = inst.ext_set() else { continue };
        if set.import_name != PREFIX {
            continue;
        }
        let Some(import) = m.def_index(m.word(i, 2)) else { continue };
        let v = match version(m.view(import).string(1), set.revision) {
            Ok(v) => v,
            Err(message) => {
                r.error(ErrorKind::OperandType, import, message);
                return;
            }
        };
        if let Err(message) = problem(m, i, v) {
            r.error(ErrorKind::OperandType, i, message);
            return;
        }
    }
}

/// The first broken rule of instruction `i`, in spirv-val's order.
fn problem(m: &Module, i: usize, version: u32) -> Result<(), String> {
    if m.def_opcode(m.result_type_word(i)) != Some(op::OpTypeVoid) {
        return Err("Return Type must be OpTypeVoid".into());
    }
    let Some(ExtSet::Known(set)) = m.insts[i].ext_set() else { return Ok(()) };
    let Some(ei) = set.instruction(m.word(i, 3)) else { return Ok(()) };
    let Some(&(name, required, wants)) = RULES.iter().find(|(n, _, _)| *n == ei.name) else { return Ok(()) };
    if version < required {
        return Err(format!("{name} requires version {required}, but parsed version is {version}"));
    }
    if name == "Kernel" {
        return kernel(m, i, version);
    }
    let n = m.operands(i).len();
    for (k, &want) in (4..n).zip(wants) {
        let id = m.word(i, k);
        match want {
            Uint(what) if !is_uint32_constant(m, id) => {
                return Err(format!("{what} must be a 32-bit unsigned integer OpConstant"))
            }
            Str(what) if m.def_opcode(id) != Some(op::OpString) => return Err(format!("{what} must be an OpString")),
            Kernel | ArgInfo => reference(m, i, id, want)?,
            _ => {}
        }
    }
    // PrintfInfo's ArgumentSizes.
    if name == "PrintfInfo" && (6..n).any(|k| !is_uint32_constant(m, m.word(i, k))) {
        return Err("ArgumentSizes must be a 32-bit unsigned integer OpConstant".into());
    }
    Ok(())
}

/// A Kernel or ArgInfo operand: an instruction of the same import.
fn reference(m: &Module, i: usize, id: u32, want: Want) -> Result<(), String> {
    let (what, expected) = match want {
        Kernel => ("Kernel", "Kernel"),
        _ => ("ArgInfo", "ArgumentInfo"),
    };
    let wrong_kind = match want {
        Kernel => "Kernel must be a Kernel extended instruction",
        _ => "ArgInfo must be an ArgumentInfo extended instruction",
    };
    let Some(d) = m.def_index(id) else { return Err(wrong_kind.into()) };
    if !matches!(m.opcode(d), op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
        return Err(wrong_kind.into());
    }
    if m.word(d, 2) != m.word(i, 2) {
        return Err(format!("{what} must be from the same extended instruction import"));
    }
    let Some(ExtSet::Known(set)) = m.insts[d].ext_set() else { return Err(wrong_kind.into()) };
    if set.instruction(m.word(d, 3)).map(|e| e.name) != Some(expected) {
        return Err(wrong_kind.into());
    }
    Ok(())
}

/// The Kernel instruction: a GLCompute entry point and one of its names.
fn kernel(m: &Module, i: usize, version: u32) -> Result<(), String> {
    let function = m.word(i, 4);
    if m.def_opcode(function) != Some(op::OpFunction) {
        return Err("Kernel does not reference a function".into());
    }
    let entries: Vec<usize> = (0..m.insts.len())
        .take_while(|&e| m.opcode(e) != op::OpFunction)
        .filter(|&e| m.opcode(e) == op::OpEntryPoint && m.word(e, 1) == function)
        .collect();
    if entries.is_empty() {
        return Err("Kernel does not reference an entry-point".into());
    }
    if entries.iter().any(|&e| m.word(e, 0) != GL_COMPUTE) {
        return Err("Kernel must refer only to GLCompute entry-points".into());
    }
    let name = m.word(i, 5);
    let Some(s) = m.def_index(name).filter(|&s| m.opcode(s) == op::OpString) else {
        return Err("Name must be an OpString".into());
    };
    let name = m.view(s).string(1);
    if !entries.iter().any(|&e| m.view(e).string(2) == name) {
        return Err("Name must match an entry-point for Kernel".into());
    }
    let n = m.operands(i).len();
    if version < 5 && n > 6 {
        return Err(format!("Version {version} of the Kernel instruction can only have 2 additional operands"));
    }
    if n > 6 && !is_uint32_constant(m, m.word(i, 6)) {
        return Err("NumArguments must be a 32-bit unsigned integer OpConstant".into());
    }
    if n > 7 && !is_uint32_constant(m, m.word(i, 7)) {
        return Err("Flags must be a 32-bit unsigned integer OpConstant".into());
    }
    if n > 8 && m.def_opcode(m.word(i, 8)) != Some(op::OpString) {
        return Err("Attributes must be an OpString".into());
    }
    Ok(())
}
