//! A module the reader rejects, in the words of spirv-val's binary parser
//! (SPIRV-Tools' `binary.cpp`): `gpuasm val` reports what spirv-val
//! reports; `gpuasm dis` keeps the reader's own wording. Some of spirv-val's
//! messages need more than the error carries (the instruction's start and
//! word count, what a type id names); they are read again from the words.

use crate::binary::{BinaryError, BinaryErrorKind as K};
use crate::grammar::{self, op, InstructionInfo, OperandKind};

/// spirv-val's message for `e`, met reading `words`, where its wording is
/// known.
pub(super) fn message(e: &BinaryError, words: &[u32]) -> Option<String> {
    let at = e.word_offset();
    match e.kind() {
        // spirv-val checks the magic number before it parses.
        K::BadMagic { .. } => Some("Invalid SPIR-V magic number.".into()),
        K::IncompleteHeader { words } => Some(format!("Module has incomplete header: only {words} words instead of 5")),
        K::ZeroWordCount { .. } => Some("Invalid instruction word count: 0".into()),
        K::UnknownOpcode { opcode } => Some(format!("Invalid opcode: {opcode}")),
        // Reported at the word after the instruction.
        K::MissingOperand { .. } => {
            let (start, info) = instruction_at(words, at.checked_sub(1)?)?;
            let count = words[start] >> 16;
            Some(format!(
                "End of input reached while decoding {} starting at word {start}: expected more operands after \
                 {count} words.",
                info.name
            ))
        }
        K::TruncatedNumber { needed, .. } => truncated_number(words, at, *needed),
        // The word count runs past the module's end: spirv-val reads
        // operands until the words run out.
        K::TruncatedInstruction { available, .. } => {
            let (start, info) = instruction_at(words, at)?;
            // Every operand read before the words ran out: spirv-val finds
            // the word count too large first.
            let end = fixed_operands_end(info);
            if end <= *available {
                let count = words[start] >> 16;
                return Some(format!(
                    "Invalid instruction {} starting at word {start}: expected no more operands after {end} words, \
                     but stated word count is {count}.",
                    info.name
                ));
            }
            let what = operand_words(operand_kind_at(words, start + available)?)?;
            Some(format!(
                "End of input reached while decoding {} starting at word {start}: missing {what} operand at word \
                 offset {available}.",
                info.name
            ))
        }
        K::UnterminatedString { .. } => unterminated_string(words, at),
        // SPIRV-Tools' binary parser has no case for the kind and prints
        // its number in its own operand-type list.
        K::UnreadableOperandKind { kind: "InitializationModeQualifier" } => {
            Some("Internal error: Unhandled operand type: 81".into())
        }
        K::ExtraWords { opname, expected, word_count } => Some(format!(
            "Invalid instruction {opname} starting at word {at}: expected no more operands after {expected} words, \
             but stated word count is {word_count}."
        )),
        K::UnknownEnumerant { kind, value } => {
            let what = format!("{}{}", debug_set_prefix(words, at, kind), kind_words(kind)?);
            let new_language = if *kind == "SourceLanguage" {
                ", if you are creating a new source language please use value 0 (Unknown) and when ready, add your \
                 source language to SPIRV-Headers"
            } else {
                ""
            };
            Some(format!("Invalid {what} operand: {value}{new_language}"))
        }
        K::UnknownMaskBits { kind, value, bits } if *bits != 0 => {
            let what = format!("{}{}", debug_set_prefix(words, at, kind), kind_words(kind)?);
            // The parser tries the bits from the highest down.
            let highest = 1u32 << (31 - bits.leading_zeros());
            Some(format!("Invalid {what} operand: {value} has invalid mask component {highest}"))
        }
        K::ZeroId { what } => Some(
            match *what {
                "result type id" => "Error: Type Id is 0",
                "result id" => "Error: Result Id is 0",
                _ => match operand_kind_at(words, at) {
                    Some(OperandKind::IdScope) => "scope ID is 0",
                    Some(OperandKind::IdMemorySemantics) => "memory semantics ID is 0",
                    _ => "Id is 0",
                },
            }
            .into(),
        ),
        // spirv-val reads ids past the bound; it rejects a result id there
        // (an operand there is never defined, and gets that error).
        K::IdOutOfBound { id, bound } if is_result_id(words, at) => {
            Some(format!("Result <id> '{id}' must be less than the ID bound '{bound}'."))
        }
        K::DuplicateResultId { id } => Some(format!("Id {id} is defined more than once")),
        K::NotANumericType { type_id } => Some(not_numeric(words, at, *type_id)),
        K::BadSwitchSelector { id, reason } => {
            // spirv-val asks what the selector's type is before whether it
            // is an integer.
            if *reason == "is not a scalar integer" {
                let ty = definition(words, *id, at).map_or(0, |(start, info)| result_type(words, start, info));
                if !matches!(definition(words, ty, at), Some((_, info)) if info.opcode == op::OpTypeFloat) {
                    return Some(not_numeric(words, at, ty));
                }
            }
            Some(format!("Invalid OpSwitch: selector id {id} {reason}"))
        }
        K::NotAnImport { id } => Some(format!("OpExtInst set Id {id} does not reference an OpExtInstImport result Id")),
        K::UnknownImport { name } => Some(format!("Invalid extended instruction import '{name}'")),
        K::UnknownExtInst { number, .. } => Some(format!("Invalid extended instruction number: {number}")),
        K::UnknownSpecConstantOp { opcode } => Some(format!("Invalid OpSpecConstantOp opcode: {opcode}")),
        _ => None,
    }
}

/// A literal number running past its instruction's end (`at`: where it
/// starts, `needed`: its words).
fn truncated_number(words: &[u32], at: usize, needed: usize) -> Option<String> {
    let (start, info) = instruction_at(words, at)?;
    let count = words[start] >> 16;
    let name = info.name;
    let switch = info.opcode == op::OpSwitch;
    if at + needed > words.len() {
        let what = if switch { "possibly multi-word literal integer" } else { "possibly multi-word literal number" };
        let offset = at - start;
        return Some(format!(
            "End of input reached while decoding {name} starting at word {start}: truncated {what} operand at word \
             offset {offset}."
        ));
    }
    // A switch's literal is followed by its label, which is then missing.
    Some(if switch {
        format!("End of input reached while decoding {name} starting at word {start}: expected more operands after {count} words.")
    } else {
        let found = at + needed - start;
        format!("Invalid word count: {name} starting at word {start} says it has {count} words, but found {found} words instead.")
    })
}

/// A literal string without its NUL in its instruction (`at`: where it
/// starts): spirv-val reads on into the next instructions for the NUL.
fn unterminated_string(words: &[u32], at: usize) -> Option<String> {
    let (start, info) = instruction_at(words, at)?;
    let name = info.name;
    let offset = at - start;
    let Some(end) = (at..words.len()).find(|&k| words[k].to_le_bytes().contains(&0)) else {
        return Some(format!(
            "End of input reached while decoding {name} starting at word {start}: truncated literal string operand \
             at word offset {offset}."
        ));
    };
    let count = words[start] >> 16;
    // A required operand after the string is then missing.
    let k = offset.checked_sub(1)?;
    if info.operands.get(k + 1..).unwrap_or_default().iter().any(|o| o.quantifier == grammar::Quantifier::One) {
        return Some(format!(
            "End of input reached while decoding {name} starting at word {start}: expected more operands after \
             {count} words."
        ));
    }
    let found = end + 1 - start;
    Some(format!("Invalid word count: {name} starting at word {start} says it has {count} words, but found {found} words instead."))
}

/// spvOperandTypeStr's words for an operand kind.
fn operand_words(kind: OperandKind) -> Option<&'static str> {
    Some(match kind {
        OperandKind::IdRef => "ID",
        OperandKind::IdResultType => "type ID",
        OperandKind::IdResult => "result ID",
        OperandKind::IdScope => "scope ID",
        OperandKind::IdMemorySemantics => "memory semantics ID",
        OperandKind::LiteralInteger | OperandKind::LiteralFloat => "literal number",
        OperandKind::LiteralString => "literal string",
        OperandKind::LiteralExtInstInteger => "extension instruction number",
        OperandKind::LiteralSpecConstantOpInteger => "OpSpecConstantOp opcode",
        OperandKind::LiteralContextDependentNumber => "possibly multi-word literal number",
        other => kind_words(other.name())?,
    })
}

/// A literal's type `type_id` is not a scalar number: spirv-val tells a
/// type from anything else.
fn not_numeric(words: &[u32], at: usize, type_id: u32) -> String {
    match definition(words, type_id, at) {
        Some((_, info)) if info.declares_type => format!("Type Id {type_id} is not a scalar numeric type"),
        _ => format!("Type Id {type_id} is not a type"),
    }
}

/// spvOperandTypeStr's words for the operand kinds the parser reads as
/// enumerants or masks (`None` for others: the reader's words stay).
fn kind_words(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "SourceLanguage" => "source language",
        "ExecutionModel" => "execution model",
        "AddressingModel" => "addressing model",
        "MemoryModel" => "memory model",
        "ExecutionMode" => "execution mode",
        "StorageClass" => "storage class",
        "Dim" => "dimensionality",
        "SamplerAddressingMode" => "sampler addressing mode",
        "SamplerFilterMode" => "sampler filter mode",
        "ImageFormat" => "image format",
        "FPFastMathMode" => "floating-point fast math mode",
        "FPRoundingMode" => "floating-point rounding mode",
        "LinkageType" => "linkage type",
        "AccessQualifier" => "access qualifier",
        "FunctionParameterAttribute" => "function parameter attribute",
        "Decoration" => "decoration",
        "BuiltIn" => "built-in",
        "SelectionControl" => "selection control",
        "LoopControl" => "loop control",
        "FunctionControl" => "function control",
        "MemoryAccess" => "memory access",
        "FragmentShadingRate" => "shading rate",
        "GroupOperation" => "group operation",
        "KernelEnqueueFlags" => "kernel enqeue flags",
        "KernelProfilingInfo" => "kernel profiling info",
        "Capability" => "capability",
        "RayFlags" => "ray flags",
        "RayQueryIntersection" => "ray query intersection",
        "RayQueryCommittedIntersectionType" => "ray query committed intersection type",
        "RayQueryCandidateIntersectionType" => "ray query candidate intersection type",
        "PackedVectorFormat" => "packed vector format",
        "CooperativeMatrixOperands" => "cooperative matrix operands",
        "CooperativeMatrixLayout" => "cooperative matrix layout",
        "CooperativeMatrixUse" => "cooperative matrix use",
        "TensorClampMode" => "tensor clamp mode",
        "CooperativeMatrixReduce" => "cooperative matrix reduce",
        "TensorAddressingOperands" => "tensor addressing operands",
        "MatrixMultiplyAccumulateOperands" => "matrix multiply accumulate operands",
        "TensorOperands" => "tensor operands",
        "InitializationModeQualifier" => "initialization mode qualifier",
        "HostAccessQualifier" => "host access qualifier",
        "LoadCacheControl" => "load cache control",
        "StoreCacheControl" => "store cache control",
        "NamedMaximumNumberOfRegisters" => "named maximum number of registers",
        "RawAccessChainOperands" => "raw access chain operands",
        "ImageOperands" => "image",
        "FPEncoding" => "FP encoding",
        "ImageChannelOrder" => "image channel order",
        "ImageChannelDataType" => "image channel data type",
        "FPDenormMode" => "FP denorm mode",
        "FPOperationMode" => "FP operation mode",
        "QuantizationModes" => "quantization mode",
        "OverflowModes" => "overflow mode",
        "CooperativeVectorMatrixLayout" => "cooperative vector matrix layout",
        "ComponentType" => "component type",
        // The debug-information sets' kinds (see `debug_set_prefix`).
        "DebugInfoFlags" => "debug info flags",
        "DebugBaseTypeAttributeEncoding" => "debug base type encoding",
        "DebugCompositeType" => "debug composite type",
        "DebugTypeQualifier" => "debug type qualifier",
        "DebugOperation" => "debug operation",
        "DebugImportedEntity" => "debug imported entity",
        _ => return None,
    })
}

/// spirv-val names the OpenCL.DebugInfo.100 set's kinds with the set's name
/// first ("OpenCL.DebugInfo.100 debug operation"), the older DebugInfo
/// set's without.
fn debug_set_prefix(words: &[u32], at: usize, kind: &str) -> &'static str {
    if !kind.starts_with("Debug") {
        return "";
    }
    let Some((start, info)) = instruction_at(words, at) else { return "" };
    // Both read their set as spirv-val's parser does.
    if !matches!(info.opcode, op::OpExtInst | op::OpExtInstWithForwardRefsKHR) {
        return "";
    }
    let import = words.get(start + 3).and_then(|&set| definition(words, set, start));
    match import {
        Some((i, import)) if import.opcode == op::OpExtInstImport => {
            let end = (i + (words[i] >> 16) as usize).min(words.len());
            let name = crate::binary::literal_string_bytes(&words[(i + 2).min(end)..end]);
            if name == b"OpenCL.DebugInfo.100" {
                "OpenCL.DebugInfo.100 "
            } else {
                ""
            }
        }
        _ => "",
    }
}

/// The instruction word `at` belongs to: its start and grammar entry.
fn instruction_at(words: &[u32], at: usize) -> Option<(usize, &'static InstructionInfo)> {
    let mut start = 5;
    while let Some(&first) = words.get(start) {
        let end = start + ((first >> 16) as usize).max(1);
        if at < end {
            return Some((start, grammar::instruction(first as u16)?));
        }
        start = end;
    }
    None
}

/// The grammar's kind for word `at`, when it is one of the instruction's
/// leading single-word operands.
fn operand_kind_at(words: &[u32], at: usize) -> Option<OperandKind> {
    let (start, info) = instruction_at(words, at)?;
    // Single-word operands up to `at` (ids, enumerants, literal integers),
    // with the parameters an enumerant brings (UniformId's scope), or each
    // bit of a mask, lowest first (MakePointerAvailable's scope): a string
    // or a wider literal before it makes the position unknown.
    let single = |s: &grammar::OperandSpec| {
        single_word(s) || (s.quantifier == grammar::Quantifier::One && kind_words(s.kind.name()).is_some())
    };
    let mut pos = start + 1;
    for spec in info.operands {
        if pos == at {
            return Some(spec.kind);
        }
        if !single(spec) {
            return None;
        }
        let value = *words.get(pos)?;
        let parameters: Vec<&grammar::OperandSpec> = if spec.kind.info().category == grammar::Category::BitEnum {
            (0..32)
                .filter(|bit| value & (1 << bit) != 0)
                .filter_map(|bit| spec.kind.enumerant(1 << bit))
                .flat_map(|e| e.parameters)
                .collect()
        } else {
            spec.kind.enumerant(value).map_or(Vec::new(), |e| e.parameters.iter().collect())
        };
        pos += 1;
        for parameter in parameters {
            if pos == at {
                return Some(parameter.kind);
            }
            if !single(parameter) {
                return None;
            }
            pos += 1;
        }
    }
    None
}

/// The word count an instruction has with every operand present, when its
/// operands are all single words of fixed number; else `usize::MAX`.
fn fixed_operands_end(info: &InstructionInfo) -> usize {
    if info.operands.iter().all(single_word) {
        1 + info.operands.len()
    } else {
        usize::MAX
    }
}

/// An operand of one word, always present: an id or a literal integer.
fn single_word(s: &grammar::OperandSpec) -> bool {
    s.quantifier == grammar::Quantifier::One
        && (s.kind.name().starts_with("Id") || s.kind == OperandKind::LiteralInteger)
}

/// Whether word `at` is the result id of its instruction.
fn is_result_id(words: &[u32], at: usize) -> bool {
    instruction_at(words, at).is_some_and(|(start, info)| {
        let position = info.operands.iter().position(|o| o.kind == OperandKind::IdResult);
        position.is_some_and(|k| at == start + 1 + k)
    })
}

/// The instruction before word `before` whose result id is `id`.
fn definition(words: &[u32], id: u32, before: usize) -> Option<(usize, &'static InstructionInfo)> {
    if id == 0 {
        return None;
    }
    let mut start = 5;
    while let Some(&first) = words.get(start) {
        if start >= before {
            return None;
        }
        let end = start + ((first >> 16) as usize).max(1);
        if let Some(info) = grammar::instruction(first as u16) {
            let position = info.operands.iter().position(|o| o.kind == OperandKind::IdResult);
            if position.is_some_and(|k| words.get(start + 1 + k) == Some(&id) && start + 1 + k < end) {
                return Some((start, info));
            }
        }
        start = end;
    }
    None
}

/// The result type of the instruction at `start`, or 0.
fn result_type(words: &[u32], start: usize, info: &InstructionInfo) -> u32 {
    match info.operands.first() {
        Some(spec) if spec.kind == OperandKind::IdResultType => words.get(start + 1).copied().unwrap_or(0),
        _ => 0,
    }
}
